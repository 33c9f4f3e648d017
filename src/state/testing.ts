// An IndexedDB for unit tests (vitest runs in Node, which has none): the part persistence.ts,
// historyDb.ts and workspacePersistence.ts use: open with an upgrade, out-of-line keys, get, put,
// delete, and transactions that run one at a time, commit when their last request's success
// callback placed no new request, and refuse a request placed after that (as IndexedDB does: a
// transaction is active only in the task that made it and in its requests' callbacks). Values
// are structured-cloned in and out, and every put is logged, so a test can count what a save
// wrote.
import { applyChanges } from '../derive/document';
import type { LayerChange } from './lineage';
import type { TextSource } from './liveLayer';

interface Op {
  readonly run: () => unknown;
  readonly req: FakeRequest;
}

class FakeRequest {
  result: unknown;
  error: Error | null = null;
  onsuccess: (() => void) | null = null;
  onerror: (() => void) | null = null;
}

const later = (f: () => void): void => {
  setTimeout(f, 0);
};

/** One put as the database saw it: the key and the characters of the value cloned. */
export interface LoggedPut {
  readonly key: string;
  readonly chars: number;
  /** The callback (a task of its own) it was put in: 0 for the task that made the transaction. */
  readonly task: number;
}

class FakeStore {
  constructor(
    private readonly tx: FakeTransaction,
    private readonly data: Map<string, unknown>,
  ) {}

  get(key: string): FakeRequest {
    return this.tx.place(() => (this.data.has(key) ? structuredClone(this.data.get(key)) : undefined));
  }

  put(value: unknown, key: string): FakeRequest {
    this.tx.requireWrite();
    // IndexedDB clones the value as `put` is called (a DataCloneError is thrown here).
    const copy = structuredClone(value);
    this.tx.db.puts.push({ key, chars: charsOf(copy), task: this.tx.task });
    return this.tx.place(() => {
      this.tx.write(this.data, key, copy);
      return key;
    });
  }

  delete(key: string): FakeRequest {
    this.tx.requireWrite();
    this.tx.db.deletes.push(key);
    return this.tx.place(() => {
      this.tx.write(this.data, key, undefined);
      return undefined;
    });
  }
}

function charsOf(v: unknown): number {
  if (typeof v === 'string') return v.length;
  return JSON.stringify(v)?.length ?? 0;
}

class FakeTransaction {
  oncomplete: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  error: Error | null = null;
  private readonly queue: Op[] = [];
  /** Undo records: the value each written key had before, to roll back an abort. */
  private readonly undo: { data: Map<string, unknown>; key: string; had: boolean; value: unknown }[] = [];
  private active = true;
  private finished = false;
  /** The callback running now (counted per transaction). */
  task = 0;

  constructor(
    readonly db: FakeDatabase,
    private readonly mode: 'readonly' | 'readwrite',
  ) {
    // Active in the task that made it, whenever it runs.
    later(() => {
      this.active = false;
    });
  }

  objectStore(name: string): FakeStore {
    const data = this.db.stores.get(name);
    if (!data) throw new Error(`NotFoundError: no object store ${name}`);
    return new FakeStore(this, data);
  }

  requireWrite(): void {
    if (this.mode !== 'readwrite') throw new Error('ReadOnlyError: the transaction is read-only');
  }

  place(run: () => unknown): FakeRequest {
    if (!this.active || this.finished) throw new Error('TransactionInactiveError: a request was placed against a transaction that is not active');
    const req = new FakeRequest();
    this.queue.push({ run, req });
    return req;
  }

  write(data: Map<string, unknown>, key: string, value: unknown): void {
    this.undo.push({ data, key, had: data.has(key), value: data.get(key) });
    if (value === undefined) data.delete(key);
    else data.set(key, value);
  }

  abort(): void {
    if (this.finished) return;
    this.finished = true;
    for (const u of this.undo.reverse()) {
      if (u.had) u.data.set(u.key, u.value);
      else u.data.delete(u.key);
    }
    later(() => {
      this.onabort?.();
      this.db.next();
    });
  }

