// A hash table from token text to a value, looked up by a range of a larger
// string: indexing a catalogue meets each of its ~450,000 token occurrences
// once, and slicing each into a string of its own just to look it up in a Map
// was a third of the cost of building the index and most of its garbage. A
// token's string is made once, when the table first meets it.

export const HASH_SEED = 0x811c9dc5 | 0;

/** One step of the table's hash (FNV-1a over UTF-16 code units), for callers that hash as they scan. */
export function hashStep(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193);
}

export function hashRange(text: string, start: number, end: number): number {
  let h = HASH_SEED;
  for (let i = start; i < end; i++) h = hashStep(h, text.charCodeAt(i));
  return h;
}

export class TokenTable<T> {
  #keys: string[] = [];
  #values: T[] = [];
  /** Per slot: 0 empty, else the index into #keys/#values plus one. */
  #slots = new Int32Array(1024);
  #hashes = new Int32Array(1024);
  #mask = 1023;

  get size(): number {
    return this.#keys.length;
  }

  /** The value of text[start, end), made by `create(token)` the first time that token is met. */
  range(text: string, start: number, end: number, create: (token: string) => T): T {
    return this.hashedRange(text, start, end, hashRange(text, start, end), create);
  }

  /** `range`, given hashRange(text, start, end) by a caller that worked it out while scanning. */
  hashedRange(text: string, start: number, end: number, h: number, create: (token: string) => T): T {
    const length = end - start;
    const mask = this.#mask;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const at = this.#slots[slot] as number;
      if (at === 0) return this.#insert(slot, h, text.slice(start, end), create);
      if (this.#hashes[slot] !== h) continue;
      const key = this.#keys[at - 1] as string;
      if (key.length !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (key.charCodeAt(i) !== text.charCodeAt(start + i)) {
          same = false;
          break;
        }
      }
      if (same) return this.#values[at - 1] as T;
    }
  }

  /** The value of a whole string, as `range` would give for it. */
  get(token: string, create: (token: string) => T): T {
    return this.range(token, 0, token.length, create);
  }

  #insert(slot: number, h: number, token: string, create: (token: string) => T): T {
    const value = create(token);
    this.#keys.push(token);
    this.#values.push(value);
    this.#slots[slot] = this.#keys.length;
    this.#hashes[slot] = h;
    if (this.#keys.length * 2 > this.#mask) this.#grow();
    return value;
  }

  #grow(): void {
    const capacity = (this.#mask + 1) * 2;
    const slots = new Int32Array(capacity);
    const hashes = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let s = 0; s <= this.#mask; s++) {
      const at = this.#slots[s] as number;
      if (at === 0) continue;
      const h = this.#hashes[s] as number;
      let slot = h & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = at;
      hashes[slot] = h;
    }
    this.#slots = slots;
    this.#hashes = hashes;
    this.#mask = mask;
  }
}
