// Running a task set: each task is played as one more turn, `jp q '<request>'`, at the end of the
// scenario (its layers, servers and earlier steps apply) on a scratch copy: the document is never
// changed. A model policy answers each cycle; the ordinary turn loop (runScenario) plays every move,
// so there is one simulator. Pure: the caller passes the function that runs a scenario.
import { quoteShellWord } from '../cli/shell';
import { allOnScenario } from '../cost/counterfactual';
import { costOfTimeline, NO_TOTALS } from '../cost/conversation';
import type { CostOptions, CostTotals } from '../cost/conversation';
import type { Runner } from '../cost/counterfactual';
import { TokenMemo } from '../cost/segments';
import type { AutoAction } from '../model/auto';
import { SEARCH_LIMIT } from '../model/auto';
import { autoInputAt, withAction } from '../model/play';
import type { StepDoc } from '../scenario/doc';
import type { Span } from '../config/toml-ast';
import type { TokenCounter } from '../providers/cost';
import type { Scenario, ScenarioCycle, ScenarioStep } from '../scenario/types';
import type { Timeline } from '../turn/timeline';
import { categoriesOf, categoryToolsAt } from './categories';
import type { CategoriesSection } from './categories';
import { taskOutcome } from './outcome';
import { POLICIES } from './policies';
import type { PolicyName, Task, TaskResult, TaskRun, TaskTokens } from './types';
import { summarize } from './summary';

export interface TaskRunOptions {
  readonly policy: PolicyName;
  /** search_tools' limit for every search a policy makes (default: the auto model's, 3). */
  readonly limit?: number;
  /** Add the categories section to the system prompt (policy `categories_prompt`). */
  readonly categories?: boolean;
  /** Tokens and money of each task's turn against the same turn with every permitted tool on. */
  readonly cost?: CostOptions;
  /** Counts the categories section's tokens (it rides on every request); default: the cost options' counter. */
  readonly counter?: TokenCounter;
  /** Moves per task before the play stops (default 8). */
  readonly maxMoves?: number;
}

export interface PreparedTasks {
  readonly scenario: Scenario;
  readonly base: Timeline;
  readonly section: CategoriesSection;
  readonly options: TaskRunOptions & { readonly limit: number };
  readonly run: Runner;
  readonly memo?: TokenMemo;
}

const NO_SPAN: Span = { start: 0, end: 0 };

/** The task's turn as a scenario step: the request, then one cycle per move made so far. */
export function taskStep(query: string, moves: readonly AutoAction[]): ScenarioStep {
  const cycles: ScenarioCycle[] = moves.map((m) =>
    m.kind === 'reply' ? { calls: [], reply: m.text, restart: false, span: NO_SPAN }
    : { calls: [{ tool: m.kind === 'search' ? 'search_tools' : m.tool, args: m.kind === 'search' ? { query: m.query, limit: m.limit } : m.args, span: NO_SPAN }], restart: false, span: NO_SPAN },
  );
  return { command: `jp q ${quoteShellWord(query)}`, commandSpan: NO_SPAN, cycles, span: NO_SPAN };
}

/** The same turn as a document step: what "Add this turn to the document" appends. */
export function taskStepDoc(query: string, moves: readonly AutoAction[]): StepDoc {
  let step: StepDoc = { command: `jp q ${quoteShellWord(query)}`, cycles: [] };
  for (const m of moves) step = withAction(step, m);
  return step;
}

/** The base run (with the categories switch as asked) and the categories section the policies read. */
export function prepareTasks(scenario: Scenario, run: Runner, options: TaskRunOptions): PreparedTasks {
  const own: Scenario = { ...scenario, policy: { ...scenario.policy, categories_prompt: options.categories === true } };
  const base = run(own);
  const section = categoriesOf(categoryToolsAt(base, 0));
  const memo = options.cost ? (options.cost.memo ?? new TokenMemo(options.cost.counter)) : undefined;
  return { scenario: own, base, section, options: { ...options, limit: options.limit ?? SEARCH_LIMIT }, run, ...(memo ? { memo } : {}) };
}

