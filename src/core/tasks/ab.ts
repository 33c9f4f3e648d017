// A policy's A/B on the user's model (issue 33 §1): arm A is the scenario as written, arm B the same
// with named policy switches set (design/semantics.md, "Policy switches"; `categories` for the
// categories section). Both arms play every task with the same model, task by task (A then B), on one
// budget, so a run stopped by the cap leaves whole pairs and at most one half pair. The arms are
// compared on the tasks both completed with McNemar's exact test: the pairs where exactly one arm met
// the task are the only evidence, and under "no difference" each is B's with probability ½.
// Pure, like model-run.ts: the shell passes how each arm asks the model.
import type { CostOptions } from '../cost/conversation';
import { modelFor } from '../providers/prices';
import type { ModelPrice, PriceTable } from '../providers/prices';
import { providerOf } from '../providers/registry';
import type { ProviderId } from '../providers/types';
import { isPolicyValue, POLICY_CHOICES } from '../scenario/policy';
import type { Policy, PolicyKey } from '../scenario/policy';
import type { Scenario } from '../scenario/types';
import type { Timeline } from '../turn/timeline';
import type { AskModel } from './model-play';
import { Budget, finishModelRun, forProvider, notAsked, playModelTask, withCarriedCache } from './model-run';
import type { PlayedTask } from './model-run';
import type { ModelRunOptions, ModelTaskResult, ModelTaskRun } from './model-run';
import { runTasks } from './run';
import type { Outcome, Task } from './types';

/**
 * McNemar's exact test, two-sided: the discordant pairs b (A only) and c (B only) as a binomial
 * Bin(b + c, ½); p = min(1, 2·P(X ≤ min(b, c))). The mid-p variant is not used: it is not a test of
 * level α, and with the few discordant pairs a task set gives, the difference matters. Exact in
 * integers (BigInt), so 2^n never overflows; the division is rounded once to a double.
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new Error(`McNemar's test takes whole numbers of discordant pairs, got ${b} and ${c}`);
  const n = b + c;
  const k = Math.min(b, c);
  let term = 1n;
  let tail = 1n;
  for (let i = 0; i < k; i++) {
    term = (term * BigInt(n - i)) / BigInt(i + 1);
    tail += term;
  }
  const num = 2n * tail;
  const den = 1n << BigInt(n);
  if (num >= den) return 1;
  return ratio(num, den);
}

/** num / den (0 < num < den) as the nearest double, with 64 bits of quotient before the one rounding. */
function ratio(num: bigint, den: bigint): number {
  const shift = den.toString(2).length - num.toString(2).length + 64;
  const q = (num << BigInt(shift)) / den;
  // Two steps of scaling: 2^shift itself may be past the double range when p is far below 1e-300.
  const half = Math.floor(shift / 2);
  return Number(q) / 2 ** half / 2 ** (shift - half);
}

/** p as printed: 4 decimals, or 3 significant digits below 0.001 (so a small p never reads as 0.0000). */
export function formatP(p: number): string {
  return p >= 0.001 ? p.toFixed(4) : p.toExponential(2);
}

/** One switch arm B sets: the policy key, its value, and the words as the user wrote them. */
export interface AbSwitch {
  readonly key: PolicyKey;
  readonly value: Policy[PolicyKey];
  readonly written: string;
}

/** The switches `--ab` takes: semantics.md's policy switches but the provider, and `categories`. */
const AB_SWITCHES: readonly (readonly [string, PolicyKey])[] = [
  ['ranking', 'ranking'],
  ['substring_match', 'substring_match'],
  ['report_match_count', 'report_match_count'],
  ['forced_off_tool', 'forced_off_tool'],
  ['promoted_position', 'promoted_position'],
  ['never_blocks_promotion', 'never_blocks_promotion'],
  ['hide_unapproved', 'hide_unapproved'],
  ['categories', 'categories_prompt'],
  ['categories_prompt', 'categories_prompt'],
];
const SHOWN_SWITCHES = AB_SWITCHES.filter(([name]) => name !== 'categories_prompt').map(([name]) => name);

/** The switch names arm B may set, as `--ab` names them (the page offers the same list), with the policy key each sets. */
export const AB_SWITCH_NAMES: readonly (readonly [string, PolicyKey])[] = AB_SWITCHES.filter(([name]) => name !== 'categories_prompt');

/** `SWITCH=VALUE` read, or why not. */
export function parseAbSwitch(text: string): AbSwitch | string {
  const at = text.indexOf('=');
  if (at <= 0) return `--ab takes SWITCH=VALUE with SWITCH one of ${SHOWN_SWITCHES.join(', ')}, got \`${text}\``;
  const name = text.slice(0, at).trim();
  const raw = text.slice(at + 1).trim();
  if (name === 'provider') return '--ab provider: both arms play the same model (--model); the provider is not a switch of an A/B';
  const key = AB_SWITCHES.find(([n]) => n === name)?.[1];
  if (key === undefined) return `--ab takes SWITCH=VALUE with SWITCH one of ${SHOWN_SWITCHES.join(', ')}, got \`${text}\``;
  const choices = POLICY_CHOICES[key] as readonly unknown[];
  const value: unknown = typeof choices[0] === 'boolean' ? (raw === 'true' ? true : raw === 'false' ? false : raw) : raw;
  if (!isPolicyValue(key, value)) return `--ab ${name} takes ${choices.map(String).join(' or ')}, got \`${raw}\``;
  return { key, value, written: text };
}

