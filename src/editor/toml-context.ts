// Where the cursor is in a TOML layer, as the completions and hovers need it:
// in a `[table.header]`, typing a key, or typing a value (and for which key).
// Pure and line-based: it reads lines through a callback (Monaco's
// getLineContent, or a split string in tests), finds the table header above the
// cursor, and scans only that section. It works on text that does not parse,
// which is most text while typing.

/** 1-based line access, as Monaco's `model.getLineContent`. */
export type GetLine = (lineNumber: number) => string;

export type TomlContext =
  | {
      readonly kind: 'header';
      /** `[[...]]` rather than `[...]`. */
      readonly array: boolean;
      /** The segments before the one being typed. */
      readonly segments: readonly string[];
      readonly prefix: string;
      /** 1-based columns of the text to replace (the partial segment, quotes included). */
      readonly startColumn: number;
      readonly endColumn: number;
    }
  | {
      readonly kind: 'key';
      /** The table the key lands in (header path, inline nesting and dotted prefix included). */
      readonly parent: readonly string[];
      readonly prefix: string;
      readonly startColumn: number;
      readonly endColumn: number;
    }
  | {
      readonly kind: 'value';
      /** The absolute path of the key whose value is being typed (an array's items share its key). */
      readonly path: readonly string[];
      readonly prefix: string;
      /** The quote when the cursor is inside a string; the range is then the string's content. */
      readonly quote: '"' | "'" | undefined;
      readonly startColumn: number;
      readonly endColumn: number;
    }
  | { readonly kind: 'none' };

export interface TomlToken {
  readonly role: 'header' | 'key' | 'value';
  /** For a header or key segment: the path up to and including it. For a value: its key's path. */
  readonly path: readonly string[];
  /** The value as read (strings unescaped), or the key segment's name. */
  readonly text: string;
  readonly valueKind?: 'string' | 'boolean' | 'number' | 'other';
  readonly line: number;
  /** 1-based, end exclusive. */
  readonly startColumn: number;
  readonly endColumn: number;
}

const HEADER_LINE =
  /^\s*\[\[?\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*\s*\]\]?\s*(?:#.*)?$/u;
const BARE = /[A-Za-z0-9_-]/u;
const SCALAR = /[A-Za-z0-9_:+.-]/u;

/** The line of the nearest table header at or above `line` (1 when there is none). */
export function sectionStart(getLine: GetLine, line: number): number {
  for (let n = line - 1; n >= 1; n--) if (HEADER_LINE.test(getLine(n))) return n;
  return 1;
}

function unescapeBasic(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/gu, (_, e: string) => {
    switch (e[0]) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'u':
      case 'U': {
        const cp = parseInt(e.slice(1), 16);
        return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
      }
      default:
        return e;
    }
  });
}

/** The end (exclusive) of a quoted run starting after its opening quote at `from`; -1 when unterminated on the line. */
function closingQuote(line: string, from: number, quote: '"' | "'"): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (quote === '"' && c === '\\') {
      i++;
      continue;
    }
    if (c === quote) return i;
  }
  return -1;
}

interface Frame {
  readonly kind: 'inline' | 'array';
  readonly path: readonly string[];
}

type Expect = 'key' | 'keyDot' | 'value' | 'afterValue';

/** What the scan found at its stopping point (the cursor), when it stopped inside something. */
type Partial =
  | { kind: 'header'; array: boolean; segments: string[]; prefix: string; start: number; end: number }
  | { kind: 'key'; parent: string[]; prefix: string; start: number; end: number }
  | { kind: 'value'; path: string[]; prefix: string; quote: '"' | "'" | undefined; start: number; end: number }
  | { kind: 'none' };

interface ScanState {
  table: string[];
  frames: Frame[];
  expect: Expect;
  keySegs: string[];
  keyPath: string[];
  /** An open multi-line string and the key it belongs to. */
  multi: { quote: '"""' | "'''"; path: string[] } | undefined;
}

class Scanner {
  readonly tokens: TomlToken[] = [];
  readonly s: ScanState = { table: [], frames: [], expect: 'key', keySegs: [], keyPath: [], multi: undefined };
  constructor(private readonly collect: boolean) {}

