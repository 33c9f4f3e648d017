// What the reviewer-facing views remember: which page is shown (the workbench or the RFD view), the
// guided tour's step, and the document an RFD row's scenario replaced (offered back until dismissed).
import type { StoreApi } from 'zustand/vanilla';
import type { ScenarioDoc } from '../core';

export type Page = 'workbench' | 'rfd';

export interface ReturnTo {
  /** The document to offer back: its entry in Recent documents, and its name. */
  readonly id: string;
  readonly name: string;
  /** The name of the scenario that replaced it. */
  readonly opened: string;
  /** That scenario as opened: while the document is still this one, it holds no work of the user's. */
  readonly openedDoc: ScenarioDoc;
}

export interface ReviewSlice {
  page: Page;
  /** The guided tour's step (0-based); undefined when no tour runs. */
  tourStep: number | undefined;
  /** The document that opening an RFD row replaced, and the name of what replaced it. */
  returnTo: ReturnTo | undefined;
  setPage(page: Page): void;
  setTourStep(step: number | undefined): void;
  setReturnTo(value: ReturnTo | undefined): void;
}

export function reviewSlice<S extends ReviewSlice>(set: StoreApi<S>['setState']): ReviewSlice {
  const put = (partial: Partial<ReviewSlice>) => set(partial as Partial<S>);
  return {
    page: 'workbench',
    tourStep: undefined,
    returnTo: undefined,
    setPage: (page) => put({ page }),
    setTourStep: (tourStep) => put({ tourStep }),
    setReturnTo: (returnTo) => put({ returnTo }),
  };
}
