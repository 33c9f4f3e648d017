// Autosave: the scenario document goes to IndexedDB after every edit (debounced
// a little) and comes back on reload, so nothing typed is lost. IndexedDB, not
// localStorage: a 10,000-tool catalogue is megabytes.
//
// The document is stored as a small head record (its fields, and each layer's name
// and chunk keys) and its layers' texts in chunks of their own (chunks.ts): a save
// writes the head and the chunks typing changed, so the main thread never copies a
// catalogue per save (it was a 0.5-1 s task per save at 100,000 tools).
//
// Each save carries a number (`rev`) and is written only over the save this tab
// last saw, in one transaction: when another tab saved in between, this tab does
// not overwrite it but says so (tabsSlice.ts). The last keystrokes before a reload
// or a close go to a synchronous journal (journal.ts) as the page hides.
import type { LayerDoc, ScenarioDoc } from '../core';
import type { WorkbenchStore } from './store';
import { clearJournal, docSizeEstimate, EVERY_EDIT_CHARS, makeJournal, writeJournal } from './journal';
import { docChars } from './history';
import { layerChars, liveSourceOf } from './liveLayer';
import { layoutAfter, layoutLength, layoutOf, setLayout, splitText } from './chunks';
import type { Chunk, Layout } from './chunks';
import { leaveLineage, lineageFloor, originOf } from './lineage';
import type { LayerChange } from './lineage';
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

/** A save of the whole document in one record (before chunked layers): still loaded. */
const FORMAT = 'tool-workbench/saved@1';
/** A head record naming each layer's chunks, each chunk a record of its own (chunks.ts). */
const FORMAT_CHUNKED = 'tool-workbench/saved@2';
/** The keys of the chunks the stored head names, alone (see saveOver). */
const CHUNKS_KEY = 'current-chunks';
/** A chunk's record key: `chunk:` and an id no other save uses. */
const CHUNK_PREFIX = 'chunk:';

/** What one save writes: the document's small fields, its layers as chunk keys, and the chunks not stored yet. */
export interface DocSave {
  readonly doc: Omit<ScenarioDoc, 'layers'>;
  readonly layers: readonly { readonly name: string; readonly chunks: readonly string[] }[];
  /** The chunks to write (key, text); every other key the layers name is already stored. */
  readonly writes: readonly (readonly [string, string])[];
}

interface StoredHead {
  readonly format: typeof FORMAT_CHUNKED;
  readonly rev: number;
  readonly tab: string;
  readonly journal?: string;
  readonly doc: Omit<ScenarioDoc, 'layers'>;
  /**
   * Not `layers`: a tab still running the previous version reads any stored value with a `layers`
   * array as a bare document, and would open layers without text.
   */
  readonly layerChunks: readonly { readonly name: string; readonly chunks: readonly string[] }[];
}

function isHead(value: unknown): value is StoredHead {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    v.format === FORMAT_CHUNKED &&
    typeof v.rev === 'number' &&
    !!v.doc &&
    typeof v.doc === 'object' &&
    Array.isArray(v.layerChunks) &&
    v.layerChunks.every((l: unknown) => {
      const layer = l as Record<string, unknown> | null;
      return !!layer && typeof layer.name === 'string' && Array.isArray(layer.chunks) && layer.chunks.every((k) => typeof k === 'string');
    })
  );
}

/** A stored value as a record; a document stored by an older version (no save number) is save 0. */
function recordOf(value: unknown): SavedRecord | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (v.format === FORMAT && typeof v.rev === 'number' && v.doc && typeof v.doc === 'object') {
    return { doc: v.doc as ScenarioDoc, rev: v.rev, tab: typeof v.tab === 'string' ? v.tab : '', ...(typeof v.journal === 'string' ? { journal: v.journal } : {}) };
  }
  return Array.isArray(v.layers) ? { doc: value as ScenarioDoc, rev: 0, tab: '' } : undefined;
}

/** The stored save number of a head or an older record (0 when there is none). */
function revOf(value: unknown): number {
  return isHead(value) ? value.rev : (recordOf(value)?.rev ?? 0);
}

/**
 * A head's document with its layers' texts joined from their chunks. Each loaded layer keeps its
 * layout, so the next save writes only what typing changes in it.
 */
function assemble(head: StoredHead, chunks: ReadonlyMap<string, unknown>): SavedRecord {
  const layers = head.layerChunks.map((l) => {
    const texts = l.chunks.map((k) => {
      const text = chunks.get(k);
      if (typeof text !== 'string') throw new Error(`the saved layer ${l.name} misses its chunk ${k}`);
      return text;
    });
    const layer: LayerDoc = { name: l.name, text: texts.join('') };
    setLayout(
      layer,
      l.chunks.flatMap((key, i) => ((texts[i] as string).length > 0 ? [{ key, length: (texts[i] as string).length }] : [])),
    );
    return layer;
  });
  return { doc: { ...head.doc, layers } as ScenarioDoc, rev: head.rev, tab: head.tab, ...(typeof head.journal === 'string' ? { journal: head.journal } : {}) };
}

