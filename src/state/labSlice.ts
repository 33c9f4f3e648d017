// What the step field, the simulator, the search lab, the cost chart, the open-questions panel
// and sharing remember while their dock tab is hidden: drafts and choices, not
// derivations (those come from the worker).
import type { StoreApi } from 'zustand/vanilla';
import type { Policy, PolicyKey } from '../core';

export interface PolicyFlip {
  /** Increases with every flip; the diff query is keyed by it. */
  readonly id: number;
  readonly key: PolicyKey;
  readonly from: Policy[PolicyKey];
  readonly to: Policy[PolicyKey];
}

export interface LabSlice {
  /** The one step field's draft (a jp command being typed under the timeline); the auto model reads it too. */
  stepDraft: string;
  /** The search lab's query, limit and query set (JSONL). */
  labQuery: string;
  labLimit: number;
  labQuerySet: string;
  /** The cost chart's unit. */
  chartUnit: 'bytes' | 'tokens' | 'cache' | 'usd';
  /** The newest flip made in the open-questions panel, for its diff. */
  lastFlip: PolicyFlip | undefined;
  /** The work a shared link replaced (its entry in Recent documents), until restored or dismissed. */
  sharedPrevious: { readonly id: string; readonly name: string } | undefined;
  setStepDraft(text: string): void;
  setLabQuery(query: string): void;
  setLabLimit(limit: number): void;
  setLabQuerySet(text: string): void;
  setChartUnit(unit: 'bytes' | 'tokens' | 'cache' | 'usd'): void;
  setLastFlip(flip: PolicyFlip | undefined): void;
  setSharedPrevious(previous: { readonly id: string; readonly name: string } | undefined): void;
}

export function labSlice<S extends LabSlice>(set: StoreApi<S>['setState']): LabSlice {
  const put = (partial: Partial<LabSlice>) => set(partial as Partial<S>);
  return {
    stepDraft: '',
    labQuery: '',
    labLimit: 10,
    labQuerySet: '',
    chartUnit: 'bytes',
    lastFlip: undefined,
    sharedPrevious: undefined,
    setStepDraft: (stepDraft) => put({ stepDraft }),
    setLabQuery: (labQuery) => put({ labQuery }),
    setLabLimit: (labLimit) => put({ labLimit }),
    setLabQuerySet: (labQuerySet) => put({ labQuerySet }),
    setChartUnit: (chartUnit) => put({ chartUnit }),
    setLastFlip: (lastFlip) => put({ lastFlip }),
    setSharedPrevious: (sharedPrevious) => put({ sharedPrevious }),
  };
}