/** The task's turn played to its end by the policy: the scratch scenario, its timeline and the moves. */
export function playTask(p: PreparedTasks, task: Task): { scenario: Scenario; timeline: Timeline; moves: AutoAction[] } {
  const policy = POLICIES.get(p.options.policy);
  if (!policy) throw new Error(`unknown policy ${p.options.policy}`);
  const stepNo = p.scenario.steps.length + 1;
  const withTurn = (moves: readonly AutoAction[]): Scenario => ({ ...p.scenario, steps: [...p.scenario.steps, taskStep(task.query, moves)] });
  const moves: AutoAction[] = [];
  const max = p.options.maxMoves ?? 8;
  const open: AutoAction = { kind: 'reply', text: '', why: 'the open cycle' };
  let previous: { scenario: Scenario; timeline: Timeline } | undefined;
  // Each cycle is decided on the run of the moves so far, its open request answered by an empty reply.
  for (;;) {
    const last = moves[moves.length - 1];
    if (last?.kind === 'reply' && previous) {
      // The reply changes only the reply's text; the run before it is the turn, except for pricing.
      if (!p.options.cost) return { ...previous, moves };
      const done = withTurn(moves);
      return { scenario: done, timeline: p.run(done), moves };
    }
    const scenario = withTurn([...moves, open]);
    const timeline = p.run(scenario);
    const input = autoInputAt(timeline, stepNo, moves.length + 1, task.query);
    if (!input || moves.length >= max) return { scenario, timeline, moves };
    previous = { scenario, timeline };
    moves.push(policy(input, { limit: p.options.limit, ...(p.options.categories === true ? { categories: p.section } : {}) }));
  }
}

function turnTotals(t: Timeline, stepNo: number, p: PreparedTasks): { tokens: number; money: number } {
  if (!p.options.cost) return { tokens: 0, money: 0 };
  const cost = costOfTimeline(t, { ...p.options.cost, ...(p.memo ? { memo: p.memo } : {}) });
  let totals: CostTotals = NO_TOTALS;
  for (const r of cost.requests) if (r.step === stepNo) totals = { ...totals, input: totals.input + r.figures.input, output: totals.output + r.output, money: totals.money + r.money.total };
  return { tokens: totals.input + totals.output, money: totals.money };
}

function tokensOf(p: PreparedTasks, scenario: Scenario, timeline: Timeline, stepNo: number): TaskTokens | undefined {
  if (!p.options.cost) return undefined;
  const own = turnTotals(timeline, stepNo, p);
  const allOn = turnTotals(p.run(allOnScenario(scenario, timeline)), stepNo, p);
  return { tokens: own.tokens, allOnTokens: allOn.tokens, money: own.money, allOnMoney: allOn.money };
}

/** One task: played, read, and (with cost options) priced against all-on. */
export function runTask(p: PreparedTasks, task: Task, index: number): TaskResult {
  const stepNo = p.scenario.steps.length + 1;
  const { scenario, timeline, moves } = playTask(p, task);
  const o = taskOutcome(timeline, stepNo, task);
  const tokens = o.error === undefined ? tokensOf(p, scenario, timeline, stepNo) : undefined;
  return { index, query: task.query, relevant: task.relevant, ...o, moves, ...(tokens ? { tokens } : {}) };
}

/** The whole task set, in order. */
export function runTasks(scenario: Scenario, run: Runner, tasks: readonly Task[], options: TaskRunOptions): TaskRun {
  const p = prepareTasks(scenario, run, options);
  return finishRun(p, tasks.map((t, i) => runTask(p, t, i)));
}

export function finishRun(p: PreparedTasks, results: readonly TaskResult[]): TaskRun {
  const priced = p.options.cost ? costOfTimeline(p.base, { ...p.options.cost, ...(p.memo ? { memo: p.memo } : {}) }).priced : undefined;
  const counter = p.options.counter ?? p.options.cost?.counter;
  const section = { lines: p.section.categories.length, text: p.section.text, ...(counter ? { tokens: counter.count(p.section.text) } : {}) };
  return summarize(results, { policy: p.options.policy, categories: p.options.categories === true, limit: p.options.limit, section, ...(priced !== undefined ? { priced } : {}) });
}
