// A hand-written, single-pass TOML 1.0 parser that builds the span-carrying syntax tree of
// ./toml-ast. It scans with charCodeAt and slices values out of the source; it never throws:
// the first syntax (or TOML semantic) error stops it and is returned next to what parsed so far.

import type {
  Span,
  TomlArray,
  TomlDocument,
  TomlEntry,
  TomlScalar,
  TomlSection,
  TomlSyntaxError,
  TomlTable,
  TomlTableArray,
  TomlValue,
} from './toml-ast';
import { floatValue } from '../json/serde';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const DQUOTE = 34;
const HASH = 35;
const SQUOTE = 39;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const EQUALS = 61;
const UPPER_E = 69;
const UPPER_T = 84;
const UPPER_U = 85;
const UPPER_Z = 90;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const UNDERSCORE = 95;
const LOWER_B = 98;
const LOWER_E = 101;
const LOWER_F = 102;
const LOWER_I = 105;
const LOWER_N = 110;
const LOWER_O = 111;
const LOWER_R = 114;
const LOWER_T = 116;
const LOWER_U = 117;
const LOWER_X = 120;
const LOWER_Z = 122;
const LBRACE = 123;
const RBRACE = 125;
const DEL = 127;

/** In a multi-line literal string: a quote, or a control character other than tab and LF (CR needs a look). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LITERAL_STOP = /['\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Deepest nesting of arrays / inline tables accepted (keeps recursion far from the stack limit). */
const MAX_DEPTH = 400;

/** Slots of the bare-key cache (a power of two). */
const KEY_CACHE_SIZE = 256;

/** 1 for characters allowed in bare keys: A-Z a-z 0-9 _ -. */
const BARE = new Uint8Array(128);
/** 1 for characters that can appear in a number / date-time token. */
const TOKEN = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (alnum || c === UNDERSCORE || c === MINUS) BARE[c] = 1;
  if (alnum || c === UNDERSCORE || c === MINUS || c === PLUS || c === DOT || c === COLON) TOKEN[c] = 1;
}

class TomlParseFailure extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHexDigit(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isDigitIn(c: number, radix: number): boolean {
  if (radix === 10) return c >= ZERO && c <= NINE;
  if (radix === 16) return isHexDigit(c);
  if (radix === 8) return c >= ZERO && c <= 55;
  return c === ZERO || c === 49;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A key segment as it would be written: bare when possible, else quoted. */
function formatSegment(name: string): string {
  if (name.length === 0) return '""';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || BARE[c] !== 1) return JSON.stringify(name);
  }
  return name;
}

function describeValue(v: TomlValue): string {
  switch (v.kind) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'float':
      return 'a float';
    case 'boolean':
      return 'a boolean';
    case 'datetime':
      return 'a date-time';
    case 'array':
      return 'an array';
    case 'table-array':
      return 'an array of tables';
    case 'table':
      return v.origin === 'inline' ? 'an inline table' : 'a table';
  }
}

function newTable(origin: TomlTable['origin'], span: Span): TomlTable {
  return { kind: 'table', origin, entries: new Map<string, TomlEntry>(), span };
}

export interface TomlParseOptions {
  /**
   * Keys whose array value, written as `key = [...]` in a [table] section, the caller reads only as
   * a whole (its span, and its plain value from `plainValues`). Such an array is parsed straight to
   * plain values; its syntax tree is built only if `items` is read. Errors stay those of the tree.
   */
  readonly plainArrays?: ReadonlySet<string>;
  /** Record every `[...]` / `[[...]]` header in document order (TomlDocument.sections); for the incremental layer parse. */
  readonly sections?: boolean;
  /** Told where each `[...]` / `[[...]]` header starts, as it is read (before any `releaseRun` it ends). */
  readonly section?: (start: number) => void;
  /**
   * A tool's run of headers is read as it ends (readLayer): when a header leaves the headers of one
   * `conversation.tools.X`, X's entry is handed to this function and its table emptied, so its syntax
   * tree is garbage while still young instead of living to the end of the parse (at 100,000 tools the
   * tree was ~430 MB, copied twice by the young-generation collections and then swept). The tree
   * returned has those tables empty. A header that opens a released tool again, or `[conversation]` /
   * `[conversation.tools]` after a release (their keys could reach one), throws RunReopened from
   * parseToml: parse again without releasing.
   */
  readonly releaseRun?: (entry: TomlEntry) => void;
}

/** parseToml with `releaseRun` met a header reaching a tool already released: parse again without. */
export class RunReopened extends Error {
  constructor() {
    super('a released conversation.tools run was opened again');
  }
}

/** An error thrown by `releaseRun` itself, carried out of the parse's own error handling. */
class ReleaseFailure extends Error {
  constructor(readonly failure: unknown) {
    super('releaseRun failed');
  }
}

/** Thrown by the plain-value parse where only the tree can tell (dotted or repeated keys); never escapes. */
const BAIL: unique symbol = Symbol('bail');

/** An array parsed as plain values: its items are the tree's, parsed again on first read. */
class LazyArray implements TomlArray {
  readonly kind = 'array';
  readonly span: Span;
  readonly #src: string;
  #items: TomlValue[] | undefined;
  constructor(src: string, start: number, end: number) {
    this.#src = src;
    this.span = { start, end };
  }
  get items(): TomlValue[] {
    if (this.#items === undefined) {
      const parser = new Parser(this.#src);
      parser.pos = this.span.start;
      this.#items = parser.parseArray().items;
    }
    return this.#items;
  }
}

class Parser {
  readonly src: string;
  readonly len: number;
  pos = 0;
  readonly root: TomlTable;
  /** The table whose section is being read (root, a header table or an array element). */
  private section: TomlTable;
  private sectionStart = 0;
  private sectionArray: TomlTableArray | null = null;
  /** bodyEnd of the current section so far. */
  private bodyEnd = 0;
  private depth = 0;
  // Scratch storage for the segments of the key being read (reused; copied out before values).
  private readonly kNames: string[] = [];
  private readonly kStarts: number[] = [];
  private readonly kEnds: number[] = [];
  private kCount = 0;
  /** Keys of the inline tables being read as plain values, innermost last (a stack). */
  private readonly plainKeys: string[] = [];
  private readonly keyCache: (string | undefined)[];
  /** End offset of the escape decoded by the last `escape` call. */
  private escEnd = 0;
  private readonly plainArrays: ReadonlySet<string> | undefined;
  /** The plain value of each array parsed as one (see TomlParseOptions). */
  readonly plainValues = new Map<TomlValue, unknown>();
  /** The headers read, when TomlParseOptions.sections asks for them. */
  readonly sections: TomlSection[] | undefined;
  private readonly onSection: ((start: number) => void) | undefined;
  private readonly release: ((entry: TomlEntry) => void) | undefined;
  /** The tool whose run of headers the current section belongs to (with `release`). */
  private runOwner: string | undefined;
  private released: Set<string> | undefined;