  private base(): string[] {
    const top = this.s.frames[this.s.frames.length - 1];
    return [...(top ? top.path : this.s.table)];
  }

  private push(t: TomlToken): void {
    if (this.collect) this.tokens.push(t);
  }

  private afterValue(): void {
    this.s.expect = 'afterValue';
  }

  /**
   * Scans one line. With `stop` (a 0-based offset), scanning ends there and the result says what
   * the cursor is in; `full` is the whole line (to find a string's closing quote after the cursor).
   */
  line(lineNumber: number, full: string, stop?: number): Partial | undefined {
    const s = this.s;
    const text = stop === undefined ? full : full.slice(0, stop);
    let i = 0;
    const end = text.length;

    if (s.multi) {
      const close = text.indexOf(s.multi.quote, 0);
      if (close < 0) {
        if (stop !== undefined) return { kind: 'none' };
        return undefined;
      }
      let j = close + 3;
      while (text[j] === s.multi.quote[0] && j - close < 5) j++;
      s.multi = undefined;
      this.afterValue();
      i = j;
    } else if (s.frames.length === 0) {
      s.expect = 'key';
      s.keySegs = [];
      const m = /^\s*(\[\[?)/u.exec(text);
      if (m) return this.header(lineNumber, full, text, m[0].length, m[1] === '[[', stop);
    }

    while (i < end) {
      const c = text[i] ?? '';
      if (c === ' ' || c === '\t' || c === '\r') {
        i++;
        continue;
      }
      if (c === '#') return stop !== undefined ? { kind: 'none' } : undefined;

      if (s.expect === 'key' || s.expect === 'keyDot') {
        if (s.expect === 'keyDot' && c === '.') {
          s.expect = 'key';
          i++;
          continue;
        }
        if (s.expect === 'keyDot' && c === '=') {
          s.keyPath = [...this.base(), ...s.keySegs];
          s.keySegs = [];
          s.expect = 'value';
          i++;
          continue;
        }
        if (c === '}' && s.frames[s.frames.length - 1]?.kind === 'inline') {
          s.frames.pop();
          this.afterValue();
          i++;
          continue;
        }
        if (c === ',' && s.frames[s.frames.length - 1]?.kind === 'inline') {
          s.expect = 'key';
          s.keySegs = [];
          i++;
          continue;
        }
        if (s.expect === 'key' && BARE.test(c)) {
          let j = i;
          while (j < end && BARE.test(text[j] ?? '')) j++;
          const name = text.slice(i, j);
          if (j === end && stop !== undefined) {
            let k = j;
            while (k < full.length && BARE.test(full[k] ?? '')) k++;
            return { kind: 'key', parent: [...this.base(), ...s.keySegs], prefix: name, start: i, end: k };
          }
          this.push({ role: 'key', path: [...this.base(), ...s.keySegs, name], text: name, line: lineNumber, startColumn: i + 1, endColumn: j + 1 });
          s.keySegs.push(name);
          s.expect = 'keyDot';
          i = j;
          continue;
        }
        if (s.expect === 'key' && (c === '"' || c === "'")) {
          const close = closingQuote(text, i + 1, c);
          if (close < 0) {
            if (stop !== undefined) {
              const fullClose = closingQuote(full, i + 1, c);
              return { kind: 'key', parent: [...this.base(), ...s.keySegs], prefix: text.slice(i + 1), start: i, end: fullClose < 0 ? full.length : fullClose + 1 };
            }
            return undefined;
          }
          const raw = text.slice(i + 1, close);
          const name = c === '"' ? unescapeBasic(raw) : raw;
          this.push({ role: 'key', path: [...this.base(), ...s.keySegs, name], text: name, line: lineNumber, startColumn: i + 1, endColumn: close + 2 });
          s.keySegs.push(name);
          s.expect = 'keyDot';
          i = close + 1;
          continue;
        }
        // Something that is not TOML here: give up on this line.
        return stop !== undefined ? { kind: 'none' } : undefined;
      }

      if (s.expect === 'value') {
        const path = s.keyPath;
        if (c === ']' && s.frames[s.frames.length - 1]?.kind === 'array') {
          s.frames.pop();
          this.afterValue();
          i++;
          continue;
        }
        if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
          const q = text.slice(i, i + 3) as '"""' | "'''";
          const close = text.indexOf(q, i + 3);
          if (close < 0) {
            if (stop !== undefined) return { kind: 'none' };
            s.multi = { quote: q, path: [...path] };
            return undefined;
          }
          const raw = text.slice(i + 3, close);
          this.push({ role: 'value', path: [...path], text: q === '"""' ? unescapeBasic(raw) : raw, valueKind: 'string', line: lineNumber, startColumn: i + 1, endColumn: close + 4 });
          i = close + 3;
          while (text[i] === q[0]) i++;
          this.afterValue();
          continue;
        }
        if (c === '"' || c === "'") {
          const close = closingQuote(text, i + 1, c);
          if (close < 0) {
            if (stop !== undefined) {
              const fullClose = closingQuote(full, i + 1, c);
              return { kind: 'value', path: [...path], prefix: text.slice(i + 1), quote: c, start: i + 1, end: fullClose < 0 ? full.length : fullClose };
            }
            return undefined;
          }
          const raw = text.slice(i + 1, close);
          this.push({ role: 'value', path: [...path], text: c === '"' ? unescapeBasic(raw) : raw, valueKind: 'string', line: lineNumber, startColumn: i + 1, endColumn: close + 2 });
          i = close + 1;
          this.afterValue();
          continue;
        }
        if (c === '{') {
          s.frames.push({ kind: 'inline', path: [...path] });
          s.expect = 'key';
          s.keySegs = [];
          i++;
          continue;
        }
        if (c === '[') {
          s.frames.push({ kind: 'array', path: [...path] });
          s.expect = 'value';
          i++;
          continue;
        }
        if (SCALAR.test(c)) {
          let j = i;
          while (j < end && SCALAR.test(text[j] ?? '')) j++;
          const word = text.slice(i, j);
          if (j === end && stop !== undefined) {
            let k = j;
            while (k < full.length && SCALAR.test(full[k] ?? '')) k++;
            return { kind: 'value', path: [...path], prefix: word, quote: undefined, start: i, end: k };
          }
          const valueKind = word === 'true' || word === 'false' ? 'boolean' : /^[+-]?[0-9]/u.test(word) || /^[+-]?(inf|nan)$/u.test(word) ? 'number' : 'other';
          this.push({ role: 'value', path: [...path], text: word, valueKind, line: lineNumber, startColumn: i + 1, endColumn: j + 1 });
          i = j;
          this.afterValue();
          continue;
        }
        return stop !== undefined ? { kind: 'none' } : undefined;
      }

      // afterValue
      const top = s.frames[s.frames.length - 1];
      if (c === ',' && top) {
        if (top.kind === 'inline') {
          s.expect = 'key';
          s.keySegs = [];
        } else {
          s.expect = 'value';
          s.keyPath = [...top.path];
        }
        i++;
        continue;
      }
      if ((c === '}' && top?.kind === 'inline') || (c === ']' && top?.kind === 'array')) {
        s.frames.pop();
        i++;
        continue;
      }
      return stop !== undefined ? { kind: 'none' } : undefined;
    }

    if (stop === undefined) return undefined;
    // The cursor sits after whitespace (or at the start of the line).
    if (s.multi) return { kind: 'none' };
    if (s.expect === 'key' && (text.trim() === '' || /[,{.]\s*$/u.test(text))) {
      const parent = [...this.base(), ...s.keySegs];
      let k = stop;
      while (k < full.length && BARE.test(full[k] ?? '')) k++;
      return { kind: 'key', parent, prefix: '', start: stop, end: k };
    }
    if (s.expect === 'value') return { kind: 'value', path: [...s.keyPath], prefix: '', quote: undefined, start: stop, end: stop };
    return { kind: 'none' };
  }

  private header(lineNumber: number, full: string, text: string, from: number, array: boolean, stop: number | undefined): Partial | undefined {
    const segments: string[] = [];
    let i = from;
    const end = text.length;
    for (;;) {
      while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
      if (i >= end) {
        if (stop === undefined) return undefined;
        return { kind: 'header', array, segments, prefix: '', start: stop, end: stop };
      }
      const c = text[i] ?? '';
      let name: string;
      let next: number;
      if (BARE.test(c)) {
        let j = i;
        while (j < end && BARE.test(text[j] ?? '')) j++;
        if (j === end && stop !== undefined) {
          let k = j;
          while (k < full.length && BARE.test(full[k] ?? '')) k++;
          return { kind: 'header', array, segments, prefix: text.slice(i, j), start: i, end: k };
        }
        name = text.slice(i, j);
        next = j;
      } else if (c === '"' || c === "'") {
        const close = closingQuote(text, i + 1, c);
        if (close < 0) {
          if (stop === undefined) return undefined;
          const fullClose = closingQuote(full, i + 1, c);
          return { kind: 'header', array, segments, prefix: text.slice(i + 1), start: i, end: fullClose < 0 ? full.length : fullClose + 1 };
        }
        const raw = text.slice(i + 1, close);
        name = c === '"' ? unescapeBasic(raw) : raw;
        next = close + 1;
      } else {
        if (stop !== undefined) return { kind: 'none' };
        return undefined;
      }
      segments.push(name);
      this.push({ role: 'header', path: [...segments], text: name, line: lineNumber, startColumn: i + 1, endColumn: next + 1 });
      i = next;
      while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
      if (text[i] === '.') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        this.s.table = segments;
        this.s.frames = [];
        this.s.expect = 'key';
        this.s.keySegs = [];
        return stop !== undefined ? { kind: 'none' } : undefined;
      }
      if (i >= end && stop !== undefined) return { kind: 'none' };
      if (stop !== undefined) return { kind: 'none' };
      return undefined;
    }
  }
}

function toContext(p: Partial): TomlContext {
  switch (p.kind) {
    case 'header':
      return { kind: 'header', array: p.array, segments: p.segments, prefix: p.prefix, startColumn: p.start + 1, endColumn: p.end + 1 };
    case 'key':
      return { kind: 'key', parent: p.parent, prefix: p.prefix, startColumn: p.start + 1, endColumn: p.end + 1 };
    case 'value':
      return { kind: 'value', path: p.path, prefix: p.prefix, quote: p.quote, startColumn: p.start + 1, endColumn: p.end + 1 };
    case 'none':
      return { kind: 'none' };
  }
}

/** What the cursor at (`line`, `column`) (1-based, Monaco's) is typing. */
export function contextAt(getLine: GetLine, line: number, column: number): TomlContext {
  const from = sectionStart(getLine, line);
  const scanner = new Scanner(false);
  for (let n = from; n < line; n++) scanner.line(n, getLine(n));
  const text = getLine(line);
  const r = scanner.line(line, text, Math.min(Math.max(column - 1, 0), text.length));
  return toContext(r ?? { kind: 'none' });
}

/** The key, header segment or value under (`line`, `column`), with its path. */
export function tokenAt(getLine: GetLine, line: number, column: number): TomlToken | undefined {
  const from = sectionStart(getLine, line);
  const scanner = new Scanner(true);
  for (let n = from; n <= line; n++) scanner.line(n, getLine(n));
  const c = column;
  return scanner.tokens.find((t) => t.line === line && t.startColumn <= c && c < t.endColumn);
}

/** A `GetLine` over a string (for tests and the store's text). */
export function linesOf(text: string): GetLine {
  const lines = text.split('\n');
  return (n) => lines[n - 1] ?? '';
}

/** The tool whose table holds the cursor (`conversation.tools.NAME...`), if any. */
export function toolAt(getLine: GetLine, line: number, column: number): string | undefined {
  const ctx = contextAt(getLine, line, column);
  let path: readonly string[] | undefined;
  if (ctx.kind === 'key') path = ctx.parent;
  else if (ctx.kind === 'value') path = ctx.path;
  else {
    const t = tokenAt(getLine, line, column);
    path = t?.path;
    if (!path) {
      // A blank or comment line: the section's header decides.
      const from = sectionStart(getLine, line);
      const scanner = new Scanner(true);
      scanner.line(from, getLine(from));
      path = scanner.s.table;
    }
  }
  if (path && path.length >= 3 && path[0] === 'conversation' && path[1] === 'tools') return path[2];
  return undefined;
}
