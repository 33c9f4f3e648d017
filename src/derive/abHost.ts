// The worker side of abProtocol.ts: a model A/B (src/core/tasks/ab.ts) on a recent revision's design,
// played here while the page sends each request through the bridge. The core's run awaits each
// request's answer; here that await is a pending ask the page reads from the method's answer and
// resolves with abAnswer, so the run itself is the CLI's, request for request.
import { DEFAULT_PRICE_TABLE, parseEvalQueries, summaryLine } from '../core';
import type { StepDoc, Task } from '../core';
import { abEstimateLine, abLine, armB, estimateArm, exactPrice, parseAbSwitch, pricedWords, runAbTasks } from '../core/tasks/ab';
import type { AbRun, AbSwitch, Arm } from '../core/tasks/ab';
import type { ModelAnswer, ModelCycle } from '../core/tasks/model-play';
import type { ModelTaskResult, ModelTaskRun } from '../core/tasks/model-run';
import { createTokenCounter } from '../core/providers/tokens';
import { quoteShellWord } from '../core/cli/shell';
import { parseDoc } from './document';
import { entryView } from './entryView';
import type { AbAnswerParams, AbArmView, AbAsk, AbEstimateView, AbEvent, AbFinished, AbParams, AbProgress } from './abProtocol';
import type { TaskTurnView } from './tasksProtocol';
import type { TasksSource } from './tasksHost';

/** What an A/B reads of a revision: the same as a simulated task run. */
export type AbSource = TasksSource;

interface Session {
  readonly id: number;
  readonly tasks: readonly Task[];
  progress: AbProgress;
  pending?: { readonly ask: AbAsk; readonly resolve: (a: ModelAnswer) => void };
  stop: boolean;
  result?: AbRun;
  finished?: AbFinished;
  failed?: Error;
  /** Wakes the page's waiting call once the run asks again or ends. */
  wake?: () => void;
}

/** Runs kept for opening their turns after they finished. */
const KEPT_RUNS = 4;

/** Read the inputs the estimate and the run share; throws with the CLI's words. */
function inputs(source: AbSource, p: AbParams) {
  const parsed = parseDoc(source.doc).parse;
  if (!parsed.ok) throw new Error(`the scenario does not parse: ${parsed.errors[0]?.message ?? ''}`);
  const scenario = parsed.scenario;
  if (p.model.trim() === '') throw new Error('name the model to ask (e.g. claude-haiku-4-5)');
  const switches: AbSwitch[] = [];
  for (const text of p.switches) {
    const sw = parseAbSwitch(text);
    if (typeof sw === 'string') throw new Error(sw);
    if (switches.some((x) => x.key === sw.key)) throw new Error(`${sw.written.slice(0, sw.written.indexOf('='))} is given twice`);
    if (scenario.policy[sw.key] === sw.value) throw new Error(`${sw.written} is the scenario's own value: arm B would be arm A`);
    switches.push(sw);
  }
  if (switches.length === 0) throw new Error('choose at least one switch for arm B');
  const price = exactPrice(DEFAULT_PRICE_TABLE, p.provider, p.model);
  if (p.maxUsd !== undefined && !price) throw new Error(`a budget needs a price: the price table (${DEFAULT_PRICE_TABLE.date}) has no row for ${p.provider}:${p.model}`);
  const set = parseEvalQueries(p.tasks);
  if (set.queries.length === 0) throw new Error('the task set has no task that could be read');
  return { scenario, switches, price, set };
}

/** A model's turn as a document step, for "Add this turn to the document". */
function modelStepDoc(query: string, cycles: readonly ModelCycle[]): StepDoc {
  return {
    command: `jp q ${quoteShellWord(query)}`,
    cycles: cycles.map((c) => (c.calls.length === 0 ? { calls: [], reply: c.reply.text } : { calls: c.calls.map((k) => ({ tool: k.name, args: JSON.parse(JSON.stringify(k.args)) as StepDoc['cycles'][number]['calls'][number]['args'], ...(k.result !== undefined ? { result: k.result } : {}), ...(k.fail !== undefined ? { fail: k.fail } : {}) })) })),
  };
}

function armView(run: ModelTaskRun): AbArmView {
  return {
    summary: summaryLine(run.run.summary),
    usd: run.usd,
    // The cycles and calibration stay here: the page opens a turn through abTurn.
    results: run.results.map(({ cycles: _c, calibration: _k, usage: _u, ...r }) => r),
  };
}

function finishedView(r: AbRun, switches: readonly AbSwitch[], total: number): AbFinished {
  const errors = (['A', 'B'] as const).flatMap((arm) => (arm === 'A' ? r.a : r.b).results.filter((t: ModelTaskResult) => t.stopped === 'error' || t.stopped === 'no-request').map((t) => `arm ${arm}, task ${t.index + 1}: stopped: ${t.why}`));
  return {
    line: abLine(r.ab, switches),
    ab: r.ab,
    arms: { A: armView(r.a), B: armView(r.b) },
    ...(r.stoppedBy !== undefined ? { stoppedBy: r.stoppedBy, stoppedNote: `stopped by ${r.stoppedBy}: ${r.ab.complete} of ${total} pairs complete; the A/B test is on those only` } : {}),
    errors,
  };
}

