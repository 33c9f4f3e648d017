// The TOML syntax tree the core reads layer files into. Every node keeps its
// source span so diagnostics, provenance and format-preserving edits can point
// at exact bytes. Offsets are UTF-16 code-unit offsets into the layer text (what
// JavaScript strings, Monaco and the editor all use).

import { floatValue } from '../json/serde';
import type { TextReader } from './chunked-text';

export interface Span {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
}

export type TomlScalar =
  | { readonly kind: 'string'; readonly value: string; readonly span: Span }
  | { readonly kind: 'integer'; readonly value: number; readonly span: Span }
  | { readonly kind: 'float'; readonly value: number; readonly span: Span }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly span: Span }
  /** Offset/local date-times, dates and times, kept as their source text. */
  | { readonly kind: 'datetime'; readonly value: string; readonly span: Span };

export interface TomlArray {
  readonly kind: 'array';
  readonly items: TomlValue[];
  readonly span: Span;
}

/**
 * A table. `origin` says how it came to exist:
 * - `header`: a `[a.b]` header (span = header start .. end of its last key/value line);
 * - `inline`: `{ ... }` (span covers the braces);
 * - `dotted`: created by a dotted key `a.b = 1` (span = the first such key);
 * - `implicit`: created as the parent of a header `[a.b.c]`;
 * - `array-element`: one `[[a.b]]` element (span as for `header`);
 * - `root`: the document.
 */
export interface TomlTable {
  readonly kind: 'table';
  readonly origin: 'root' | 'header' | 'inline' | 'dotted' | 'implicit' | 'array-element';
  /** Keys in insertion order. A Map, because a key may be `__proto__`. */
  readonly entries: Map<string, TomlEntry>;
  span: Span;
  /** For `header`/`array-element`: the span of the `[...]` / `[[...]]` header itself. */
  readonly headerSpan?: Span;
  /**
   * For `header`/`array-element`/`root`: the offset just after the last key/value line of this
   * table's own section (after that line's value and any trailing comment, before the newline),
   * or the end of the header when the section has no key/value lines. Where a new `key = value`
   * line is inserted.
   */
  bodyEnd?: number;
}

export interface TomlTableArray {
  readonly kind: 'table-array';
  readonly items: TomlTable[];
  readonly span: Span;
}

export type TomlValue = TomlScalar | TomlArray | TomlTable | TomlTableArray;

export interface TomlEntry {
  readonly key: string;
  /** Span of this key segment as written (quotes included). */
  readonly keySpan: Span;
  readonly value: TomlValue;
  /**
   * For an entry written as `key = value` (dotted or not), the span from the first key segment of
   * the line to the end of the value. Absent for tables that exist through headers.
   */
  readonly pairSpan?: Span;
}

export interface TomlSyntaxError {
  readonly message: string;
  readonly span: Span;
}

export interface TomlDocument {
  readonly root: TomlTable;
  /** Empty when the text parsed. On a syntax error `root` holds what parsed before it. */
  readonly errors: TomlSyntaxError[];
  /**
   * The arrays parsed as plain values (see TomlParseOptions.plainArrays), each with the value
   * `toPlain(node, true)` would give it (whole floats kept); nobody else holds these values. Absent on a syntax error.
   */
  readonly plainValues?: ReadonlyMap<TomlValue, unknown>;
  /** Every header read, in document order (asked for with TomlParseOptions.sections). */
  readonly sections?: readonly TomlSection[];
}

/** A `[a.b]` or `[[a.b]]` header: where its `[` is and the key path it names. */
export interface TomlSection {
  readonly start: number;
  readonly path: readonly string[];
  readonly array: boolean;
}

/**
 * Converts a node to plain JavaScript (objects created with a null prototype). With `keepFloats`, a
 * whole float (`1.0`, `3e2`) becomes a JsonFloat, so a value bound for a request body or a cost
 * keeps serde_json's `1.0` (see ../json/serde.ts); without it every number is a plain number.
 */
export function toPlain(node: TomlValue, keepFloats = false): unknown {
  switch (node.kind) {
    case 'array':
      return node.items.map((item) => toPlain(item, keepFloats));
    case 'table-array':
      return node.items.map((item) => toPlain(item, keepFloats));
    case 'table': {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, e] of node.entries) out[k] = toPlain(e.value, keepFloats);
      return out;
    }
    case 'float':
      return keepFloats ? floatValue(node.value) : node.value;
    default:
      return node.value;
  }
}

/** Where two texts differ: [start, oldEnd) of the old text became [start, newEnd) of the new. */
export interface TextRange {
  readonly start: number;
  readonly oldEnd: number;
  readonly newEnd: number;
}

/** Lines a block of the index holds (a block is made again when an edit touches it). */
const BLOCK = 1024;

