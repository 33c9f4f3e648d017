// A task set played by the user's real model (issue 26): each task is one turn the model drives
// (model-play.ts), read by the same outcome rules as the stand-in policies (outcome.ts), with the
// provider's billed usage beside the workbench's cost model for every request (the calibration table).
// Pure: the shell passes how to ask the model; tasks run `concurrency` at a time, and the budget cap is
// checked before every request, so a run stopped by it keeps every result it finished.
import { costOfTimeline, rulesFor } from '../cost/conversation';
import type { CostOptions } from '../cost/conversation';
import { TokenMemo, requestSegments } from '../cost/segments';
import { EMPTY_CACHE, cacheStep } from '../providers/cache-model';
import type { CacheState } from '../providers/cache-model';
import type { ModelPrice } from '../providers/prices';
import { addUsage, billedUsd, inputOf, NO_USAGE } from '../providers/reply';
import type { BilledUsage } from '../providers/reply';
import type { ProviderId } from '../providers/types';
import type { Scenario } from '../scenario/types';
import type { Timeline } from '../turn/timeline';
import { modelMoves, playModelTurn } from './model-play';
import type { AskModel, ModelCycle, ResolveCall, StopReason } from './model-play';
import { taskOutcome } from './outcome';
import { summarize } from './summary';
import type { Task, TaskResult, TaskRun } from './types';

/** One request of a task's turn: what the provider billed beside what the workbench's cost model says. */
export interface CalibrationRow {
  readonly task: number;
  readonly cycle: number;
  /** Absent when the provider sent no usage. */
  readonly billed?: BilledUsage;
  /** The workbench's cache model for the same request (tokens; output is the model's estimate). */
  readonly modelled?: BilledUsage;
  /** The cache model's sentence on the request (what it read or wrote, and why). */
  readonly because?: string;
}

export interface ModelTaskResult extends TaskResult {
  readonly cycles: readonly ModelCycle[];
  readonly stopped: StopReason;
  readonly why: string;
  readonly usage: BilledUsage;
  /** USD of the billed usage at the price row (0 when unpriced). */
  readonly usd: number;
  readonly calibration: readonly CalibrationRow[];
}

export interface ModelRunOptions {
  /** `PROVIDER:MODEL`, the label every figure carries. */
  readonly model: string;
  readonly provider: ProviderId;
  /** The ask of task `index` (the shell records each exchange under its task). */
  readonly askFor: (index: number) => AskModel;
  readonly resolveCall?: ResolveCall;
  readonly maxCycles?: number;
  /** Tasks in flight at once (default 1). */
  readonly concurrency?: number;
  /** Stop sending once the billed money reaches this (USD). */
  readonly maxUsd?: number;
  /** The price row the billed usage is priced at (undefined: unpriced, the cap cannot apply). */
  readonly price?: ModelPrice;
  /** The workbench's cost model, for the calibration table. */
  readonly cost?: CostOptions;
  /** Called after each task (the progress bar, the running cost). */
  readonly onResult?: (result: ModelTaskResult, done: number, spent: number) => void;
}

export interface ModelTaskRun {
  readonly model: string;
  readonly run: TaskRun;
  /** Every task's result in task order, those the cap left unstarted excluded from `run`. */
  readonly results: readonly ModelTaskResult[];
  /** Tasks not run: the budget cap stopped the run before their first request. */
  readonly notRun: readonly number[];
  readonly usage: BilledUsage;
  readonly usd: number;
  readonly stoppedBy?: string;
}

/** The scenario the tasks are appended to, its requests rendered for `provider`. */
export function forProvider(scenario: Scenario, provider: ProviderId): Scenario {
  return { ...scenario, policy: { ...scenario.policy, provider } };
}

function calibrationOf(timeline: Timeline, stepNo: number, index: number, cycles: readonly ModelCycle[], cost: CostOptions | undefined): CalibrationRow[] {
  const priced = cost ? costOfTimeline(timeline, cost).requests.filter((r) => r.step === stepNo) : [];
  return cycles.map((c) => {
    const r = priced.find((p) => p.cycle === c.cycle);
    const modelled = r ? { uncached: r.figures.uncached, cacheRead: r.figures.cacheRead, cacheWrite: r.figures.cacheWrite, output: r.output } : undefined;
    return { task: index, cycle: c.cycle, ...(c.reply.usage ? { billed: c.reply.usage } : {}), ...(modelled && r ? { modelled, because: r.figures.reason } : {}) };
  });
}

/** A task as played: its turn is step `stepNo` of `timeline`. */
export interface PlayedTask {
  readonly index: number;
  readonly timeline: Timeline;
  readonly stepNo: number;
  readonly cycles: readonly ModelCycle[];
}

/**
 * The calibration rows of a task set with the provider's prompt cache carried from task to task (issue
 * 33 §4): the provider's cache spans the run, so a task's first request reads the prefix (system
 * prompt, tools, the scenario's steps) the task before it wrote, where a fresh conversation per task
 * would model a write. The first task starts from the cache its scenario's steps leave, as a single
 * task does. Tasks are taken in task order, back to back (within the cache's lifetime); with
 * concurrency above 1 the provider sees them interleaved, which this does not model.
 */