  constructor(src: string, options?: TomlParseOptions) {
    this.src = src;
    this.len = src.length;
    this.root = newTable('root', { start: 0, end: src.length });
    this.section = this.root;
    this.plainArrays = options?.plainArrays;
    this.sections = options?.sections ? [] : undefined;
    this.onSection = options?.section;
    this.release = options?.releaseRun;
    this.keyCache = this.plainArrays ? new Array<string | undefined>(KEY_CACHE_SIZE).fill(undefined) : [];
  }

  // ---- errors -----------------------------------------------------------------------------------

  fail(message: string, start: number, end: number): never {
    throw new TomlParseFailure(message, start, end);
  }

  /** How the character at `i` reads in a message. */
  found(i: number): string {
    if (i >= this.len) return 'end of file';
    const c = this.src.charCodeAt(i);
    if (c === LF || c === CR) return 'a newline';
    if (c === SPACE || c === TAB) return 'whitespace';
    if (c < 32 || c === DEL) return `control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    const cp = this.src.codePointAt(i) ?? c;
    return `\`${String.fromCodePoint(cp)}\``;
  }

  failAt(message: string, i: number): never {
    const end = i >= this.len ? this.len : i + ((this.src.codePointAt(i) ?? 0) > 0xffff ? 2 : 1);
    this.fail(`${message}, found ${this.found(i)}`, Math.min(i, this.len), end);
  }

  failControl(i: number, where: string): never {
    const c = this.src.charCodeAt(i);
    if (c === CR) this.fail(`carriage return not followed by a newline in ${where}`, i, i + 1);
    const hex = c.toString(16).toUpperCase().padStart(4, '0');
    this.fail(`control character U+${hex} is not allowed in ${where}`, i, i + 1);
  }

  keyText(from: number, to: number): string {
    let s = '';
    for (let i = from; i < to; i++) s += (i > from ? '.' : '') + formatSegment(this.kNames[i] ?? '');
    return s;
  }

  // ---- document -------------------------------------------------------------------------------

  run(): void {
    const src = this.src;
    const len = this.len;
    if (len > 0 && src.charCodeAt(0) === 0xfeff) this.pos = 1;
    for (;;) {
      this.skipWs();
      if (this.pos >= len) break;
      const c = src.charCodeAt(this.pos);
      if (c === LF) {
        this.pos++;
        continue;
      }
      if (c === CR) {
        this.endOfLine('line');
        continue;
      }
      if (c === HASH) {
        this.skipComment();
        this.endOfLine('comment');
        continue;
      }
      if (c === LBRACKET) {
        this.parseHeader();
        continue;
      }
      if (!(c < 128 && BARE[c] === 1) && c !== DQUOTE && c !== SQUOTE) {
        this.failAt('expected a key or a [table] header', this.pos);
      }
      this.parseKeyValue(this.section);
      this.bodyEnd = this.pos;
      this.skipWs();
      if (this.pos < len && src.charCodeAt(this.pos) === HASH) this.skipComment();
      this.bodyEnd = this.pos;
      this.endOfLine('value');
    }
    this.finishSection();
  }