/**
 * The line starts, in blocks: block k holds the starts of its lines relative to `bases[k]`, and
 * `lines[k]` lines come before it. An edit makes again only the blocks it touches and moves the bases
 * after them (one number a block), and the index before the edit is left as it was, so an index of a
 * catalogue-sized layer follows typing without a pass over the text (issue 32).
 */
interface Blocks {
  readonly blocks: readonly (readonly number[])[];
  readonly bases: readonly number[];
  readonly lines: readonly number[];
}

/** 1-based line and column of an offset, from an index of line starts built when first asked (most texts never are) or carried over an edit. */
export class LineIndex {
  private built: Blocks | undefined;
  constructor(
    private readonly text: TextReader,
    built?: Blocks,
  ) {
    this.built = built;
  }

  private get index(): Blocks {
    this.built ??= blocksOfText(this.text);
    return this.built;
  }

  position(offset: number): { line: number; column: number } {
    const { blocks, bases, lines } = this.index;
    // The last block whose first line starts at or before the offset, then the line in it.
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((bases[mid] ?? 0) + (blocks[mid]?.[0] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    const block = blocks[lo] ?? [0];
    const rel = offset - (bases[lo] ?? 0);
    let a = 0;
    let b = block.length - 1;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if ((block[mid] ?? 0) <= rel) a = mid;
      else b = mid - 1;
    }
    return { line: (lines[lo] ?? 0) + a + 1, column: rel - (block[a] ?? 0) + 1 };
  }

  /**
   * The index of `text`, made from this one (of the text before the edit) by the edit `r`: the lines
   * the edit removed and added, the later ones moved. Lazy when this one was never built.
   */
  edited(text: TextReader, r: TextRange): LineIndex {
    const old = this.built;
    if (!old) return new LineIndex(text);
    const delta = r.newEnd - r.oldEnd;
    const { blocks, bases } = old;
    // The blocks holding the lines the edit touches: from the line holding its start to the one holding its end.
    const blockOf = (offset: number): number => {
      let lo = 0;
      let hi = blocks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((bases[mid] ?? 0) + (blocks[mid]?.[0] ?? 0) <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const a = blockOf(r.start);
    const b = blockOf(r.oldEnd);
    const starts: number[] = [];
    for (let k = a; k <= b; k++) {
      const base = bases[k] ?? 0;
      for (const s of blocks[k] ?? []) {
        const at = base + s;
        if (at <= r.start) starts.push(at);
        else if (at > r.oldEnd) starts.push(at + delta);
      }
      if (k === a) for (let i = text.indexOf('\n', r.start); i !== -1 && i < r.newEnd; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    // The line starts between the edit and the end of block b were pushed before the new ones when a === b: keep them in order.
    starts.sort((x, y) => x - y);
    const made = blocksOf(starts);
    const outBlocks = blocks.slice(0, a);
    const outBases = bases.slice(0, a);
    for (let k = 0; k < made.blocks.length; k++) {
      outBlocks.push(made.blocks[k] ?? []);
      outBases.push(made.bases[k] ?? 0);
    }
    for (let k = b + 1; k < blocks.length; k++) {
      outBlocks.push(blocks[k] ?? []);
      outBases.push((bases[k] ?? 0) + delta);
    }
    const outLines: number[] = old.lines.slice(0, a);
    let n = a > 0 ? (old.lines[a - 1] ?? 0) + (blocks[a - 1]?.length ?? 0) : 0;
    for (let k = a; k < outBlocks.length; k++) {
      outLines.push(n);
      n += outBlocks[k]?.length ?? 0;
    }
    return new LineIndex(text, { blocks: outBlocks, bases: outBases, lines: outLines });
  }
}

/**
 * blocksOf(every line start of `text`), read straight into the blocks: at 100,000 tools (2.25 million
 * lines) the array of all the starts, grown by push and then copied into blocks, was ~140 MB of
 * allocation at each open.
 */
function blocksOfText(text: TextReader): Blocks {
  let block = [0];
  let base = 0;
  const blocks = [block];
  const bases = [0];
  const lines = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (block.length === BLOCK) {
      base = i + 1;
      block = [];
      blocks.push(block);
      bases.push(base);
      lines.push(lines.length * BLOCK);
    }
    block.push(i + 1 - base);
  }
  return { blocks, bases, lines };
}

/** Absolute line starts (ascending, the first 0 or the start of the first line of a block) in blocks of BLOCK lines. */
function blocksOf(starts: readonly number[]): Blocks {
  const blocks: number[][] = [];
  const bases: number[] = [];
  const lines: number[] = [];
  for (let k = 0; k < starts.length; k += BLOCK) {
    const base = starts[k] ?? 0;
    const block: number[] = [];
    for (let j = k; j < Math.min(starts.length, k + BLOCK); j++) block.push((starts[j] ?? 0) - base);
    blocks.push(block);
    bases.push(base);
    lines.push(k);
  }
  if (blocks.length === 0) return { blocks: [[0]], bases: [0], lines: [0] };
  return { blocks, bases, lines };
}
