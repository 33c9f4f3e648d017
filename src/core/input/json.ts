// JSON from a user's file or a paste: parsed natively when it is well formed and
// not too deep; otherwise a sentence with the line and column of the first
// problem. V8's own messages carry no position in Node 20 ("Unexpected token
// '}', ... is not valid JSON"), so a small scanner finds the place.
import { LineIndex } from '../config/toml-ast';

/**
 * The deepest nesting of arrays and objects read. Real catalogues nest at most 16 levels
 * (LiveMCPBench's 70 servers; ../shared/data), and every value read here may later be walked
 * recursively (schemas, costs, JSON.stringify) or written into a scenario's TOML, whose parser
 * stops at 400: 100 leaves room for both and refuses the 100,000-level schemas that overflowed
 * the stack.
 */
export const MAX_JSON_DEPTH = 100;

export type JsonParse =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly offset: number; readonly message: string };

const BOM = '\uFEFF';

export interface JsonOptions {
  /** Deepest nesting read (default MAX_JSON_DEPTH). */
  readonly maxDepth?: number;
  /** The parser for well-formed text (default JSON.parse); it may throw, as JSON.parse does. */
  readonly parse?: (text: string) => unknown;
}

/** Parses JSON text (a leading byte-order mark is skipped); refuses nesting deeper than `maxDepth`. */
export function parseJson(text: string, options: JsonOptions = {}): JsonParse {
  const { maxDepth = MAX_JSON_DEPTH, parse = JSON.parse } = options;
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const skipped = text.length - body.length;
  let value: unknown;
  let parsed = false;
  try {
    value = parse(body);
    parsed = true;
  } catch {
    // Located below.
  }
  if (parsed && !deeperThan(value, maxDepth)) return { ok: true, value };
  const problem = scanJson(body, maxDepth) ?? { offset: 0, message: 'not valid JSON' };
  const offset = problem.offset + skipped;
  const { line, column } = new LineIndex(text).position(offset);
  return { ok: false, line, column, offset, message: problem.message };
}

/** Whether a parsed value nests arrays and objects deeper than `max` (iteratively: the value may be very deep). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

type Problem = { offset: number; message: string };

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** A character as a message shows it: visible, or its code point. */
function shown(text: string, at: number): string {
  const cp = text.codePointAt(at);
  if (cp === undefined) return 'the end of the text';
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : `\`${String.fromCodePoint(cp)}\``;
}

const VALUE = 'a value (an object, an array, a string in double quotes, a number, true, false or null)';

/**
 * The first problem in `text` as JSON (RFC 8259), or undefined when it is well formed and no deeper
 * than `maxDepth`. Iterative: a deep document cannot overflow the stack here. The core's one JSON
 * scanner: `onNumber` sees each number token (json/parse.ts keeps whole floats with it), and the
 * command line's `--cfg KEY:=JSON` check is this scan (cli/json.ts).
 */
