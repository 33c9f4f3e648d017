// The cost curve (issue 16): how each cost grows from 1,000 to 10,000 to 100,000 tools, on the
// generated 50-turn scenarios of check-scale.ts (both shapes), in this process:
// - parse: the scenario file and its layers' TOML (parseScenario, then loading every layer);
// - derive: the run of the scenario and its check with the search index already built (the stream,
//   50 turns of requests, searches, promotions and the expectations);
// - index build: bm25 over the catalogue's search documents;
// - one search: a search_tools call (the contract, limit 10) over the catalogue, p50 of the turns' queries;
// - one keystroke: what the page's derive worker does for one character typed into the scenario's
//   layer (DeriveHost.derive of the edited document after a derivation of the previous one).
//   `npm run bench:ui` times the keystroke end to end in the page.
// Each figure is the best of a few runs, in CPU milliseconds (steady on a shared machine; wall time is
// printed beside it). Growth per tenfold step: the exponent log10(t(10n) / t(n)); 1 is linear.
//
//   npx tsx bench/scale-curve.ts [--sizes 1000,10000,100000] [--shape local|mcp]
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { checkExpectations, loadLayer, parseScenario, runScenario, scenarioDocFromText } from '../src/core';
import type { Scenario, ScenarioDoc } from '../src/core';
import { IndexCache } from '../src/core/turn/caches';
import { bm25 } from '../src/core/search/bm25';
import { searchTools } from '../src/core/search/contract';
import type { RankerIndex } from '../src/core/search/types';
import { DeriveHost } from '../src/derive/host';
import { generateScenario } from './check-scale';
import type { Shape } from './check-scale';
import { generateTools } from './search-fixtures';
import { searchContext } from './search';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Sample {
  readonly cpu: number;
  readonly wall: number;
}

/** The best of `runs` runs of f (by CPU time), and f's last result. */
function best<T>(runs: number, f: () => T): { sample: Sample; value: T } {
  let sample: Sample = { cpu: Infinity, wall: Infinity };
  let value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    value = f();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    if (cpu < sample.cpu) sample = { cpu, wall };
  }
  return { sample, value: value as T };
}

export const PHASES = ['parse', 'derive', 'index build', 'one search', 'one keystroke'] as const;
export type Phase = (typeof PHASES)[number];

function parsed(text: string): Scenario {
  const p = parseScenario(text);
  if (!p.ok) throw new Error(`generated scenario does not parse: ${p.errors[0]?.message ?? ''}`);
  return p.scenario;
}

/** The layer with the most text (where the user types): one character appended to a comment line. */
function typed(doc: ScenarioDoc, n: number): ScenarioDoc {
  let at = 0;
  doc.layers.forEach((l, i) => {
    if (l.text.length > (doc.layers[at]?.text.length ?? 0)) at = i;
  });
  return { ...doc, layers: doc.layers.map((l, i) => (i === at ? { ...l, text: `# typed ${'x'.repeat(n)}\n${l.text}` } : l)) };
}

export function measureSize(tools: number, shape: Shape): Map<Phase, Sample> {
  const text = generateScenario(tools, 50, shape);
  const runs = tools >= 100_000 ? 2 : tools >= 10_000 ? 3 : 5;
  const out = new Map<Phase, Sample>();
  const scenario = parsed(text);
  out.set('parse', best(runs, () => parsed(text).layers.map(loadLayer)).sample);
  // The index is built once and cached; each run of the scenario then reads it.
  const indexCache = new IndexCache();
  const warm = runScenario({ scenario, indexCache });
  checkExpectations(scenario, warm);
  out.set('derive', best(runs, () => checkExpectations(scenario, runScenario({ scenario, indexCache }))).sample);
  const docs = generateTools(tools);
  const { sample: build, value: index } = best<RankerIndex>(runs, () => bm25.build(docs));
  out.set('index build', build);
  const ctx = searchContext(docs);
  const queries = scenario.steps.flatMap((s) => s.cycles.flatMap((c) => c.calls.filter((call) => call.tool === 'search_tools').map((call) => call.args)));
  for (const q of queries) searchTools(index, q, ctx);
  const each = queries.map((q) => best(3, () => searchTools(index, q, ctx)).sample).sort((a, b) => a.cpu - b.cpu);
  out.set('one search', each[each.length >> 1] ?? { cpu: NaN, wall: NaN });
  const docParse = scenarioDocFromText(text);
  if (!docParse.ok) throw new Error('generated scenario is not a document');
  const host = new DeriveHost();
  let revision = 1;
  host.derive({ doc: docParse.doc, revision: revision++, entry: null });
  host.derive({ doc: typed(docParse.doc, 1), revision: revision++, entry: null });
  let n = 2;
  out.set('one keystroke', best(runs, () => host.derive({ doc: typed(docParse.doc, n++), revision: revision++, entry: null })).sample);
  return out;
}

function growth(a: number, b: number): string {
  const e = Math.log10(b / a);
  return `${e.toFixed(2)}`;
}

export function run(): void {
  const sizes = (flag('--sizes') ?? '1000,10000,100000').split(',').map(Number);
  const only = flag('--shape');
  for (const shape of (['local', 'mcp'] as const).filter((s) => only === undefined || s === only)) {
    console.log(`cost curve, ${shape === 'local' ? 'local tools in one layer' : 'MCP tools from ten simulated servers'}, 50 turns: CPU ms (wall ms), best of 2-5 runs`);
    const figures = sizes.map((n) => measureSize(n, shape));
    const fmt = (s: Sample | undefined): string => (s ? `${s.cpu.toFixed(s.cpu < 10 ? 2 : 0)} (${s.wall.toFixed(s.wall < 10 ? 2 : 0)})` : '-');
    console.log(`  ${'phase'.padEnd(14)}${sizes.map((n) => `${n.toLocaleString('en-US')} tools`.padStart(20)).join('')}   growth per tenfold (1 = linear)`);
    for (const phase of PHASES) {
      const row = figures.map((f) => f.get(phase));
      const exps = row.slice(1).map((s, i) => growth(row[i]?.cpu ?? NaN, s?.cpu ?? NaN));
      const worst = Math.max(...exps.map(Number));
      // One tenfold step at 1.15 or under reads as linear: a fixed cost plus a larger heap's collections.
      const verdict = worst <= 1.15 ? 'linear or better' : 'WORSE than linear';
      console.log(`  ${phase.padEnd(14)}${row.map((s) => fmt(s).padStart(20)).join('')}   ${exps.join(', ')}: ${verdict}`);
    }
    const heap = process.memoryUsage();
    console.log(`  (this process: heap ${(heap.heapUsed / 1e6).toFixed(0)} MB, resident ${(heap.rss / 1e6).toFixed(0)} MB)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
