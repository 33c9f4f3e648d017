// The TOML syntax tree the core reads layer files into. Every node keeps its
// source span so diagnostics, provenance and format-preserving edits can point
// at exact bytes. Offsets are UTF-16 code-unit offsets into the layer text (what
// JavaScript strings, Monaco and the editor all use).

import { floatValue } from '../json/serde';

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

/** 1-based line and column of an offset, from a precomputed index of line starts. */
export class LineIndex {
  /** The offset each line starts at, found when a position is first asked for (most texts never are). */
  private lineStarts: number[] | undefined;
  constructor(private readonly text: string) {}
  private get starts(): number[] {
    if (!this.lineStarts) {
      const starts = [0];
      const text = this.text;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }
  position(offset: number): { line: number; column: number } {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  }
}
