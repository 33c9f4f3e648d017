// Two tabs on one saved document: when the stored document moves on under this tab
// (another tab saved), this tab stops autosaving and says so, offering to reload the
// other tab's version or to keep its own as a copy. Never a silent overwrite.
import type { StoreApi } from 'zustand/vanilla';

export interface TabConflict {
  /** The stored document's save number now (this tab's was older). */
  readonly rev: number;
  /** When this tab noticed (ms since the epoch). */
  readonly at: number;
}

/** What the autosave offers the store (persistence.ts): the two ways out of a conflict. */
export interface TabSyncBridge {
  /** Loads the stored document; this tab's version goes to Recent documents. */
  reloadTheirs(): Promise<void>;
  /** Saves this tab's version (renamed "… (copy)") over the stored one, which goes to Recent documents. */
  keepMine(): Promise<void>;
}

export interface TabsSlice {
  tabConflict: TabConflict | undefined;
  tabSync: TabSyncBridge | undefined;
  setTabConflict(conflict: TabConflict | undefined): void;
  attachTabSync(bridge: TabSyncBridge | undefined): void;
}

export function tabsSlice<S extends TabsSlice>(set: StoreApi<S>['setState']): TabsSlice {
  const put = (partial: Partial<TabsSlice>) => set(partial as Partial<S>);
  return {
    tabConflict: undefined,
    tabSync: undefined,
    setTabConflict: (tabConflict) => put({ tabConflict }),
    attachTabSync: (tabSync) => put({ tabSync }),
  };
}
