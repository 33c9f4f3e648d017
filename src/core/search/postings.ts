// One term's postings in one field: document short id -> term frequency, the
// `Map<number, number>` MiniSearch keeps per term and field, held in typed
// arrays instead. A 10,000-tool catalogue has about 320,000 postings; as Map
// entries they were most of the cost of building the index, and most of what
// the garbage collector then had to trace and copy on every collection.
//
// An index built in one go (buildIndex) counts its postings first and gives
// every list a slice of two shared arrays (PostingList.view): a handful of
// allocations for the whole index, none of them traced. A list copies its slice
// into arrays of its own the first time it changes.
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

const NO_IDS = new Int32Array(0);
const NO_FREQS = new Int32Array(0);

export class PostingList implements Map<number, number> {
  /** Document short ids, ascending, at [start, start + length). */
  ids: Int32Array;
  /**
   * Term frequency of each id, at the same index. A view made by a bulk build may hold them in bytes
   * (every frequency of the build under 256): a list's own arrays, made at its first change, are Int32.
   */
  freqs: Int32Array | Uint8Array;
  start = 0;
  length = 0;
  /** False while the arrays are shared with other lists (a view, or a new list's empty arrays). */
  #owned = false;

  /**
   * An empty list, over shared empty arrays until its first entry: a bulk build makes every list a
   * view (50,000 of them at 100,000 tools), and arrays made here only to be replaced were 100,000
   * typed arrays of garbage a build.
   */
  constructor() {
    this.ids = NO_IDS;
    this.freqs = NO_FREQS;
  }

  /** A list over ids[start, start + length) and the same slice of freqs, shared until it changes. */
  static view(ids: Int32Array, freqs: Int32Array | Uint8Array, start: number, length: number): PostingList {
    const list = new PostingList();
    list.ids = ids;
    list.freqs = freqs;
    list.start = start;
    list.length = length;
    list.#owned = false;
    return list;
  }

  /** A list holding the entries of `map`, whatever order they come in. */
  static from(map: ReadonlyMap<number, number>): PostingList {
    const list = new PostingList();
    for (const [id, freq] of map) list.set(id, freq);
    return list;
  }

  get size(): number {
    return this.length;
  }

  get [Symbol.toStringTag](): string {
    return 'PostingList';
  }

  /** Counts one more occurrence of the term in document `id`: the indexing fast path. */
  increment(id: number): void {
    const last = this.start + this.length - 1;
    if (this.length > 0 && this.ids[last] === id) {
      this.#own(0);
      this.freqs[this.start + this.length - 1] = (this.freqs[this.start + this.length - 1] as number) + 1;
      return;
    }
    this.set(id, (this.get(id) ?? 0) + 1);
  }

  /** Arrays of this list's own, starting at 0, with room for `extra` more entries. */
  #own(extra: number): void {
    if (this.#owned && this.start === 0 && this.length + extra <= this.ids.length) return;
    const capacity = Math.max(4, this.#owned && this.start === 0 ? this.ids.length * 2 : (this.length + extra) * 2);
    const ids = new Int32Array(capacity);
    const freqs = new Int32Array(capacity);
    ids.set(this.ids.subarray(this.start, this.start + this.length));
    freqs.set(this.freqs.subarray(this.start, this.start + this.length));
    this.ids = ids;
    this.freqs = freqs;
    this.start = 0;
    this.#owned = true;
  }

  /** The index of `id` (from `start`), or -(insertion point) - 1. */
  #find(id: number): number {
    const ids = this.ids;
    const base = this.start;
    const n = this.length;
    if (n > 0 && ids[base + n - 1] === id) return n - 1;
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[base + mid] as number;
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  get(id: number): number | undefined {
    const at = this.#find(id);
    return at >= 0 ? this.freqs[this.start + at] : undefined;
  }

  has(id: number): boolean {
    return this.#find(id) >= 0;
  }

  set(id: number, freq: number): this {
    const n = this.length;
    const at = n === 0 || (this.ids[this.start + n - 1] as number) < id ? -n - 1 : this.#find(id);
    if (at >= 0) {
      this.#own(0);
      this.freqs[at] = freq;
      return this;
    }
    const insert = -at - 1;
    this.#own(1);
    this.ids.copyWithin(insert + 1, insert, n);
    this.freqs.copyWithin(insert + 1, insert, n);
    this.ids[insert] = id;
    this.freqs[insert] = freq;
    this.length = n + 1;
    return this;
  }

  delete(id: number): boolean {
    const at = this.#find(id);
    if (at < 0) return false;
    this.#own(0);
    const n = this.length;
    this.ids.copyWithin(at, at + 1, n);
    this.freqs.copyWithin(at, at + 1, n);
    this.length = n - 1;
    return true;
  }

  /** Moves every id from `from` up by `delta` (which keeps them ascending: no id lies in the range they move over). */
  shiftFrom(from: number, delta: number): void {
    const end = this.start + this.length;
    let i = this.start;
    while (i < end && (this.ids[i] as number) < from) i++;
    if (i === end) return;
    // Shifting in place is safe for a view too: its slice of the shared arrays is its own.
    for (; i < end; i++) this.ids[i] = (this.ids[i] as number) + delta;
  }

  clear(): void {
    this.ids = new Int32Array(4);
    this.freqs = new Int32Array(4);
    this.start = 0;
    this.length = 0;
    this.#owned = true;
  }

  forEach(fn: (freq: number, id: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    const ids = this.ids.slice(this.start, this.start + this.length);
    const freqs = this.freqs.slice(this.start, this.start + this.length);
    for (let i = 0; i < ids.length; i++) fn.call(thisArg, freqs[i] as number, ids[i] as number, this);
  }

  *entries(): MapIterator<[number, number]> {
    const ids = this.ids.slice(this.start, this.start + this.length);
    const freqs = this.freqs.slice(this.start, this.start + this.length);
    for (let i = 0; i < ids.length; i++) yield [ids[i] as number, freqs[i] as number];
  }

  keys(): MapIterator<number> {
    return this.ids.slice(this.start, this.start + this.length).values();
  }

  values(): MapIterator<number> {
    return this.freqs.slice(this.start, this.start + this.length).values();
  }

  [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}