/** Arm B: the scenario with the switches set. */
export function armB(scenario: Scenario, switches: readonly AbSwitch[]): Scenario {
  const policy: Record<string, unknown> = { ...scenario.policy };
  for (const s of switches) policy[s.key] = s.value;
  return { ...scenario, policy: policy as unknown as Policy };
}

/** The task was met in that arm: its needed tools reached the model, up front or by search. */
export const isMet = (o: Outcome | undefined): boolean => o === 'met-up-front' || o === 'met-by-search';

/** One task in both arms. */
export interface AbPair {
  readonly task: number;
  readonly query: string;
  /** The arm's outcome; absent when the arm never asked the model for this task. */
  readonly a?: Outcome;
  readonly b?: Outcome;
  /** Both arms played the task to the model's own end (not stopped by the budget or an error). */
  readonly complete: boolean;
}

export interface AbResult {
  readonly pairs: readonly AbPair[];
  /** Complete pairs, the test's N. */
  readonly complete: number;
  /** Tasks that are no complete pair. */
  readonly incomplete: readonly number[];
  readonly metA: number;
  readonly metB: number;
  /** Discordant pairs: met in A only, in B only. */
  readonly aOnly: number;
  readonly bOnly: number;
  readonly p: number;
}

const finished = (r: ModelTaskResult | undefined): boolean => r !== undefined && r.stopped !== 'budget' && r.stopped !== 'error';

/** The two arms' results paired by task, and the test on the complete pairs. */
export function pairArms(a: readonly ModelTaskResult[], b: readonly ModelTaskResult[]): AbResult {
  const byIndex = (rs: readonly ModelTaskResult[]) => new Map(rs.map((r) => [r.index, r]));
  const ma = byIndex(a);
  const mb = byIndex(b);
  const tasks = [...new Set([...ma.keys(), ...mb.keys()])].sort((x, y) => x - y);
  const pairs: AbPair[] = tasks.map((task) => {
    const ra = ma.get(task);
    const rb = mb.get(task);
    const outcome = (r: ModelTaskResult | undefined): Outcome | undefined => (r === undefined || notAsked(r) ? undefined : r.outcome);
    const oa = outcome(ra);
    const ob = outcome(rb);
    return { task, query: (ra ?? rb)?.query ?? '', ...(oa !== undefined ? { a: oa } : {}), ...(ob !== undefined ? { b: ob } : {}), complete: finished(ra) && finished(rb) };
  });
  const complete = pairs.filter((p) => p.complete);
  const aOnly = complete.filter((p) => isMet(p.a) && !isMet(p.b)).length;
  const bOnly = complete.filter((p) => !isMet(p.a) && isMet(p.b)).length;
  return {
    pairs,
    complete: complete.length,
    incomplete: pairs.filter((p) => !p.complete).map((p) => p.task),
    metA: complete.filter((p) => isMet(p.a)).length,
    metB: complete.filter((p) => isMet(p.b)).length,
    aOnly,
    bOnly,
    p: mcnemarExact(aOnly, bOnly),
  };
}

/** `A/B on N tasks (B: SWITCH=VALUE …): met A a, B b; A only c, B only d; McNemar exact p = P` */
export function abLine(r: AbResult, switches: readonly AbSwitch[]): string {
  return `A/B on ${r.complete} tasks (B: ${switches.map((s) => s.written).join(' ')}): met A ${r.metA}, B ${r.metB}; A only ${r.aOnly}, B only ${r.bOnly}; McNemar exact p = ${formatP(r.p)}`;
}

export type Arm = 'A' | 'B';

export interface AbRunOptions extends Omit<ModelRunOptions, 'askFor' | 'onResult'> {
  readonly switches: readonly AbSwitch[];
  /** The ask of task `index` in `arm` (the shell records each exchange under its arm and task). */
  readonly askFor: (arm: Arm) => (index: number) => AskModel;
  /** Called after each arm of each task, with the money spent by both arms so far. */
  readonly onResult?: (arm: Arm, result: ModelTaskResult, done: number, spent: number) => void;
  /**
   * Checked before each request after the budget: a reason to stop sending (the page's Stop button).
   * The run then ends as the budget cap ends it: whole pairs kept, the test on those only.
   */
  readonly stopBefore?: () => string | undefined;
}