  /** Runs the transaction: each request in its own task, its callback active; commits when none is left. */
  start(): void {
    later(() => this.step());
  }

  private step(): void {
    if (this.finished) return;
    const op = this.queue.shift();
    if (!op) {
      this.finished = true;
      later(() => {
        this.oncomplete?.();
        this.db.next();
      });
      return;
    }
    try {
      op.req.result = op.run();
    } catch (e) {
      op.req.error = e instanceof Error ? e : new Error(String(e));
      this.error = op.req.error;
      op.req.onerror?.();
      this.onerror?.();
      this.abort();
      return;
    }
    this.active = true;
    this.task += 1;
    try {
      op.req.onsuccess?.();
    } finally {
      this.active = false;
    }
    later(() => this.step());
  }
}

class FakeDatabase {
  readonly stores = new Map<string, Map<string, unknown>>();
  readonly puts: LoggedPut[] = [];
  readonly deletes: string[] = [];
  version = 0;
  onversionchange: (() => void) | null = null;
  onclose: (() => void) | null = null;
  private readonly waiting: FakeTransaction[] = [];
  private running: FakeTransaction | undefined;

  get objectStoreNames(): string[] {
    return [...this.stores.keys()];
  }

  createObjectStore(name: string): void {
    this.stores.set(name, new Map());
  }

  transaction(names: string | string[], mode: 'readonly' | 'readwrite' = 'readonly'): FakeTransaction {
    for (const n of Array.isArray(names) ? names : [names]) if (!this.stores.has(n)) throw new Error(`NotFoundError: no object store ${n}`);
    const tx = new FakeTransaction(this, mode);
    // Requests are placed now; the transaction runs when the ones before it have finished.
    this.waiting.push(tx);
    if (!this.running) this.next();
    return tx;
  }

  /** Starts the next waiting transaction (all of them run one at a time: stricter than IndexedDB). */
  next(): void {
    this.running = this.waiting.shift();
    this.running?.start();
  }

  close(): void {
    // Nothing held.
  }
}

/** A fake `indexedDB`: databases by name, kept until `clear()`. */
export class FakeIndexedDb {
  readonly databases = new Map<string, FakeDatabase>();

  open(name: string, version = 1): FakeRequest & { onupgradeneeded: (() => void) | null } {
    const req = Object.assign(new FakeRequest(), { onupgradeneeded: null as (() => void) | null });
    later(() => {
      let db = this.databases.get(name);
      if (!db) {
        db = new FakeDatabase();
        this.databases.set(name, db);
      }
      req.result = db;
      if (db.version < version) {
        db.version = version;
        req.onupgradeneeded?.();
      }
      req.onsuccess?.();
    });
    return req;
  }

  /** The database `name` (opened by the code under test). */
  db(name: string): FakeDatabase {
    const db = this.databases.get(name);
    if (!db) throw new Error(`no database ${name}`);
    return db;
  }

  /** Empties every store and the logs (the code under test keeps its open connection). */
  clear(): void {
    for (const db of this.databases.values()) {
      for (const s of db.stores.values()) s.clear();
      db.puts.length = 0;
      db.deletes.length = 0;
    }
  }
}

/** Installs a fake as the global `indexedDB`. */
export function installFakeIndexedDb(): FakeIndexedDb {
  const fake = new FakeIndexedDb();
  (globalThis as { indexedDB?: unknown }).indexedDB = fake;
  return fake;
}

/** A stand-in for an editor model: its text, how often it was read whole, and how much was read in slices. */
export class FakeModel implements TextSource {
  reads = 0;
  sliced = 0;
  constructor(public text: string) {}
  read(): string {
    this.reads++;
    return this.text;
  }
  length(): number {
    return this.text.length;
  }
  slice(start: number, end: number): string {
    this.sliced += end - start;
    return this.text.slice(start, end);
  }
  /** The model's text after `changes` (Monaco's, of one event), which it returns for the store. */
  type(changes: LayerChange[]): LayerChange[] {
    this.text = applyChanges(this.text, changes);
    return changes;
  }
}
