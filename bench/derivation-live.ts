// Derivation.run alone on the scenario the page benches open (bench/ui-live.ts: a generated catalogue
// layer and a 2-line `overrides` layer, 50 turns each searching): a keystroke in the small layer
// (`enable = "off"` <-> `"of"`) or inside the catalogue layer (a character of a tool's description),
// p50 / p95 ms CPU of this process. PROFILE=DIR writes a CPU profile of the keystrokes alone.
//
//   npx tsx bench/derivation-live.ts N [small|catalogue] [count]
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { parseScenario } from '../src/core/scenario/parse';
import type { Scenario } from '../src/core/scenario/types';
import { Derivation } from '../src/core/turn/derivation';
import { liveScenario } from './ui-live';
const n = Number(process.argv[2] ?? 10000);
const which = process.argv[3] ?? 'small';
const count = Number(process.argv[4] ?? 20);
const parsed = parseScenario(liveScenario(n).text);
if (!parsed.ok) throw new Error('bad');
const sc = parsed.scenario;
const li = sc.layers.findIndex((l) => l.name === 'overrides');
const cat = sc.layers[0]!.text;
const names = [...cat.matchAll(/^\[conversation\.tools\.([A-Za-z0-9_-]+)\]$/gm)].map((m) => m[1] ?? '');
const middle = names[(names.length >> 1) + 1] ?? '';
const header = `[conversation.tools.${middle}]\n`;
const at = cat.indexOf(header) + header.length;
const withLayer = (i: number, text: string): Scenario => ({ ...sc, layers: sc.layers.map((l, k) => (k === i ? { name: l.name, text } : l)) });
const input = (i: number): Scenario => {
  if (which === 'small') { const t = sc.layers[li]!.text; return withLayer(li, i % 2 === 0 ? t : t.replace('"off"', '"of"')); }
  // The tool's own description replaced (bench/derivation.ts's catalogue series): a duplicate key would parse the layer whole.
  return withLayer(0, `${cat.slice(0, at)}description = "Typed ${'abcdefghijklmnopqrstuvwxyz'.slice(0, (i % 26) + 1)}"\n${cat.slice(at).replace(/^description = .*\n/m, '')}`);
};
const d = new Derivation();
const t = performance.now();
d.run({ scenario: input(0) });
console.log('first', (performance.now() - t).toFixed(0), 'ms wall');
d.run({ scenario: input(1) });
const times: number[] = [];
const session = new Session();
const out = process.env.PROFILE;
if (out) { session.connect(); session.post('Profiler.enable'); session.post('Profiler.start'); }
for (let i = 2; i < count + 2; i++) {
  const u = process.cpuUsage();
  d.run({ scenario: input(i) });
  const v = process.cpuUsage(u);
  times.push((v.user + v.system) / 1000);
}
if (out) session.post('Profiler.stop', (_err, r) => { mkdirSync(out, { recursive: true }); writeFileSync(`${out}/k.cpuprofile`, JSON.stringify(r.profile)); });
times.sort((a, b) => a - b);
console.log(`${n} ${which}: p50 ${times[times.length >> 1]!.toFixed(0)} p95 ${times[Math.min(times.length - 1, Math.floor(0.95 * times.length))]!.toFixed(0)} ms CPU`, JSON.stringify(d.last));