export async function loadSaved(): Promise<SavedRecord | undefined> {
  try {
    const db = await open();
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, 'readonly');
      const store = tx.objectStore(STORE);
      let value: unknown;
      const chunks = new Map<string, unknown>();
      const req = store.get(KEY);
      req.onsuccess = () => {
        value = req.result;
        if (!isHead(value)) return;
        // The chunks in the same transaction: the head and its chunks are one save's.
        for (const key of new Set(value.layerChunks.flatMap((l) => l.chunks))) {
          const get = store.get(key);
          get.onsuccess = () => chunks.set(key, get.result);
        }
      };
      tx.oncomplete = () => {
        try {
          resolve(isHead(value) ? assemble(value, chunks) : recordOf(value));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      };
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB read failed'));
    });
  } catch {
    return undefined;
  }
}

export type SaveOutcome =
  | { readonly ok: true; readonly rev: number }
  /** Another tab saved over the base: save `theirs` stands. */
  | { readonly ok: false; readonly theirs: number }
  /** Chunks the save meant to keep are no longer stored (another tab's save dropped them): nothing was written. */
  | { readonly ok: false; readonly missing: readonly string[] };

/**
 * Characters of chunk text put per task: IndexedDB clones a value on the main thread as it is put,
 * so a save writing a whole catalogue (the first save after opening one) puts it half a megabyte
 * at a time, each batch from the previous batch's success callback (a task of its own, in the same
 * transaction), and typing runs in between. 512 KiB: Chromium spent 111 ms in the puts of one 2 MiB
 * batch (bench/ui-autosave.ts at 10,000 tools), past the 50 ms a task may take.
 */
export const PUT_BATCH_CHARS = 512 * 1024;

/**
 * Writes `save` as save `over + 1`, but only while the stored save is still `over`, in one
 * transaction (which IndexedDB runs alone among the tabs): the head, the new chunks, and the
 * deletion of the chunks the previous head named and this one does not.
 */
export async function saveOver(save: DocSave, over: number, tab: string, journal?: string): Promise<SaveOutcome> {
  const db = await open();
  return new Promise<SaveOutcome>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    let outcome: SaveOutcome = { ok: false, theirs: -1 };
    const keys = [...new Set(save.layers.flatMap((l) => l.chunks))];
    const writing = new Set(save.writes.map(([k]) => k));
    const writeChunks = (from: number): void => {
      let chars = 0;
      let last: IDBRequest | undefined;
      let i = from;
      for (; i < save.writes.length && (chars === 0 || chars < PUT_BATCH_CHARS); i++) {
        const [key, text] = save.writes[i] as readonly [string, string];
        last = store.put(text, key);
        chars += text.length;
      }
      if (last && i < save.writes.length) last.onsuccess = () => writeChunks(i);
    };
    const write = (stored: readonly string[]): void => {
      const storedSet = new Set(stored);
      const missing = keys.filter((k) => !writing.has(k) && !storedSet.has(k));
      if (missing.length > 0) {
        outcome = { ok: false, missing };
        return;
      }
      const rev = over + 1;
      const head: StoredHead = { format: FORMAT_CHUNKED, rev, tab, doc: save.doc, layerChunks: save.layers, ...(journal !== undefined ? { journal } : {}) };
      store.put(head, KEY);
      store.put(rev, REV_KEY);
      store.put(keys, CHUNKS_KEY);
      const kept = new Set(keys);
      for (const k of stored) if (!kept.has(k)) store.delete(k);
      writeChunks(0);
      outcome = { ok: true, rev };
    };
    const check = (current: number, exists: boolean): void => {
      if (exists && current !== over) {
        outcome = { ok: false, theirs: current };
        return;
      }
      const chunks = store.get(CHUNKS_KEY);
      chunks.onsuccess = () => write(Array.isArray(chunks.result) ? (chunks.result as unknown[]).filter((k): k is string => typeof k === 'string') : []);
    };
    // The save number is read from its own small record: reading the saved record back to learn it
    // cost a copy of the whole document (seconds at 100,000 tools) on every autosave. A store saved
    // before that record existed is read whole, once.
    const known = store.get(REV_KEY);
    known.onsuccess = () => {
      if (typeof known.result === 'number') {
        check(known.result, true);
        return;
      }
      const req = store.get(KEY);
      req.onsuccess = () => check(revOf(req.result), req.result !== undefined);
    };
    tx.oncomplete = () => resolve(outcome);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
  });
}

/** A fresh chunk key per call: an id made once per page and a counter. */
export function chunkKeys(): () => string {
  const page = typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID().slice(0, 13) : Math.random().toString(36).slice(2, 15);
  let n = 0;
  return () => `${CHUNK_PREFIX}${page}.${(n++).toString(36)}`;
}

/** A stretch of a layer's text, read from the editor's model when the layer is live. */
function sliceOf(layer: LayerDoc, start: number, end: number): string {
  const source = liveSourceOf(layer);
  return source?.slice ? source.slice(start, end) : layer.text.slice(start, end);
}

/** Steps of lineage followed back from a layer to one whose layout is known, at most. */
const MAX_LINEAGE = 100_000;

