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
//   - a from-scratch runScenario of the same input, for comparison.
//
//   npx tsx bench/derivation.ts [--tools N]      (or through `npm run bench`)
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

export function run(): void {
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
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
