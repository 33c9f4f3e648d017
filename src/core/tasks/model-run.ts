// A task set played by the user's real model (issue 26): each task is one turn the model drives
// (model-play.ts), read by the same outcome rules as the stand-in policies (outcome.ts), with the
// provider's billed usage beside the workbench's cost model for every request (the calibration table).
// Pure: the shell passes how to ask the model; tasks run `concurrency` at a time, and the budget cap is
// checked before every request, so a run stopped by it keeps every result it finished.
import { costOfTimeline } from '../cost/conversation';
import type { CostOptions } from '../cost/conversation';
import type { ModelPrice } from '../providers/prices';
import { addUsage, billedUsd, NO_USAGE } from '../providers/reply';
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
    return { task: index, cycle: c.cycle, ...(c.reply.usage ? { billed: c.reply.usage } : {}), ...(modelled ? { modelled } : {}) };
  });
}

/** One task played by the model. */
export async function runModelTask(base: Scenario, run: (s: Scenario) => Timeline, task: Task, index: number, options: ModelRunOptions, stopBefore?: () => string | undefined): Promise<ModelTaskResult> {
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
  return {
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
}

/** The task set played by the model, `concurrency` tasks at a time, stopped by the budget cap. */
export async function runModelTasks(scenario: Scenario, run: (s: Scenario) => Timeline, tasks: readonly Task[], options: ModelRunOptions): Promise<ModelTaskRun> {
  const base = forProvider(scenario, options.provider);
  const results: (ModelTaskResult | undefined)[] = tasks.map(() => undefined);
  let spent = 0;
  let done = 0;
  let stoppedBy: string | undefined;
  const cap = options.maxUsd;
  const stopBefore = (): string | undefined => {
    if (stoppedBy !== undefined) return stoppedBy;
    if (cap !== undefined && spent >= cap) stoppedBy = `the budget cap: $${spent.toFixed(4)} spent of $${cap.toFixed(2)}`;
    return stoppedBy;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      const task = tasks[i] as Task;
      // Each request is priced as soon as it comes back, so the cap applies inside a task too.
      const ask = options.askFor(i);
      const counted: AskModel = async (req) => {
        const a = await ask(req);
        if (a.ok && a.reply.usage && options.price) spent += billedUsd(a.reply.usage, options.price);
        return a;
      };
      const r = await runModelTask(base, run, task, i, { ...options, askFor: () => counted }, stopBefore);
      results[i] = r;
      done += 1;
      options.onResult?.(r, done, spent);
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? 1, tasks.length));
  await Promise.all(Array.from({ length: n }, () => worker()));
  return finishModelRun(options.model, base, results, stoppedBy);
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
