// Request facts at scale (issue 32): the worker's answers that read requests, timed in CPU milliseconds
// (process.cpuUsage: steadier than wall time on a shared machine) after each keystroke of the
// ui-live scenario, through DeriveHost as the page calls it: the derive itself, the sets window, the
// timeline window (48 rows: request facts, cost, cache status) and the cache statuses (the whole
// conversation through the prompt-cache model). Runs alone, not in `npm run bench` (minutes at 100,000):
//   npx tsx bench/request-facts.ts 10000 small|catalogue [rounds]
//   node --max-old-space-size=8000 --import tsx bench/request-facts.ts 100000 small 6
import { DEFAULT_PRICE_TABLE, scenarioDocFromText } from '../src/core';
import type { ScenarioDoc } from '../src/core';
import { DeriveHost } from '../src/derive/host';
import { liveScenario } from './ui-live';

const n = Number(process.argv[2] ?? 10000);
const which = process.argv[3] === 'catalogue' ? 'catalogue' : 'small';
const rounds = Number(process.argv[4] ?? 10);
const parsed = scenarioDocFromText(liveScenario(n).text);
if (!parsed.ok) throw new Error('the ui-live scenario does not parse');
const doc: ScenarioDoc = parsed.doc;
const host = new DeriveHost();
const call = (m: string, p: unknown): unknown => (host.call as (m: string, p: unknown) => unknown)(m, p);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

let t = cpu();
const opened = call('derive', { revision: 1, doc, entry: null }) as { entryCount: number };
console.log(`open ${(cpu() - t).toFixed(0)} ms CPU; ${opened.entryCount} timeline rows`);
const li = doc.layers.findIndex((l) => l.name === (which === 'small' ? 'overrides' : 'workspace'));
const layer = doc.layers[li];
if (!layer) throw new Error('no such layer');
const off = which === 'small' ? layer.text.indexOf('"off"') + 4 : layer.text.indexOf('enable = "on"') + 12;
const figures: Record<'derive' | 'setsWindow' | 'timelineWindow' | 'cacheStatuses', number[]> = { derive: [], setsWindow: [], timelineWindow: [], cacheStatuses: [] };
let rev = 1;
for (let i = 0; i < rounds; i++) {
  const change = i % 2 === 0 ? { rangeOffset: off - 1, rangeLength: 1, text: '' } : { rangeOffset: off - 1, rangeLength: 0, text: which === 'small' ? 'f' : 'n' };
  t = cpu();
  const v = call('derive', { revision: rev + 1, edits: { base: rev, edits: [{ kind: 'layer', layer: li, changes: [change] }] }, entry: null }) as { entryCount: number };
  figures.derive.push(cpu() - t);
  t = cpu();
  call('setsWindow', { revision: rev + 1, position: 0, offset: 0, limit: 64 });
  figures.setsWindow.push(cpu() - t);
  t = cpu();
  call('timelineWindow', { revision: rev + 1, offset: Math.max(0, v.entryCount - 48), limit: 48, brief: true });
  figures.timelineWindow.push(cpu() - t);
  t = cpu();
  await call('cacheStatuses', { revision: rev + 1, table: DEFAULT_PRICE_TABLE, from: 0, to: 48 });
  figures.cacheStatuses.push(cpu() - t);
  rev++;
}
const q = (a: readonly number[], p: number): string => ([...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))] ?? NaN).toFixed(0);
for (const [k, a] of Object.entries(figures)) console.log(`${n} tools, ${which}-layer keystroke: ${k} p50 ${q(a, 0.5)} ms, max ${q(a, 1)} ms CPU over ${a.length}`);
