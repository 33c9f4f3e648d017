// The Tasks tab's model A/B (issue 33 §1): what arm B sets, the budget, the estimate awaiting its
// confirmation, the run in progress (each arm's tasks done and the money spent), the finished run and
// the turn open. Beside taskStore.ts: the policies' runs and the A/B never share a field.
import { create } from 'zustand';
import type { Arm } from '../../core/tasks/ab';
import type { AbEstimateView, AbFinished, AbParams, AbProgress } from '../../derive/abProtocol';

export interface AbState {
  /** The Tasks tab shows the simulated policies' runs, or the model A/B. */
  mode: 'policies' | 'ab';
  /** Arm B's value of each switch by its `--ab` name; '' (or absent): as in arm A. */
  switches: Readonly<Record<string, string>>;
  /** The budget field as typed ('' for none). */
  budget: string;
  /** The estimate shown, and the exact inputs it is for (Send sends those). */
  estimate: { readonly params: AbParams; readonly view: AbEstimateView } | undefined;
  estimating: boolean;
  progress: { readonly run: number | undefined; readonly progress: AbProgress; readonly exact: boolean; readonly switches: string } | undefined;
  stopRequested: boolean;
  finished: { readonly run: number; readonly view: AbFinished; readonly switches: string; readonly total: number } | undefined;
  open: { readonly arm: Arm; readonly index: number } | undefined;
  error: string | undefined;
}

export const useAbStore = create<AbState>(() => ({
  mode: 'policies',
  switches: {},
  budget: '',
  estimate: undefined,
  estimating: false,
  progress: undefined,
  stopRequested: false,
  finished: undefined,
  open: undefined,
  error: undefined,
}));

export const setAbState = (patch: Partial<AbState>): void => useAbStore.setState(patch);
