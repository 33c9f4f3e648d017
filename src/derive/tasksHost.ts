// The worker side of tasksProtocol.ts: a task set run against a recent revision's design, a chunk of
// tasks per call. A run keeps its prepared base (the design's run, its categories section) so every
// chunk, and a task's turn opened later, plays on the same scratch copy.
import { DEFAULT_PRICE_TABLE, finishRun, parseEvalQueries, playTask, prepareTasks, runTask, taskStepDoc } from '../core';
import { parseDoc } from './document';
import type { PreparedTasks, Scenario, ScenarioDoc, Task, TaskResult, Timeline } from '../core';
import { createTokenCounter } from '../core/providers/tokens';
import { entryView } from './entryView';
import type { TaskRunSettings, TasksChunk, TasksStarted, TaskTurnView } from './tasksProtocol';

export interface TasksSource {
  readonly doc: ScenarioDoc;
  readonly run: (s: Scenario) => Timeline;
}

interface RunState {
  readonly prepared: PreparedTasks;
  readonly tasks: readonly Task[];
  readonly results: TaskResult[];
}

/** Runs kept for side-by-side comparisons and for opening their tasks' turns. */
const KEPT_RUNS = 4;

export class TasksHost {
  private readonly runs = new Map<number, RunState>();
  private next = 1;

  constructor(private readonly sourceOf: (revision: number) => TasksSource) {}

  async tasksStart({ revision, tasks, settings }: { revision: number; tasks: string; settings: TaskRunSettings }): Promise<TasksStarted> {
    const { doc, run } = this.sourceOf(revision);
    const parsed = parseDoc(doc).parse;
    if (!parsed.ok) throw new Error(`the scenario does not parse: ${parsed.errors[0]?.message ?? ''}`);
    const set = parseEvalQueries(tasks);
    // Awaited, not read if loaded: a run started before the worker's early load finished had no token figures.
    const counter = await createTokenCounter().catch(() => undefined);
    const prepared = prepareTasks(parsed.scenario, run, {
      policy: settings.policy,
      categories: settings.categories,
      limit: settings.limit,
      ...(counter ? { counter } : {}),
      ...(settings.cost && counter ? { cost: { table: DEFAULT_PRICE_TABLE, counter } } : {}),
    });
    const id = this.next++;
    this.runs.set(id, { prepared, tasks: set.queries, results: [] });
    for (const k of [...this.runs.keys()]) if (this.runs.size > KEPT_RUNS) this.runs.delete(k);
    const section = finishRun(prepared, []).section;
    return { run: id, total: set.queries.length, taskErrors: set.errors, section };
  }

  private state(run: number): RunState {
    const s = this.runs.get(run);
    if (!s) throw new Error(`task run ${run} is no longer kept`);
    return s;
  }

  tasksNext({ run, count }: { run: number; count: number }): TasksChunk {
    const s = this.state(run);
    const from = s.results.length;
    const fresh: TaskResult[] = [];
    for (let i = from; i < Math.min(s.tasks.length, from + Math.max(1, count)); i++) {
      const task = s.tasks[i] as Task;
      fresh.push(runTask(s.prepared, task, i));
    }
    s.results.push(...fresh);
    const done = s.results.length;
    // The finished run travels without its results: the page has them from the chunks, and a second
    // copy of 2,062 results would be one long structured clone on the main thread.
    return { run, done, total: s.tasks.length, results: fresh, ...(done >= s.tasks.length ? { finished: { ...finishRun(s.prepared, s.results), results: [] } } : {}) };
  }

  taskTurn({ run, index }: { run: number; index: number }): TaskTurnView {
    const s = this.state(run);
    const task = s.tasks[index];
    if (!task) throw new Error(`task ${index + 1} is not in run ${run}`);
    const { timeline, moves } = playTask(s.prepared, task);
    const stepNo = s.prepared.scenario.steps.length + 1;
    const entries = timeline.entries.map((e, i) => ({ e, i })).filter(({ e }) => e.kind !== 'base' && 'step' in e && e.step === stepNo).map(({ e, i }) => entryView(e, i, timeline));
    const offered = timeline.requests.filter((r) => r.step === stepNo).map((r) => r.sets.offered);
    return { entries, offered, step: taskStepDoc(task.query, moves) };
  }
}