  skipWs(): void {
    const src = this.src;
    let i = this.pos;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === SPACE || c === TAB) i++;
      else break;
    }
    this.pos = i;
  }

  /** Consumes a newline (LF or CRLF) or accepts the end of file; anything else is an error. */
  endOfLine(after: string): void {
    const i = this.pos;
    if (i >= this.len) return;
    const c = this.src.charCodeAt(i);
    if (c === LF) {
      this.pos = i + 1;
      return;
    }
    if (c === CR && this.src.charCodeAt(i + 1) === LF) {
      this.pos = i + 2;
      return;
    }
    if (c === CR) this.fail('carriage return not followed by a newline', i, i + 1);
    this.failAt(`expected the end of the line after ${after}`, i);
  }

  /** At `#`: skips the comment up to (not including) its newline. */
  skipComment(): void {
    const src = this.src;
    const len = this.len;
    let i = this.pos + 1;
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c >= SPACE) {
        if (c === DEL) this.failControl(i, 'a comment');
        i++;
        continue;
      }
      if (c === LF) break;
      if (c === CR && src.charCodeAt(i + 1) === LF) break;
      if (c !== TAB) this.failControl(i, 'a comment');
      i++;
    }
    this.pos = i;
  }

  /** Skips whitespace, newlines and comments (inside arrays). */
  skipWsNewlinesComments(): void {
    const src = this.src;
    for (;;) {
      const c = src.charCodeAt(this.pos);
      if (c === SPACE || c === TAB || c === LF) this.pos++;
      else if (c === CR) {
        if (src.charCodeAt(this.pos + 1) !== LF) this.fail('carriage return not followed by a newline', this.pos, this.pos + 1);
        this.pos += 2;
      } else if (c === HASH) this.skipComment();
      else return;
    }
  }

  /** Records where the current section ends. */
  finishSection(): void {
    const t = this.section;
    t.bodyEnd = this.bodyEnd;
    if (t !== this.root) t.span = { start: this.sectionStart, end: this.bodyEnd };
    const arr = this.sectionArray;
    if (arr !== null) (arr as Writable<TomlTableArray>).span = { start: arr.span.start, end: this.bodyEnd };
  }

  // ---- headers --------------------------------------------------------------------------------

  /** At a header (with `release`): releases the tool whose run it ends; see TomlParseOptions.releaseRun. */
  runBoundary(names: readonly string[], n: number): void {
    const conversation = n >= 1 && names[0] === 'conversation';
    const owner = conversation && n >= 3 && names[1] === 'tools' ? names[2] : undefined;
    if (this.released && conversation && (n === 1 || (n === 2 && names[1] === 'tools') || (owner !== undefined && this.released.has(owner)))) throw new RunReopened();
    if (this.runOwner !== undefined && owner !== this.runOwner) {
      // The run's last section ends here: its extent set as it will be (parseHeader sets it again, the same).
      this.finishSection();
      this.releaseTool(this.runOwner);
    }
    this.runOwner = owner;
  }

  releaseTool(name: string): void {
    const conversation = this.root.entries.get('conversation')?.value;
    const tools = conversation?.kind === 'table' ? conversation.entries.get('tools')?.value : undefined;
    const entry = tools?.kind === 'table' ? tools.entries.get(name) : undefined;
    if (!entry || entry.value.kind !== 'table' || !this.release) return;
    (this.released ??= new Set()).add(name);
    try {
      this.release(entry);
    } catch (e) {
      throw new ReleaseFailure(e);
    }
    (entry.value as Writable<TomlTable>).entries = new Map();
  }

  /** The table a header's last key goes into: its keys but the last walked from the root, implicit tables made. */
  headerParent(start: number, headerEnd: number): TomlTable {
    const n = this.kCount;
    const names = this.kNames;
    let t = this.root;
    for (let k = 0; k < n - 1; k++) {
      const name = names[k] ?? '';
      const e = t.entries.get(name);
      if (e === undefined) {
        const keySpan: Span = { start: this.kStarts[k] ?? 0, end: this.kEnds[k] ?? 0 };
        const child = newTable('implicit', keySpan);
        t.entries.set(name, { key: name, keySpan, value: child });
        t = child;
        continue;
      }
      const v = e.value;
      if (v.kind === 'table') {
        if (v.origin === 'inline') {
          this.fail(`cannot extend inline table \`${this.keyText(0, k + 1)}\` with a [table] header`, start, headerEnd);
        }
        t = v;
      } else if (v.kind === 'table-array') {
        const last = v.items[v.items.length - 1];
        if (last === undefined) this.fail(`\`${this.keyText(0, k + 1)}\` is an empty array of tables`, start, headerEnd);
        t = last;
      } else {
        this.fail(
          `cannot define table \`${this.keyText(0, n)}\`: \`${this.keyText(0, k + 1)}\` is already ${describeValue(v)}`,
          start,
          headerEnd,
        );
      }
    }
    return t;
  }

  parseHeader(): void {
    const src = this.src;
    const start = this.pos;
    const isArray = src.charCodeAt(start + 1) === LBRACKET;
    this.pos = start + (isArray ? 2 : 1);
    this.parseKey();
    this.skipWs();
    if (src.charCodeAt(this.pos) !== RBRACKET) {
      this.failAt(`expected \`${isArray ? ']]' : ']'}\` after table name \`${this.keyText(0, this.kCount)}\``, this.pos);
    }
    this.pos++;
    if (isArray) {
      if (src.charCodeAt(this.pos) !== RBRACKET) {
        this.failAt(`expected \`]]\` to close array-of-tables header \`${this.keyText(0, this.kCount)}\``, this.pos);
      }
      this.pos++;
    }
    const headerEnd = this.pos;
    const headerSpan: Span = { start, end: headerEnd };
    const n = this.kCount;
    const names = this.kNames;
    if (this.release) this.runBoundary(names, n);
    this.sections?.push({ start, path: names.slice(0, n), array: isArray });
    this.onSection?.(start);

    const t = this.headerParent(start, headerEnd);

    const name = names[n - 1] ?? '';
    const keySpan: Span = { start: this.kStarts[n - 1] ?? 0, end: this.kEnds[n - 1] ?? 0 };
    const existing = t.entries.get(name);
    const full = existing === undefined ? '' : this.keyText(0, n); // only for messages
    let table: TomlTable;
    let array: TomlTableArray | null = null;
    if (isArray) {
      table = { kind: 'table', origin: 'array-element', entries: new Map(), span: headerSpan, headerSpan, bodyEnd: headerEnd };
      if (existing === undefined) {
        array = { kind: 'table-array', items: [table], span: headerSpan };
        t.entries.set(name, { key: name, keySpan, value: array });
      } else if (existing.value.kind === 'table-array') {
        array = existing.value;
        array.items.push(table);
      } else if (existing.value.kind === 'array') {
        this.fail(`cannot append to \`${full}\` with [[${full}]]: it is a static array`, start, headerEnd);
      } else {
        this.fail(`cannot define array of tables \`${full}\`: it is already ${describeValue(existing.value)}`, start, headerEnd);
      }
    } else if (existing === undefined) {
      table = { kind: 'table', origin: 'header', entries: new Map(), span: headerSpan, headerSpan, bodyEnd: headerEnd };
      t.entries.set(name, { key: name, keySpan, value: table });
    } else {
      const v = existing.value;
      if (v.kind === 'table' && v.origin === 'implicit') {
        const w = v as Writable<TomlTable>;
        w.origin = 'header';
        w.headerSpan = headerSpan;
        w.span = headerSpan;
        w.bodyEnd = headerEnd;
        // Point the entry at the header that defines the table (Map.set keeps the key's position).
        t.entries.set(name, { key: name, keySpan, value: v });
        table = v;
      } else if (v.kind === 'table' && v.origin === 'dotted') {
        this.fail(`table \`${full}\` is already defined by dotted keys`, start, headerEnd);
      } else if (v.kind === 'table' && v.origin === 'inline') {
        this.fail(`table \`${full}\` is already defined as an inline table`, start, headerEnd);
      } else if (v.kind === 'table') {
        this.fail(`table \`${full}\` is already defined`, start, headerEnd);
      } else {
        this.fail(`cannot define table \`${full}\`: it is already ${describeValue(v)}`, start, headerEnd);
      }
    }

    this.finishSection();
    this.section = table;
    this.sectionStart = start;
    this.sectionArray = array;
    this.bodyEnd = headerEnd;
    this.skipWs();
    if (this.pos < this.len && src.charCodeAt(this.pos) === HASH) this.skipComment();
    this.bodyEnd = this.pos;
    this.endOfLine('table header');
  }

  // ---- keys -----------------------------------------------------------------------------------

  /** Reads a (possibly dotted) key into the scratch arrays. Leaves `pos` after trailing whitespace. */
  parseKey(): void {
    const src = this.src;
    const len = this.len;
    let n = 0;
    for (;;) {
      this.skipWs();
      const start = this.pos;
      const c = src.charCodeAt(start);
      let name: string;
      if (c < 128 && BARE[c] === 1) {
        let i = start + 1;
        while (i < len) {
          const d = src.charCodeAt(i);
          if (d < 128 && BARE[d] === 1) i++;
          else break;
        }
        name = src.slice(start, i);
        this.pos = i;
      } else if (c === DQUOTE) {
        if (src.charCodeAt(start + 1) === DQUOTE && src.charCodeAt(start + 2) === DQUOTE) {
          this.fail('a multi-line string cannot be used as a key', start, start + 3);
        }
        name = this.scanBasic();
      } else if (c === SQUOTE) {
        if (src.charCodeAt(start + 1) === SQUOTE && src.charCodeAt(start + 2) === SQUOTE) {
          this.fail('a multi-line string cannot be used as a key', start, start + 3);
        }
        name = this.scanLiteral();
      } else if (n === 0) {
        this.failAt('expected a key', start);
      } else {
        this.failAt('expected a key after `.`', start);
      }
      this.kNames[n] = name;
      this.kStarts[n] = start;
      this.kEnds[n] = this.pos;
      n++;
      this.skipWs();
      if (src.charCodeAt(this.pos) === DOT) this.pos++;
      else break;
    }
    this.kCount = n;
  }

  /**
   * The bare key `src[start, end)` of a plain value. Such keys repeat (`type`, `description`...): the last
   * string read for a length and first and last character is reused when it matches, so a repeated key
   * costs no new string, and once used as a property key it needs no look-up in V8's string table.
   */
  bareKey(start: number, end: number): string {
    const src = this.src;
    const slot = ((end - start) * 31 + src.charCodeAt(start) * 7 + src.charCodeAt(end - 1)) & (KEY_CACHE_SIZE - 1);
    const cached = this.keyCache[slot];
    if (cached !== undefined && cached.length === end - start && src.startsWith(cached, start)) return cached;
    const name = src.slice(start, end);
    this.keyCache[slot] = name;
    return name;
  }

  /** Reads `key = value` into `table` (the current section or an inline table). */
  parseKeyValue(table: TomlTable): void {
    this.parseKey();
    const n = this.kCount;
    if (this.src.charCodeAt(this.pos) !== EQUALS) {
      this.failAt(`expected \`=\` after key \`${this.keyText(0, n)}\``, this.pos);
    }
    this.pos++;
    const names = this.kNames;
    const firstStart = this.kStarts[0] ?? 0;
    // Shared by every entry this line creates; its end is set once the value is read.
    const pairSpan: Writable<Span> = { start: firstStart, end: this.pos };
    let t = table;
    for (let k = 0; k < n - 1; k++) {
      const name = names[k] ?? '';
      const e = t.entries.get(name);
      if (e === undefined) {
        const keySpan: Span = { start: this.kStarts[k] ?? 0, end: this.kEnds[k] ?? 0 };
        const child = newTable('dotted', keySpan);
        t.entries.set(name, { key: name, keySpan, value: child, pairSpan });
        t = child;
        continue;
      }
      const v = e.value;
      if (v.kind === 'table' && v.origin === 'dotted') {
        t = v;
        continue;
      }
      const keyEnd = this.kEnds[n - 1] ?? 0;
      const full = this.keyText(0, n);
      const prefix = this.keyText(0, k + 1);
      if (v.kind === 'table' && v.origin === 'inline') {
        this.fail(`cannot add key \`${full}\` into inline table \`${prefix}\``, firstStart, keyEnd);
      }
      if (v.kind === 'table') {
        this.fail(`cannot add key \`${full}\`: table \`${prefix}\` is defined by a [table] header`, firstStart, keyEnd);
      }
      this.fail(`cannot add key \`${full}\`: \`${prefix}\` is already ${describeValue(v)}`, firstStart, keyEnd);
    }
    const name = names[n - 1] ?? '';
    const keyStart = this.kStarts[n - 1] ?? 0;
    const keyEnd = this.kEnds[n - 1] ?? 0;
    if (t.entries.has(name)) this.fail(`duplicate key \`${this.keyText(0, n)}\``, firstStart, keyEnd);
    this.skipWs();
    const value =
      this.plainArrays !== undefined && table === this.section && this.src.charCodeAt(this.pos) === LBRACKET && this.plainArrays.has(name)
        ? this.parsePlainArray()
        : this.parseValue();
    pairSpan.end = value.span.end;
    t.entries.set(name, { key: name, keySpan: { start: keyStart, end: keyEnd }, value, pairSpan });
  }

  // ---- values ---------------------------------------------------------------------------------

  parseValue(): TomlValue {
    const src = this.src;
    const start = this.pos;
    const c = src.charCodeAt(start);
    switch (c) {
      case DQUOTE: {
        const value =
          src.charCodeAt(start + 1) === DQUOTE && src.charCodeAt(start + 2) === DQUOTE
            ? this.scanMultilineBasic()
            : this.scanBasic();
        return { kind: 'string', value, span: { start, end: this.pos } };
      }
      case SQUOTE: {
        const value =
          src.charCodeAt(start + 1) === SQUOTE && src.charCodeAt(start + 2) === SQUOTE
            ? this.scanMultilineLiteral()
            : this.scanLiteral();
        return { kind: 'string', value, span: { start, end: this.pos } };
      }
      case LBRACKET:
        return this.parseArray();
      case LBRACE:
        return this.parseInlineTable();
      case LOWER_T:
        if (src.startsWith('true', start) && !this.isTokenChar(start + 4)) {
          this.pos = start + 4;
          return { kind: 'boolean', value: true, span: { start, end: start + 4 } };
        }
        break;
      case LOWER_F:
        if (src.startsWith('false', start) && !this.isTokenChar(start + 5)) {
          this.pos = start + 5;
          return { kind: 'boolean', value: false, span: { start, end: start + 5 } };
        }
        break;
      default:
        break;
    }
    return this.parseToken(start);
  }

  isTokenChar(i: number): boolean {
    const c = this.src.charCodeAt(i);
    return c < 128 && TOKEN[c] === 1;
  }

  /** Numbers, date-times, inf/nan: everything that is a bare run of token characters. */
  parseToken(start: number): TomlScalar {
    const src = this.src;
    const len = this.len;
    let i = start;
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c < 128 && TOKEN[c] === 1) i++;
      else break;
    }
    if (i === start) this.failAt('expected a value', start);
    // `1979-05-27 07:32:00`: a date, one space, then a time.
    if (
      i - start === 10 &&
      src.charCodeAt(start + 4) === MINUS &&
      src.charCodeAt(i) === SPACE &&
      isDigit(src.charCodeAt(i + 1))
    ) {
      i++;
      while (i < len) {
        const c = src.charCodeAt(i);
        if (c < 128 && TOKEN[c] === 1) i++;
        else break;
      }
    }
    this.pos = i;
    const c0 = src.charCodeAt(start);
    if (isDigit(c0) && i - start >= 5 && src.charCodeAt(start + 4) === MINUS && isDigit(src.charCodeAt(start + 1))) {
      return this.parseDateTime(start, i);
    }
    if (isDigit(c0) && src.charCodeAt(start + 2) === COLON && isDigit(src.charCodeAt(start + 1))) {
      return this.parseDateTime(start, i);
    }
    return this.parseNumber(start, i);
  }

  invalid(start: number, end: number, what = 'value'): never {
    const text = this.src.slice(start, end);
    const c = text.charCodeAt(0) | 32;
    if (what === 'value' && c >= 97 && c <= LOWER_Z) {
      this.fail(`invalid value \`${text}\` (strings must be quoted)`, start, end);
    }
    this.fail(`invalid ${what} \`${text}\``, start, end);
  }

  /** Scans digits of `radix` with single underscores between digits; returns the index after. */
  digits(i: number, end: number, radix: number, tokStart: number): number {
    const src = this.src;
    const start = i;
    let afterUnderscore = true;
    while (i < end) {
      const c = src.charCodeAt(i);
      if (isDigitIn(c, radix)) {
        afterUnderscore = false;
        i++;
      } else if (c === UNDERSCORE) {
        if (afterUnderscore) this.fail(`an underscore must sit between digits in \`${src.slice(tokStart, end)}\``, i, i + 1);
        afterUnderscore = true;
        i++;
      } else break;
    }
    if (i === start) this.invalid(tokStart, end, 'number');
    if (afterUnderscore) this.fail(`an underscore must sit between digits in \`${src.slice(tokStart, end)}\``, i - 1, i);
    return i;
  }

  parseNumber(start: number, end: number): TomlScalar {
    const src = this.src;
    let i = start;
    let c = src.charCodeAt(i);
    let signed = false;
    if (c === PLUS || c === MINUS) {
      signed = true;
      i++;
      c = src.charCodeAt(i);
    }
    const span: Span = { start, end };
    if (c === LOWER_I || c === LOWER_N) {
      if (end - i === 3 && src.startsWith(c === LOWER_I ? 'inf' : 'nan', i)) {
        const value = c === LOWER_N ? NaN : src.charCodeAt(start) === MINUS ? -Infinity : Infinity;
        return { kind: 'float', value, span };
      }
      this.invalid(start, end);
    }
    if (!isDigit(c)) this.invalid(start, end);
    if (c === ZERO && i + 1 < end) {
      const c2 = src.charCodeAt(i + 1);
      const radix = c2 === LOWER_X ? 16 : c2 === LOWER_O ? 8 : c2 === LOWER_B ? 2 : 0;
      if (radix !== 0) {
        if (signed) this.fail(`a sign is not allowed on \`${src.slice(start, end)}\``, start, start + 1);
        const j = this.digits(i + 2, end, radix, start);
        if (j !== end) this.invalid(start, end, 'integer');
        const digits = src.slice(i + 2, end);
        const value = parseInt(digits.indexOf('_') >= 0 ? digits.replaceAll('_', '') : digits, radix);
        if (!Number.isSafeInteger(value)) this.rangeError(start, end);
        return { kind: 'integer', value, span };
      }
    }
    const intStart = i;
    i = this.digits(i, end, 10, start);
    if (c === ZERO && i - intStart > 1) this.fail(`leading zeros are not allowed in \`${src.slice(start, end)}\``, start, end);
    let isFloat = false;
    if (i < end && src.charCodeAt(i) === DOT) {
      isFloat = true;
      i = this.digits(i + 1, end, 10, start);
    }
    if (i < end && (src.charCodeAt(i) === LOWER_E || src.charCodeAt(i) === UPPER_E)) {
      isFloat = true;
      i++;
      const s = src.charCodeAt(i);
      if (s === PLUS || s === MINUS) i++;
      i = this.digits(i, end, 10, start);
    }
    if (i !== end) this.invalid(start, end, isFloat ? 'float' : 'number');
    const text = src.slice(start, end);
    const value = Number(text.indexOf('_') >= 0 ? text.replaceAll('_', '') : text);
    if (isFloat) return { kind: 'float', value, span };
    if (!Number.isSafeInteger(value)) this.rangeError(start, end);
    return { kind: 'integer', value: value === 0 ? 0 : value, span };
  }

  rangeError(start: number, end: number): never {
    this.fail(
      `integer \`${this.src.slice(start, end)}\` cannot be represented exactly (beyond ±9007199254740991)`,
      start,
      end,
    );
  }

  /** Two digits at i as a number, or -1. */
  twoDigits(i: number): number {
    const a = this.src.charCodeAt(i);
    const b = this.src.charCodeAt(i + 1);
    if (!isDigit(a) || !isDigit(b)) return -1;
    return (a - ZERO) * 10 + (b - ZERO);
  }

  /** Parses a time at i (HH:MM:SS[.frac]); returns the index after it. */
  parseTime(i: number, start: number, end: number): number {
    const src = this.src;
    const h = this.twoDigits(i);
    const m = src.charCodeAt(i + 2) === COLON ? this.twoDigits(i + 3) : -1;
    const s = src.charCodeAt(i + 5) === COLON ? this.twoDigits(i + 6) : -1;
    if (h < 0 || m < 0 || s < 0 || i + 8 > end) this.invalid(start, end, 'date-time');
    if (h > 23 || m > 59 || s > 60) this.fail(`time out of range in \`${src.slice(start, end)}\``, start, end);
    i += 8;
    if (i < end && src.charCodeAt(i) === DOT) {
      i++;
      const f = i;
      while (i < end && isDigit(src.charCodeAt(i))) i++;
      if (i === f) this.invalid(start, end, 'date-time');
    }
    return i;
  }

  parseDateTime(start: number, end: number): TomlScalar {
    const src = this.src;
    let i = start;
    if (src.charCodeAt(start + 2) !== COLON) {
      // Full date: YYYY-MM-DD
      const y1 = this.twoDigits(start);
      const y2 = this.twoDigits(start + 2);
      const month = src.charCodeAt(start + 4) === MINUS ? this.twoDigits(start + 5) : -1;
      const day = src.charCodeAt(start + 7) === MINUS ? this.twoDigits(start + 8) : -1;
      if (y1 < 0 || y2 < 0 || month < 0 || day < 0 || end - start < 10) this.invalid(start, end, 'date-time');
      const year = y1 * 100 + y2;
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
        this.fail(`date out of range in \`${src.slice(start, end)}\``, start, end);
      }
      i = start + 10;
      if (i < end) {
        const sep = src.charCodeAt(i);
        if (sep !== UPPER_T && sep !== LOWER_T && sep !== SPACE) this.invalid(start, end, 'date-time');
        i = this.parseTime(i + 1, start, end);
        if (i < end) {
          const o = src.charCodeAt(i);
          if (o === UPPER_Z || o === LOWER_Z) i++;
          else if (o === PLUS || o === MINUS) {
            const oh = this.twoDigits(i + 1);
            const om = src.charCodeAt(i + 3) === COLON ? this.twoDigits(i + 4) : -1;
            if (oh < 0 || om < 0) this.invalid(start, end, 'date-time');
            if (oh > 23 || om > 59) this.fail(`time offset out of range in \`${src.slice(start, end)}\``, start, end);
            i += 6;
          }
        }
      }
    } else {
      i = this.parseTime(start, start, end);
    }
    if (i !== end) this.invalid(start, end, 'date-time');
    return { kind: 'datetime', value: src.slice(start, end), span: { start, end } };
  }

  // ---- strings --------------------------------------------------------------------------------

  unterminated(start: number, i: number, what: string): never {
    this.fail(`unterminated ${what}`, start, Math.min(i, this.len));
  }

  /** At `"`: a single-line basic string. Leaves `pos` after the closing quote. */
  scanBasic(): string {
    const src = this.src;
    const len = this.len;
    const start = this.pos;
    let i = start + 1;
    for (;;) {
      if (i >= len) this.unterminated(start, i, 'string');
      const c = src.charCodeAt(i);
      if (c === DQUOTE) {
        this.pos = i + 1;
        return src.slice(start + 1, i);
      }
      if (c === BACKSLASH) return this.scanBasicEscaped(start, i);
      if (c < SPACE ? c !== TAB : c === DEL) {
        if (c === LF || c === CR) this.unterminated(start, i, 'string');
        this.failControl(i, 'a string');
      }
      i++;
    }
  }

  /** Slow path of scanBasic once the first escape is met at `i`. */
  scanBasicEscaped(start: number, i: number): string {
    const src = this.src;
    const len = this.len;
    const parts: string[] = [];
    let chunk = start + 1;
    for (;;) {
      if (i >= len) this.unterminated(start, i, 'string');
      const c = src.charCodeAt(i);
      if (c === DQUOTE) {
        parts.push(src.slice(chunk, i));
        this.pos = i + 1;
        return parts.join('');
      }
      if (c === BACKSLASH) {
        parts.push(src.slice(chunk, i), this.escape(i));
        i = this.escEnd;
        chunk = i;
        continue;
      }
      if (c < SPACE ? c !== TAB : c === DEL) {
        if (c === LF || c === CR) this.unterminated(start, i, 'string');
        this.failControl(i, 'a string');
      }
      i++;
    }
  }

  /** Decodes the escape at `i` (a backslash); sets escEnd. */
  escape(i: number): string {
    const src = this.src;
    const c = src.charCodeAt(i + 1);
    this.escEnd = i + 2;
    switch (c) {
      case LOWER_B:
        return '\b';
      case LOWER_T:
        return '\t';
      case LOWER_N:
        return '\n';
      case LOWER_F:
        return '\f';
      case LOWER_R:
        return '\r';
      case DQUOTE:
        return '"';
      case BACKSLASH:
        return '\\';
      case LOWER_U:
      case UPPER_U: {
        const n = c === LOWER_U ? 4 : 8;
        let cp = 0;
        for (let k = 0; k < n; k++) {
          const h = src.charCodeAt(i + 2 + k);
          if (!isHexDigit(h)) {
            this.fail(`\`\\${String.fromCharCode(c)}\` must be followed by ${n} hex digits`, i, Math.min(i + 2 + k + 1, this.len));
          }
          cp = cp * 16 + (h <= NINE ? h - ZERO : (h | 32) - 87);
        }
        this.escEnd = i + 2 + n;
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          this.fail(`\`${src.slice(i, i + 2 + n)}\` is not a Unicode scalar value`, i, i + 2 + n);
        }
        return String.fromCodePoint(cp);
      }
      default: {
        if (i + 1 >= this.len) this.fail('unterminated string', i, i + 1);
        const cp = src.codePointAt(i + 1) ?? c;
        const shown = c < SPACE || c === DEL ? `U+${c.toString(16).toUpperCase().padStart(4, '0')}` : String.fromCodePoint(cp);
        this.fail(`invalid escape sequence \`\\${shown}\``, i, i + 1 + (cp > 0xffff ? 2 : 1));
      }
    }
  }

  /** At `"""`. Leaves `pos` after the closing delimiter. */
  scanMultilineBasic(): string {
    const src = this.src;
    const len = this.len;
    const start = this.pos;
    let i = start + 3;
    if (src.charCodeAt(i) === LF) i++;
    else if (src.charCodeAt(i) === CR && src.charCodeAt(i + 1) === LF) i += 2;
    let chunk = i;
    let parts: string[] | null = null;
    for (;;) {
      if (i >= len) this.unterminated(start, i, 'multi-line string');
      const c = src.charCodeAt(i);
      if (c === DQUOTE) {
        if (src.charCodeAt(i + 1) === DQUOTE && src.charCodeAt(i + 2) === DQUOTE) {
          let n = 3;
          while (src.charCodeAt(i + n) === DQUOTE) n++;
          if (n > 5) this.fail('too many quotes at the end of a multi-line string', i, i + n);
          const contentEnd = i + n - 3;
          this.pos = i + n;
          if (parts === null) return src.slice(chunk, contentEnd);
          parts.push(src.slice(chunk, contentEnd));
          return parts.join('');
        }
        i++;
        continue;
      }
      if (c === BACKSLASH) {
        parts ??= [];
        parts.push(src.slice(chunk, i));
        const nx = src.charCodeAt(i + 1);
        if (nx === SPACE || nx === TAB || nx === LF || nx === CR) {
          // Line-ending backslash: drop the newline and all whitespace/newlines after it.
          let j = i + 1;
          while (src.charCodeAt(j) === SPACE || src.charCodeAt(j) === TAB) j++;
          if (src.charCodeAt(j) === LF) j++;
          else if (src.charCodeAt(j) === CR && src.charCodeAt(j + 1) === LF) j += 2;
          else this.fail('a `\\` followed by whitespace must end the line', i, j + 1 > len ? len : j + 1);
          for (;;) {
            const w = src.charCodeAt(j);
            if (w === SPACE || w === TAB || w === LF) j++;
            else if (w === CR && src.charCodeAt(j + 1) === LF) j += 2;
            else break;
          }
          i = j;
          chunk = j;
          continue;
        }
        parts.push(this.escape(i));
        i = this.escEnd;
        chunk = i;
        continue;
      }
      if (c < SPACE || c === DEL) {
        if (c === LF || c === TAB) {
          i++;
          continue;
        }
        if (c === CR && src.charCodeAt(i + 1) === LF) {
          i += 2;
          continue;
        }
        this.failControl(i, 'a string');
      }
      i++;
    }
  }

  /** At `'`: a single-line literal string. */
  scanLiteral(): string {
    const src = this.src;
    const len = this.len;
    const start = this.pos;
    let i = start + 1;
    for (;;) {
      if (i >= len) this.unterminated(start, i, 'string');
      const c = src.charCodeAt(i);
      if (c === SQUOTE) {
        this.pos = i + 1;
        return src.slice(start + 1, i);
      }
      if (c < SPACE ? c !== TAB : c === DEL) {
        if (c === LF || c === CR) this.unterminated(start, i, 'string');
        this.failControl(i, 'a string');
      }
      i++;
    }
  }

  /** At `'''`. */
  scanMultilineLiteral(): string {
    const src = this.src;
    const len = this.len;
    const start = this.pos;
    let i = start + 3;
    if (src.charCodeAt(i) === LF) i++;
    else if (src.charCodeAt(i) === CR && src.charCodeAt(i + 1) === LF) i += 2;
    const contentStart = i;
    // Only quotes and control characters need a look (such a string may be a whole embedded file):
    // the regular expression skips to the next one.
    const stop = LITERAL_STOP;
    for (;;) {
      stop.lastIndex = i;
      if (!stop.test(src)) this.unterminated(start, len, 'multi-line string');
      i = stop.lastIndex - 1;
      const c = src.charCodeAt(i);
      if (c === SQUOTE) {
        if (src.charCodeAt(i + 1) === SQUOTE && src.charCodeAt(i + 2) === SQUOTE) {
          let n = 3;
          while (src.charCodeAt(i + n) === SQUOTE) n++;
          if (n > 5) this.fail('too many quotes at the end of a multi-line string', i, i + n);
          this.pos = i + n;
          return src.slice(contentStart, i + n - 3);
        }
        i++;
        continue;
      }
      // A control character other than tab and newline: only CRLF is allowed.
      if (c === CR && src.charCodeAt(i + 1) === LF) {
        i += 2;
        continue;
      }
      this.failControl(i, 'a string');
    }
  }

  // ---- arrays and inline tables ----------------------------------------------------------------

  enter(start: number): void {
    if (++this.depth > MAX_DEPTH) this.fail(`arrays and inline tables are nested too deeply (over ${MAX_DEPTH})`, start, start + 1);
  }

  // ---- arrays and inline tables: one loop each, for the tree and for plain values --------------
  // `plain` says which parse runs the loop: a problem fails the tree parse with its message, and makes
  // the plain parse bail (the tree parse then reads the array again, so every error is the tree's).

  private bad(plain: boolean, message: string, start: number, end: number): never {
    if (plain) throw BAIL;
    this.fail(message, start, end);
  }

  private badAt(plain: boolean, message: string, i: number): never {
    if (plain) throw BAIL;
    this.failAt(message, i);
  }

  private readonly treeItem = (): TomlValue => this.parseValue();
  private readonly plainItem = (): unknown => this.plainValue();

  /** The items of the array at `[`, each read by `item`. */
  arrayItems<T>(item: () => T, plain: boolean): T[] {
    const src = this.src;
    const start = this.pos;
    this.enter(start);
    this.pos++;
    const items: T[] = [];
    for (;;) {
      this.skipWsNewlinesComments();
      if (this.pos >= this.len) this.bad(plain, 'unterminated array: expected `]`', start, this.len);
      if (src.charCodeAt(this.pos) === RBRACKET) break;
      items.push(item());
      this.skipWsNewlinesComments();
      const c = src.charCodeAt(this.pos);
      if (c === COMMA) {
        this.pos++;
        continue;
      }
      if (c === RBRACKET) break;
      if (this.pos >= this.len) this.bad(plain, 'unterminated array: expected `]`', start, this.len);
      this.badAt(plain, 'expected `,` or `]` after an array item', this.pos);
    }
    this.pos++;
    this.depth--;
    return items;
  }

  /** The entries of the inline table at `{`, each key and value read by `entry` into `target`. */
  inlineEntries<T>(target: T, entry: (target: T) => void, plain: boolean): void {
    const src = this.src;
    this.enter(this.pos);
    this.pos++;
    this.skipWs();
    if (src.charCodeAt(this.pos) === RBRACE) {
      this.pos++;
    } else {
      for (;;) {
        this.skipWs();
        const k = src.charCodeAt(this.pos);
        if (k === LF || k === CR || this.pos >= this.len) {
          this.badAt(plain, 'unterminated inline table: expected a key and `}` on the same line (TOML 1.0)', this.pos);
        }
        entry(target);
        this.skipWs();
        const c = src.charCodeAt(this.pos);
        if (c === COMMA) {
          const comma = this.pos++;
          this.skipWs();
          if (src.charCodeAt(this.pos) === RBRACE) this.bad(plain, 'a trailing comma is not allowed in an inline table', comma, comma + 1);
          continue;
        }
        if (c === RBRACE) {
          this.pos++;
          break;
        }
        if (c === LF || c === CR || this.pos >= this.len) {
          this.badAt(plain, 'unterminated inline table: expected `}` on the same line (TOML 1.0)', this.pos);
        }
        this.badAt(plain, 'expected `,` or `}` after an inline table value', this.pos);
      }
    }
    this.depth--;
  }

  parseArray(): TomlArray {
    const start = this.pos;
    const items = this.arrayItems(this.treeItem, false);
    return { kind: 'array', items, span: { start, end: this.pos } };
  }

  private readonly treeEntry = (table: TomlTable): void => this.parseKeyValue(table);

  parseInlineTable(): TomlTable {
    const start = this.pos;
    const span: Writable<Span> = { start, end: start };
    const table = newTable('inline', span);
    this.inlineEntries(table, this.treeEntry, false);
    span.end = this.pos;
    return table;
  }

  // ---- plain values (TomlParseOptions.plainArrays) -----------------------------------------------
  // The same grammar as parseValue, building JavaScript values instead of nodes. Anything unusual
  // (an error, a dotted or repeated key) makes the tree parse read the array again from its start,
  // so every error is the tree's own.

  parsePlainArray(): TomlArray {
    const start = this.pos;
    const depth = this.depth;
    let plain: unknown[];
    try {
      plain = this.plainArray();
    } catch {
      this.plainKeys.length = 0;
      this.plainFirsts.length = 0;
      this.pos = start;
      this.depth = depth;
      return this.parseArray();
    }
    const node = new LazyArray(this.src, start, this.pos);
    this.plainValues.set(node, plain);
    return node;
  }

  plainValue(): unknown {
    const src = this.src;
    const start = this.pos;
    switch (src.charCodeAt(start)) {
      case DQUOTE:
        return src.charCodeAt(start + 1) === DQUOTE && src.charCodeAt(start + 2) === DQUOTE ? this.scanMultilineBasic() : this.scanBasic();
      case SQUOTE:
        return src.charCodeAt(start + 1) === SQUOTE && src.charCodeAt(start + 2) === SQUOTE ? this.scanMultilineLiteral() : this.scanLiteral();
      case LBRACKET:
        return this.plainArray();
      case LBRACE:
        return this.plainInlineTable();
      default: {
        const scalar = this.parseValue() as TomlScalar;
        return scalar.kind === 'float' ? floatValue(scalar.value) : scalar.value;
      }
    }
  }

  plainArray(): unknown[] {
    return this.arrayItems(this.plainItem, true);
  }

  /** Where the keys of the innermost inline table being read as plain values start in `plainKeys`. */
  private readonly plainFirsts: number[] = [];

  // One `key = value` of an inline table read as plain values. A dotted key, a repeated key and
  // anything unexpected are the tree parse's (it bails).
  private readonly plainEntry = (out: Record<string, unknown>): void => {
    const src = this.src;
    const start = this.pos;
    const q = src.charCodeAt(start);
    let name: string;
    if (q === DQUOTE || q === SQUOTE) {
      if (src.charCodeAt(start + 1) === q && src.charCodeAt(start + 2) === q) throw BAIL;
      name = q === DQUOTE ? this.scanBasic() : this.scanLiteral();
    } else {
      let i = start;
      for (;;) {
        const c = src.charCodeAt(i);
        if (c < 128 && BARE[c] === 1) i++;
        else break;
      }
      if (i === start) throw BAIL;
      name = this.bareKey(start, i);
      this.pos = i;
    }
    this.skipWs();
    if (src.charCodeAt(this.pos) !== EQUALS) throw BAIL;
    this.pos++;
    // A repeated key is looked for among the keys read so far (a few, as a rule) rather than in the
    // object, which V8 keeps as a slow dictionary.
    const keys = this.plainKeys;
    const first = this.plainFirsts[this.plainFirsts.length - 1] ?? 0;
    if (keys.length - first < 32) {
      for (let j = first; j < keys.length; j++) if (keys[j] === name) throw BAIL;
    } else if (name in out) throw BAIL;
    keys.push(name);
    this.skipWs();
    out[name] = this.plainValue();
  };

  plainInlineTable(): Record<string, unknown> {
    const out = Object.create(null) as Record<string, unknown>;
    const first = this.plainKeys.length;
    this.plainFirsts.push(first);
    this.inlineEntries(out, this.plainEntry, true);
    this.plainFirsts.pop();
    this.plainKeys.length = first;
    return out;
  }
}

