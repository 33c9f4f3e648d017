// The TOML line tokenizer Monaco runs over every line of a layer, in the background, after the layer is
// opened (225,000 lines for a 10,000-tool catalogue). It gives, rule for rule, the tokens of the Monarch
// grammar it replaced (token names with the `.toml` postfix, '' for plain text), without Monarch's
// allocations per line and per token (a `line + '\n'`, a substring of the rest of the line and a match
// array per rule tried, a token name string per token): sticky regexes tested in place, interned states,
// and token objects and a result reused from call to call, which Monaco's TokenizationSupportAdapter
// copies before it asks again (standaloneLanguages.js `_toBinaryTokens`, `_toClassicTokens`).
//
// Monaco hands a line without its newline; the grammar saw the newline (Monarch's `includeLF`), so its
// newline rules are end-of-line rules here: a header, a value and a single-line string end with the line,
// and a backslash before the end of a line in a multi-line basic string is a line continuation.
// Monarch passes the newline to the last line of a model too only when it has one; here every line ends
// with one, which changes nothing but the state after the last line.
import type { languages } from 'monaco-editor/editor/editor.api';

// The grammar's states. A state across lines is a stack of them: the root, then the arrays and inline
// tables still open, then at most a multi-line string.
const ROOT = 0;
const HEADER = 1;
const VALUE = 2;
const INLINE = 3;
const ARRAY = 4;
const BASIC = 5;
const LITERAL = 6;
const ML_BASIC = 7;
const ML_LITERAL = 8;
const KINDS = 9;

export const TOML_STATE_NAMES = ['root', 'header', 'value', 'inline', 'array', 'basic', 'literal', 'mlBasic', 'mlLiteral'] as const;
export type TomlStateName = (typeof TOML_STATE_NAMES)[number];

/**
 * One interned stack of grammar states: a stack is built only through `child` of its parent, so two
 * equal stacks are one object, `equals` is identity and `clone` returns the state itself (Monaco keeps
 * one state per line: 225,000 lines share a handful of objects).
 */
export class TomlState implements languages.IState {
  readonly #children: (TomlState | undefined)[] = [];

  constructor(
    readonly kind: number,
    readonly parent: TomlState | null,
  ) {}

  /** The stack with `kind` pushed on this one. */
  child(kind: number): TomlState {
    let found = this.#children[kind];
    if (found === undefined) {
      found = new TomlState(kind, this);
      this.#children[kind] = found;
    }
    return found;
  }

  /** The grammar state on top, named as in the Monarch grammar. */
  get name(): TomlStateName {
    return TOML_STATE_NAMES[this.kind] as TomlStateName;
  }

  /** The stack's states from the root up, named: for tests and diagnostics. */
  names(): TomlStateName[] {
    return this.parent === null ? [this.name] : [...this.parent.names(), this.name];
  }

  clone(): TomlState {
    return this;
  }

  equals(other: languages.IState): boolean {
    return other === this;
  }
}

/** The state before the first line, and after every line outside arrays, inline tables and multi-line strings. */
export const TOML_ROOT_STATE = new TomlState(ROOT, null);

/** Whether `state` came from this module's interning (tests: an end state is never a fresh object). */
export function isInternedTomlState(state: languages.IState): boolean {
  if (!(state instanceof TomlState)) return false;
  let at: TomlState = state;
  while (at.parent !== null) {
    if (at.parent.child(at.kind) !== at) return false;
    at = at.parent;
  }
  return at === TOML_ROOT_STATE;
}

/** Every stack a state of this kind can sit on is reached from the root; a name path builds one (tests). */
export function tomlStateOf(names: readonly TomlStateName[]): TomlState {
  if (names[0] !== 'root') throw new Error(`a TOML state starts at root, not ${String(names[0])}`);
  let state = TOML_ROOT_STATE;
  for (const name of names.slice(1)) {
    const kind = TOML_STATE_NAMES.indexOf(name);
    if (kind < 0 || kind >= KINDS) throw new Error(`no TOML state ${name}`);
    state = state.child(kind);
  }
  return state;
}

// Token names, the grammar's with its `.toml` postfix; the brackets take Monarch's `@brackets` names.
const PLAIN = '';
const COMMENT = 'comment.toml';
const TABLE_DELIMITER = 'delimiter.table.toml';
const TABLE = 'type.table.toml';
const TABLE_DEFAULTS = 'type.table.defaults.toml';
const DELIMITER = 'delimiter.toml';
const KEY = 'key.toml';
const KEY_DEFAULTS = 'key.defaults.toml';
const STRING = 'string.toml';
const STRING_ESCAPE = 'string.escape.toml';
const STRING_INVALID = 'string.invalid.toml';
const NUMBER = 'number.toml';
const NUMBER_DATE = 'number.date.toml';
const NUMBER_HEX = 'number.hex.toml';
const NUMBER_OCTAL = 'number.octal.toml';
const NUMBER_BINARY = 'number.binary.toml';
const KEYWORD = 'keyword.toml';
const INVALID = 'invalid.toml';
const CURLY = 'delimiter.curly.toml';
const SQUARE = 'delimiter.square.toml';

