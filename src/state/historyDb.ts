// The document history in IndexedDB, beside the autosaved document: the list under
// one key, each document under its own. One read-write transaction per change, so
// two tabs adding at once both land (IndexedDB runs them one after the other).
import type { ScenarioDoc } from '../core';
import { MAX_RECENT } from './history';
import type { HistoryEntry, HistoryStorage } from './history';
import { openWorkbenchDb, WORKBENCH_STORE } from './persistence';

const INDEX = 'history';
const docKey = (id: string): string => `history:${id}`;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function entriesOf(value: unknown): HistoryEntry[] {
  return Array.isArray(value) ? (value as HistoryEntry[]).filter((e) => typeof e?.id === 'string' && typeof e.at === 'number') : [];
}

export function indexedDbHistory(): HistoryStorage {
  return {
    async list() {
      const db = await openWorkbenchDb();
      return entriesOf(await request(db.transaction(WORKBENCH_STORE, 'readonly').objectStore(WORKBENCH_STORE).get(INDEX)));
    },
    async add(entry, doc) {
      const db = await openWorkbenchDb();
      const tx = db.transaction(WORKBENCH_STORE, 'readwrite');
      const store = tx.objectStore(WORKBENCH_STORE);
      const done = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
      });
      const all = [entry, ...entriesOf(await request(store.get(INDEX)))];
      store.put(doc, docKey(entry.id));
      for (const dropped of all.slice(MAX_RECENT)) store.delete(docKey(dropped.id));
      const kept = all.slice(0, MAX_RECENT);
      store.put(kept, INDEX);
      await done;
      return kept;
    },
    async get(id) {
      const db = await openWorkbenchDb();
      return (await request(db.transaction(WORKBENCH_STORE, 'readonly').objectStore(WORKBENCH_STORE).get(docKey(id)))) as ScenarioDoc | undefined;
    },
  };
}
