// Autosave: the scenario document goes to IndexedDB after every edit (debounced
// a little) and comes back on reload, so nothing typed is lost. IndexedDB, not
// localStorage: a 10,000-tool catalogue is megabytes.
//
// Each save carries a number (`rev`) and is written only over the save this tab
// last saw, in one transaction: when another tab saved in between, this tab does
// not overwrite it but says so (tabsSlice.ts). The last keystrokes before a reload
// or a close go to a synchronous journal (journal.ts) as the page hides.
import type { ScenarioDoc } from '../core';
import type { WorkbenchStore } from './store';
import { clearJournal, docSizeEstimate, EVERY_EDIT_CHARS, makeJournal, writeJournal } from './journal';
import { docChars } from './history';
import { plainDoc } from './liveLayer';
import type { Journal } from './journal';
import type { TabChannel } from './tabChannel';

const DB = 'tool-workbench';
const STORE = 'documents';
const KEY = 'current';
/** The save number of `current`, alone (see saveOver). */
const REV_KEY = 'current-rev';

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

/** The saved document and its save number. */
export interface SavedRecord {
  readonly doc: ScenarioDoc;
  /** Increases by one with every save, whichever tab made it. */
  readonly rev: number;
  /** The tab that made it. */
  readonly tab: string;
  /** The journal this save covers (its edits are in `doc`). */
  readonly journal?: string;
}

const FORMAT = 'tool-workbench/saved@1';

/** A stored value as a record; a document stored by an older version (no save number) is save 0. */
function recordOf(value: unknown): SavedRecord | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (v.format === FORMAT && typeof v.rev === 'number' && v.doc && typeof v.doc === 'object') {
    return { doc: v.doc as ScenarioDoc, rev: v.rev, tab: typeof v.tab === 'string' ? v.tab : '', ...(typeof v.journal === 'string' ? { journal: v.journal } : {}) };
  }
  return Array.isArray(v.layers) ? { doc: value as ScenarioDoc, rev: 0, tab: '' } : undefined;
}

export async function loadSaved(): Promise<SavedRecord | undefined> {
  try {
    const db = await open();
    return await new Promise((resolve, reject) => {
      const req = db.transaction(STORE, 'readonly').objectStore(STORE).get(KEY);
      req.onsuccess = () => resolve(recordOf(req.result));
      req.onerror = () => reject(req.error ?? new Error('IndexedDB read failed'));
    });
  } catch {
    return undefined;
  }
}

export type SaveOutcome = { readonly ok: true; readonly rev: number } | { readonly ok: false; readonly theirs: number };

/**
 * Saves `doc` as save `over + 1`, but only while the stored save is still `over` (checked and
 * written in one transaction, which IndexedDB runs alone among the tabs).
 */
export async function saveOver(doc: ScenarioDoc, over: number, tab: string, journal?: string): Promise<SaveOutcome> {
  const db = await open();
  return new Promise<SaveOutcome>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    let outcome: SaveOutcome = { ok: false, theirs: -1 };
    const write = (current: number, exists: boolean): void => {
      if (exists && current !== over) {
        outcome = { ok: false, theirs: current };
        return;
      }
      const rev = over + 1;
      store.put({ format: FORMAT, rev, tab, doc, ...(journal !== undefined ? { journal } : {}) }, KEY);
      store.put(rev, REV_KEY);
      outcome = { ok: true, rev };
    };
    // The save number is read from its own small record: reading the saved record back to learn it
    // cost a copy of the whole document (seconds at 100,000 tools) on every autosave. A store saved
    // before that record existed is read whole, once.
    const known = store.get(REV_KEY);
    known.onsuccess = () => {
      if (typeof known.result === 'number') {
        write(known.result, true);
        return;
      }
      const req = store.get(KEY);
      req.onsuccess = () => write(recordOf(req.result)?.rev ?? 0, req.result !== undefined);
    };
    tx.oncomplete = () => resolve(outcome);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
  });
}

/** Above this many characters of layer text a document is large: it autosaves after a longer pause. */
export const LARGE_DOC_CHARS = 256 * 1024;
/** The pause before saving a large document. */
export const LARGE_DOC_DELAY_MS = 1000;


export interface AutosaveOptions {
  /** This tab's id (journal key, and the `tab` of its saves). */
  readonly tab: string;
  /** The save the store's document builds on (undefined: nothing saved yet). */
  readonly base: SavedRecord | undefined;
  /** The journal replayed into the store's document: the first save covers it, and it is cleared. */
  readonly replayed?: Journal;
  readonly channel?: TabChannel;
  readonly delayMs?: number;
  readonly now?: () => number;
}

export interface Autosave {
  stop(): void;
  /** Resolves once the current document is written (or found in conflict). */
  flush(): Promise<void>;
}

