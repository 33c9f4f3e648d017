// The incremental derivation equals a derivation from scratch (issue 23.3): after random sequences of
// step edits, insertions, deletions, reorders, promotions, availability edits and layer replacements,
// on the shared conformance scenarios and on generated catalogues. Compared: the whole timeline as
// `check --json --bodies` writes it (positions, availability, sets, requests with cache status, provider
// findings and bodies, calls, check results), each step's sets and row, and the rows.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../json/serde';
import { checkExpectations } from '../scenario/expectations';
import { parseScenario } from '../scenario/parse';
import type { Scenario, ScenarioStep } from '../scenario/types';
import { Derivation, unchangedSteps } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import type { Timeline } from './timeline';
import { layer, scenarioText, search, turn } from './test-kit';

function parsed(text: string): Scenario {
  const p = parseScenario(text);
  if (!p.ok) throw new Error(p.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; '));
  return p.scenario;
}

/** Everything a shell reads from a timeline, as one JSON text. */
function digest(scenario: Scenario, t: Timeline): string {
  const checked = checkExpectations(scenario, t);
  return toJson(
    {
      json: timelineToJson(t, checked, { bodies: true }),
      steps: t.steps.map((s) => ({ step: s.step, entry: s.entry, lastEntry: s.lastEntry, position: s.position, time: s.time, registered: s.registered, error: s.error ?? null, sets: { ...s.sets }, layers: s.layers })),
      entries: t.entries.map((e) => (e.kind === 'call' ? { ...e, call: { ...e.call } } : e)),
      appended: t.positions.map((p) => p.appended),
      setsAt: t.positions.map((p) => ({ ...t.setsAt(p.index) })),
      requests: t.requests.map((r) => ({ id: r.id, sets: { ...r.sets }, cost: r.cost, definitions: [...r.definitions.keys()], cache: r.cache(), findings: r.findings(), bytes: r.rendered().bytes })),
      finalLayers: t.finalLayers,
    },
    false,
  );
}

/** Digests compared, the failure showing where they part (they run to tens of kilobytes). */
function sameDigest(got: string, want: string, label: string): void {
  if (got === want) return;
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  expect(got.slice(Math.max(0, i - 300), i + 200), `${label}: digests part at ${i}`).toBe(want.slice(Math.max(0, i - 300), i + 200));
}

const conformanceDir = resolve(__dirname, '../../../../shared/conformance');
const conformance: readonly Scenario[] = readdirSync(conformanceDir)
  .filter((f) => f.endsWith('.toml'))
  .sort()
  .map((f) => parsed(readFileSync(join(conformanceDir, f), 'utf8')));

/** A generated catalogue: n tools, most discoverable, with steps that search (promote), use directives and edit config. */
function generated(n: number): Scenario {
  const tools: Record<string, { enable?: string; summary: string }> = {};
  for (let i = 0; i < n; i++) tools[`tool_${i}`] = { ...(i % 10 === 0 ? { enable: '"on"' } : {}), summary: `Tool ${i} ${['reads files', 'lists issues', 'deploys apps', 'sends mail'][i % 4]} number ${i}.` };
  const steps = [
    turn('jp q one', [[search('files', 3)]]),
    turn('jp q two -T tool_0', [[search('deploys', 2)]]),
    '[[steps]]\ncommand = "jp config set --id conversation.tools.tool_3.enable=on"\n',
    turn("jp q three -t tool_5 -u tool_7", [[search('mail issues', 4)]]),
    '[[steps]]\ncommand = "jp config set conversation.tools.tool_9.enable=discoverable"\n',
    turn('jp q four', []),
  ];
  return parsed(scenarioText({ policy: { promoted_position: n % 2 === 0 ? 'append' : 'config_order' }, layer: layer(tools), body: steps.join('\n') }));
}

const stepsOf = (s: Scenario): readonly ScenarioStep[] => s.steps;

type Edit =
  | { readonly kind: 'replace'; readonly at: number; readonly from: number }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'insert'; readonly at: number; readonly from: number }
  | { readonly kind: 'swap'; readonly at: number }
  | { readonly kind: 'command'; readonly at: number; readonly extra: string }
  | { readonly kind: 'layer'; readonly from: number }
  | { readonly kind: 'same' };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('command' as const), at: fc.nat(), extra: fc.constantFrom(' -t', ' -T', ' -T tool_1', " -t 'nosuch'", ' --cfg conversation.tools.tool_2.enable=off', ' --cfg conversation.tools.tool_2.enable=on') }),
  fc.record({ kind: fc.constant('layer' as const), from: fc.nat() }),
  fc.constant({ kind: 'same' as const }),
);

/** One edit of a scenario; steps and layers are drawn from the pool of every scenario under test. */
function applyEdit(s: Scenario, e: Edit, pool: readonly Scenario[]): Scenario {
  const steps = [...s.steps];
  const allSteps = pool.flatMap(stepsOf);
  const pick = (i: number): ScenarioStep | undefined => allSteps[i % Math.max(1, allSteps.length)];
  const at = (i: number, n = steps.length): number => (n === 0 ? 0 : i % n);
  switch (e.kind) {
    case 'replace': {
      const step = pick(e.from);
      if (step && steps.length > 0) steps[at(e.at)] = step;
      break;
    }
    case 'delete':
      if (steps.length > 0) steps.splice(at(e.at), 1);
      break;
    case 'insert': {
      const step = pick(e.from);
      if (step) steps.splice(at(e.at, steps.length + 1), 0, step);
      break;
    }
    case 'swap':
      if (steps.length > 1) {
        const i = at(e.at, steps.length - 1);
        [steps[i], steps[i + 1]] = [steps[i + 1] as ScenarioStep, steps[i] as ScenarioStep];
      }
      break;
    case 'command': {
      const i = at(e.at);
      const step = steps[i];
      if (step && step.command.startsWith('jp q')) steps[i] = { ...step, command: step.command + e.extra };
      break;
    }
    case 'layer': {
      // Replace the scenario's layers with another scenario's (a layer replaced by the user, or reverted).
      const other = pool[e.from % pool.length];
      if (other && other.layers.length > 0) return { ...s, layers: other.layers, servers: other.servers, steps };
      break;
    }
    case 'same':
      break;
  }
  return { ...s, steps };
}

