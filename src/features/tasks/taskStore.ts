// The Tasks tab's own state: the task set as typed, pasted, dropped or loaded; the run settings; the
// run in progress; the last two finished runs (side by side); the filters and the open task. It lives
// with the feature because nothing else reads it; its commands reach it through this module.
import { create } from 'zustand';
import type { Outcome, TaskResult, TaskRun } from '../../core';
import type { TaskRunSettings } from '../../derive/tasksProtocol';

export interface FinishedRun {
  /** The worker's run id (its tasks' turns open while the worker keeps it). */
  readonly id: number;
  readonly run: TaskRun;
  /** "auto, categories off, limit 3, revision 4": what produced the figures. */
  readonly label: string;
}

export interface TaskState {
  text: string;
  /** Where the text came from: "pasted", or a file's name. */
  source: string;
  settings: TaskRunSettings;
  progress: { readonly run: number; readonly done: number; readonly total: number; readonly results: readonly TaskResult[] } | undefined;
  taskErrors: readonly string[];
  /** Newest first; at most two. */
  runs: readonly FinishedRun[];
  hidden: ReadonlySet<Outcome>;
  selected: number | undefined;
  runRequested: boolean;
  error: string | undefined;
}

export const useTaskStore = create<TaskState>(() => ({
  text: '',
  source: '',
  settings: { policy: 'auto', categories: false, limit: 3, cost: true },
  progress: undefined,
  taskErrors: [],
  runs: [],
  hidden: new Set(),
  selected: undefined,
  runRequested: false,
  error: undefined,
}));

export const setTaskState = (patch: Partial<TaskState>): void => useTaskStore.setState(patch);

export function toggleOutcome(o: Outcome): void {
  const hidden = new Set(useTaskStore.getState().hidden);
  if (hidden.has(o)) hidden.delete(o);
  else hidden.add(o);
  useTaskStore.setState({ hidden });
}