/**
 * The layout of `doc`'s layer `index`: its own, or the nearest earlier one's (lineage.ts) carried
 * forward through the editor's changes typed since. Found at save time, not per keystroke, so typing
 * while a save is under way (its layers get their layouts only as it completes) still finds one.
 */
function layoutFor(doc: ScenarioDoc, index: number): Layout | undefined {
  const typed: (readonly LayerChange[])[] = [];
  let d = doc;
  for (let step = 0; step < MAX_LINEAGE; step++) {
    const layer = d.layers[index];
    if (!layer) return undefined;
    const known = layoutOf(layer);
    if (known) {
      let layout = known;
      try {
        for (let i = typed.length - 1; i >= 0; i--) layout = layoutAfter(layout, typed[i] as readonly LayerChange[]);
      } catch {
        // Changes that do not fit the layout: the layer is written whole.
        return undefined;
      }
      return layout;
    }
    const origin = originOf(d);
    if (!origin) return undefined;
    if (origin.layer !== undefined && origin.changes) {
      if (origin.layer === index) typed.push(origin.changes);
    } else if (origin.parent.layers[index] !== layer) return undefined;
    d = origin.parent;
  }
  return undefined;
}

/**
 * What saving `doc` writes, and each layer's layout once it is written. A layer whose layout this
 * page knows (loaded, saved, or carried through typing) writes only its changed chunks, read as
 * slices; any other layer (every layer, `whole`) is read and cut whole.
 */
export function prepareSave(doc: ScenarioDoc, newKey: () => string, whole = false): { save: DocSave; layouts: Layout[] } {
  const writes: (readonly [string, string])[] = [];
  const layouts: Layout[] = [];
  const fresh = (text: string, into: Chunk[]): void => {
    for (const piece of splitText(text)) {
      const key = newKey();
      writes.push([key, piece]);
      into.push({ key, length: piece.length });
    }
  };
  const layers = doc.layers.map((layer, index) => {
    const known = whole ? undefined : layoutFor(doc, index);
    const chunks: Chunk[] = [];
    // A layout that does not add up to the layer's length is not the layer's: cut it anew.
    if (!known || layoutLength(known) !== layerChars(layer)) fresh(layer.text, chunks);
    else {
      let pos = 0;
      let run = -1;
      for (const c of known) {
        if (c.key === undefined) {
          if (run < 0) run = pos;
        } else {
          if (run >= 0) fresh(sliceOf(layer, run, pos), chunks);
          run = -1;
          chunks.push(c);
        }
        pos += c.length;
      }
      if (run >= 0) fresh(sliceOf(layer, run, pos), chunks);
    }
    layouts.push(chunks);
    return { name: layer.name, chunks: chunks.map((c) => c.key as string) };
  });
  const { layers: _layers, ...rest } = doc;
  return { save: { doc: rest, layers, writes }, layouts };
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
 * LARGE_DOC_DELAY_MS and then an idle moment for a large document (a save writes only the chunks
 * typing changed, but the first save of an opened catalogue writes it all, and should not land
 * between keystrokes). Hiding or leaving the page journals the unsaved edit synchronously, then saves.
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
  const newKey = chunkKeys();
  // The document last saved (or loaded from the save): an edit makes a new document object.
  let savedDoc: ScenarioDoc | undefined = options.replayed ? undefined : store.getState().doc;
  let journal: Journal | undefined = options.replayed;
  let journals = 0;
  let pending: Promise<void> = Promise.resolve();
  // Typing is followed from the document as it stands (its layers' layouts known when loaded).
  lineageFloor('save', store.getState().doc);
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
    // What changed is read now (typed layers read the editor's model): the save is this moment's text.
    let prepared = prepareSave(doc, newKey);
    let outcome = await saveOver(prepared.save, base, tab, covering?.id);
    if (!outcome.ok && 'missing' in outcome) {
      // Chunks this page stored were dropped by another tab's save since (after "Keep mine"): the
      // layers are written whole, from the text as it is now.
      const current = store.getState().doc;
      prepared = prepareSave(current, newKey, true);
      outcome = await saveOver(prepared.save, base, tab, covering?.id);
      if (outcome.ok) savedLayouts(current, prepared.layouts);
      finish(outcome, current, covering);
      return;
    }
    if (outcome.ok) savedLayouts(doc, prepared.layouts);
    finish(outcome, doc, covering);
  };
  const savedLayouts = (doc: ScenarioDoc, layouts: readonly Layout[]): void => {
    doc.layers.forEach((l, i) => {
      const layout = layouts[i];
      if (layout) setLayout(l, layout);
    });
  };
  const finish = (outcome: SaveOutcome, doc: ScenarioDoc, covering: Journal | undefined): void => {
    if (!outcome.ok) {
      if ('theirs' in outcome) conflict(outcome.theirs);
      return;
    }
    base = outcome.rev;
    // The journal's base: the store's document as saved (journal.ts follows its lineage to later typing).
    baseDoc = doc;
    savedDoc = doc;
    // The next save and journal follow typing from here: the lineage above it is let go.
    lineageFloor('save', doc);
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
      lineageFloor('save', savedDoc);
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
      leaveLineage('save');
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
