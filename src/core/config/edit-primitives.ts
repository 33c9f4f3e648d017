// Text-level building blocks of format-preserving layer edits (semantics 8.16):
// how a key or a value is written as TOML, where a new `key = value` goes in a
// table of each origin, and how a set of splices becomes one edit. Pure: text
// in, text (or splices) out. The edit rules themselves live in ./edit.
import type { Span, TomlEntry, TomlTable } from './toml-ast';

/** Replace `text[start, end)` by `insert`. Offsets are UTF-16 code units, as in the syntax tree. */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

/** A value to write, already typed (a `KEY=VALUE` string typed by its key, or `KEY:=JSON`). */
export type TomlWrite =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'array'; readonly items: readonly TomlWrite[] }
  /** Entries in order; an array of pairs, because a key may be `__proto__`. */
  | { readonly kind: 'table'; readonly entries: readonly (readonly [string, TomlWrite])[] };

export const str = (value: string): TomlWrite => ({ kind: 'string', value });
export const bool = (value: boolean): TomlWrite => ({ kind: 'boolean', value });
export const tableOf = (entries: readonly (readonly [string, TomlWrite])[]): TomlWrite => ({ kind: 'table', entries });

/** JSON (as `JSON.parse` returns it) → a write. `null` is dropped, as `--cfg` drops it (assign.ts). */
export function fromJson(value: unknown): TomlWrite | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return str(value);
  if (typeof value === 'boolean') return bool(value);
  if (typeof value === 'number') return { kind: 'number', value };
  if (Array.isArray(value)) {
    const items: TomlWrite[] = [];
    for (const v of value) {
      const w = fromJson(v);
      if (w) items.push(w);
    }
    return { kind: 'array', items };
  }
  if (typeof value === 'object') {
    const entries: [string, TomlWrite][] = [];
    for (const key of Object.keys(value)) {
      const w = fromJson((value as Record<string, unknown>)[key]);
      if (w) entries.push([key, w]);
    }
    return tableOf(entries);
  }
  return undefined;
}

/** True when the string holds a UTF-16 surrogate without its partner (not representable in a TOML file). */
export function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** A TOML basic string: `"` and `\` escaped, control characters as escapes, everything else as is. */
export function basicString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0d:
        out += '\\r';
        break;
      default:
        out += c < 0x20 || c === 0x7f ? `\\u${c.toString(16).toUpperCase().padStart(4, '0')}` : s.charAt(i);
    }
  }
  return `${out}"`;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * One key segment as written: bare when TOML allows it (A-Z a-z 0-9 _ -), `'*'` for the defaults
 * key (JP's own spelling), otherwise a basic string with escapes.
 */
export function formatKey(name: string): string {
  if (BARE_KEY.test(name)) return name;
  if (name === '*') return "'*'";
  return basicString(name);
}

export function formatPath(path: readonly string[]): string {
  return path.map(formatKey).join('.');
}

function formatNumber(n: number): string {
  if (Number.isSafeInteger(n)) return String(n === 0 ? 0 : n);
  // An integral number beyond ±2^53 is not a TOML integer this workbench can read back: write a float.
  if (Number.isInteger(n)) return n.toExponential();
  return String(n);
}

/** A value as TOML text. Tables are written inline: `{ a = 1, b = 2 }`, or `{}` when empty. */
export function renderValue(w: TomlWrite): string {
  switch (w.kind) {
    case 'string':
      return basicString(w.value);
    case 'boolean':
      return w.value ? 'true' : 'false';
    case 'number':
      return formatNumber(w.value);
    case 'array':
      return `[${w.items.map(renderValue).join(', ')}]`;
    case 'table':
      return w.entries.length === 0 ? '{}' : `{ ${w.entries.map(([k, v]) => `${formatKey(k)} = ${renderValue(v)}`).join(', ')} }`;
  }
}

/** `rest = [a, b]`, `w` → `{ a = { b = w } }` (the value that creates the missing tables inline). */
export function nest(rest: readonly string[], w: TomlWrite): TomlWrite {
  let out = w;
  for (let i = rest.length - 1; i >= 0; i--) out = tableOf([[rest[i] ?? '', out]]);
  return out;
}

/** Every string a write would put in the file (keys included), to refuse lone surrogates up front. */
export function writeStrings(w: TomlWrite): string[] {
  switch (w.kind) {
    case 'string':
      return [w.value];
    case 'array':
      return w.items.flatMap(writeStrings);
    case 'table':
      return w.entries.flatMap(([k, v]) => [k, ...writeStrings(v)]);
    default:
      return [];
  }
}

// ---- lines ------------------------------------------------------------------------------------

/** The file's newline: CRLF when its first line break is one, else LF. */
export function newlineOf(text: string): string {
  const lf = text.indexOf('\n');
  return lf > 0 && text.charCodeAt(lf - 1) === 13 ? '\r\n' : '\n';
}

export function lineStart(text: string, pos: number): number {
  let i = Math.min(pos, text.length);
  while (i > 0 && text.charCodeAt(i - 1) !== 10) i--;
  return i;
}

/** The end of the line holding `pos`: before its `\n` / `\r\n`, or the end of the text. */
export function lineEnd(text: string, pos: number): number {
  let i = pos;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10) break;
    if (c === 13 && text.charCodeAt(i + 1) === 10) break;
    i++;
  }
  return i;
}

