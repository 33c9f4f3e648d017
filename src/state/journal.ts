// The last keystrokes' journal. Autosave writes to IndexedDB after a pause, and a
// write started while the page is going away may never finish: an edit made
// ~100 ms before a reload or a tab close was lost. So when the page is hidden or
// left with an unsaved edit, a small journal of it is written synchronously to
// localStorage (which completes), and replayed on the next load.
//
// A small document is journaled whole; a large one as what changed since the last
// save: the top-level fields that differ, and the splices of the edited layers (typing
// in a 5 MB catalogue layer journals a few bytes): the editor's changes typed since
// the save, followed through the store's lineage, or one splice per layer found by
// comparing its text with the saved one. A journal records the save it
// builds on (`base`): it is replayed only on that very save.
import type { LayerDoc, ScenarioDoc } from '../core';
import { minimalSplice } from '../core/config/edit-primitives';
import { isLiveLayer, layerChars } from './liveLayer';
import { originOf } from './lineage';
import type { LayerChange } from './lineage';

/** Up to this many characters of JSON a document is journaled whole (it then survives any later save too). */
export const WHOLE_DOC_CHARS = 512 * 1024;
/**
 * Up to this many characters a document is journaled on every edit, not only when the page hides:
 * Chrome completes a synchronous write made while a page hides on a reload, but not always when a
 * tab is closed. Writing it costs well under a millisecond at this size; above it (a big imported
 * catalogue), the journal is written only as the page hides.
 */
export const EVERY_EDIT_CHARS = 256 * 1024;

const partSizes = new WeakMap<object, number>();

/** About how many characters of JSON the document is: its layers' text plus the rest, measured once per value. */
export function docSizeEstimate(doc: ScenarioDoc): number {
  let n = 0;
  for (const l of doc.layers) n += layerChars(l) + l.name.length + 32;
  for (const part of [doc.servers, doc.steps, doc.policy]) {
    let size = partSizes.get(part);
    if (size === undefined) {
      size = JSON.stringify(part).length;
      partSizes.set(part, size);
    }
    n += size;
  }
  return n;
}
/**
 * The most a journal may take: 2 M characters. localStorage holds about 5 M characters per origin
 * in Chromium and Firefox, shared with the rest of the page's settings; past this, the journal is
 * skipped and the IndexedDB write started at the same moment is the only chance.
 */
export const MAX_JOURNAL_CHARS = 2 * 1024 * 1024;