export interface AbRun {
  readonly a: ModelTaskRun;
  readonly b: ModelTaskRun;
  readonly ab: AbResult;
  readonly stoppedBy?: string;
  /** Each arm's played turns by task (undefined: never started), so a transcript opens as its turn. */
  readonly played: Readonly<Record<Arm, readonly (PlayedTask | undefined)[]>>;
}

/** Both arms over the task set, pair by pair (A then B), `concurrency` pairs at a time, on one budget. */
export async function runAbTasks(scenario: Scenario, run: (s: Scenario) => Timeline, tasks: readonly Task[], options: AbRunOptions): Promise<AbRun> {
  const bases: Record<Arm, Scenario> = { A: forProvider(scenario, options.provider), B: armB(forProvider(scenario, options.provider), options.switches) };
  const results: Record<Arm, (ModelTaskResult | undefined)[]> = { A: tasks.map(() => undefined), B: tasks.map(() => undefined) };
  const played: Record<Arm, (PlayedTask | undefined)[]> = { A: tasks.map(() => undefined), B: tasks.map(() => undefined) };
  const budget = new Budget(options.maxUsd, options.price);
  let done = 0;
  let next = 0;
  // The budget first: its reason is the one a run over its cap gives, whoever also pressed Stop.
  let stoppedByCaller: string | undefined;
  const stopBefore = (): string | undefined => {
    const b = budget.stopBefore();
    if (b !== undefined) return b;
    stoppedByCaller ??= options.stopBefore?.();
    return stoppedByCaller;
  };
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      for (const arm of ['A', 'B'] as const) {
        const counted = budget.counting(options.askFor(arm)(i));
        const { switches: _s, onResult: _o, stopBefore: _b, ...rest } = options;
        const { result: r, played: p } = await playModelTask(bases[arm], run, tasks[i] as Task, i, { ...rest, askFor: () => counted }, stopBefore);
        results[arm][i] = r;
        played[arm][i] = p;
        done += 1;
        options.onResult?.(arm, r, done, budget.spent);
      }
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? 1, tasks.length));
  await Promise.all(Array.from({ length: n }, () => worker()));
  // Each arm's calibration carries its own cache; what the two arms' prompts share is not modelled.
  const stoppedBy = budget.stoppedBy ?? stoppedByCaller;
  const a = finishModelRun(options.model, bases.A, withCarriedCache(results.A, played.A, options.cost), stoppedBy);
  const b = finishModelRun(options.model, bases.B, withCarriedCache(results.B, played.B, options.cost), stoppedBy);
  return { a, b, ab: pairArms(a.results, b.results), played, ...(stoppedBy !== undefined ? { stoppedBy } : {}) };
}

/**
 * The price row a run on `model` is billed at: the model's own row, or a local runtime's (free whatever
 * the model); undefined when the table has none, and then no budget cap can apply.
 */
export function exactPrice(table: PriceTable, provider: ProviderId, model: string): ModelPrice | undefined {
  const row = modelFor(table, provider, model);
  return row && (row.id === model || (row.input === 0 && row.output === 0)) ? row : undefined;
}

/** How a run's money is priced, in words. */
export function pricedWords(table: PriceTable, price: ModelPrice | undefined, model: string): string {
  return price ? `${price.id} at the price table of ${table.date}` : `unpriced: no row for ${model} in the price table of ${table.date}`;
}

export interface ArmEstimate {
  readonly requests: number;
  readonly money: number;
}

/** An arm's estimate before anything is sent: the auto policy's turns priced by the workbench's cost model. */
export function estimateArm(scenario: Scenario, run: (s: Scenario) => Timeline, tasks: readonly Task[], provider: ProviderId, cost: CostOptions): ArmEstimate {
  const r = runTasks(forProvider(scenario, provider), run, tasks, { policy: 'auto', cost });
  return { requests: r.results.reduce((n, t) => n + t.moves.length, 0), money: r.summary.tokens?.money ?? 0 };
}

export const usdWords = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/** The estimate line of an A/B, the same words in the terminal and the page. */
export function abEstimateLine(e: { readonly tasks: number; readonly switches: readonly AbSwitch[]; readonly a: ArmEstimate; readonly b: ArmEstimate; readonly provider: ProviderId; readonly model: string; readonly priced: string; readonly exact: boolean; readonly maxUsd?: number }): string {
  const caveat = `the workbench's auto policy's turns priced by its cost model: a real model may search, call and write more${e.maxUsd !== undefined ? `; stops at ${usdWords(e.maxUsd)}` : ''}`;
  const money = e.exact ? `about ${usdWords(e.a.money + e.b.money)} (${e.priced})` : e.priced;
  const words = e.switches.map((sw) => sw.written).join(' ');
  return `estimate: ${e.tasks} tasks in 2 arms (A: the scenario as written; B: ${words}), about ${e.a.requests + e.b.requests} requests (A ${e.a.requests}, B ${e.b.requests}) to ${providerOf(e.provider).words} ${e.model}, ${money}; ${caveat}`;
}
