// A layer's text kept in chunks, so a keystroke in a catalogue-sized layer makes no catalogue-sized
// string (issue 32, the catalogue keystroke at 100,000 tools). A JS string made by slicing and
// concatenating (`before + typed + after`) is a rope until something reads its characters; the first
// read copies it whole into a flat string, and slicing a rope reads it. Applying each keystroke to the
// previous keystroke's text therefore copied the whole layer per keystroke (~91 M characters at
// 100,000 tools: 50 ms of copying and a large allocation that brought a major GC, ~200 ms in all).
//
// A ChunkedText holds the text as flat chunks of about CHUNK characters; an edit makes again only the
// chunks it touches (and copies the array of chunk pointers). `text` is the same characters as one
// string, built as a balanced rope of the chunks: a value to hand on (it is the layer's text for
// everything that takes a string) that nothing on the keystroke's path reads, so it is never copied
// flat unless some reader outside that path asks for its characters (once, then V8 keeps it flat).
// Readers on the path read the chunks through the TextReader methods, which a string has too.

/** What the incremental parse reads of a text: a string is one, and so is a ChunkedText. */
export interface TextReader {
  readonly length: number;
  charCodeAt(index: number): number;
  slice(start: number, end?: number): string;
  indexOf(search: string, position?: number): number;
  lastIndexOf(search: string, position?: number): number;
}

/** One edit as Monaco reports it: `rangeLength` characters at `rangeOffset` replaced by `text`. */
interface Change {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

/** Characters a chunk holds, about (an edit's chunk grows up to twice this before it is split). */
export const CHUNK = 1 << 15;

/** `s` as a flat string of its own (reading a rope flattens it). */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/** A string copied out of its parent (a slice of a string keeps the whole parent alive). */
function own(s: string): string {
  return s.length === 0 ? s : flat(` ${s}`).slice(1);
}

export class ChunkedText implements TextReader {
  private joined: string | undefined;
  /** The chunk the last read was in: reads come in runs near each other. */
  private hint = 0;

  private constructor(
    private readonly chunks: readonly string[],
    /** Where each chunk starts in the text. */
    private readonly starts: readonly number[],
    readonly length: number,
    /** Characters a chunk holds, about (CHUNK; smaller in tests, so short texts have many chunks). */
    private readonly size: number,
    joined?: string,
  ) {
    this.joined = joined;
  }

  /** `text` in chunks. The chunks are slices of `text` (which they keep alive until edits replace them). */
  static of(text: string, size = CHUNK): ChunkedText {
    if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`a chunk size must be a positive integer, not ${size}`);
    const chunks: string[] = [];
    const starts: number[] = [];
    for (let at = 0; at < text.length; at += size) {
      chunks.push(text.slice(at, at + size));
      starts.push(at);
    }
    return new ChunkedText(chunks, starts, text.length, size, text);
  }

  /** The characters as one string: a balanced rope of the chunks, made when first asked (not read here). */
  get text(): string {
    this.joined ??= join(this.chunks, 0, this.chunks.length);
    return this.joined;
  }

  /** How many chunks hold the text (for tests). */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /** The chunk holding `index` (the last one for the text's length). */
  private chunkAt(index: number): number {
    const starts = this.starts;
    const h = this.hint;
    if (h < starts.length && (starts[h] as number) <= index && (h + 1 >= starts.length || (starts[h + 1] as number) > index)) return h;
    const found = chunkHolding(starts, index);
    this.hint = found;
    return found;
  }

  charCodeAt(index: number): number {
    if (!(index >= 0 && index < this.length)) return NaN;
    const k = this.chunkAt(index);
    return (this.chunks[k] as string).charCodeAt(index - (this.starts[k] as number));
  }

  slice(start = 0, end = this.length): string {
    const n = this.length;
    const a = clampIndex(start, n);
    const b = clampIndex(end, n);
    if (b <= a) return '';
    const k = this.chunkAt(a);
    const chunk = this.chunks[k] as string;
    const s = this.starts[k] as number;
    if (b - s <= chunk.length) return chunk.slice(a - s, b - s);
    let out = chunk.slice(a - s);
    for (let j = k + 1; j < this.chunks.length; j++) {
      const c = this.chunks[j] as string;
      const cs = this.starts[j] as number;
      if (b - cs <= c.length) {
        out += c.slice(0, b - cs);
        break;
      }
      out += c;
    }
    return flat(out);
  }

  indexOf(search: string, position = 0): number {
    const from = clampIndex(position, this.length);
    if (search.length === 0) return from;
    const m = search.length;
    for (let k = this.chunkAt(from); k < this.chunks.length; k++) {
      const c = this.chunks[k] as string;
      const s = this.starts[k] as number;
      const local = Math.max(0, from - s);
      const i = c.indexOf(search, local);
      if (i !== -1) return s + i;
      // A match across the boundary with the next chunk starts in this chunk's last m - 1 characters.
      if (m > 1 && k + 1 < this.chunks.length) {
        const edge = Math.max(local, c.length - (m - 1));
        const j = this.slice(s + edge, s + c.length + m - 1).indexOf(search);
        if (j !== -1) return s + edge + j;
      }
    }
    return -1;
  }