export function calibrationAcrossTasks(played: readonly PlayedTask[], cost: CostOptions): CalibrationRow[][] {
  const memo = cost.memo ?? new TokenMemo(cost.counter);
  let carried: CacheState | undefined;
  return played.map((p) => {
    const { effective } = rulesFor(p.timeline.policy.provider, cost.table, cost.model);
    // Output tokens and the time of each request are the task's own; only the cache is shared.
    const own = costOfTimeline(p.timeline, { ...cost, memo }).requests.filter((r) => r.step === p.stepNo);
    let state = carried ?? EMPTY_CACHE;
    const rows = new Map<number, CalibrationRow>();
    for (const r of p.timeline.requests) {
      // Only what was sent: the scenario's steps once (the first task), then each task's answered requests.
      if (r.step > p.stepNo || (r.step < p.stepNo && carried !== undefined) || (r.step === p.stepNo && r.cycle > p.cycles.length)) continue;
      const at = p.timeline.steps[r.step - 1]?.time ?? 0;
      const step = cacheStep(effective, state, { segments: requestSegments(r.rendered(), memo), at });
      state = step.state;
      if (r.step !== p.stepNo) continue;
      const output = own.find((o) => o.cycle === r.cycle)?.output ?? 0;
      rows.set(r.cycle, { task: p.index, cycle: r.cycle, modelled: { uncached: step.figures.uncached, cacheRead: step.figures.cacheRead, cacheWrite: step.figures.cacheWrite, output }, because: step.figures.reason });
    }
    carried = state;
    return p.cycles.map((c) => {
      const row = rows.get(c.cycle);
      return { task: p.index, cycle: c.cycle, ...(c.reply.usage ? { billed: c.reply.usage } : {}), ...(row?.modelled ? { modelled: row.modelled, because: row.because ?? '' } : {}) };
    });
  });
}

/** A calibration row whose billed and modelled tokens disagree, with the likeliest reason. */
export interface CalibrationGap {
  readonly task: number;
  readonly cycle: number;
  /** Input tokens the two put in different places or count differently (the sort key). */
  readonly apart: number;
  readonly why: string;
}

/**
 * The rows where the provider's bill and the cost model differ most (at most `n`), each with the reason
 * its figures point to: the cache read more or less than modelled, a write one side has and the other
 * not, or the same split over a different token count (the provider's tokenizer beside the counter).
 */
export function calibrationGaps(rows: readonly CalibrationRow[], n = 3): CalibrationGap[] {
  const gaps: CalibrationGap[] = [];
  for (const r of rows) {
    const b = r.billed;
    const m = r.modelled;
    if (!b || !m) continue;
    const read = b.cacheRead - m.cacheRead;
    const write = b.cacheWrite - m.cacheWrite;
    const count = inputOf(b) - inputOf(m);
    const apart = Math.abs(read) + Math.abs(write) + Math.abs(b.uncached - m.uncached);
    if (apart === 0) continue;
    // Each way the two differ, the largest first: that one leads the reason, the others follow it.
    const parts: [number, string][] = [
      [Math.abs(read), read > 0 ? `the provider read ${read} more tokens from its cache than modelled: a prefix it cached before (an earlier run, a task sent alongside) or a longer cached prefix than the cache rules give` : `the provider read ${-read} fewer tokens from its cache than modelled: its cache missed (expired, evicted or held by another server) or it caches a shorter prefix`],
      [Math.abs(write), write > 0 ? `the provider wrote ${write} more tokens to its cache than modelled: it cached a prefix the cache rules do not mark` : `the provider wrote ${-write} fewer tokens to its cache than modelled: the prefix was below its minimum, or it bills no cache writes`],
      [Math.abs(count), `the provider counted ${Math.abs(count)} ${count > 0 ? 'more' : 'fewer'} input tokens than the workbench's counter: its own tokenizer, and the envelope the bridge adds`],
    ];
    const model = r.because !== undefined && r.because !== '' ? ` (the model: ${r.because})` : '';
    const why = parts.filter(([size]) => size > 0).sort((x, y) => y[0] - x[0]).map(([, text]) => text).join('; ') + model;
    gaps.push({ task: r.task, cycle: r.cycle, apart, why });
  }
  return gaps.sort((x, y) => y.apart - x.apart || x.task - y.task || x.cycle - y.cycle).slice(0, n);
}

/** One task played by the model. */
export async function runModelTask(base: Scenario, run: (s: Scenario) => Timeline, task: Task, index: number, options: ModelRunOptions, stopBefore?: () => string | undefined): Promise<ModelTaskResult> {
  return (await playModelTask(base, run, task, index, options, stopBefore)).result;
}

