// Splitting a command line into words the way a POSIX shell does, and the
// inverse (quoting a word so the shell reads it back unchanged). Only the
// quoting rules are modelled: nothing is expanded, and shell syntax the
// workbench cannot run (operators, comments) is rejected rather than guessed.
import type { Span } from '../config/toml-ast';

export type { Span };

/** One word after quote removal. */
export interface ShellWord {
  /** The word as the program receives it (quotes and escapes removed). */
  readonly value: string;
  /** Source offsets of the whole word, quotes included. `end` is exclusive. */
  readonly span: Span;
  /** For each character of `value`, the source offset where the text that produced it starts. */
  readonly charStarts: readonly number[];
  /** For each character of `value`, the (exclusive) source offset where that text ends. */
  readonly charEnds: readonly number[];
}

/** A 1-based column range (`endColumn` exclusive, as Monaco markers use) plus the offsets it came from. */
export interface ShellError {
  readonly message: string;
  readonly column: number;
  readonly endColumn: number;
  readonly span: Span;
}

export type SplitResult =
  | { readonly ok: true; readonly words: ShellWord[] }
  | { readonly ok: false; readonly error: ShellError };

const BLANKS = new Set([' ', '\t', '\n']);
const OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')']);
/** Characters a backslash escapes inside double quotes. */
const DQ_ESCAPABLE = new Set(['\\', '"', '$', '`']);

/** 1-based columns for a span; an empty span still covers one column so editors can show it. */
export function spanColumns(span: Span): { column: number; endColumn: number } {
  return { column: span.start + 1, endColumn: Math.max(span.end, span.start + 1) + 1 };
}

function fail(message: string, span: Span): SplitResult {
  return { ok: false, error: { message, span, ...spanColumns(span) } };
}

/**
 * Split `line` into words: single quotes keep everything literally; double quotes keep everything but
 * `\\`, `\"`, `\$`, `` \` `` and backslash-newline; outside quotes a backslash takes the next character
 * literally (backslash-newline joins lines); adjacent quoted and unquoted parts form one word; unquoted
 * spaces, tabs and newlines separate words.
 */
export function splitShellWords(line: string): SplitResult {
  const words: ShellWord[] = [];
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charAt(i);
    if (BLANKS.has(c)) {
      i += 1;
      continue;
    }
    const wordStart = i;
    let value = '';
    const charStarts: number[] = [];
    const charEnds: number[] = [];
    let started = false;
    const push = (text: string, start: number, end: number): void => {
      value += text;
      charStarts.push(start);
      charEnds.push(end);
      started = true;
    };
    while (i < n) {
      const ch = line.charAt(i);
      if (BLANKS.has(ch)) break;
      if (ch === "'") {
        const close = line.indexOf("'", i + 1);
        if (close < 0) return fail('unterminated single quote', { start: i, end: n });
        for (let k = i + 1; k < close; k += 1) push(line.charAt(k), k, k + 1);
        started = true;
        i = close + 1;
      } else if (ch === '"') {
        const open = i;
        let j = i + 1;
        let closed = false;
        while (j < n) {
          const d = line.charAt(j);
          if (d === '"') {
            closed = true;
            break;
          }
          if (d === '\\' && j + 1 < n) {
            const e = line.charAt(j + 1);
            if (e === '\n') {
              j += 2;
              continue;
            }
            if (DQ_ESCAPABLE.has(e)) {
              push(e, j, j + 2);
              j += 2;
              continue;
            }
          }
          push(d, j, j + 1);
          j += 1;
        }
        if (!closed) return fail('unterminated double quote', { start: open, end: n });
        started = true;
        i = j + 1;
      } else if (ch === '\\') {
        if (i + 1 >= n) {
          push('\\', i, i + 1);
          i += 1;
        } else if (line.charAt(i + 1) === '\n') {
          i += 2;
        } else {
          push(line.charAt(i + 1), i, i + 2);
          i += 2;
        }
      } else if (OPERATORS.has(ch)) {
        return fail(`unquoted \`${ch}\` is shell syntax the workbench does not run; quote it`, { start: i, end: i + 1 });
      } else if (ch === '#' && !started) {
        return fail('unquoted `#` at the start of a word begins a shell comment; quote it', { start: i, end: i + 1 });
      } else {
        push(ch, i, i + 1);
        i += 1;
      }
    }
    if (started) words.push({ value, span: { start: wordStart, end: i }, charStarts, charEnds });
  }
  return { ok: true, words };
}

/**
 * The source span of `word.value.slice(from, to)`. A range that reaches either end of the value takes
 * that end of the word's span (so its quotes are included).
 */
export function wordSubspan(word: ShellWord, from: number, to: number): Span {
  const len = word.value.length;
  const start = from <= 0 ? word.span.start : from >= len ? word.span.end : (word.charStarts[from] ?? word.span.end);
  if (to <= from) return { start, end: start };
  const end = to >= len ? word.span.end : (word.charEnds[to - 1] ?? word.span.end);
  return { start, end };
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
const DQ_UNSAFE = /["\\$`!]/;

/** Quote `word` (only if needed) so that `splitShellWords` reads it back as exactly one word equal to it. */
export function quoteShellWord(word: string): string {
  if (word === '') return "''";
  if (SAFE_WORD.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  if (!DQ_UNSAFE.test(word)) return `"${word}"`;
  return `'${word.split("'").join("'\\''")}'`;
}