  lastIndexOf(search: string, position = Infinity): number {
    const n = this.length;
    const m = search.length;
    const from = Math.min(Math.max(0, Number.isNaN(position) ? Infinity : Math.trunc(position)), n - m);
    if (from < 0) return -1;
    if (m === 0) return from;
    for (let k = this.chunkAt(from); k >= 0; k--) {
      const c = this.chunks[k] as string;
      const s = this.starts[k] as number;
      const i = c.lastIndexOf(search, from - s);
      // A match across this chunk's end: looked at before the ones wholly inside it (it starts later).
      if (m > 1 && k + 1 < this.chunks.length) {
        const edge = Math.max(0, c.length - (m - 1));
        const j = this.slice(s + edge, s + c.length + m - 1).lastIndexOf(search, from - s - edge);
        if (j !== -1 && s + edge + j <= from && s + edge + j > s + i) return s + edge + j;
      }
      if (i !== -1) return s + i;
    }
    return -1;
  }

  /**
   * The text with Monaco's changes of one event applied, each offset into this text and none
   * overlapping another (they are applied from the last, so every offset stays valid). Throws a
   * RangeError for a change outside the text or overlapping another.
   */
  edited(changes: readonly Change[]): ChunkedText {
    const sorted = changes.length > 1 ? [...changes].sort((x, y) => y.rangeOffset - x.rangeOffset) : changes;
    let chunks = this.chunks;
    let starts = this.starts;
    let length = this.length;
    let limit = this.length;
    for (const c of sorted) {
      const end = c.rangeOffset + c.rangeLength;
      if (!Number.isInteger(c.rangeOffset) || !Number.isInteger(c.rangeLength) || c.rangeOffset < 0 || c.rangeLength < 0 || end > limit) {
        throw new RangeError(`a text change at ${c.rangeOffset} (length ${c.rangeLength}) is outside a text of ${this.length} characters or overlaps another change`);
      }
      limit = c.rangeOffset;
      const next = replaced(chunks, starts, length, c.rangeOffset, end, c.text, this.size);
      chunks = next.chunks;
      starts = next.starts;
      length = next.length;
    }
    return new ChunkedText(chunks, starts, length, this.size);
  }
}

/** The chunk holding `index`: the last whose start is at or before it (binary search over the starts). */
function chunkHolding(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function clampIndex(i: number, n: number): number {
  if (Number.isNaN(i)) return 0;
  const t = Math.trunc(i);
  return t < 0 ? Math.max(0, n + t) : Math.min(t, n);
}

/** A balanced rope of chunks [lo, hi): no level deeper than log2 of their number. */
function join(chunks: readonly string[], lo: number, hi: number): string {
  if (hi - lo <= 0) return '';
  if (hi - lo === 1) return chunks[lo] as string;
  const mid = (lo + hi) >> 1;
  return join(chunks, lo, mid) + join(chunks, mid, hi);
}

/** The chunks with [from, to) replaced by `text`: the chunks holding the range made again, the rest kept. */
function replaced(chunks: readonly string[], starts: readonly number[], length: number, from: number, to: number, text: string, size: number): { chunks: string[]; starts: number[]; length: number } {
  if (chunks.length === 0) {
    const made = split(text, size);
    return { chunks: made, starts: startsOf(made, 0), length: text.length };
  }
  const find = (index: number): number => chunkHolding(starts, index);
  // The chunks the range touches: the one holding `from` (at the very end, the last one) to the one holding its last character.
  const a = find(Math.min(from, length - 1));
  let b = to > from ? find(to - 1) : a;
  let middle = (chunks[a] as string).slice(0, from - (starts[a] as number)) + text + (chunks[b] as string).slice(to - (starts[b] as number));
  // A chunk left small by deletions takes in the next one, so typing never leaves a trail of tiny chunks.
  if (middle.length < size / 4 && b + 1 < chunks.length) {
    b++;
    middle += chunks[b] as string;
  }
  const made = split(middle, size);
  const outChunks = chunks.slice(0, a);
  for (const m of made) outChunks.push(m);
  for (let k = b + 1; k < chunks.length; k++) outChunks.push(chunks[k] as string);
  const outStarts = starts.slice(0, a);
  let at = starts[a] as number;
  for (let k = a; k < outChunks.length; k++) {
    outStarts.push(at);
    at += (outChunks[k] as string).length;
  }
  return { chunks: outChunks, starts: outStarts, length: length - (to - from) + text.length };
}

/** `s` as flat chunks of its own: one up to twice `size`, else pieces of `size`. */
function split(s: string, size: number): string[] {
  if (s.length === 0) return [];
  if (s.length <= 2 * size) return [own(s)];
  const out: string[] = [];
  for (let at = 0; at < s.length; at += size) out.push(own(s.slice(at, at + size)));
  return out;
}

function startsOf(chunks: readonly string[], from: number): number[] {
  const out: number[] = [];
  let at = from;
  for (const c of chunks) {
    out.push(at);
    at += c.length;
  }
  return out;
}
