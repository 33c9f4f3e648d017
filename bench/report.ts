// The RFD view and the review report (issue 14): how long the engine takes to compute RFD 108's tables
// (28 rows, each a small scenario run through the core), the auto model's play of a demo turn, and
// `reportHtml` over the conformance scenarios and the demo; with the report's size. Medians of a few runs.
//
//   npx tsx bench/report.ts     (or through `npm run bench`)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { approximateTokenCounter } from '../src/core/providers/cost';
import { reportHtml } from '../src/core/report/html';
import { rfdTables } from '../src/core/rfd/tables';
import { playAutoTurn } from '../src/core/model/play';
import { scenarioDocFromText, writeScenario } from '../src/core/scenario/doc';
import type { ScenarioDoc } from '../src/core/scenario/doc';
import { parseScenario } from '../src/core/scenario/parse';
import { checkScenario } from '../src/core/scenario/report';
import { runScenario } from '../src/core/turn/run';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function time<T>(f: () => T): { ms: number; value: T } {
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    value = f();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), value: value as T };
}

export function run(): void {
  const tables = time(() => rfdTables(approximateTokenCounter));
  const rows = tables.value.reduce((n, t) => n + t.rows.length, 0);
  console.log(`  rfdTables: ${rows} rows in ${tables.ms.toFixed(0)} ms (median of ${RUNS})`);

  const demoText = readFileSync(join(root, 'src', 'app', 'demo-scenario.toml'), 'utf8');
  const demo = scenarioDocFromText(demoText);
  if (!demo.ok) throw new Error('the demo does not parse');
  const runDoc = (doc: ScenarioDoc) => {
    const p = parseScenario(writeScenario(doc));
    return p.ok ? runScenario({ scenario: p.scenario }) : undefined;
  };
  const withTurn: ScenarioDoc = { ...demo.doc, steps: [...demo.doc.steps, { command: "jp q 'Open a Linear issue for the failing orders test'", cycles: [] }] };
  const played = time(() => playAutoTurn(withTurn, runDoc));
  console.log(`  auto model, the Linear turn after the demo's two: ${played.value.moves.length} moves in ${played.ms.toFixed(0)} ms`);

  const dir = resolve(root, '..', 'shared', 'conformance');
  const files = readdirSync(dir).filter((f) => f.endsWith('.toml')).map((f) => join(dir, f));
  const reports = [...files.map((f) => checkScenario(f, readFileSync(f, 'utf8'))), checkScenario('demo-scenario.toml', demoText)];
  const html = time(() => reportHtml({ scenarios: reports, rfd: tables.value, tokens: approximateTokenCounter }));
  console.log(`  reportHtml: ${reports.length} scenarios, ${(html.value.length / 1000).toFixed(0)} KB of HTML in ${html.ms.toFixed(0)} ms`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) run();
