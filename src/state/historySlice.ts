// The store's side of the document history (history.ts): the list the "Recent
// documents" view shows, keeping a replaced document, and restoring one, which is
// itself a replacement (so the document it replaces is kept in turn).
import type { StoreApi } from 'zustand/vanilla';
import type { ScenarioDoc } from '../core';
import { docChars, MAX_RECENT } from './history';
import { plainDoc } from './liveLayer';
import type { HistoryEntry, HistoryStorage, Replacement } from './history';

export interface HistorySlice {
  /** The replaced documents, newest first (at most MAX_RECENT). */
  recent: readonly HistoryEntry[];
  recentOpen: boolean;
  setRecentOpen(open: boolean): void;
  /** Keeps `doc` as the newest recent document; returns its id. The write to storage follows. */
  keepInHistory(doc: ScenarioDoc, reason: Replacement): string;
  /** Replaces the document with a recent one (keeping the current one first). False when it is gone. */
  restoreRecent(id: string): Promise<boolean>;
  /** Reads the list again (another tab changed it). */
  refreshRecent(): Promise<void>;
  /** Resolves once every kept document is written. */
  historySettled(): Promise<void>;
}

interface Host {
  doc: ScenarioDoc;
  replaceDoc(doc: ScenarioDoc, why: Replacement): string;
  showBanner(kind: 'error' | 'info', message: string): void;
}

export interface HistoryDeps {
  readonly storage: HistoryStorage;
  /** Told after each write, so other tabs read the list again. */
  readonly onChanged?: () => void;
  readonly now?: () => number;
}

function newId(at: number): string {
  const random = typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `${at.toString(36)}-${random}`;
}

export function historySlice<S extends HistorySlice & Host>(set: StoreApi<S>['setState'], get: StoreApi<S>['getState'], deps: HistoryDeps): HistorySlice {
  const put = (partial: Partial<HistorySlice>) => set(partial as Partial<S>);
  const now = deps.now ?? (() => Date.now());
  // The documents storage has not kept (yet, or at all: it failed), so a restore works even then.
  // One that storage holds is let go: a replaced catalogue is a whole plain copy of its layers (tens
  // of megabytes at 100,000 tools), and up to 20 of them stayed in the page's memory for its life.
  const kept = new Map<string, ScenarioDoc>();
  let writes: Promise<void> = Promise.resolve();
  return {
    recent: [],
    recentOpen: false,
    setRecentOpen: (recentOpen) => put({ recentOpen }),
    keepInHistory: (live, reason) => {
      // Kept as it is now: a typed layer's text would otherwise be read from the editor later.
      const doc = plainDoc(live);
      const at = now();
      const entry: HistoryEntry = { id: newId(at), at, title: doc.name, reason, chars: docChars(doc), steps: doc.steps.length };
      kept.set(entry.id, doc);
      for (const id of [...kept.keys()].slice(0, Math.max(0, kept.size - MAX_RECENT))) kept.delete(id);
      put({ recent: [entry, ...get().recent.filter((e) => e.id !== entry.id)].slice(0, MAX_RECENT) });
      writes = writes
        .then(() => deps.storage.add(entry, doc))
        .then(
          (list) => {
            kept.delete(entry.id);
            put({ recent: list });
            deps.onChanged?.();
          },
          (e: unknown) => get().showBanner('error', `Could not store “${doc.name}” in Recent documents (${e instanceof Error ? e.message : String(e)}); it stays restorable until this page closes.`),
        );
      return entry.id;
    },
    restoreRecent: async (id) => {
      await writes;
      const entry = get().recent.find((e) => e.id === id);
      const doc = kept.get(id) ?? (await deps.storage.get(id).catch(() => undefined));
      if (!doc) {
        get().showBanner('error', 'That recent document is no longer stored (only the newest 20 are kept).');
        return false;
      }
      get().replaceDoc(doc, { kind: 'restore', title: entry?.title ?? doc.name });
      get().showBanner('info', `Restored “${doc.name}”. The document it replaced is the newest in Recent documents.`);
      return true;
    },
    refreshRecent: async () => {
      await writes;
      try {
        put({ recent: await deps.storage.list() });
      } catch {
        // The list in memory stays; it is a view of the same entries.
      }
    },
    historySettled: () => writes,
  };
}
