// The incremental derivation (issue 23.3) on check-scale's generated scenario: N tools in one large
// catalogue layer, a small editable layer on top, 50 turns each searching and calling a tool. Timed in
// CPU time of this process (steadier than wall time on a shared machine), each edit the median of a
// few rounds:
//
//   - the first run (every layer parsed, every definition built, the search index built);
//   - the same input again (nothing re-done);
//   - an edit of the last step (steps 1..49 kept; one step played);
//   - an availability edit in the small layer, sets at step 1 first (`throughStep: 1`), then the rest;
//   - the same edit, the whole timeline in one run (the small layer parsed; definitions and the search
//     index kept; every step played again);
//   - a from-scratch runScenario of the same input, for comparison;
//   - keystrokes (issue 32.3), each the whole timeline after one typed character, p50 / p95 over a
//     series: in a small `overrides` layer (an availability value cycled, a character of a tool's
//     summary, a character of a comment) and inside the catalogue layer (a character of a tool's
//     description, a character of a comment above a table: the tools below only move).
//
//   npx tsx bench/derivation.ts [--tools N] [--keystrokes-only] [--series small|catalogue]      (or through `npm run bench`)
//
// Keystrokes at 10,000 tools, p50 / p95 ms CPU on a shared 2-core machine, before (main 6b826ec: any
// layer edit restarts the run) and after (issue 32.3: a layer edit patches the tools it changes and
// replays from the first step it can reach), `npx tsx bench/derivation.ts --tools 10000 --keystrokes-only`:
//
//   small layer: availability cycled            121 / 169  ->   45 / 150   (replayed from step 21: a search there matches the tool)
//   small layer: a character of a summary       316 / 632  ->  218 / 415   (a definition changed: index rebuilt, replayed from step 1)
//   small layer: a character of a comment       107 / 124  ->   26 / 186   (nothing replayed; p95 is garbage collection)
//   catalogue layer: a character of a description 685 / 1044 -> 751 / 1106 (whole parse of the layer, every tool compared, replayed from step 1)
//   catalogue layer: a character of a comment   487 / 821  ->  400 / 723   (whole parse, every tool compared, nothing replayed)
//
// At 100,000 tools (`--tools 100000 --keystrokes-only --series small`, 6 keystrokes):
//
//   small layer: availability cycled           1377 / 1458 ->  890 / 1075   (nothing replayed: O(tools) copies and load diagnostics remain)
//   small layer: a character of a summary      4893 / 5306 -> 4428 / 4793   (index rebuilt, replayed from step 1)
//   small layer: a character of a comment            -     ->  652 / 757
//
// The catalogue layer's figures are the whole parse (config/incremental.ts on the incparse branch
// re-reads only the touched tables) and the tool-by-tool comparison of every re-read tool.
//
// Issue 32, Derivation.run alone (engine2: the replayed searches read the index's kept unfiltered hits;
// only the re-read tools merged and compared; load diagnostics kept tool by tool; forks copy the
// searchable marks), same command at 10,000 tools, main c682b6d -> engine2, on a loaded machine (load
// average ~8-12 on 2 cores; p95s are garbage collection and the load):
//
//   small layer: availability cycled             46 / 133  ->   29 / 229
//   small layer: a character of a summary       260 / 460  ->  233 / 439   (the index is rebuilt: its cost)
//   small layer: a character of a comment        18 / 72   ->   14 / 29
//   catalogue layer: a character of a description 350 / 723 -> 321 / 753 (index rebuilt and every step replayed)
//   catalogue layer: a character of a comment   113 / 345  ->   94 / 363
//
// The page's own keystroke, `npx tsx bench/derivation-live.ts N small|catalogue` (bench/ui-live.ts's
// scenario; `enable = "off"` <-> `"of"` in the 2-line overrides layer; the tool matches a search, so
// its total changes and the conversation is replayed from that step), p50 / p95 ms CPU:
//
//   10,000 tools, small layer                    61 / 205  ->   31 / 140
//   10,000 tools, catalogue layer               375 / 524  ->  366 / 575   (index rebuild: ~40 %)
//   100,000 tools, small layer                  931 / 1111 ->  381 / 405
//
// And `--tools 100000 --keystrokes-only --series small` (6 keystrokes), the figures above -> engine2:
//
//   small layer: availability cycled            890 / 1075 ->  442 / 1149  (nothing replayed)
//   small layer: a character of a summary      4428 / 4793 -> 4051 / 4215  (the index rebuilt: most of it)
//   small layer: a character of a comment       652 / 757  ->  290 / 302
//
// What is left O(tools) on a small-layer keystroke: copies of the merged tools Map, of the states at
// the fork and of position 0's snapshot, and the garbage they make.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario } from '../src/core/scenario/parse';
import type { Scenario } from '../src/core/scenario/types';
import { Derivation } from '../src/core/turn/derivation';
import { runScenario } from '../src/core/turn/run';
import { generateScenario } from './check-scale';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function timed<T>(f: () => T): { ms: number; value: T } {
  const t0 = cpuMs();
  const value = f();
  return { ms: cpuMs() - t0, value };
}

