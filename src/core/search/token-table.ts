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

/** Ints a slot holds: the entry's number plus one (0: an empty slot), its hash, where its key's characters start in the table's characters, and its key's length. */
const SLOT = 4;

export class TokenTable<T> {
  #values: T[] = [];
  /**
   * SLOT ints per slot: a probe reads one slot's hash and length side by side, and compares a key's
   * characters in one array of every key's characters, not in a string of its own somewhere on the
   * heap (about 15 % of a lookup, measured on a 100,000-tool catalogue's 7 million tokens).
   */
  #slots = new Int32Array(1024 * SLOT);
  #chars = new Uint16Array(1 << 14);
  #charsUsed = 0;
  #mask = 1023;

  get size(): number {
    return this.#values.length;
  }

  /** The value of text[start, end), made by `create(token)` the first time that token is met. */
  range(text: string, start: number, end: number, create: (token: string) => T): T {
    return this.hashedRange(text, start, end, hashRange(text, start, end), create);
  }

  /** `range`, given hashRange(text, start, end) by a caller that worked it out while scanning. */
  hashedRange(text: string, start: number, end: number, h: number, create: (token: string) => T): T {
    return this.#values[this.hashedIndex(text, start, end, h, create)] as T;
  }

  /**
   * The number of text[start, end)'s entry (entries are numbered 0, 1, … as they are made, by
   * `create(token)` the first time a token is met), given hashRange(text, start, end): for a caller
   * that keeps what it knows of each token in arrays by that number, not in an object per token.
   */
  hashedIndex(text: string, start: number, end: number, h: number, create: (token: string) => T): number {
    const length = end - start;
    const mask = this.#mask;
    const slots = this.#slots;
    const chars = this.#chars;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const s = slot * SLOT;
      const at = slots[s] as number;
      if (at === 0) return this.#insert(slot, h, text, start, end, create);
      if (slots[s + 1] !== h || slots[s + 3] !== length) continue;
      const from = (slots[s + 2] as number) - start;
      let i = start;
      while (i < end && chars[from + i] === text.charCodeAt(i)) i++;
      if (i === end) return at - 1;
    }
  }

  /** The value of a whole string, as `range` would give for it. */
  get(token: string, create: (token: string) => T): T {
    return this.range(token, 0, token.length, create);
  }

  #insert(slot: number, h: number, text: string, start: number, end: number, create: (token: string) => T): number {
    const value = create(text.slice(start, end));
    this.#values.push(value);
    const length = end - start;
    const from = this.#charsUsed;
    if (from + length > this.#chars.length) {
      const chars = new Uint16Array(Math.max(this.#chars.length * 2, from + length));
      chars.set(this.#chars);
      this.#chars = chars;
    }
    for (let i = 0; i < length; i++) this.#chars[from + i] = text.charCodeAt(start + i);
    this.#charsUsed = from + length;
    const s = slot * SLOT;
    this.#slots[s] = this.#values.length;
    this.#slots[s + 1] = h;
    this.#slots[s + 2] = from;
    this.#slots[s + 3] = length;
    if (this.#values.length * 2 > this.#mask) this.#grow();
    return this.#values.length - 1;
  }

  #grow(): void {
    const capacity = (this.#mask + 1) * 2;
    const slots = new Int32Array(capacity * SLOT);
    const mask = capacity - 1;
    const old = this.#slots;
    for (let s = 0; s < old.length; s += SLOT) {
      if (old[s] === 0) continue;
      let slot = (old[s + 1] as number) & mask;
      while (slots[slot * SLOT] !== 0) slot = (slot + 1) & mask;
      for (let k = 0; k < SLOT; k++) slots[slot * SLOT + k] = old[s + k] as number;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}