function holdsAfterEdits(start: Scenario, edits: readonly Edit[], cuts: readonly number[], pool: readonly Scenario[]): void {
  const derivation = new Derivation();
  let scenario = start;
  edits.forEach((edit, i) => {
    scenario = applyEdit(scenario, edit, pool);
    const cut = cuts[i];
    // Sometimes the selected step first (the rest follows on the next run), as a shell would.
    if (cut !== undefined && scenario.steps.length > 0) {
      const part = derivation.run({ scenario }, { throughStep: cut % (scenario.steps.length + 1) });
      const cutScenario = { ...scenario, steps: scenario.steps.slice(0, cut % (scenario.steps.length + 1)) };
      sameDigest(digest(cutScenario, part), digest(cutScenario, runScenario({ scenario: cutScenario })), `edit ${i} (${edit.kind}), cut at ${cut % (scenario.steps.length + 1)}`);
    }
    const t = derivation.run({ scenario });
    expect(derivation.last?.complete).toBe(true);
    sameDigest(digest(scenario, t), digest(scenario, runScenario({ scenario })), `edit ${i} (${edit.kind})`);
  });
}

describe('the incremental derivation equals a derivation from scratch', () => {
  const pool = [...conformance, generated(30)];

  it('on the conformance scenarios, after random edits, reorders, promotions and layer replacements', () => {
    fc.assert(
      fc.property(fc.nat({ max: conformance.length - 1 }), fc.array(editArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (i, edits, cuts) => {
        holdsAfterEdits(conformance[i] as Scenario, edits, cuts, pool);
      }),
      { numRuns: 60 },
    );
  });

  it('on generated catalogues', () => {
    fc.assert(
      fc.property(fc.constantFrom(30, 120, 301), fc.array(editArb, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 5 }), (n, edits, cuts) => {
        holdsAfterEdits(generated(n), edits, cuts, [generated(n), ...conformance.slice(0, 3)]);
      }),
      { numRuns: 15 },
    );
  });

  it('an earlier timeline is not changed by a later run', () => {
    const derivation = new Derivation();
    const a = generated(40);
    const ta = derivation.run({ scenario: a });
    const before = digest(a, ta);
    const b = applyEdit(a, { kind: 'command', at: 2, extra: ' -T' }, [a]);
    derivation.run({ scenario: b });
    expect(digest(a, ta)).toEqual(before);
  });
});

describe('nothing re-done that did not change', () => {
  it('an edit of step k replays only steps k.. ; the same input again replays nothing', () => {
    const derivation = new Derivation();
    const s = generated(50);
    derivation.run({ scenario: s });
    expect(derivation.last).toMatchObject({ restarted: true, stepsReused: 0, stepsPlayed: s.steps.length, layersParsed: 1 });
    derivation.run({ scenario: s });
    expect(derivation.last).toMatchObject({ restarted: false, stepsReused: s.steps.length, stepsPlayed: 0, layersParsed: 0, indexBuilds: 0 });
    const edited = applyEdit(s, { kind: 'command', at: 3, extra: ' -T tool_1' }, [s]);
    expect(unchangedSteps({ scenario: s }, { scenario: edited })).toBe(3);
    derivation.run({ scenario: edited });
    expect(derivation.last).toMatchObject({ restarted: false, stepsReused: 3, stepsPlayed: s.steps.length - 3, layersParsed: 0 });
  });

  it('throughStep plays the first steps; the next run with the same input plays only the rest', () => {
    const derivation = new Derivation();
    const s = generated(50);
    const part = derivation.run({ scenario: s }, { throughStep: 2 });
    expect(part.steps).toHaveLength(2);
    expect(derivation.last).toMatchObject({ complete: false, stepsPlayed: 2 });
    derivation.run({ scenario: s });
    expect(derivation.last).toMatchObject({ complete: true, stepsReused: 2, stepsPlayed: s.steps.length - 2 });
  });

  it('a layer edit that changes only availability parses that layer again, restarts, and keeps the search index', () => {
    const derivation = new Derivation();
    const s = generated(60);
    derivation.run({ scenario: s });
    expect(derivation.last?.indexBuilds).toBeGreaterThan(0);
    const text = s.layers[0]?.text ?? '';
    const edited: Scenario = { ...s, layers: [{ name: 'workspace', text: text.replace('[conversation.tools.tool_4]\nsource = "local"\n', '[conversation.tools.tool_4]\nsource = "local"\nenable = "on"\n') }] };
    expect(edited.layers[0]?.text).not.toBe(text);
    derivation.run({ scenario: edited });
    expect(derivation.last).toMatchObject({ restarted: true, layersParsed: 1, indexBuilds: 0, definitionsBuilt: 0 });
    // A definition's text changes: the index is built again.
    const described: Scenario = { ...s, layers: [{ name: 'workspace', text: text.replace('Tool 4 ', 'Tool four ') }] };
    derivation.run({ scenario: described });
    expect(derivation.last?.indexBuilds).toBeGreaterThan(0);
  });
});
