// The document history ("Recent documents"): every replacement of the document
// (a shared link, an opened file or workspace, the demo, an undone import, another
// tab's version, a restore) first stores the document it replaces, with a time and
// the reason, so no action throws work away. The newest 20 are kept.
import type { ScenarioDoc } from '../core';
import { layerChars } from './liveLayer';

/**
 * How many replaced documents are kept: 20. Enough for a morning of opening links and files; each
 * is a whole document (a 10,000-tool catalogue is megabytes), so the list is not unbounded.
 */
export const MAX_RECENT = 20;

/** Why the document was replaced: what replaced it. */
export type Replacement =
  | { readonly kind: 'share' }
  | { readonly kind: 'file'; readonly name: string }
  | { readonly kind: 'workspace'; readonly name: string }
  | { readonly kind: 'demo' }
  | { readonly kind: 'undo-import'; readonly layer: string }
  | { readonly kind: 'restore'; readonly title: string }
  | { readonly kind: 'rfd'; readonly row: string }
  | { readonly kind: 'other-tab' }
  | { readonly kind: 'kept-mine' }
  | { readonly kind: 'recovered' }
  | { readonly kind: 'test' };

export interface HistoryEntry {
  readonly id: string;
  /** When it was replaced (ms since the epoch). */
  readonly at: number;
  /** The replaced document's name. */
  readonly title: string;
  readonly reason: Replacement;
  /** Characters of layer text: a hint of its size. */
  readonly chars: number;
  /** Steps of the scenario: another hint of what it is. */
  readonly steps: number;
}

/** The sentence a recent document shows: what replaced it. */
export function reasonText(r: Replacement): string {
  switch (r.kind) {
    case 'share':
      return 'replaced by a shared link';
    case 'file':
      return `replaced by opening ${r.name}`;
    case 'workspace':
      return `replaced by opening the workspace ${r.name}`;
    case 'demo':
      return 'replaced by the demo scenario';
    case 'undo-import':
      return `before undoing the import of layer ${r.layer}`;
    case 'restore':
      return `replaced by restoring “${r.title}”`;
    case 'rfd':
      return `replaced by opening the RFD view's row “${r.row}”`;
    case 'other-tab':
      return "set aside when you reloaded another tab's version";
    case 'kept-mine':
      return "another tab's version, set aside when you kept yours";
    case 'recovered':
      return 'unsaved edits recovered from a closed tab';
    case 'test':
      return 'replaced by a test';
  }
}

/** Characters of layer text (a typed layer's are counted without reading its text). */
export function docChars(doc: ScenarioDoc): number {
  let n = 0;
  for (const l of doc.layers) n += layerChars(l);
  return n;
}

/** Where the replaced documents live: IndexedDB in the page (historyDb.ts), memory in tests. */
export interface HistoryStorage {
  /** The entries, newest first. */
  list(): Promise<HistoryEntry[]>;
  /** Stores a replaced document as the newest entry, dropping entries past MAX_RECENT; returns the list. */
  add(entry: HistoryEntry, doc: ScenarioDoc): Promise<HistoryEntry[]>;
  get(id: string): Promise<ScenarioDoc | undefined>;
}

export function memoryHistory(): HistoryStorage {
  let entries: HistoryEntry[] = [];
  const docs = new Map<string, ScenarioDoc>();
  return {
    list: () => Promise.resolve([...entries]),
    add: (entry, doc) => {
      entries = [entry, ...entries];
      docs.set(entry.id, doc);
      for (const dropped of entries.slice(MAX_RECENT)) docs.delete(dropped.id);
      entries = entries.slice(0, MAX_RECENT);
      return Promise.resolve([...entries]);
    },
    get: (id) => Promise.resolve(docs.get(id)),
  };
}

/** An undo entry stands only while the document is still the revision its edit made; any later edit retires it. */
export function standingUndo<T extends { readonly revision: number }>(entry: T | undefined, revision: number): T | undefined {
  return entry !== undefined && entry.revision === revision ? entry : undefined;
}