/**
 * Parses TOML 1.0 text into a span-carrying syntax tree. Never throws: on the first error the
 * result holds that error and the tree built before it.
 */
export function parseToml(text: string, options?: TomlParseOptions): TomlDocument {
  if (typeof text !== 'string') {
    const root: TomlTable = { ...newTable('root', { start: 0, end: 0 }), bodyEnd: 0 };
    return { root, errors: [{ message: 'expected TOML text (a string)', span: { start: 0, end: 0 } }] };
  }
  const parser = new Parser(text, options);
  const sections = parser.sections;
  try {
    parser.run();
    const doc: Writable<TomlDocument> = { root: parser.root, errors: [] };
    if (parser.plainValues.size > 0) doc.plainValues = parser.plainValues;
    if (sections) doc.sections = sections;
    return doc;
  } catch (e) {
    if (e instanceof RunReopened) throw e;
    if (e instanceof ReleaseFailure) throw e.failure;
    let error: TomlSyntaxError;
    if (e instanceof TomlParseFailure) {
      error = { message: e.message, span: { start: e.start, end: e.end } };
    } else {
      const at = Math.min(parser.pos, text.length);
      const detail = e instanceof Error ? e.message : String(e);
      error = { message: `could not parse TOML here (${detail})`, span: { start: at, end: Math.min(at + 1, text.length) } };
    }
    try {
      parser.finishSection();
    } catch {
      // The tree is still usable without the last section's extent.
    }
    return sections ? { root: parser.root, errors: [error], sections } : { root: parser.root, errors: [error] };
  }
}