type Stats = Derivation['last'];

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

const percentile = (xs: readonly number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;

/** Keystrokes at `tools` tools: each a whole timeline after one more typed character. */
export function keystrokes(tools: number, count: number): void {
  const parsed = parseScenario(generateScenario(tools, 50, 'local'));
  if (!parsed.ok) throw new Error(parsed.errors[0]?.message ?? 'scenario does not parse');
  const catalogue = parsed.scenario.layers[0]?.text ?? '';
  // A tool in the middle of the catalogue, and another for the small layer; neither is on.
  const names = [...catalogue.matchAll(/^\[conversation\.tools\.([A-Za-z0-9_-]+)\]$/gm)].map((m) => m[1] ?? '');
  const middle = names[(names.length >> 1) + 1] ?? '';
  const small = names[(names.length >> 2) + 1] ?? '';
  const overrides = (body: string): Scenario => ({ ...parsed.scenario, layers: [...parsed.scenario.layers, { name: 'overrides', text: body }] });
  const inCatalogue = (f: (text: string) => string): Scenario => ({ ...parsed.scenario, layers: [{ name: 'workspace', text: f(catalogue) }, ...parsed.scenario.layers.slice(1), { name: 'overrides', text: `[conversation.tools.${small}]\nrun = "ask"\n` }] });
  const header = `[conversation.tools.${middle}]\n`;
  const at = catalogue.indexOf(header);
  const typed = (i: number): string => 'abcdefghijklmnopqrstuvwxyz'.slice(0, (i % 26) + 1);
  const series: { label: string; input: (i: number) => Scenario }[] = [
    { label: 'small layer: availability cycled', input: (i) => overrides(`[conversation.tools.${small}]\nrun = "ask"\nenable = "${['on', 'off', 'discoverable'][i % 3] ?? 'on'}"\n`) },
    { label: 'small layer: a character of a summary', input: (i) => overrides(`[conversation.tools.${small}]\nrun = "ask"\nsummary = "Reads ${typed(i)}"\n`) },
    { label: 'small layer: a character of a comment', input: (i) => overrides(`# ${typed(i)}\n[conversation.tools.${small}]\nrun = "ask"\n`) },
    { label: 'catalogue layer: a character of a description', input: (i) => inCatalogue((t) => t.slice(0, at + header.length) + `description = "Typed ${typed(i)}"\n` + t.slice(at + header.length).replace(/^description = .*\n/m, '')) },
    { label: 'catalogue layer: a character of a comment', input: (i) => inCatalogue((t) => `${t.slice(0, at)}# ${typed(i)}\n${t.slice(at)}`) },
  ];
  console.log(`keystrokes, ${tools} tools, 50 turns: the whole timeline after each (CPU ms of this process, ${count} keystrokes after 2 warm-up)`);
  // `--series small`: only the series whose label starts so (the catalogue layer's are slow at 100,000 tools).
  const only = flag('--series');
  for (const s of series) {
    if (only !== undefined && !s.label.startsWith(only)) continue;
    const d = new Derivation();
    d.run({ scenario: s.input(0) });
    d.run({ scenario: s.input(1) });
    const ms: number[] = [];
    for (let i = 2; i < count + 2; i++) ms.push(timed(() => d.run({ scenario: s.input(i) })).ms);
    const last = d.last as (Stats & { toolsReresolved?: number; toolsMoved?: number; replayedFromStep?: number }) | undefined;
    console.log(
      `  ${s.label.padEnd(48)} p50 ${percentile(ms, 0.5).toFixed(0).padStart(5)} ms  p95 ${percentile(ms, 0.95).toFixed(0).padStart(5)} ms   (last: restarted ${String(last?.restarted)}, steps played ${last?.stepsPlayed ?? 0}, tools re-resolved ${last?.toolsReresolved ?? '-'}, moved ${last?.toolsMoved ?? '-'}, layers parsed ${last?.layersParsed ?? 0}, index builds ${last?.indexBuilds ?? 0})`,
    );
  }
}

export function run(): void {
  if (process.argv.includes('--keystrokes-only')) {
    const tools = flag('--tools');
    for (const n of tools ? [Number(tools)] : [10_000, 100_000]) keystrokes(n, n >= 100_000 ? 6 : 20);
    return;
  }
  const tools = Number(flag('--tools') ?? 10_000);
  const parsed = parseScenario(generateScenario(tools, 50, 'local'));
  if (!parsed.ok) throw new Error(parsed.errors[0]?.message ?? 'scenario does not parse');
  const small = (enable: string): Scenario => ({
    ...parsed.scenario,
    layers: [...parsed.scenario.layers, { name: 'user', text: `[conversation.tools.'*']\nrun = "unattended"\n\n[conversation.tools.extra_tool]\nsource = "local"\nenable = ${enable}\n` }],
  });
  const base = small('"off"');
  const d = new Derivation();
  const line = (label: string, ms: number, s: Stats = d.last): void => {
    console.log(`  ${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms CPU   (steps kept ${s?.stepsReused ?? 0}, played ${s?.stepsPlayed ?? 0}, layers parsed ${s?.layersParsed ?? 0}, index builds ${s?.indexBuilds ?? 0}, definitions built ${s?.definitionsBuilt ?? 0})`);
  };
  console.log(`derivation, ${tools} tools in one catalogue layer + a small layer, 50 turns (CPU time of this process)`);
  line('first run', timed(() => d.run({ scenario: base })).ms);
  line('the same input again', timed(() => d.run({ scenario: base })).ms);
  const rounds = 3;
  const lastStep = (i: number): Scenario => {
    const steps = [...base.steps];
    const last = steps.at(-1);
    if (last) steps[steps.length - 1] = { ...last, command: `jp q 'the last turn, edited ${i}'` };
    return { ...base, steps };
  };
  const edits: number[] = [];
  for (let i = 0; i < rounds; i++) edits.push(timed(() => d.run({ scenario: lastStep(i) })).ms);
  line('an edit of the last step', median(edits));
  const first: number[] = [];
  const rest: number[] = [];
  const whole: number[] = [];
  let firstStats: Stats;
  for (let i = 0; i < rounds; i++) {
    const edited = small(i % 2 === 0 ? '"on"' : '"discoverable"');
    first.push(timed(() => d.run({ scenario: edited }, { throughStep: 1 })).ms);
    firstStats = d.last;
    rest.push(timed(() => d.run({ scenario: edited })).ms);
  }
  line('availability edit in the small layer: sets at step 1', median(first), firstStats);
  line('  ... then the rest of the timeline', median(rest));
  for (let i = 0; i < rounds; i++) whole.push(timed(() => d.run({ scenario: small(i % 2 === 0 ? '"off"' : '"on"') })).ms);
  line('availability edit in the small layer: whole timeline', median(whole));
  const scratch: number[] = [];
  for (let i = 0; i < 2; i++) scratch.push(timed(() => runScenario({ scenario: small(i % 2 === 0 ? '"discoverable"' : '"off"') })).ms);
  console.log(`  ${'from scratch (runScenario, no caches)'.padEnd(58)} ${median(scratch).toFixed(0).padStart(6)} ms CPU`);
  keystrokes(tools, 20);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