/** One task played by the model, with its timeline (for the calibration across tasks). */
export async function playModelTask(base: Scenario, run: (s: Scenario) => Timeline, task: Task, index: number, options: ModelRunOptions, stopBefore?: () => string | undefined): Promise<{ result: ModelTaskResult; played: PlayedTask }> {
  const stepNo = base.steps.length + 1;
  const turn = await playModelTurn(base, run, task.query, {
    ask: options.askFor(index),
    ...(options.resolveCall ? { resolveCall: options.resolveCall } : {}),
    ...(options.maxCycles !== undefined ? { maxCycles: options.maxCycles } : {}),
    ...(stopBefore ? { stopBefore } : {}),
  });
  const o = taskOutcome(turn.timeline, stepNo, task);
  const usage = turn.cycles.reduce((u, c) => (c.reply.usage ? addUsage(u, c.reply.usage) : u), NO_USAGE);
  const usd = options.price ? billedUsd(usage, options.price) : 0;
  const result: ModelTaskResult = {
    index,
    query: task.query,
    relevant: task.relevant,
    ...o,
    moves: modelMoves(turn.cycles),
    cycles: turn.cycles,
    stopped: turn.stopped,
    why: turn.why,
    usage,
    usd,
    calibration: calibrationOf(turn.timeline, stepNo, index, turn.cycles, options.cost),
  };
  return { result, played: { index, timeline: turn.timeline, stepNo, cycles: turn.cycles } };
}

/** The results with their calibration rows recomputed with the cache carried across tasks (in task order). */
export function withCarriedCache(results: readonly (ModelTaskResult | undefined)[], played: readonly (PlayedTask | undefined)[], cost: CostOptions | undefined): (ModelTaskResult | undefined)[] {
  if (!cost) return [...results];
  const order = played.filter((p): p is PlayedTask => p !== undefined);
  const rows = new Map(calibrationAcrossTasks(order, cost).map((r, i) => [order[i]?.index, r]));
  return results.map((r) => (r === undefined ? r : { ...r, calibration: rows.get(r.index) ?? r.calibration }));
}

/**
 * The money a run has spent and the cap that stops it (one for both arms of an A/B): each answer is
 * priced as soon as it comes back, so the cap applies inside a task too, and the first stop's reason is kept.
 */
export class Budget {
  spent = 0;
  stoppedBy: string | undefined;

  constructor(
    private readonly cap: number | undefined,
    private readonly price: ModelRunOptions['price'],
  ) {}

  /** `ask`, with each answer's bill added to what was spent. */
  counting(ask: AskModel): AskModel {
    return async (req) => {
      const answer = await ask(req);
      if (answer.ok && answer.reply.usage && this.price) this.spent += billedUsd(answer.reply.usage, this.price);
      return answer;
    };
  }

  /** Why the next request must not be sent, once the cap is reached. */
  readonly stopBefore = (): string | undefined => {
    if (this.stoppedBy === undefined && this.cap !== undefined && this.spent >= this.cap) this.stoppedBy = `the budget cap: $${this.spent.toFixed(4)} spent of $${this.cap.toFixed(2)}`;
    return this.stoppedBy;
  };
}

/** The task set played by the model, `concurrency` tasks at a time, stopped by the budget cap. */
export async function runModelTasks(scenario: Scenario, run: (s: Scenario) => Timeline, tasks: readonly Task[], options: ModelRunOptions): Promise<ModelTaskRun> {
  const base = forProvider(scenario, options.provider);
  const results: (ModelTaskResult | undefined)[] = tasks.map(() => undefined);
  const played: (PlayedTask | undefined)[] = tasks.map(() => undefined);
  const budget = new Budget(options.maxUsd, options.price);
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      const task = tasks[i] as Task;
      const counted = budget.counting(options.askFor(i));
      const { result: r, played: p } = await playModelTask(base, run, task, i, { ...options, askFor: () => counted }, budget.stopBefore);
      results[i] = r;
      played[i] = p;
      done += 1;
      options.onResult?.(r, done, budget.spent);
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? 1, tasks.length));
  await Promise.all(Array.from({ length: n }, () => worker()));
  return finishModelRun(options.model, base, withCarriedCache(results, played, options.cost), budget.stoppedBy);
}

/** A task the cap stopped before its first request was never asked: it has no outcome. */
export const notAsked = (r: ModelTaskResult): boolean => r.stopped === 'budget' && r.cycles.length === 0;

/** The run's figures from its task results (in task order; undefined: never started). */
export function finishModelRun(model: string, base: Scenario, results: readonly (ModelTaskResult | undefined)[], stoppedBy: string | undefined): ModelTaskRun {
  const all = results.filter((r): r is ModelTaskResult => r !== undefined);
  const notRun = all.filter(notAsked).map((r) => r.index);
  const ran = all.filter((r) => !notRun.includes(r.index));
  const summary = summarize(ran, { policy: 'auto', categories: base.policy.categories_prompt === true, limit: 0, section: { lines: 0, text: '' } });
  const usage = all.reduce((u, r) => addUsage(u, r.usage), NO_USAGE);
  return { model, run: summary, results: all, notRun, usage, usd: all.reduce((s, r) => s + r.usd, 0), ...(stoppedBy !== undefined ? { stoppedBy } : {}) };
}
