// Autosave: the scenario document goes to IndexedDB after every edit (debounced
// a little) and comes back on reload, so nothing typed is lost. IndexedDB, not
// localStorage: a 10,000-tool catalogue is megabytes.
import type { ScenarioDoc } from '../core';
import type { WorkbenchStore } from './store';

const DB = 'tool-workbench';
const STORE = 'documents';
const KEY = 'current';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
  });
}

export async function loadSavedDoc(): Promise<ScenarioDoc | undefined> {
  try {
    const db = await open();
    return await new Promise((resolve, reject) => {
      const req = db.transaction(STORE, 'readonly').objectStore(STORE).get(KEY);
      req.onsuccess = () => resolve(req.result as ScenarioDoc | undefined);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB read failed'));
    });
  } catch {
    return undefined;
  }
}

export async function saveDoc(doc: ScenarioDoc): Promise<void> {
  const db = await open();
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(doc, KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

export async function clearSavedDoc(): Promise<void> {
  const db = await open();
  await new Promise<void>((resolve) => {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).delete(KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => resolve();
  });
}

/** Saves the document whenever it changes. Returns the unsubscribe function and a flush for tests. */
export function startAutosave(store: WorkbenchStore, delayMs = 150): { stop(): void; flush(): Promise<void>; saved(): number } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let savedRevision = store.getState().revision;
  let pending: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    const { doc, revision } = store.getState();
    timer = undefined;
    pending = saveDoc(doc).then(
      () => {
        savedRevision = revision;
      },
      (e: unknown) => store.getState().showBanner('error', `Autosave failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    return pending;
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.doc === prev.doc) return;
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
    saved: () => savedRevision,
  };
}

/** The database and its object store, for other autosaved values (workspacePersistence.ts). */
export { open as openWorkbenchDb, STORE as WORKBENCH_STORE };