/**
 * Saves the document whenever it changes, after a pause in the edits: `delayMs`, or
 * LARGE_DOC_DELAY_MS and then an idle moment for a large document (IndexedDB copies the whole
 * value on the main thread, megabytes for a 10,000-tool catalogue, so it must not land between
 * keystrokes). Hiding or leaving the page journals the unsaved edit synchronously, then saves.
 * While another tab's save stands over this tab's base, nothing is written (tabConflict).
 */
export function startAutosave(store: WorkbenchStore, options: AutosaveOptions): Autosave {
  const { tab, channel } = options;
  const delayMs = options.delayMs ?? 150;
  const now = options.now ?? (() => Date.now());
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  let base = options.base?.rev ?? 0;
  let baseDoc = options.base?.doc;
  // The document last saved (or loaded from the save): an edit makes a new document object.
  let savedDoc: ScenarioDoc | undefined = options.replayed ? undefined : store.getState().doc;
  let journal: Journal | undefined = options.replayed;
  let journals = 0;
  let pending: Promise<void> = Promise.resolve();
  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (idle !== undefined) window.cancelIdleCallback(idle);
    idle = undefined;
  };
  const conflict = (theirs: number): void => {
    if (store.getState().tabConflict?.rev !== theirs) store.getState().setTabConflict({ rev: theirs, at: now() });
  };
  const saveNow = async (): Promise<void> => {
    const { doc, tabConflict } = store.getState();
    if (tabConflict || doc === savedDoc) return;
    const covering = journal;
    // Typed layers read the editor's model now: the save, and the base later journals are made
    // against, is this moment's text.
    const plain = plainDoc(doc);
    const outcome = await saveOver(plain, base, tab, covering?.id);
    if (!outcome.ok) {
      conflict(outcome.theirs);
      return;
    }
    base = outcome.rev;
    baseDoc = plain;
    savedDoc = doc;
    // The saved document holds at least what the journal held.
    if (covering) {
      clearJournal(tab, covering.id);
      if (journal === covering) journal = undefined;
    }
    channel?.post({ type: 'saved', from: channel.instance, rev: outcome.rev });
  };
  /** Writes one after another: two saves over the same base would find each other a conflict. */
  const write = (): Promise<void> => {
    cancel();
    pending = pending.then(saveNow).catch((e: unknown) => store.getState().showBanner('error', `Autosave failed: ${e instanceof Error ? e.message : String(e)}`));
    return pending;
  };
  const schedule = (): void => {
    cancel();
    const large = docChars(store.getState().doc) > LARGE_DOC_CHARS;
    timer = setTimeout(
      () => {
        timer = undefined;
        if (large && typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(() => void write(), { timeout: LARGE_DOC_DELAY_MS });
        else void write();
      },
      large ? LARGE_DOC_DELAY_MS : delayMs,
    );
  };
  /** The document the journal holds: written once per document value. */
  let journaled: ScenarioDoc | undefined;
  const journalNow = (doc: ScenarioDoc): void => {
    if (doc === savedDoc || doc === journaled) return;
    journals += 1;
    const j = makeJournal(baseDoc, doc, { id: `${tab}:${now()}:${journals}`, base, at: now() });
    if (writeJournal(tab, j)) {
      journal = j;
      journaled = doc;
    }
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.doc === prev.doc) return;
    schedule();
    if (docSizeEstimate(s.doc) <= EVERY_EDIT_CHARS) journalNow(s.doc);
  });
  if (options.replayed) schedule();
  // Going away: the journal first (synchronous, so it completes), then the save (which may not).
  const onHide = (): void => {
    const { doc } = store.getState();
    if (doc === savedDoc) return;
    journalNow(doc);
    void write();
  };
  const onVisibility = (): void => {
    if (document.visibilityState === 'hidden') onHide();
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onVisibility);
  const unlisten = channel?.listen((m) => {
    if (m.type === 'saved' && m.rev > base) conflict(m.rev);
  });
  store.getState().attachTabSync({
    reloadTheirs: async () => {
      await pending;
      const theirs = await loadSaved();
      if (!theirs) return;
      cancel();
      store.getState().replaceDoc(theirs.doc, { kind: 'other-tab' });
      cancel();
      base = theirs.rev;
      baseDoc = theirs.doc;
      savedDoc = store.getState().doc;
      clearJournal(tab);
      journal = undefined;
      store.getState().setTabConflict(undefined);
    },
    keepMine: async () => {
      await pending;
      const theirs = await loadSaved();
      const s = store.getState();
      if (theirs) s.keepInHistory(theirs.doc, { kind: 'kept-mine' });
      base = theirs?.rev ?? base;
      s.setTabConflict(undefined);
      if (!/\(copy\)$/u.test(s.doc.name)) s.setName(`${s.doc.name} (copy)`);
      await write();
    },
  });
  return {
    stop() {
      unsubscribe();
      unlisten?.();
      cancel();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    },
    flush() {
      return store.getState().doc === savedDoc ? pending : write();
    },
  };
}

/** The database and its object store, for other autosaved values (workspacePersistence.ts). */
export { open as openWorkbenchDb, STORE as WORKBENCH_STORE };
