// What the findability panel remembers: whether the search lab's query set is used as the task
// set, and the report pinned as the "before" of a before/after comparison (issue 17).
import type { StoreApi } from 'zustand/vanilla';
import type { FindabilityReport } from '../core';

export interface FindabilityBaseline {
  /** Shown beside the comparison, e.g. "revision 12". */
  readonly label: string;
  readonly report: FindabilityReport;
}

export interface FindabilitySlice {
  /** Ask each tool by the tasks of the search lab's query set, too. */
  findabilityUseTasks: boolean;
  findabilityBaseline: FindabilityBaseline | undefined;
  /** Compute the report for a catalogue past the automatic limit too. */
  findabilityLarge: boolean;
  setFindabilityLarge(large: boolean): void;
  setFindabilityUseTasks(use: boolean): void;
  setFindabilityBaseline(baseline: FindabilityBaseline | undefined): void;
}

export function findabilitySlice<S extends FindabilitySlice>(set: StoreApi<S>['setState']): FindabilitySlice {
  const put = (partial: Partial<FindabilitySlice>) => set(partial as Partial<S>);
  return {
    findabilityUseTasks: true,
    findabilityBaseline: undefined,
    findabilityLarge: false,
    setFindabilityLarge: (findabilityLarge) => put({ findabilityLarge }),
    setFindabilityUseTasks: (findabilityUseTasks) => put({ findabilityUseTasks }),
    setFindabilityBaseline: (findabilityBaseline) => put({ findabilityBaseline }),
  };
}
