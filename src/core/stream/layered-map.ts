// A map of every tool (100,000 at the largest size) that a keystroke copies in O(what it changed): a
// shared root nobody writes to, plus this map's own writes on top. At 100,000 tools a `new Map(m)` cost
// ~100 ms and left a large object for the collector; the engine made several per keystroke (a fork's
// states, position 0's patched snapshot, the merged layers' tools). A fork shares the root and copies
// only the top; a top grown past a fraction of the root is folded into a new root first, so lookups
// stay two probes and the copies stay small.
//
// Iteration yields what a Map given the same writes would: the root's entries in the root's order (a
// key written again keeps its place, with its new value), then the keys new to the root in the order
// they were first written. The engine relies on that: its states are kept in config order.

/** A top larger than root/FOLD is folded into a new root when the map is forked. */
const FOLD = 8;

const EMPTY: ReadonlyMap<unknown, object> = new Map<unknown, object>();

export class LayeredMap<K, V extends object> implements ReadonlyMap<K, V> {
  /** Shared with forks: never written to. */
  private root: ReadonlyMap<K, V>;
  /** This map's own writes. */
  private top: Map<K, V>;
  /** Keys in `top` that `root` lacks (what the size adds to root's). */
  private added: number;
  /** The values in order, made by `values` and dropped by any write. */
  private list: V[] | undefined;

  private constructor(root: ReadonlyMap<K, V>, top: Map<K, V>, added: number) {
    this.root = root;
    this.top = top;
    this.added = added;
  }

  /** An empty map. */
  static empty<K, V extends object>(): LayeredMap<K, V> {
    return new LayeredMap<K, V>(EMPTY as ReadonlyMap<K, V>, new Map(), 0);
  }

  /**
   * A map with `of`'s entries that `of` never sees written: a fork when `of` is layered, else `of`
   * itself as the root (the caller promises not to write to `of` afterwards).
   */
  static over<K, V extends object>(of: ReadonlyMap<K, V>): LayeredMap<K, V> {
    if (of instanceof LayeredMap) return (of as LayeredMap<K, V>).fork();
    return new LayeredMap<K, V>(of, new Map(), 0);
  }

  /**
   * `of` with `updates` written over the keys it has (keys it lacks are skipped). Many updates (an edit
   * that moved every tool after it in a layer's text) go into a new root in one pass: layered, they
   * would be copied again by the next fork's fold.
   */
  static patched<K, V extends object>(of: ReadonlyMap<K, V>, updates: ReadonlyMap<K, V>): LayeredMap<K, V> {
    if (updates.size * FOLD > of.size) {
      const root = new Map<K, V>();
      for (const [k, v] of of) root.set(k, updates.get(k) ?? v);
      return new LayeredMap<K, V>(root, new Map(), 0);
    }
    const out = LayeredMap.over(of);
    for (const [k, v] of updates) if (out.has(k)) out.set(k, v);
    return out;
  }

  /** A copy whose writes and this map's are not seen by each other; O(this map's writes since the last fold). */
  fork(): LayeredMap<K, V> {
    if (this.top.size > 0 && this.top.size * FOLD > this.root.size) this.fold();
    return new LayeredMap<K, V>(this.root, new Map(this.top), this.added);
  }

  /** Makes the entries one root (the old root stays as it was for the forks that share it). */
  private fold(): void {
    if (this.root.size === 0) {
      // Nothing to merge: the top becomes the root, and is written to no more.
      this.root = this.top;
    } else {
      const merged = new Map(this.root);
      for (const [k, v] of this.top) merged.set(k, v);
      this.root = merged;
    }
    this.top = new Map();
    this.added = 0;
  }

  get size(): number {
    return this.root.size + this.added;
  }

  get(key: K): V | undefined {
    return this.top.get(key) ?? this.root.get(key);
  }

  has(key: K): boolean {
    return this.top.has(key) || this.root.has(key);
  }

  set(key: K, value: V): this {
    if (!this.top.has(key) && !this.root.has(key)) this.added++;
    this.top.set(key, value);
    this.list = undefined;
    return this;
  }

  /** Rare (a layer edit that drops a tool): folds, then deletes from the map it now owns alone. */
  delete(key: K): boolean {
    if (!this.has(key)) return false;
    const own = new Map(this.root);
    for (const [k, v] of this.top) own.set(k, v);
    own.delete(key);
    this.list = undefined;
    this.root = own;
    this.top = new Map();
    this.added = 0;
    return true;
  }

  clear(): void {
    this.list = undefined;
    this.root = EMPTY as ReadonlyMap<K, V>;
    this.top = new Map();
    this.added = 0;
  }

  *entries(): MapIterator<[K, V]> {
    const top = this.top;
    if (top.size === 0) {
      yield* this.root.entries();
      return;
    }
    const root = this.root;
    if (root.size === 0) {
      yield* top.entries();
      return;
    }
    for (const [k, v] of root) yield [k, top.get(k) ?? v];
    if (this.added > 0) for (const e of top) if (!root.has(e[0])) yield e;
  }

  *keys(): MapIterator<K> {
    yield* this.root.keys();
    if (this.added > 0) for (const k of this.top.keys()) if (!this.root.has(k)) yield k;
  }

  /**
   * The values, from a list made once per write (a native iterator: the engine's states are walked
   * whole several times a keystroke, and a generator's step per tool cost more than the walk).
   */
  values(): MapIterator<V> {
    if (this.top.size === 0) return this.root.values();
    if (this.root.size === 0) return this.top.values();
    return this.valueList().values() as unknown as MapIterator<V>;
  }

  private valueList(): V[] {
    if (this.list) return this.list;
    const { root, top } = this;
    const list = new Array<V>(this.size);
    let i = 0;
    for (const [k, v] of root) list[i++] = top.get(k) ?? v;
    if (this.added > 0) for (const [k, v] of top) if (!root.has(k)) list[i++] = v;
    this.list = list;
    return list;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
}