/** The spaces and tabs that open the line starting at `start`. */
export function indentAt(text: string, start: number): string {
  let i = start;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return text.slice(start, i);
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

// ---- where a new key goes ---------------------------------------------------------------------

/** `, key = value` after the last pair of an inline table, or `{ key = value }` for an empty one. */
export function insertIntoInline(text: string, table: TomlTable, keyText: string, valueText: string): Splice {
  const pair = `${keyText} = ${valueText}`;
  if (table.entries.size === 0) return { start: table.span.start, end: table.span.end, insert: `{ ${pair} }` };
  let p = table.span.end - 1; // the `}`
  while (p > table.span.start && isBlank(text.charCodeAt(p - 1))) p--;
  return { start: p, end: p, insert: `, ${pair}` };
}

/**
 * A new line at a standard table's `bodyEnd` (after its last key/value line, or after the header
 * when it has none), indented like that line.
 */
export function insertIntoSection(text: string, table: TomlTable, keyText: string, valueText: string): Splice {
  const at = table.bodyEnd ?? table.span.end;
  const ls = lineStart(text, at);
  const onHeaderLine = table.headerSpan !== undefined && ls <= table.headerSpan.start;
  const indent = onHeaderLine || (table.origin === 'root' && at === 0) ? '' : indentAt(text, ls);
  return { start: at, end: at, insert: `${newlineOf(text)}${indent}${keyText} = ${valueText}` };
}

/** A root-level `key = value`: after the root's last pair, or at the top when it has none. */
export function insertIntoRoot(text: string, root: TomlTable, keyText: string, valueText: string): Splice {
  if ((root.bodyEnd ?? 0) > 0) return insertIntoSection(text, root, keyText, valueText);
  const at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const nl = newlineOf(text);
  const rest = text.slice(at);
  const sep = rest.length === 0 ? '' : rest.startsWith('\n') || rest.startsWith('\r\n') ? '' : nl;
  return { start: at, end: at, insert: `${keyText} = ${valueText}${nl}${sep}` };
}

/** The entries of a dotted table (and of dotted tables below it) written as `a.b = v` pairs. */
function pairsOf(table: TomlTable): TomlEntry[] {
  const out: TomlEntry[] = [];
  for (const e of table.entries.values()) {
    if (e.pairSpan === undefined) continue; // a sub-table from a [header]: not one of the dotted lines
    out.push(e);
    if (e.value.kind === 'table' && e.value.origin === 'dotted') out.push(...pairsOf(e.value));
  }
  return out;
}

/**
 * A dotted table (`enable.state = false` ...): the new pair repeats the key prefix the table is
 * written with (`enable.` as written, spacing included) and goes after the table's last pair, as
 * `, prefix.key = value` inside an inline table or on a new line in a section.
 */
export function insertIntoDotted(text: string, table: TomlTable, inInline: boolean, keyText: string, valueText: string): Splice | undefined {
  const pairs = pairsOf(table);
  const first = [...table.entries.values()].find((e) => e.pairSpan !== undefined);
  if (first?.pairSpan === undefined || pairs.length === 0) return undefined;
  const prefix = text.slice(first.pairSpan.start, first.keySpan.start);
  let last = pairs[0] as TomlEntry;
  for (const e of pairs) if ((e.pairSpan?.end ?? 0) > (last.pairSpan?.end ?? 0)) last = e;
  const lastSpan = last.pairSpan as Span;
  const pair = `${prefix}${keyText} = ${valueText}`;
  if (inInline) return { start: lastSpan.end, end: lastSpan.end, insert: `, ${pair}` };
  const at = lineEnd(text, lastSpan.end);
  return { start: at, end: at, insert: `${newlineOf(text)}${indentAt(text, lineStart(text, lastSpan.start))}${pair}` };
}

/** A new `[header]` section at the end of the file, after a blank line. */
export function appendSection(text: string, header: readonly string[], body: readonly (readonly [string, string])[]): Splice {
  const nl = newlineOf(text);
  let sep: string;
  if (text.length === 0 || text === '\ufeff') sep = '';
  else if (text.endsWith('\n\n') || text.endsWith('\r\n\r\n')) sep = '';
  else if (text.endsWith('\n')) sep = nl;
  else sep = nl + nl;
  const lines = [`[${formatPath(header)}]`, ...body.map(([k, v]) => `${k} = ${v}`)];
  return { start: text.length, end: text.length, insert: `${sep}${lines.join(nl)}${nl}` };
}

/**
 * Removes one `key = value` pair: with its comma inside an inline table; in a section, its whole
 * line, or only the pair when a comment follows it on the line (the comment stays).
 */
export function removePair(text: string, entry: TomlEntry, inInline: boolean): Splice | undefined {
  const span = entry.pairSpan;
  if (span === undefined) return undefined;
  if (inInline) {
    let j = span.end;
    while (isBlank(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 44) {
      j++;
      while (isBlank(text.charCodeAt(j))) j++;
      return { start: span.start, end: j, insert: '' };
    }
    let i = span.start;
    while (i > 0 && isBlank(text.charCodeAt(i - 1))) i--;
    if (text.charCodeAt(i - 1) === 44) return { start: i - 1, end: span.end, insert: '' };
    return { start: span.start, end: span.end, insert: '' };
  }
  let j = span.end;
  while (isBlank(text.charCodeAt(j))) j++;
  if (text.charCodeAt(j) === 35) return { start: span.start, end: j, insert: '' };
  const ls = lineStart(text, span.start);
  const le = lineEnd(text, span.end);
  if (le < text.length) return { start: ls, end: le + (text.charCodeAt(le) === 13 ? 2 : 1), insert: '' };
  // The last line of a file without a final newline: take the newline before it instead.
  const before = ls >= 2 && text.charCodeAt(ls - 2) === 13 ? 2 : ls >= 1 ? 1 : 0;
  return { start: ls - before, end: le, insert: '' };
}

// ---- applying ---------------------------------------------------------------------------------

/** Applies non-overlapping splices (any order given). */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const s of sorted) {
    if (s.end > limit) throw new Error('overlapping splices');
    out = out.slice(0, s.start) + s.insert + out.slice(s.end);
    limit = s.start;
  }
  return out;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The smallest single splice that turns `before` into `after` (common prefix and suffix kept),
 * never cutting a surrogate pair in two.
 */
export function minimalSplice(before: string, after: string): Splice {
  const max = Math.min(before.length, after.length);
  let p = 0;
  while (p < max && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  if (p > 0 && p < before.length && isHigh(before.charCodeAt(p - 1)) && isLow(before.charCodeAt(p))) p--;
  else if (p > 0 && p < after.length && isHigh(after.charCodeAt(p - 1)) && isLow(after.charCodeAt(p))) p--;
  let s = 0;
  while (s < max - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  const bEnd = before.length - s;
  const aEnd = after.length - s;
  if (s > 0 && ((bEnd > 0 && isHigh(before.charCodeAt(bEnd - 1)) && isLow(before.charCodeAt(bEnd))) || (aEnd > 0 && isHigh(after.charCodeAt(aEnd - 1)) && isLow(after.charCodeAt(aEnd))))) {
    s--;
  }
  return { start: p, end: before.length - s, insert: after.slice(p, after.length - s) };
}