export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH, onNumber?: (start: number, end: number) => void): Problem | undefined {
  const n = text.length;
  const open: number[] = []; // offsets of the open `[` and `{`
  let i = 0;
  // What comes next: a value; a value or `]`; a key or `}`; a key; after a value.
  let mode: 'value' | 'first-value' | 'first-key' | 'key' | 'after' = 'value';
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i += 1;
      else break;
    }
  };
  for (;;) {
    ws();
    const c = text.charCodeAt(i);
    const top = open.length > 0 ? text[open[open.length - 1] as number] : undefined;
    if (mode === 'after') {
      if (top === undefined) return i < n ? { offset: i, message: `unexpected ${shown(text, i)} after the end of the JSON value` } : undefined;
      const close = top === '[' ? ']' : '}';
      if (text[i] === ',') {
        i += 1;
        mode = top === '[' ? 'value' : 'key';
      } else if (text[i] === close) {
        i += 1;
        open.pop();
      } else if (i >= n) return { offset: open[open.length - 1] as number, message: `this \`${top}\` is never closed` };
      else return { offset: i, message: `expected \`,\` or \`${close}\`, found ${shown(text, i)}` };
      continue;
    }
    if (i >= n) return { offset: i, message: `the text ends where ${mode === 'key' || mode === 'first-key' ? 'a property name' : 'a value'} should be` };
    if (mode === 'first-value' && text[i] === ']') {
      i += 1;
      open.pop();
      mode = 'after';
      continue;
    }
    if (mode === 'first-key' && text[i] === '}') {
      i += 1;
      open.pop();
      mode = 'after';
      continue;
    }
    if (mode === 'key' || mode === 'first-key') {
      if (c !== 34) {
        if (text[i] === '}') return { offset: i, message: 'a trailing comma before `}`' };
        if (text.startsWith('//', i) || text.startsWith('/*', i)) return { offset: i, message: 'JSON has no comments' };
        return { offset: i, message: `expected a property name in double quotes, found ${shown(text, i)}` };
      }
      const bad = scanString(text, i);
      if (typeof bad !== 'number') return bad;
      i = bad;
      ws();
      if (text[i] !== ':') return { offset: i, message: `expected \`:\` after the property name, found ${shown(text, i)}` };
      i += 1;
      mode = 'value';
      continue;
    }
    // A value.
    if (c === 123 || c === 91) {
      if (open.length >= maxDepth) return { offset: i, message: `arrays and objects nest deeper than ${maxDepth} levels here; the workbench reads at most ${maxDepth} (real catalogues nest at most 16)` };
      open.push(i);
      i += 1;
      mode = c === 123 ? 'first-key' : 'first-value';
      continue;
    }
    if (text[i] === ']' && mode === 'value' && top === '[') return { offset: i, message: 'a trailing comma before `]`' };
    let end: number | Problem;
    if (c === 34) end = scanString(text, i);
    else if (c === 45 || isDigit(c)) {
      end = scanNumber(text, i);
      if (onNumber && typeof end === 'number') onNumber(i, end);
    }
    else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (word) end = i + word.length;
      else if (text.startsWith('//', i) || text.startsWith('/*', i)) return { offset: i, message: 'JSON has no comments' };
      else if (text[i] === "'") return { offset: i, message: 'JSON strings take double quotes, not single quotes' };
      else return { offset: i, message: `expected ${VALUE}, found ${shown(text, i)}` };
    }
    if (typeof end !== 'number') return end;
    i = end;
    mode = 'after';
  }
}

/** At `"`: the offset after the closing quote, or the problem. */
function scanString(text: string, start: number): number | Problem {
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return { offset: start, message: 'this string is never closed' };
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c === 10 || c === 13) return { offset: start, message: 'this string is not closed before the end of the line' };
    if (c < 0x20) return { offset: i, message: `a raw control character ${shown(text, i)} in a string; write it as \\u${c.toString(16).padStart(4, '0')}` };
    if (c === 92) {
      const e = text[i + 1];
      if (e === 'u') {
        for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return { offset: i, message: '`\\u` takes four hexadecimal digits' };
        i += 6;
        continue;
      }
      if (e === undefined || !'"\\/bfnrt'.includes(e)) return { offset: i, message: `unknown escape \`\\${e ?? ''}\` (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)` };
      i += 2;
      continue;
    }
    i += 1;
  }
}

/** At `-` or a digit: the offset after the number, or the problem. */
function scanNumber(text: string, start: number): number | Problem {
  let i = start;
  if (text[i] === '-') i += 1;
  const digits = (): boolean => {
    const from = i;
    while (isDigit(text.charCodeAt(i))) i += 1;
    return i > from;
  };
  if (text[i] === '0') {
    i += 1;
    if (isDigit(text.charCodeAt(i))) return { offset: start, message: 'a number cannot start with 0 (no leading zeros in JSON)' };
  } else if (!digits()) return { offset: i, message: `expected a digit, found ${shown(text, i)}` };
  if (text[i] === '.') {
    i += 1;
    if (!digits()) return { offset: i, message: `expected a digit after the decimal point, found ${shown(text, i)}` };
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i += 1;
    if (text[i] === '+' || text[i] === '-') i += 1;
    if (!digits()) return { offset: i, message: `expected a digit in the exponent, found ${shown(text, i)}` };
  }
  return i;
}

/** `where:line:column: message`, the form every JSON problem is printed in. */
export function jsonProblemText(where: string, p: { line: number; column: number; message: string }): string {
  return `${where}:${p.line}:${p.column}: not valid JSON: ${p.message}`;
}
