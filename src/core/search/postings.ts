// One term's postings in one field: document short id -> term frequency, the
// `Map<number, number>` MiniSearch keeps per term and field, held in two arrays
// of small integers instead. A 10,000-tool catalogue has about 320,000 postings;
// as Map entries they were most of the cost of building the index and a good
// part of the process's time in garbage collection. (Plain arrays, not typed
// ones: the lists grow one entry at a time, and allocating a typed array for
// every growth step of 6,000 lists cost more than the arrays save.)
//
// It answers every Map method MiniSearch calls on postings (get, has, set,
// delete, size, keys, entries, iteration, forEach), so MiniSearch's own add,
// remove, vacuum, search and toJSON work on it unchanged. Entries are kept in
// ascending id order, which is also the order MiniSearch inserts them in while
// it builds (it assigns short ids in sequence): a set is then an append or an
// update of the last entry; anything else finds its place by binary search.
//
// Iteration walks a snapshot, so deleting during a loop (as MiniSearch's vacuum
// and search do for discarded documents) never skips an entry.

export class PostingList implements Map<number, number> {
  /** Document short ids, ascending. */
  readonly ids: number[] = [];
  /** Term frequency of each id, at the same index. */
  readonly freqs: number[] = [];

  /** A list holding the entries of `map`, whatever order they come in. */
  static from(map: ReadonlyMap<number, number>): PostingList {
    const list = new PostingList();
    for (const [id, freq] of map) list.set(id, freq);
    return list;
  }

  get size(): number {
    return this.ids.length;
  }

  get [Symbol.toStringTag](): string {
    return 'PostingList';
  }

  /** Counts one more occurrence of the term in document `id`: the indexing fast path. */
  increment(id: number): void {
    const n = this.ids.length;
    if (n > 0 && this.ids[n - 1] === id) {
      this.freqs[n - 1] = (this.freqs[n - 1] as number) + 1;
      return;
    }
    this.set(id, (this.get(id) ?? 0) + 1);
  }

  /** The index of `id`, or -(insertion point) - 1. */
  #find(id: number): number {
    const ids = this.ids;
    const n = ids.length;
    if (n > 0 && ids[n - 1] === id) return n - 1;
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid] as number;
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  get(id: number): number | undefined {
    const at = this.#find(id);
    return at >= 0 ? this.freqs[at] : undefined;
  }

  has(id: number): boolean {
    return this.#find(id) >= 0;
  }

  set(id: number, freq: number): this {
    const n = this.ids.length;
    if (n === 0 || (this.ids[n - 1] as number) < id) {
      this.ids.push(id);
      this.freqs.push(freq);
      return this;
    }
    const at = this.#find(id);
    if (at >= 0) this.freqs[at] = freq;
    else {
      this.ids.splice(-at - 1, 0, id);
      this.freqs.splice(-at - 1, 0, freq);
    }
    return this;
  }

  delete(id: number): boolean {
    const at = this.#find(id);
    if (at < 0) return false;
    this.ids.splice(at, 1);
    this.freqs.splice(at, 1);
    return true;
  }

  clear(): void {
    this.ids.length = 0;
    this.freqs.length = 0;
  }

  forEach(fn: (freq: number, id: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    const ids = this.ids.slice();
    const freqs = this.freqs.slice();
    for (let i = 0; i < ids.length; i++) fn.call(thisArg, freqs[i] as number, ids[i] as number, this);
  }

  *entries(): MapIterator<[number, number]> {
    const ids = this.ids.slice();
    const freqs = this.freqs.slice();
    for (let i = 0; i < ids.length; i++) yield [ids[i] as number, freqs[i] as number];
  }

  keys(): MapIterator<number> {
    return this.ids.slice().values();
  }

  values(): MapIterator<number> {
    return this.freqs.slice().values();
  }

  [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}
