// The store reaches components through context, so tests and embedders can
// hand in their own.
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { WorkbenchState, WorkbenchStore } from './store';

const StoreContext = createContext<WorkbenchStore | null>(null);

export function StoreProvider({ store, children }: { store: WorkbenchStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useWorkbenchStore(): WorkbenchStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWorkbench must be used inside <StoreProvider>');
  return store;
}

export function useWorkbench<T>(selector: (s: WorkbenchState) => T): T {
  return useStore(useWorkbenchStore(), selector);
}