export interface LayerSplice {
  readonly index: number;
  /** The layer's length at the base: a splice is applied only to the text it was made against. */
  readonly baseLength: number;
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

type Fields = Partial<Omit<ScenarioDoc, 'layers'>>;

export interface Journal {
  readonly v: 1;
  readonly id: string;
  /** The save (persistence.ts `rev`) the edits build on. */
  readonly base: number;
  readonly at: number;
  /** The whole document, when it is small. */
  readonly doc?: ScenarioDoc;
  /** Otherwise what changed since the base. */
  readonly fields?: Fields;
  readonly layers?: readonly LayerDoc[];
  readonly splices?: readonly LayerSplice[];
}

const FIELD_KEYS = ['name', 'description', 'policy', 'servers', 'steps', 'load', 'workspace'] as const;

/** Steps of lineage followed back from a document to its save, at most (a tab in conflict saves nothing for long). */
const MAX_LINEAGE = 100_000;

/**
 * The typed changes that made `doc` from `saved`, as splices in the order they were typed, when
 * the lineage (lineage.ts) leads from `doc` back to `saved` with every other step leaving the
 * layers alone. A layer typed in is live: its text is the editor's now, so the saved text cannot
 * be read back to compare; the changes say what happened to it. Undefined otherwise.
 */
function typedSplices(saved: ScenarioDoc, doc: ScenarioDoc): LayerSplice[] | undefined {
  const typed: { layer: number; changes: readonly LayerChange[] }[] = [];
  let d = doc;
  while (d !== saved) {
    const o = originOf(d);
    if (!o || typed.length > MAX_LINEAGE) return undefined;
    if (o.layer !== undefined && o.changes) typed.push({ layer: o.layer, changes: o.changes });
    else if (o.parent.layers !== d.layers && (o.parent.layers.length !== d.layers.length || o.parent.layers.some((l, i) => l !== d.layers[i]))) return undefined;
    d = o.parent;
  }
  if (typed.length === 0) return [];
  // Lengths before each step, worked back from the document's (a live layer's length is read without its text).
  const lengths = doc.layers.map(layerChars);
  const before = typed.map((t) => {
    const after = lengths[t.layer] ?? 0;
    const len = t.changes.reduce((n, c) => n - c.text.length + c.rangeLength, after);
    lengths[t.layer] = len;
    return len;
  });
  const splices: LayerSplice[] = [];
  for (let i = typed.length - 1; i >= 0; i--) {
    const t = typed[i] as (typeof typed)[number];
    let length = before[i] as number;
    // One event's changes are each offset into the text before it: applied from the last one back.
    for (const c of [...t.changes].sort((a, b) => b.rangeOffset - a.rangeOffset)) {
      splices.push({ index: t.layer, baseLength: length, start: c.rangeOffset, end: c.rangeOffset + c.rangeLength, insert: c.text });
      length += c.text.length - c.rangeLength;
    }
  }
  return splices;
}

/** What changed from `saved` to `doc`, by reference (the store replaces what it edits). */
function delta(saved: ScenarioDoc, doc: ScenarioDoc): Pick<Journal, 'fields' | 'layers' | 'splices'> {
  const fields: Record<string, unknown> = {};
  let changed = false;
  for (const k of FIELD_KEYS) {
    if (doc[k] !== saved[k]) {
      // `undefined` does not survive JSON: a removed field is written as null.
      fields[k] = doc[k] ?? null;
      changed = true;
    }
  }
  const withFields = changed ? { fields: fields as Fields } : {};
  const sameShape = doc.layers.length === saved.layers.length && doc.layers.every((l, i) => l.name === saved.layers[i]?.name);
  if (!sameShape) return { ...withFields, layers: doc.layers };
  const typed = typedSplices(saved, doc);
  if (typed) return { ...withFields, ...(typed.length > 0 ? { splices: typed } : {}) };
  const splices: LayerSplice[] = [];
  for (const [i, l] of doc.layers.entries()) {
    const was = saved.layers[i];
    if (!was || l === was) continue;
    // A live layer reads the editor as it is now, not as it was saved: nothing to compare with.
    if (isLiveLayer(was)) return { ...withFields, layers: doc.layers };
    if (l.text === was.text) continue;
    splices.push({ index: i, baseLength: was.text.length, ...minimalSplice(was.text, l.text) });
  }
  return { ...withFields, ...(splices.length > 0 ? { splices } : {}) };
}

/** The journal of `doc`'s unsaved edits over `saved` (the document of save `base`). */
export function makeJournal(saved: ScenarioDoc | undefined, doc: ScenarioDoc, meta: { id: string; base: number; at: number }): Journal {
  const head = { v: 1 as const, ...meta };
  const whole: Journal = { ...head, doc };
  if (!saved || docSizeEstimate(doc) <= WHOLE_DOC_CHARS) return whole;
  return { ...head, ...delta(saved, doc) };
}

/** `saved` (the document of the journal's base) with the journal's edits; undefined when they do not fit it. */
export function replayJournal(saved: ScenarioDoc | undefined, j: Journal): ScenarioDoc | undefined {
  if (j.doc) return j.doc;
  if (!saved) return undefined;
  let doc: ScenarioDoc = { ...saved };
  for (const [k, v] of Object.entries(j.fields ?? {})) {
    if (!(FIELD_KEYS as readonly string[]).includes(k)) return undefined;
    const rec = doc as unknown as Record<string, unknown>;
    if (v === null) delete rec[k];
    else rec[k] = v;
  }
  if (j.layers) doc = { ...doc, layers: [...j.layers] };
  for (const s of j.splices ?? []) {
    const layer = doc.layers[s.index];
    if (!layer || layer.text.length !== s.baseLength || s.start < 0 || s.end < s.start || s.end > layer.text.length) return undefined;
    const text = layer.text.slice(0, s.start) + s.insert + layer.text.slice(s.end);
    doc = { ...doc, layers: doc.layers.map((l, i) => (i === s.index ? { ...l, text } : l)) };
  }
  return doc;
}

/** A journal read back from storage, or undefined when it is not one. */
export function parseJournal(text: string | null): Journal | undefined {
  if (text === null) return undefined;
  try {
    const j = JSON.parse(text) as Journal;
    return j && j.v === 1 && typeof j.id === 'string' && typeof j.base === 'number' ? j : undefined;
  } catch {
    return undefined;
  }
}

// localStorage, one key per tab (a tab keeps its id in sessionStorage, which survives a reload).
const PREFIX = 'tool-workbench.journal.';

export function journalKey(tab: string): string {
  return `${PREFIX}${tab}`;
}

/** Writes synchronously; false when it is too large or storage refuses. */
export function writeJournal(tab: string, j: Journal): boolean {
  const text = JSON.stringify(j);
  if (text.length > MAX_JOURNAL_CHARS) return false;
  try {
    localStorage.setItem(journalKey(tab), text);
    return true;
  } catch {
    return false;
  }
}

export function readJournal(tab: string): Journal | undefined {
  try {
    return parseJournal(localStorage.getItem(journalKey(tab)));
  } catch {
    return undefined;
  }
}

export function clearJournal(tab: string, id?: string): void {
  try {
    if (id === undefined || readJournal(tab)?.id === id) localStorage.removeItem(journalKey(tab));
  } catch {
    // Nothing to clear.
  }
}

/** The tabs that left a journal. */
export function journalTabs(): string[] {
  const tabs: string[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k?.startsWith(PREFIX)) tabs.push(k.slice(PREFIX.length));
    }
  } catch {
    // No storage: no journals.
  }
  return tabs;
}
