// Autosave of the opened workspace folder (its files and the user's edits), beside the document in
// the same IndexedDB store under its own key: the document autosaves on every keystroke, the
// folder's hundreds of kilobytes only when the folder changes.
import { openWorkbenchDb, WORKBENCH_STORE } from './persistence';
import type { WorkbenchStore } from './store';
import type { WorkspaceFolder } from './workspaceSlice';

const KEY = 'workspace';

export async function loadSavedWorkspace(): Promise<WorkspaceFolder | undefined> {
  try {
    const db = await openWorkbenchDb();
    return await new Promise((resolve, reject) => {
      const req = db.transaction(WORKBENCH_STORE, 'readonly').objectStore(WORKBENCH_STORE).get(KEY);
      req.onsuccess = () => {
        const v = req.result as WorkspaceFolder | undefined;
        resolve(v && typeof v === 'object' && v.files && typeof v.files === 'object' ? { ...v, tabs: v.tabs ?? [], editable: v.editable ?? [], edited: v.edited ?? {} } : undefined);
      };
      req.onerror = () => reject(req.error ?? new Error('IndexedDB read failed'));
    });
  } catch {
    return undefined;
  }
}

async function saveWorkspace(folder: WorkspaceFolder | undefined): Promise<void> {
  const db = await openWorkbenchDb();
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(WORKBENCH_STORE, 'readwrite');
    if (folder) tx.objectStore(WORKBENCH_STORE).put(folder, KEY);
    else tx.objectStore(WORKBENCH_STORE).delete(KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

/** Saves the folder whenever it changes. */
export function startWorkspaceAutosave(store: WorkbenchStore, delayMs = 150): { stop(): void; flush(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    timer = undefined;
    pending = saveWorkspace(store.getState().workspace).catch((e: unknown) =>
      store.getState().showBanner('error', `Autosave of the workspace folder failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    return pending;
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.workspace === prev.workspace) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void write(), delayMs);
  });
  const onHide = (): void => {
    if (timer) {
      clearTimeout(timer);
      void write();
    }
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onHide);
  return {
    stop() {
      unsubscribe();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
    },
    flush() {
      if (timer) {
        clearTimeout(timer);
        return write();
      }
      return pending;
    },
  };
}