export class AbHost {
  private readonly sessions = new Map<number, Session>();
  private next = 1;

  constructor(private readonly sourceOf: (revision: number) => AbSource) {}

  async abEstimate(p: AbParams): Promise<AbEstimateView> {
    const source = this.sourceOf(p.revision);
    const { scenario, switches, price, set } = inputs(source, p);
    const counter = await createTokenCounter();
    const cost = { table: DEFAULT_PRICE_TABLE, model: price?.id ?? p.model, counter };
    const a = estimateArm(scenario, source.run, set.queries, p.provider, cost);
    const b = estimateArm(armB(scenario, switches), source.run, set.queries, p.provider, cost);
    const priced = pricedWords(DEFAULT_PRICE_TABLE, price, p.model);
    const line = abEstimateLine({ tasks: set.queries.length, switches, a, b, provider: p.provider, model: p.model, priced, exact: price !== undefined, ...(p.maxUsd !== undefined ? { maxUsd: p.maxUsd } : {}) });
    return { line, tasks: set.queries.length, taskErrors: set.errors, requests: a.requests + b.requests, priced, exact: price !== undefined };
  }

  abStart(p: AbParams): Promise<AbEvent> {
    const source = this.sourceOf(p.revision);
    const { scenario, switches, price, set } = inputs(source, p);
    const s: Session = { id: this.next++, tasks: set.queries, progress: { A: 0, B: 0, total: set.queries.length, spent: 0 }, stop: false };
    this.sessions.set(s.id, s);
    for (const k of [...this.sessions.keys()]) if (this.sessions.size > KEPT_RUNS) this.sessions.delete(k);
    const wake = (): void => {
      const w = s.wake;
      s.wake = undefined;
      w?.();
    };
    void runAbTasks(scenario, source.run, set.queries, {
      model: `${p.provider}:${p.model}`,
      provider: p.provider,
      switches,
      ...(p.maxUsd !== undefined ? { maxUsd: p.maxUsd } : {}),
      ...(price ? { price } : {}),
      askFor: (arm) => (task) => (req) =>
        new Promise<ModelAnswer>((resolve) => {
          s.pending = { ask: { arm, task, cycle: req.cycle, provider: req.provider, body: req.body }, resolve };
          wake();
        }),
      onResult: (arm, _r, _done, spent) => {
        s.progress = { ...s.progress, [arm]: s.progress[arm] + 1, spent };
      },
      stopBefore: () => (s.stop ? 'your Stop' : undefined),
    }).then(
      (r) => {
        s.result = r;
        s.finished = finishedView(r, switches, set.queries.length);
        wake();
      },
      (e: unknown) => {
        s.failed = e instanceof Error ? e : new Error(String(e));
        wake();
      },
    );
    return this.event(s);
  }

  /** The model's answer to the pending request (or the page's error in its place), then the next event. */
  abAnswer({ run, answer, stop }: AbAnswerParams): Promise<AbEvent> {
    const s = this.session(run);
    if (stop === true) s.stop = true;
    const pending = s.pending;
    if (!pending) throw new Error(`A/B run ${run} awaits no answer`);
    s.pending = undefined;
    pending.resolve(answer);
    return this.event(s);
  }

  abTurn({ run, arm, index }: { run: number; arm: Arm; index: number }): TaskTurnView {
    const s = this.session(run);
    const played = s.result?.played[arm][index];
    const task = s.tasks[index];
    if (!played || !task) throw new Error(`task ${index + 1} has no turn in arm ${arm} of A/B run ${run}`);
    const { timeline, stepNo } = played;
    const entries = timeline.entries.map((e, i) => ({ e, i })).filter(({ e }) => e.kind !== 'base' && 'step' in e && e.step === stepNo).map(({ e, i }) => entryView(e, i, timeline));
    const offered = timeline.requests.filter((r) => r.step === stepNo).map((r) => r.sets.offered);
    return { entries, offered, step: modelStepDoc(task.query, played.cycles) };
  }

  private session(run: number): Session {
    const s = this.sessions.get(run);
    if (!s) throw new Error(`A/B run ${run} is no longer kept`);
    return s;
  }

  /** Resolves once the run asks for a request or ends. */
  private event(s: Session): Promise<AbEvent> {
    return new Promise<AbEvent>((resolve, reject) => {
      const answer = (): void => {
        if (s.failed) reject(s.failed);
        else if (s.finished) resolve({ run: s.id, progress: s.progress, finished: s.finished });
        else if (s.pending) resolve({ run: s.id, progress: s.progress, ask: s.pending.ask });
        else s.wake = answer;
      };
      answer();
    });
  }
}
