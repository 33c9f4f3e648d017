// What discovery saves on real catalogues (issue 6): for GitHub's MCP server (117 tools) and
// LiveMCPBench (527 tools of 70 servers), the total definition bytes and tokens (o200k_base) of
// offering every tool against a discoverable setup (the 8 most useful kept on), and the time to
// import (read, validate, generate the layer, run the scenario) and to index (bm25 over the
// catalogue's search documents). Median of 5 runs after a warm-up.
//
//   npx tsx bench/catalogues.ts            (or through `npm run bench`)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { applyImport, buildImport, discoverySavings, readCatalogue, serverNameFromFileName } from '../src/core/import/index';
import type { Savings } from '../src/core/import/index';
import { EMPTY_DOC } from '../src/core/scenario/doc';
import type { ScenarioDoc } from '../src/core/scenario/doc';
import { parseScenario } from '../src/core/scenario/parse';
import { writeScenario } from '../src/core/scenario/doc';
import { runScenario } from '../src/core/turn/run';
import { searchDocument } from '../src/core/catalogue/search-document';
import { bm25 } from '../src/core/search/bm25';
import type { TokenCounter } from '../src/core/providers/cost';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const catalogues = join(root, '..', 'shared', 'data', 'catalogues');
export const FILES = ['github-mcp-server.tools-list.json', 'livemcpbench-tools.json'] as const;
const RUNS = 5;

/** The same counter as src/core/providers/tokens.ts, loaded statically (a bench may block). */
const o200k: TokenCounter = { id: 'o200k_base', count: (t) => (t === '' ? 0 : countTokens(t, { disallowedSpecial: new Set() })) };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const n = (x: number): string => x.toLocaleString('en-US');

export interface CatalogueFigures {
  readonly file: string;
  readonly servers: number;
  readonly tools: number;
  readonly bytes: number;
  readonly savings: Savings;
  readonly importMs: number;
  readonly indexMs: number;
}

function importOnce(file: string, text: string) {
  const read = readCatalogue(text, file);
  if (!read.ok) throw new Error(read.errors.join('\n'));
  const base: ScenarioDoc = { ...EMPTY_DOC, layers: [] };
  const result = buildImport(read.catalogue, {
    policy: { kind: 'discoverable', keep: 8, offDestructive: true },
    origin: file,
    into: base,
    ...(read.catalogue.form === 'multi-server' ? {} : { serverNames: [serverNameFromFileName(file)] }),
  });
  const parsed = parseScenario(writeScenario(applyImport(base, result)));
  if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
  return { read: read.catalogue, timeline: runScenario({ scenario: parsed.scenario }) };
}

export function measure(file: string): CatalogueFigures {
  const text = readFileSync(join(catalogues, file), 'utf8');
  importOnce(file, text);
  const importTimes: number[] = [];
  let last = importOnce(file, text);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = importOnce(file, text);
    importTimes.push(performance.now() - t0);
  }
  const states = [...last.timeline.statesAt(0).values()];
  const docs = states.flatMap((s, i) => (s.resolution.ok ? [searchDocument(s.resolution.definition, i)] : []));
  bm25.build(docs);
  const indexTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    bm25.build(docs);
    indexTimes.push(performance.now() - t0);
  }
  return {
    file,
    servers: last.read.servers.length,
    tools: last.read.servers.reduce((a, s) => a + s.tools.length, 0),
    bytes: last.read.bytes,
    savings: discoverySavings(states, last.timeline.setsAt(0), o200k),
    importMs: median(importTimes),
    indexMs: median(indexTimes),
  };
}

export function run(): CatalogueFigures[] {
  const out: CatalogueFigures[] = [];
  for (const file of FILES) {
    const f = measure(file);
    out.push(f);
    const s = f.savings;
    console.log(`  ${f.file}: ${n(f.tools)} tools of ${n(f.servers)} server${f.servers === 1 ? '' : 's'} (${n(f.bytes)} bytes of JSON)`);
    console.log(`    all on (JP today):   ${n(s.all.tools)} tools, ${n(s.all.bytes)} definition bytes, ${n(s.all.tokens ?? 0)} tokens (o200k_base)`);
    console.log(`    discoverable setup:  ${n(s.discoverable.tools)} tools, ${n(s.discoverable.bytes)} bytes, ${n(s.discoverable.tokens ?? 0)} tokens (8 kept on + describe_tools + search_tools)`);
    console.log(`    saved per request:   ${n(s.saved.bytes)} bytes (${s.saved.percent}%), ${n(s.saved.tokens ?? 0)} tokens`);
    console.log(`    ${s.rfd.sentence}`);
    console.log(`    import (read, validate, generate, run): ${f.importMs.toFixed(1)} ms; index (bm25 build): ${f.indexMs.toFixed(1)} ms (median of ${RUNS})`);
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
