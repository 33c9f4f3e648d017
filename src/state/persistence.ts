// Autosave: the scenario document goes to IndexedDB after every edit (debounced
// a little) and comes back on reload, so nothing typed is lost. IndexedDB, not
// localStorage: a 10,000-tool catalogue is megabytes.
import type { ScenarioDoc } from '../core';
import type { WorkbenchStore } from './store';

const DB = 'tool-workbench';
const STORE = 'documents';
const KEY = 'current';

let connection: Promise<IDBDatabase> | undefined;

/** The database, opened once and kept (opening it per autosave cost a task per keystroke pause). */
function open(): Promise<IDBDatabase> {
  connection ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => {
      const db = req.result;
      // Another tab upgrading, or the browser closing it: open anew next time.
      db.onversionchange = () => {
        db.close();
        connection = undefined;
      };
      db.onclose = () => {
        connection = undefined;
      };
      resolve(db);
    };
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
  }).catch((e: unknown) => {
    connection = undefined;
    throw e;
  });
  return connection;
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

/** Above this many characters of layer text a document is large: it autosaves after a longer pause. */
export const LARGE_DOC_CHARS = 256 * 1024;
/** The pause before saving a large document. */
export const LARGE_DOC_DELAY_MS = 1000;

function docChars(doc: ScenarioDoc): number {
  let n = 0;
  for (const l of doc.layers) n += l.text.length;
  return n;
}

/**
 * Saves the document whenever it changes, after a pause in the edits: `delayMs`, or
 * LARGE_DOC_DELAY_MS and then an idle moment for a large document (IndexedDB copies the whole
 * value on the main thread, megabytes for a 10,000-tool catalogue, so it must not land between
 * keystrokes). Hiding or leaving the page saves at once. Returns the unsubscribe function and a
 * flush for tests.
 */
export function startAutosave(store: WorkbenchStore, delayMs = 150): { stop(): void; flush(): Promise<void>; saved(): number } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  let savedRevision = store.getState().revision;
  let pending: Promise<void> = Promise.resolve();
  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (idle !== undefined) window.cancelIdleCallback(idle);
    idle = undefined;
  };
  const due = (): boolean => timer !== undefined || idle !== undefined;
  const write = (): Promise<void> => {
    const { doc, revision } = store.getState();
    cancel();
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
    cancel();
    const large = docChars(s.doc) > LARGE_DOC_CHARS;
    timer = setTimeout(
      () => {
        timer = undefined;
        if (large && typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(() => void write(), { timeout: LARGE_DOC_DELAY_MS });
        else void write();
      },
      large ? LARGE_DOC_DELAY_MS : delayMs,
    );
  });
  const onHide = (): void => {
    if (due()) void write();
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onHide);
  return {
    stop() {
      unsubscribe();
      cancel();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
    },
    flush() {
      if (due()) return write();
      return pending;
    },
    saved: () => savedRevision,
  };
}

/** The database and its object store, for other autosaved values (workspacePersistence.ts). */
export { open as openWorkbenchDb, STORE as WORKBENCH_STORE };