// The grammar's regexes, sticky: tested at `lastIndex`, so no substring and no match array. No `u` flag,
// as in Monarch: a class reads one UTF-16 code unit.
const HEADER_OPEN_2 = /\s*\[\[/y;
const HEADER_OPEN_1 = /\s*\[/y;
const WHITESPACE = /[ \t\r\n]+/y;
const COMMENT_RE = /#.*/y;
const DEFAULTS = /'\*'/y;
const BARE = /[A-Za-z0-9_-]+/y;
const QUOTED_BASIC = /"(?:[^"\\\n]|\\.)*"/y;
const QUOTED_LITERAL = /'[^'\n]*'/y;
const ROOT_INVALID = /[^\s#]/y;
const BLANKS = /[ \t]+/y;
const HEADER_CLOSE = /\]\]?/y;
const HEADER_INVALID = /[^\s\]]/y;
const DATE_TIME = /\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?/y;
const TIME = /\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?/y;
const BOOLEAN = /(?:true|false)(?![A-Za-z0-9_-])/y;
const INF_NAN = /[+-]?(?:inf|nan)(?![A-Za-z0-9_-])/y;
const HEX = /0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*/y;
const OCTAL = /0o[0-7](?:_?[0-7])*/y;
const BINARY = /0b[01](?:_?[01])*/y;
const DECIMAL = /[+-]?\d(?:_?\d)*(?:\.\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?/y;
const VALUE_INVALID = /[^\s,\]}#]+/y;
const INLINE_INVALID = /[^\s}]/y;
const ITEM_START = /[^\s,\]#]/y;
const BASIC_TEXT = /[^"\\\n]+/y;
const ESCAPE = /\\(?:[btnfr"\\e]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})/y;
const BAD_ESCAPE = /\\./y;
const LITERAL_TEXT = /[^'\n]+/y;
const ML_BASIC_TEXT = /[^"\\]+/y;
const CONTINUATION = /\\[ \t]*$/y;
const ML_BASIC_CLOSE = /"{3,5}/y;
const ML_LITERAL_TEXT = /[^']+/y;
const ML_LITERAL_CLOSE = /'{3,5}/y;

const CHAR_EQUALS = 0x3d;
const CHAR_DOT = 0x2e;
const CHAR_COMMA = 0x2c;
const CHAR_HASH = 0x23;
const CHAR_QUOTE = 0x22;
const CHAR_APOSTROPHE = 0x27;
const CHAR_OPEN_CURLY = 0x7b;
const CHAR_CLOSE_CURLY = 0x7d;
const CHAR_OPEN_SQUARE = 0x5b;
const CHAR_CLOSE_SQUARE = 0x5d;

// Arrays of the pooled token objects, one per token count up to this many, so a line's result is an
// array already of its length (shortening one array would trim its store, and growing it again allocate).
const SHARED_LENGTHS = 64;

// Monarch left a line this long as plain text, its state carried over (Monaco's default
// `editor.maxTokenizationLineLength`): so does this tokenizer, which also bounds its pool of tokens.
export const MAX_TOKENIZED_LINE_LENGTH = 20_000;

/**
 * The TOML tokens provider: `tokenize` returns the same result object, its tokens the same objects,
 * rewritten by the next call; Monaco copies them before it calls again.
 */
export class TomlTokenizer implements languages.TokensProvider {
  readonly #pool: languages.IToken[] = [];
  readonly #byLength: languages.IToken[][] = [];
  readonly #result: { tokens: languages.IToken[]; endState: TomlState } = { tokens: [], endState: TOML_ROOT_STATE };
  #count = 0;
  #last: string | null = null;
  // The line and position being read: fields, so the rule helpers need no closures.
  #line = '';
  #pos = 0;

  getInitialState(): TomlState {
    return TOML_ROOT_STATE;
  }

  tokenize(line: string, state: languages.IState): languages.ILineTokens {
    let stack = state instanceof TomlState ? state : TOML_ROOT_STATE;
    this.#pos = 0;
    this.#count = 0;
    this.#last = null;
    if (line.length >= MAX_TOKENIZED_LINE_LENGTH) {
      this.#emit(0, PLAIN);
      this.#result.tokens = this.#tokens();
      this.#result.endState = stack;
      return this.#result;
    }
    this.#line = line;
    const length = line.length;
    while (this.#pos < length) stack = this.#step(stack);
    // The newline: a header, a value and a single-line string end with their line.
    const kind = stack.kind;
    if ((kind === HEADER || kind === VALUE || kind === BASIC || kind === LITERAL) && stack.parent !== null) stack = stack.parent;
    this.#line = '';
    this.#result.tokens = this.#tokens();
    this.#result.endState = stack;
    return this.#result;
  }

  #tokens(): languages.IToken[] {
    const count = this.#count;
    if (count >= SHARED_LENGTHS) return this.#pool.slice(0, count);
    let shared = this.#byLength[count];
    if (shared === undefined) {
      shared = this.#pool.slice(0, count);
      this.#byLength[count] = shared;
    }
    return shared;
  }

  /** A token from `start` (adjacent tokens of one name are one token, as Monarch's collector makes them). */
  #emit(start: number, scope: string): void {
    if (this.#last === scope) return;
    this.#last = scope;
    const token = this.#pool[this.#count];
    if (token === undefined) {
      this.#pool.push({ startIndex: start, scopes: scope });
    } else {
      token.startIndex = start;
      token.scopes = scope;
    }
    this.#count++;
  }

  /** Whether `re` matches at the position; if so it is read, as `scope`, and the position moves past it. */
  #take(re: RegExp, scope: string): boolean {
    const start = this.#pos;
    re.lastIndex = start;
    if (!re.test(this.#line)) return false;
    this.#emit(start, scope);
    this.#pos = re.lastIndex;
    return true;
  }

  /** What Monarch does when no rule matches: one character of plain text, the state unchanged. */
  #unmatched(): void {
    this.#emit(this.#pos, PLAIN);
    this.#pos++;
  }

  /** One rule of the state on top, as Monarch applies it: the first rule that matches. */
  #step(stack: TomlState): TomlState {
    switch (stack.kind) {
      case ROOT:
        return this.#root(stack);
      case HEADER:
        return this.#header(stack);
      case VALUE:
        return this.#value(stack);
      case INLINE:
        return this.#inline(stack);
      case ARRAY:
        return this.#array(stack);
      case BASIC:
        return this.#basic(stack);
      case LITERAL:
        return this.#literal(stack);
      case ML_BASIC:
        return this.#mlBasic(stack);
      default:
        return this.#mlLiteral(stack);
    }
  }

  // Every key rule of the grammar's `keys`, in order.
  #keys(): boolean {
    return (
      this.#take(DEFAULTS, KEY_DEFAULTS) ||
      this.#take(BARE, KEY) ||
      this.#take(QUOTED_BASIC, KEY) ||
      this.#take(QUOTED_LITERAL, KEY) ||
      this.#char(CHAR_DOT, DELIMITER)
    );
  }

  /** A single character `code` read as `scope`. */
  #char(code: number, scope: string): boolean {
    if (this.#line.charCodeAt(this.#pos) !== code) return false;
    this.#emit(this.#pos, scope);
    this.#pos++;
    return true;
  }

  #root(stack: TomlState): TomlState {
    // `^`: Monarch tries a line-start rule only at the start of the line.
    if (this.#pos === 0 && (this.#take(HEADER_OPEN_2, TABLE_DELIMITER) || this.#take(HEADER_OPEN_1, TABLE_DELIMITER))) {
      return stack.child(HEADER);
    }
    if (this.#take(WHITESPACE, PLAIN) || this.#take(COMMENT_RE, COMMENT) || this.#keys()) return stack;
    if (this.#char(CHAR_EQUALS, DELIMITER)) return stack.child(VALUE);
    if (!this.#take(ROOT_INVALID, INVALID)) this.#unmatched();
    return stack;
  }

  #header(stack: TomlState): TomlState {
    if (
      this.#take(BLANKS, PLAIN) ||
      this.#take(DEFAULTS, TABLE_DEFAULTS) ||
      this.#take(BARE, TABLE) ||
      this.#take(QUOTED_BASIC, TABLE) ||
      this.#take(QUOTED_LITERAL, TABLE) ||
      this.#char(CHAR_DOT, DELIMITER)
    ) {
      return stack;
    }
    if (this.#take(HEADER_CLOSE, TABLE_DELIMITER)) return stack.parent ?? stack;
    if (!this.#take(HEADER_INVALID, INVALID)) this.#unmatched();
    return stack;
  }

  #value(stack: TomlState): TomlState {
    if (this.#take(BLANKS, PLAIN)) return stack;
    const parent = stack.parent ?? TOML_ROOT_STATE;
    const line = this.#line;
    const pos = this.#pos;
    const code = line.charCodeAt(pos);
    // A comment ends the value without a token (a lookahead).
    if (code === CHAR_HASH) return parent;
    if (code === CHAR_QUOTE) {
      const multi = line.charCodeAt(pos + 1) === CHAR_QUOTE && line.charCodeAt(pos + 2) === CHAR_QUOTE;
      this.#emit(pos, STRING);
      this.#pos = pos + (multi ? 3 : 1);
      return parent.child(multi ? ML_BASIC : BASIC);
    }
    if (code === CHAR_APOSTROPHE) {
      const multi = line.charCodeAt(pos + 1) === CHAR_APOSTROPHE && line.charCodeAt(pos + 2) === CHAR_APOSTROPHE;
      this.#emit(pos, STRING);
      this.#pos = pos + (multi ? 3 : 1);
      return parent.child(multi ? ML_LITERAL : LITERAL);
    }
    if (this.#char(CHAR_OPEN_CURLY, CURLY)) return parent.child(INLINE);
    if (this.#char(CHAR_OPEN_SQUARE, SQUARE)) return parent.child(ARRAY);
    if (
      this.#take(DATE_TIME, NUMBER_DATE) ||
      this.#take(TIME, NUMBER_DATE) ||
      this.#take(BOOLEAN, KEYWORD) ||
      this.#take(INF_NAN, NUMBER) ||
      this.#take(HEX, NUMBER_HEX) ||
      this.#take(OCTAL, NUMBER_OCTAL) ||
      this.#take(BINARY, NUMBER_BINARY) ||
      this.#take(DECIMAL, NUMBER) ||
      this.#take(VALUE_INVALID, INVALID)
    ) {
      return parent;
    }
    // A `,`, `]` or `}` ends the value without a token (a lookahead); the enclosing state reads it.
    if (code === CHAR_COMMA || code === CHAR_CLOSE_SQUARE || code === CHAR_CLOSE_CURLY) return parent;
    this.#unmatched();
    return stack;
  }

  #inline(stack: TomlState): TomlState {
    if (this.#take(WHITESPACE, PLAIN) || this.#take(COMMENT_RE, COMMENT)) return stack;
    if (this.#char(CHAR_CLOSE_CURLY, CURLY)) return stack.parent ?? stack;
    if (this.#char(CHAR_COMMA, DELIMITER) || this.#keys()) return stack;
    if (this.#char(CHAR_EQUALS, DELIMITER)) return stack.child(VALUE);
    if (!this.#take(INLINE_INVALID, INVALID)) this.#unmatched();
    return stack;
  }

  #array(stack: TomlState): TomlState {
    if (this.#take(WHITESPACE, PLAIN) || this.#take(COMMENT_RE, COMMENT)) return stack;
    if (this.#char(CHAR_CLOSE_SQUARE, SQUARE)) return stack.parent ?? stack;
    if (this.#char(CHAR_COMMA, DELIMITER)) return stack;
    // The one departure from the grammar: there a `}` in an array started an item, which the value
    // ended at once without reading it, and Monarch went round the two forever (the page hung on
    // `x = [}`). Here it is invalid, and the array goes on.
    if (this.#char(CHAR_CLOSE_CURLY, INVALID)) return stack;
    // Anything else starts an item: read it as a value (a lookahead, no token).
    ITEM_START.lastIndex = this.#pos;
    if (ITEM_START.test(this.#line)) return stack.child(VALUE);
    this.#unmatched();
    return stack;
  }

  #basic(stack: TomlState): TomlState {
    if (this.#take(BASIC_TEXT, STRING) || this.#take(ESCAPE, STRING_ESCAPE) || this.#take(BAD_ESCAPE, STRING_INVALID)) {
      return stack;
    }
    if (this.#char(CHAR_QUOTE, STRING)) return stack.parent ?? stack;
    // A backslash before the end of the line (or a line break Monarch's `.` does not cross).
    this.#unmatched();
    return stack;
  }

  #literal(stack: TomlState): TomlState {
    if (this.#take(LITERAL_TEXT, STRING)) return stack;
    if (this.#char(CHAR_APOSTROPHE, STRING)) return stack.parent ?? stack;
    this.#unmatched();
    return stack;
  }

  #mlBasic(stack: TomlState): TomlState {
    if (
      this.#take(ML_BASIC_TEXT, STRING) ||
      this.#take(ESCAPE, STRING_ESCAPE) ||
      this.#take(CONTINUATION, STRING_ESCAPE) ||
      this.#take(BAD_ESCAPE, STRING_INVALID)
    ) {
      return stack;
    }
    // Up to two quotes may end the content just before the closing three.
    if (this.#take(ML_BASIC_CLOSE, STRING)) return stack.parent ?? stack;
    if (!this.#char(CHAR_QUOTE, STRING)) this.#unmatched();
    return stack;
  }

  #mlLiteral(stack: TomlState): TomlState {
    if (this.#take(ML_LITERAL_TEXT, STRING)) return stack;
    if (this.#take(ML_LITERAL_CLOSE, STRING)) return stack.parent ?? stack;
    if (!this.#char(CHAR_APOSTROPHE, STRING)) this.#unmatched();
    return stack;
  }
}
