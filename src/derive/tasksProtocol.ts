// The derive methods behind the Tasks tab (issue 15): a task set run against the document's design in
// the worker, a chunk of tasks per call so other derivations (typing) interleave between chunks and
// the page never waits on a whole run. Their rows in methods.ts route them to tasksHost.ts.
import type { PolicyName, TaskResult, TaskRun, StepDoc } from '../core';
import type { EntryView } from './protocol';

export interface TaskRunSettings {
  readonly policy: PolicyName;
  /** The categories section in the system prompt. */
  readonly categories: boolean;
  /** search_tools' limit for every search the policy makes. */
  readonly limit: number;
  /** Tokens and money of each task's turn against all-on (o200k_base, once loaded). */
  readonly cost: boolean;
}

export interface TasksStarted {
  readonly run: number;
  readonly total: number;
  /** Lines of the task set that could not be read, each with its line (and column). */
  readonly taskErrors: readonly string[];
  readonly section: TaskRun['section'];
}

export interface TasksChunk {
  readonly run: number;
  readonly done: number;
  readonly total: number;
  /** The tasks this call ran, in order. */
  readonly results: readonly TaskResult[];
  /** The whole run once its last task ran, its `results` empty: they came in the chunks. */
  readonly finished?: TaskRun;
}

export interface TaskTurnView {
  /** The scratch copy's timeline rows of the task's turn (its step row, requests, calls, reply). */
  readonly entries: readonly EntryView[];
  /** Offered tools at each request of the turn, for the needed-tool marks. */
  readonly offered: readonly (readonly string[])[];
  /** The task's turn as a scenario step, for "Add this turn to the document". */
  readonly step: StepDoc;
}
