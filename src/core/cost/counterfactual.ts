// The counterfactual: the same conversation with every permitted tool offered from the start, which is
// what JP does today when those tools are on. A pure transform of the scenario (a top layer turns every
// tool the run ever saw discoverable on; the model's search_tools calls are dropped, since there is
// nothing to find), then the same cost model over both runs, side by side.
import { SEARCH_TOOLS } from '../catalogue/builtins';
import { tomlKey } from '../scenario/doc';
import type { Policy } from '../scenario/policy';
import type { Scenario, ScenarioCycle, ScenarioStep } from '../scenario/types';
import type { Timeline } from '../turn/timeline';
import { costOfTimelineInSteps } from './conversation';
import type { ConversationCost, CostOptions, CostTotals } from './conversation';
import { TokenMemo } from './segments';

export const ALL_ON_LAYER = 'all-on (counterfactual)';

/** Every tool that is discoverable at the start or at any request of the run, in config order. */
export function everDiscoverable(t: Timeline): string[] {
  const positions = new Set<number>([0, ...t.requests.map((r) => r.position)]);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of [...positions].sort((a, b) => a - b)) {
    for (const s of t.statesAt(p).values()) {
      if (s.enable.availability.value === 'discoverable' && !seen.has(s.name)) {
        seen.add(s.name);
        out.push(s.name);
      }
    }
  }
  return out;
}

function withoutSearch(cycle: ScenarioCycle): ScenarioCycle | undefined {
  const calls = cycle.calls.filter((c) => c.tool !== SEARCH_TOOLS).map(({ expect: _e, ...c }) => c);
  if (calls.length === 0 && cycle.reply === undefined) return undefined;
  return { calls, ...(cycle.reply !== undefined ? { reply: cycle.reply } : {}), restart: cycle.restart && calls.length > 0, span: cycle.span };
}

function stepWithoutSearch(step: ScenarioStep): ScenarioStep {
  const cycles = step.cycles.map(withoutSearch).filter((c): c is ScenarioCycle => c !== undefined);
  return { command: step.command, commandSpan: step.commandSpan, ...(step.elapsed !== undefined ? { elapsed: step.elapsed } : {}), cycles, span: step.span };
}

/** The scenario as JP runs it today with the discoverable tools turned on, and no searches. No expectations. */
export function allOnScenario(scenario: Scenario, t: Timeline): Scenario {
  const names = everDiscoverable(t);
  const text = names.map((n) => `[conversation.tools.${tomlKey(n)}]\nenable = { availability = "on" }\n`).join('\n');
  const { load: _load, ...rest } = scenario;
  return {
    ...rest,
    layers: names.length > 0 ? [...scenario.layers, { name: ALL_ON_LAYER, text }] : scenario.layers,
    steps: scenario.steps.map(stepWithoutSearch),
  };
}

export interface Saving {
  readonly tokens: number;
  readonly cacheRead: number;
  readonly money: number;
  /** The uncached input tokens saved (prefill a local runtime does not do). */
  readonly uncached: number;
}

export function savingOf(discoverable: CostTotals, allOn: CostTotals): Saving {
  return {
    tokens: allOn.input + allOn.output - (discoverable.input + discoverable.output),
    cacheRead: discoverable.cacheRead - allOn.cacheRead,
    money: allOn.money - discoverable.money,
    uncached: allOn.uncached - discoverable.uncached,
  };
}

export interface Variant {
  readonly id: 'as-configured' | 'append' | 'directives' | 'all-on';
  readonly label: string;
  readonly cost: ConversationCost;
}

export interface DiscoveryComparison {
  readonly variants: readonly Variant[];
  /** Discovery as configured against all-on: positive is what discovery saves. */
  readonly saving: Saving;
  /** The tools the counterfactual turned on. */
  readonly turnedOn: readonly string[];
}

/** Runs a scenario as the shell runs it (its workspace layers, indexes...). */
export type Runner = (scenario: Scenario) => Timeline;

const VARIANT_LABELS: Readonly<Record<Variant['id'], string>> = {
  'as-configured': 'discoverable, as configured',
  append: 'discoverable, promoted_position = append',
  directives: 'discoverable, Anthropic tool directives',
  'all-on': 'all on (JP today)',
};

/**
 * The scenario's own run against the all-on counterfactual, and, where they differ from it, the same
 * conversation with `promoted_position = "append"` and under Anthropic's tool directives.
 */
export function compareDiscovery(scenario: Scenario, t: Timeline, run: Runner, options: CostOptions): DiscoveryComparison {
  const steps = compareDiscoveryInSteps(scenario, t, run, options);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

/** `compareDiscovery` in steps: it yields after each run and each priced request (see `costOfTimelineInSteps`). */
export function* compareDiscoveryInSteps(scenario: Scenario, t: Timeline, run: Runner, options: CostOptions): Generator<void, DiscoveryComparison, undefined> {
  const memo = options.memo ?? new TokenMemo(options.counter);
  const opts = { ...options, memo };
  const cost = (tl: Timeline) => costOfTimelineInSteps(tl, opts);
  const variant = (id: Variant['id'], c: ConversationCost): Variant => ({ id, label: VARIANT_LABELS[id], cost: c });
  const withPolicy = (p: Partial<Policy>): Scenario => ({ ...scenario, policy: { ...scenario.policy, ...p } });
  const runOf = function* (s: Scenario): Generator<void, Timeline, undefined> {
    const tl = run(s);
    yield;
    return tl;
  };
  const own = yield* cost(t);
  const variants: Variant[] = [variant('as-configured', own)];
  if (scenario.policy.promoted_position !== 'append') variants.push(variant('append', yield* cost(yield* runOf(withPolicy({ promoted_position: 'append' })))));
  if (scenario.policy.provider === 'anthropic') variants.push(variant('directives', yield* cost(yield* runOf(withPolicy({ provider: 'anthropic-directives' })))));
  const turnedOn = everDiscoverable(t);
  const allOn = yield* cost(yield* runOf(allOnScenario(scenario, t)));
  variants.push(variant('all-on', allOn));
  return { variants, saving: savingOf(own.totals, allOn.totals), turnedOn };
}
