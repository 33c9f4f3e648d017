// The TOML line tokenizer against the Monarch grammar it replaced: every rule of every state as a row,
// states carried across lines, invariants for any line from any reachable state, the real TOML files
// of ../shared, and Monarch itself (its compiler and lexer, run here without a page) on random lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { languages } from 'monaco-editor/editor/editor.api';
import { compile } from 'monaco-editor/editor/standalone/common/monarch/monarchCompile';
import { MonarchTokenizer } from 'monaco-editor/editor/standalone/common/monarch/monarchLexer';
import { describe, expect, it } from 'vitest';
import { MAX_TOKENIZED_LINE_LENGTH, TOML_ROOT_STATE, TomlTokenizer, isInternedTomlState, tomlStateOf } from './toml-tokens';
import type { TomlState, TomlStateName } from './toml-tokens';

type Expected = [text: string, token: string][];

/** The tokens of `line` from `state`, as readable (text, token) pairs, and the end state's names. */
function read(tokenizer: TomlTokenizer, line: string, state: TomlState): { tokens: Expected; end: TomlState } {
  const result = tokenizer.tokenize(line, state);
  const tokens: Expected = result.tokens.map((token, i) => {
    const next = result.tokens[i + 1];
    return [line.slice(token.startIndex, next === undefined ? line.length : next.startIndex), token.scopes];
  });
  return { tokens, end: result.endState as TomlState };
}

interface Row {
  rule: string;
  from?: TomlStateName[];
  lines: string[];
  tokens: Expected[];
  end: TomlStateName[];
}

const ROOT: TomlStateName[] = ['root'];

// Every rule of every state of the grammar, in the grammar's order; `from` is the state before the
// first line (the root unless given), `end` the state after the last.
const rows: Row[] = [
  // root
  { rule: 'root: [[ opens an array-of-tables header', lines: ['[[tool]]'], tokens: [[['[[', 'delimiter.table.toml'], ['tool', 'type.table.toml'], [']]', 'delimiter.table.toml']]], end: ROOT },
  { rule: 'root: an indented [[ header', lines: ['  [[a.b]]'], tokens: [[['  [[', 'delimiter.table.toml'], ['a', 'type.table.toml'], ['.', 'delimiter.toml'], ['b', 'type.table.toml'], [']]', 'delimiter.table.toml']]], end: ROOT },
  { rule: 'root: [ opens a table header', lines: ['[conversation]'], tokens: [[['[', 'delimiter.table.toml'], ['conversation', 'type.table.toml'], [']', 'delimiter.table.toml']]], end: ROOT },
  { rule: 'root: a header only at the start of a line', lines: ['a [b]'], tokens: [[['a', 'key.toml'], [' ', ''], ['[', 'invalid.toml'], ['b', 'key.toml'], [']', 'invalid.toml']]], end: ROOT },
  { rule: 'root: whitespace', lines: [' \t\r'], tokens: [[[' \t\r', '']]], end: ROOT },
  { rule: 'root: a comment to the end of the line', lines: ['# a = [ "x'], tokens: [[['# a = [ "x', 'comment.toml']]], end: ROOT },
  { rule: "root: the defaults key '*'", lines: ["'*' = 1"], tokens: [[["'*'", 'key.defaults.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['1', 'number.toml']]], end: ROOT },
  { rule: 'root: bare key', lines: ['allow_toggle-2 = true'], tokens: [[['allow_toggle-2', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['true', 'keyword.toml']]], end: ROOT },
  { rule: 'root: quoted basic key with an escape', lines: ['"a\\"b" = 1'], tokens: [[['"a\\"b"', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['1', 'number.toml']]], end: ROOT },
  { rule: 'root: quoted literal key', lines: ["'a b' = 1"], tokens: [[["'a b'", 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['1', 'number.toml']]], end: ROOT },
  { rule: 'root: dotted keys', lines: ['a.b=1'], tokens: [[['a', 'key.toml'], ['.', 'delimiter.toml'], ['b', 'key.toml'], ['=', 'delimiter.toml'], ['1', 'number.toml']]], end: ROOT },
  { rule: 'root: = starts a value', lines: ['a ='], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml']]], end: ROOT },
  { rule: 'root: anything else is invalid, a character at a time (merged)', lines: ['a } ,'], tokens: [[['a', 'key.toml'], [' ', ''], ['}', 'invalid.toml'], [' ', ''], [',', 'invalid.toml']]], end: ROOT },
  { rule: 'root: other whitespace matches no rule: plain text', lines: ['a\u00a0b'], tokens: [[['a', 'key.toml'], ['\u00a0', ''], ['b', 'key.toml']]], end: ROOT },
  { rule: 'root: an unclosed quoted key is invalid then a key', lines: ['"ab'], tokens: [[['"', 'invalid.toml'], ['ab', 'key.toml']]], end: ROOT },
  // header
  { rule: 'header: blanks', lines: ['[ a\t]'], tokens: [[['[', 'delimiter.table.toml'], [' ', ''], ['a', 'type.table.toml'], ['\t', ''], [']', 'delimiter.table.toml']]], end: ROOT },
  { rule: "header: '*' is the defaults table", lines: ["[tools.'*']"], tokens: [[['[', 'delimiter.table.toml'], ['tools', 'type.table.toml'], ['.', 'delimiter.toml'], ["'*'", 'type.table.defaults.toml'], [']', 'delimiter.table.toml']]], end: ROOT },
  { rule: 'header: quoted basic and literal names', lines: ['["a.b".\'c d\']'], tokens: [[['[', 'delimiter.table.toml'], ['"a.b"', 'type.table.toml'], ['.', 'delimiter.toml'], ["'c d'", 'type.table.toml'], [']', 'delimiter.table.toml']]], end: ROOT },
  { rule: 'header: ] closes, the rest of the line is the root', lines: ['[a] # t'], tokens: [[['[', 'delimiter.table.toml'], ['a', 'type.table.toml'], [']', 'delimiter.table.toml'], [' ', ''], ['# t', 'comment.toml']]], end: ROOT },
  { rule: 'header: the end of the line ends an unclosed header', lines: ['[a', 'b = 1'], tokens: [[['[', 'delimiter.table.toml'], ['a', 'type.table.toml']], [['b', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['1', 'number.toml']]], end: ROOT },
  { rule: 'header: anything else is invalid', lines: ['[a=b]'], tokens: [[['[', 'delimiter.table.toml'], ['a', 'type.table.toml'], ['=', 'invalid.toml'], ['b', 'type.table.toml'], [']', 'delimiter.table.toml']]], end: ROOT },
  { rule: 'header: other whitespace is plain text', lines: ['[\ra]'], tokens: [[['[', 'delimiter.table.toml'], ['\r', ''], ['a', 'type.table.toml'], [']', 'delimiter.table.toml']]], end: ROOT },
  // value
  { rule: 'value: blanks, then the end of the line ends it', from: ['root', 'value'], lines: [' \t'], tokens: [[[' \t', '']]], end: ROOT },
  { rule: 'value: a comment ends it without a token', lines: ['a = # c'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['# c', 'comment.toml']]], end: ROOT },
  { rule: 'value: """ opens a multi-line basic string', lines: ['a = """x'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"""x', 'string.toml']]], end: ['root', 'mlBasic'] },
  { rule: "value: ''' opens a multi-line literal string", lines: ["a = '''x"], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ["'''x", 'string.toml']]], end: ['root', 'mlLiteral'] },
  { rule: 'value: " opens a basic string', lines: ['a = "x"'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"x"', 'string.toml']]], end: ROOT },
  { rule: "value: ' opens a literal string", lines: ["a = 'x'"], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ["'x'", 'string.toml']]], end: ROOT },
  { rule: 'value: { opens an inline table', from: ['root', 'value'], lines: ['{'], tokens: [[['{', 'delimiter.curly.toml']]], end: ['root', 'inline'] },
  { rule: 'value: [ opens an array', from: ['root', 'value'], lines: ['['], tokens: [[['[', 'delimiter.square.toml']]], end: ['root', 'array'] },
  { rule: 'value: an offset date-time', from: ['root', 'value'], lines: ['1979-05-27T07:32:00.5-07:00'], tokens: [[['1979-05-27T07:32:00.5-07:00', 'number.date.toml']]], end: ROOT },
  { rule: 'value: a local date', from: ['root', 'value'], lines: ['1979-05-27'], tokens: [[['1979-05-27', 'number.date.toml']]], end: ROOT },
  { rule: 'value: a date-time with a space and Z', from: ['root', 'value'], lines: ['1979-05-27 07:32Z'], tokens: [[['1979-05-27 07:32Z', 'number.date.toml']]], end: ROOT },
  { rule: 'value: a local time', from: ['root', 'value'], lines: ['07:32:00.999'], tokens: [[['07:32:00.999', 'number.date.toml']]], end: ROOT },
  { rule: 'value: booleans', lines: ['a = false'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['false', 'keyword.toml']]], end: ROOT },
  { rule: 'value: a boolean must end as a word', from: ['root', 'value'], lines: ['trueish'], tokens: [[['trueish', 'invalid.toml']]], end: ROOT },
  { rule: 'value: inf and nan with a sign', from: ['root', 'value'], lines: ['-inf'], tokens: [[['-inf', 'number.toml']]], end: ROOT },
  { rule: 'value: nan', from: ['root', 'value'], lines: ['nan'], tokens: [[['nan', 'number.toml']]], end: ROOT },
  { rule: 'value: hex', from: ['root', 'value'], lines: ['0xDEAD_beef'], tokens: [[['0xDEAD_beef', 'number.hex.toml']]], end: ROOT },
  { rule: 'value: octal', from: ['root', 'value'], lines: ['0o7_55'], tokens: [[['0o7_55', 'number.octal.toml']]], end: ROOT },
  { rule: 'value: binary', from: ['root', 'value'], lines: ['0b1_0'], tokens: [[['0b1_0', 'number.binary.toml']]], end: ROOT },
  { rule: 'value: a decimal with fraction and exponent', from: ['root', 'value'], lines: ['+1_000.5e-3'], tokens: [[['+1_000.5e-3', 'number.toml']]], end: ROOT },
  { rule: 'value: a number then the root reads the rest', lines: ['a = 12abc'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['12', 'number.toml'], ['abc', 'key.toml']]], end: ROOT },
  { rule: 'value: anything else up to , ] } # or a space is invalid', from: ['root', 'value'], lines: ['yes please'], tokens: [[['yes', 'invalid.toml'], [' ', ''], ['please', 'key.toml']]], end: ROOT },
  { rule: 'value: , ] } end it without a token', lines: ['a = ,'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], [',', 'invalid.toml']]], end: ROOT },
  { rule: 'value: other whitespace is plain text and the value goes on', from: ['root', 'value'], lines: ['\r1'], tokens: [[['\r', ''], ['1', 'number.toml']]], end: ROOT },
  // inline
  { rule: 'inline: whitespace, keys, =, values, commas, }', lines: ['a = { b = 1, "c".d = "x" }'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['{', 'delimiter.curly.toml'], [' ', ''], ['b', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['1', 'number.toml'], [',', 'delimiter.toml'], [' ', ''], ['"c"', 'key.toml'], ['.', 'delimiter.toml'], ['d', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"x"', 'string.toml'], [' ', ''], ['}', 'delimiter.curly.toml']]], end: ROOT },
  { rule: 'inline: a comment', from: ['root', 'inline'], lines: ['# c }'], tokens: [[['# c }', 'comment.toml']]], end: ['root', 'inline'] },
  { rule: "inline: the defaults key and a quoted literal key", from: ['root', 'inline'], lines: ["'*'='x'"], tokens: [[["'*'", 'key.defaults.toml'], ['=', 'delimiter.toml'], ["'x'", 'string.toml']]], end: ['root', 'inline'] },
  { rule: 'inline: anything else is invalid', from: ['root', 'inline'], lines: [']'], tokens: [[[']', 'invalid.toml']]], end: ['root', 'inline'] },
  { rule: 'inline: a value ended by } closes the table', from: ['root', 'inline'], lines: ['a=1}'], tokens: [[['a', 'key.toml'], ['=', 'delimiter.toml'], ['1', 'number.toml'], ['}', 'delimiter.curly.toml']]], end: ROOT },
  { rule: 'inline: other whitespace is plain text', from: ['root', 'inline'], lines: ['\u00a0'], tokens: [[['\u00a0', '']]], end: ['root', 'inline'] },
  // array
  { rule: 'array: items, commas, whitespace, ]', lines: ['a = [1, "x", true]'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['[', 'delimiter.square.toml'], ['1', 'number.toml'], [',', 'delimiter.toml'], [' ', ''], ['"x"', 'string.toml'], [',', 'delimiter.toml'], [' ', ''], ['true', 'keyword.toml'], [']', 'delimiter.square.toml']]], end: ROOT },
  { rule: 'array: a comment', from: ['root', 'array'], lines: ['# c ]'], tokens: [[['# c ]', 'comment.toml']]], end: ['root', 'array'] },
  { rule: 'array: an item then a comment', from: ['root', 'array'], lines: ['1 # c'], tokens: [[['1', 'number.toml'], [' ', ''], ['# c', 'comment.toml']]], end: ['root', 'array'] },
  { rule: 'array: nested arrays and inline tables', from: ['root', 'array'], lines: ['[{a=[]}]'], tokens: [[['[', 'delimiter.square.toml'], ['{', 'delimiter.curly.toml'], ['a', 'key.toml'], ['=', 'delimiter.toml'], ['[]', 'delimiter.square.toml'], ['}', 'delimiter.curly.toml'], [']', 'delimiter.square.toml']]], end: ['root', 'array'] },
  { rule: 'array: an invalid item', from: ['root', 'array'], lines: ['yes,'], tokens: [[['yes', 'invalid.toml'], [',', 'delimiter.toml']]], end: ['root', 'array'] },
  { rule: 'array: a } is invalid (Monarch looped forever there)', from: ['root', 'array'], lines: ['} ]'], tokens: [[['}', 'invalid.toml'], [' ', ''], [']', 'delimiter.square.toml']]], end: ROOT },
  { rule: 'array: other whitespace is plain text', from: ['root', 'array'], lines: ['\u00a0'], tokens: [[['\u00a0', '']]], end: ['root', 'array'] },
  // basic
  { rule: 'basic: text, escapes, an unknown escape, the closing quote', lines: ['a = "x\\t\\u00e9\\U0001F600\\e\\q y"'], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"x', 'string.toml'], ['\\t\\u00e9\\U0001F600\\e', 'string.escape.toml'], ['\\q', 'string.invalid.toml'], [' y"', 'string.toml']]], end: ROOT },
  { rule: 'basic: a short \\u is invalid', from: ['root', 'basic'], lines: ['\\u12"'], tokens: [[['\\u', 'string.invalid.toml'], ['12"', 'string.toml']]], end: ROOT },
  { rule: 'basic: the end of the line ends it (a trailing backslash is plain)', from: ['root', 'basic'], lines: ['x\\', 'b'], tokens: [[['x', 'string.toml'], ['\\', '']], [['b', 'key.toml']]], end: ROOT },
  { rule: 'basic: inside an array, the end of the line returns to the array', from: ['root', 'array', 'basic'], lines: ['x'], tokens: [[['x', 'string.toml']]], end: ['root', 'array'] },
  // literal
  { rule: 'literal: text with backslashes, the closing quote', lines: ["a = 'C:\\x' # c"], tokens: [[['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ["'C:\\x'", 'string.toml'], [' ', ''], ['# c', 'comment.toml']]], end: ROOT },
  { rule: 'literal: the end of the line ends it', from: ['root', 'literal'], lines: ['open', 'b'], tokens: [[['open', 'string.toml']], [['b', 'key.toml']]], end: ROOT },
  // mlBasic
  { rule: 'mlBasic: text with quotes, escapes, an unknown escape', from: ['root', 'mlBasic'], lines: ['a "b" ""c\\n\\z'], tokens: [[['a "b" ""c', 'string.toml'], ['\\n', 'string.escape.toml'], ['\\z', 'string.invalid.toml']]], end: ['root', 'mlBasic'] },
  { rule: 'mlBasic: a line-continuation backslash, blanks after it', from: ['root', 'mlBasic'], lines: ['x \\ \t'], tokens: [[['x ', 'string.toml'], ['\\ \t', 'string.escape.toml']]], end: ['root', 'mlBasic'] },
  { rule: 'mlBasic: """ closes, with up to two quotes before', from: ['root', 'mlBasic'], lines: ['x""""" # c'], tokens: [[['x"""""', 'string.toml'], [' ', ''], ['# c', 'comment.toml']]], end: ROOT },
  { rule: 'mlBasic: closes inside an array', from: ['root', 'array', 'mlBasic'], lines: ['"""]'], tokens: [[['"""', 'string.toml'], [']', 'delimiter.square.toml']]], end: ROOT },
  // mlLiteral
  { rule: "mlLiteral: text with quotes and backslashes", from: ['root', 'mlLiteral'], lines: ["a 'b' ''\\n"], tokens: [[["a 'b' ''\\n", 'string.toml']]], end: ['root', 'mlLiteral'] },
  { rule: "mlLiteral: ''' closes, with up to two quotes before", from: ['root', 'mlLiteral'], lines: ["'''''x"], tokens: [[["'''''", 'string.toml'], ['x', 'key.toml']]], end: ROOT },
  // states across lines
  {
    rule: 'across lines: a multi-line basic string',
    lines: ['d = """', 'one \\', '  two \\"', '"""'],
    tokens: [
      [['d', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"""', 'string.toml']],
      [['one ', 'string.toml'], ['\\', 'string.escape.toml']],
      [['  two ', 'string.toml'], ['\\"', 'string.escape.toml']],
      [['"""', 'string.toml']],
    ],
    end: ROOT,
  },
  {
    rule: 'across lines: a multi-line literal string',
    lines: ["d = '''", "C:\\ '' [x]", "'''"],
    tokens: [[['d', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ["'''", 'string.toml']], [["C:\\ '' [x]", 'string.toml']], [["'''", 'string.toml']]],
    end: ROOT,
  },
  {
    rule: 'across lines: a multi-line array with comments and nested inline tables',
    lines: ['xs = [ # first', '  { a = { b = [1, 2] } }, # second', '  """m', 'l""",', ']'],
    tokens: [
      [['xs', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['[', 'delimiter.square.toml'], [' ', ''], ['# first', 'comment.toml']],
      [['  ', ''], ['{', 'delimiter.curly.toml'], [' ', ''], ['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['{', 'delimiter.curly.toml'], [' ', ''], ['b', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['[', 'delimiter.square.toml'], ['1', 'number.toml'], [',', 'delimiter.toml'], [' ', ''], ['2', 'number.toml'], [']', 'delimiter.square.toml'], [' ', ''], ['}', 'delimiter.curly.toml'], [' ', ''], ['}', 'delimiter.curly.toml'], [',', 'delimiter.toml'], [' ', ''], ['# second', 'comment.toml']],
      [['  ', ''], ['"""m', 'string.toml']],
      [['l"""', 'string.toml'], [',', 'delimiter.toml']],
      [[']', 'delimiter.square.toml']],
    ],
    end: ROOT,
  },
  {
    rule: 'across lines: an array of inline tables',
    lines: ['tools = [', '  { name = "a", allow_toggle = true },', '  { name = "b" },', ']'],
    tokens: [
      [['tools', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['[', 'delimiter.square.toml']],
      [['  ', ''], ['{', 'delimiter.curly.toml'], [' ', ''], ['name', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"a"', 'string.toml'], [',', 'delimiter.toml'], [' ', ''], ['allow_toggle', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['true', 'keyword.toml'], [' ', ''], ['}', 'delimiter.curly.toml'], [',', 'delimiter.toml']],
      [['  ', ''], ['{', 'delimiter.curly.toml'], [' ', ''], ['name', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['"b"', 'string.toml'], [' ', ''], ['}', 'delimiter.curly.toml'], [',', 'delimiter.toml']],
      [[']', 'delimiter.square.toml']],
    ],
    end: ROOT,
  },
  {
    rule: 'across lines: an inline table left open keeps its keys on the next line',
    lines: ['t = { a = 1,', 'b = 2 }'],
    tokens: [
      [['t', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['{', 'delimiter.curly.toml'], [' ', ''], ['a', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['1', 'number.toml'], [',', 'delimiter.toml']],
      [['b', 'key.toml'], [' ', ''], ['=', 'delimiter.toml'], [' ', ''], ['2', 'number.toml'], [' ', ''], ['}', 'delimiter.curly.toml']],
    ],
    end: ROOT,
  },
  { rule: 'an empty line has no tokens and keeps the state', from: ['root', 'array', 'inline'], lines: [''], tokens: [[]], end: ['root', 'array', 'inline'] },
];

describe('the TOML tokenizer, rule by rule (the Monarch grammar it replaced)', () => {
  it.each(rows)('$rule', ({ from, lines, tokens, end }) => {
    const tokenizer = new TomlTokenizer();
    let state = tomlStateOf(from ?? ROOT);
    const seen: Expected[] = [];
    for (const line of lines) {
      const result = read(tokenizer, line, state);
      seen.push(result.tokens);
      state = result.end;
    }
    expect(seen).toEqual(tokens);
    expect(state.names()).toEqual(end);
    if (from === undefined) {
      // From the root, Monarch (over the oracle grammar below) reads the rows alike.
      const oracle = monarch();
      let theirs = oracle.initial;
      lines.forEach((text, i) => {
        const expected = oracle.tokenize(text, theirs);
        expect(expected.tokens).toEqual(tokens[i]);
        theirs = expected.end;
      });
    }
    expect(state).toBe(tomlStateOf(end));
  });
});

// The Monarch grammar the tokenizer replaced, kept here as the oracle: the same rules, with one
// change, a `}` in an array is invalid (in the grammar the array and the value handed it to each
// other forever, and Monarch never returned).
const escapes = /\\(?:[btnfr"\\e]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})/;
const tomlMonarch: languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.toml',
  includeLF: true,
  brackets: [
    { open: '{', close: '}', token: 'delimiter.curly' },
    { open: '[', close: ']', token: 'delimiter.square' },
  ],
  escapes,
  tokenizer: {
    root: [
      [/^\s*\[\[/, { token: 'delimiter.table', next: '@header' }],
      [/^\s*\[/, { token: 'delimiter.table', next: '@header' }],
      { include: '@whitespace' },
      { include: '@keys' },
      [/=/, { token: 'delimiter', next: '@value' }],
      [/[^\s#]/, 'invalid'],
    ],
    header: [
      [/[ \t]+/, ''],
      [/'\*'/, 'type.table.defaults'],
      [/[A-Za-z0-9_-]+/, 'type.table'],
      [/"(?:[^"\\\n]|\\.)*"/, 'type.table'],
      [/'[^'\n]*'/, 'type.table'],
      [/\./, 'delimiter'],
      [/\]\]?/, { token: 'delimiter.table', next: '@pop' }],
      [/\n/, { token: '', next: '@pop' }],
      [/[^\s\]]/, 'invalid'],
    ],
    whitespace: [
      [/[ \t\r\n]+/, ''],
      [/#.*/, 'comment'],
    ],
    keys: [
      [/'\*'/, 'key.defaults'],
      [/[A-Za-z0-9_-]+/, 'key'],
      [/"(?:[^"\\\n]|\\.)*"/, 'key'],
      [/'[^'\n]*'/, 'key'],
      [/\./, 'delimiter'],
    ],
    value: [
      [/[ \t]+/, ''],
      [/\n/, { token: '', next: '@pop' }],
      [/(?=#)/, { token: '', next: '@pop' }],
      [/"""/, { token: 'string', switchTo: '@mlBasic' }],
      [/'''/, { token: 'string', switchTo: '@mlLiteral' }],
      [/"/, { token: 'string', switchTo: '@basic' }],
      [/'/, { token: 'string', switchTo: '@literal' }],
      [/\{/, { token: '@brackets', switchTo: '@inline' }],
      [/\[/, { token: '@brackets', switchTo: '@array' }],
      { include: '@scalars' },
      [/[^\s,\]}#]+/, { token: 'invalid', next: '@pop' }],
      [/(?=[,\]}])/, { token: '', next: '@pop' }],
    ],
    scalars: [
      [/\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?/, { token: 'number.date', next: '@pop' }],
      [/\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?/, { token: 'number.date', next: '@pop' }],
      [/(?:true|false)(?![A-Za-z0-9_-])/, { token: 'keyword', next: '@pop' }],
      [/[+-]?(?:inf|nan)(?![A-Za-z0-9_-])/, { token: 'number', next: '@pop' }],
      [/0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*/, { token: 'number.hex', next: '@pop' }],
      [/0o[0-7](?:_?[0-7])*/, { token: 'number.octal', next: '@pop' }],
      [/0b[01](?:_?[01])*/, { token: 'number.binary', next: '@pop' }],
      [/[+-]?\d(?:_?\d)*(?:\.\d(?:_?\d)*)?(?:[eE][+-]?\d(?:_?\d)*)?/, { token: 'number', next: '@pop' }],
    ],
    inline: [
      [/[ \t\r\n]+/, ''],
      [/#.*/, 'comment'],
      [/\}/, { token: '@brackets', next: '@pop' }],
      [/,/, 'delimiter'],
      { include: '@keys' },
      [/=/, { token: 'delimiter', next: '@value' }],
      [/[^\s}]/, 'invalid'],
    ],
    array: [
      [/[ \t\r\n]+/, ''],
      [/#.*/, 'comment'],
      [/\]/, { token: '@brackets', next: '@pop' }],
      [/,/, 'delimiter'],
      [/\}/, 'invalid'], // the oracle's one change
      [/(?=[^\s,\]#])/, { token: '', next: '@value' }],
    ],
    basic: [
      [/[^"\\\n]+/, 'string'],
      [/@escapes/, 'string.escape'],
      [/\\./, 'string.invalid'],
      [/"/, { token: 'string', next: '@pop' }],
      [/\n/, { token: 'string.invalid', next: '@pop' }],
    ],
    literal: [
      [/[^'\n]+/, 'string'],
      [/'/, { token: 'string', next: '@pop' }],
      [/\n/, { token: 'string.invalid', next: '@pop' }],
    ],
    mlBasic: [
      [/[^"\\]+/, 'string'],
      [/@escapes/, 'string.escape'],
      [/\\[ \t]*\n/, 'string.escape'],
      [/\\./, 'string.invalid'],
      [/"{3,5}/, { token: 'string', next: '@pop' }],
      [/"/, 'string'],
    ],
    mlLiteral: [
      [/[^']+/, 'string'],
      [/'{3,5}/, { token: 'string', next: '@pop' }],
      [/'/, 'string'],
    ],
  },
};

interface MonarchStack {
  state: string;
  parent: MonarchStack | null;
}
interface MonarchState extends languages.IState {
  stack: MonarchStack;
}

/** Monarch's lexer over the oracle grammar, with just enough of the services it asks for. */
function monarch(): { initial: MonarchState; tokenize(line: string, state: MonarchState): { tokens: Expected; end: MonarchState; names: string[] } } {
  const configuration = { onDidChangeConfiguration: () => ({ dispose() {} }), getValue: () => 20_000 };
  const languageService = { languageIdCodec: { encodeLanguageId: () => 1 }, requestRichLanguageFeatures() {}, isRegisteredLanguageId: () => false };
  const lexer = new MonarchTokenizer(languageService as never, {} as never, 'toml', compile('toml', tomlMonarch), configuration as never);
  return {
    initial: lexer.getInitialState() as MonarchState,
    tokenize(line, state) {
      const result = lexer.tokenize(line, true, state);
      const tokens: Expected = result.tokens.map((token, i) => {
        const next = result.tokens[i + 1];
        return [line.slice(token.offset, next === undefined ? line.length : next.offset), token.type];
      });
      const end = result.endState as MonarchState;
      const names: string[] = [];
      for (let at: MonarchStack | null = end.stack; at !== null; at = at.parent) names.unshift(at.state);
      return { tokens, end, names };
    },
  };
}

// Pieces of TOML and of its mistakes, so random lines hit every rule.
const pieces = [
  '[', ']', '[[', ']]', '{', '}', '=', ',', '.', '#', ' ', '  ', '\t', '\r', '\u00a0', '"', "'", '"""', "'''", '""', "''",
  '\\', '\\n', '\\u00e9', '\\U0001F600', '\\q', '\\ ', 'a', 'key', 'allow_toggle', '-', '_', "'*'", '*', '1', '42', '+1.5e-3',
  '1979-05-27', '07:32:00', '1979-05-27T07:32:00Z', 'true', 'false', 'trueish', 'inf', '-nan', '0xFF', '0o7', '0b1', 'e', 'é', '😀',
];
const line = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));
const anyLine = fc.oneof(line, fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 12 }));

describe('the TOML tokenizer against Monarch', () => {
  it('gives the tokens and states Monarch gives, line after line from the root', () => {
    fc.assert(
      fc.property(fc.array(anyLine, { minLength: 1, maxLength: 8 }), (lines) => {
        const oracle = monarch();
        const tokenizer = new TomlTokenizer();
        let theirs = oracle.initial;
        let ours: TomlState = TOML_ROOT_STATE;
        for (const text of lines) {
          const expected = oracle.tokenize(text, theirs);
          const actual = read(tokenizer, text, ours);
          expect(actual.tokens).toEqual(expected.tokens);
          expect(actual.end.names()).toEqual(expected.names);
          theirs = expected.end;
          ours = actual.end;
        }
      }),
      { numRuns: 3_000 },
    );
  });
});

/** Every state a line can start in: the root, arrays and inline tables nested, at most one multi-line string on top. */
const reachable = fc
  .tuple(fc.array(fc.constantFrom<TomlStateName>('array', 'inline'), { maxLength: 4 }), fc.constantFrom<TomlStateName | null>(null, 'mlBasic', 'mlLiteral'))
  .map(([open, string]) => tomlStateOf(['root', ...open, ...(string === null ? [] : [string])]));

describe('the TOML tokenizer, for any line from any state a line can start in', () => {
  it('gives tokens from 0, strictly increasing, inside the line, and an interned end state', () => {
    const tokenizer = new TomlTokenizer();
    fc.assert(
      fc.property(anyLine, reachable, (text, state) => {
        const { tokens, endState } = tokenizer.tokenize(text, state);
        if (text.length === 0) expect(tokens).toEqual([]);
        else expect(tokens[0]?.startIndex).toBe(0);
        for (let i = 1; i < tokens.length; i++) expect(tokens[i]?.startIndex).toBeGreaterThan(tokens[i - 1]?.startIndex ?? Infinity);
        for (const token of tokens) expect(token.startIndex).toBeLessThan(text.length);
        for (let i = 1; i < tokens.length; i++) expect(tokens[i]?.scopes).not.toBe(tokens[i - 1]?.scopes);
        expect(isInternedTomlState(endState)).toBe(true);
        expect(endState.clone()).toBe(endState);
        expect(['root', 'array', 'inline', 'mlBasic', 'mlLiteral']).toContain((endState as TomlState).name);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reuses its result, token objects and states from call to call (Monaco copies them at once)', () => {
    const tokenizer = new TomlTokenizer();
    const first = tokenizer.tokenize('a = [1, 2', TOML_ROOT_STATE);
    const firstTokens = first.tokens;
    const firstToken = first.tokens[0];
    const end = first.endState;
    const second = tokenizer.tokenize('b = [3, 4', TOML_ROOT_STATE);
    expect(second).toBe(first);
    expect(second.tokens).toBe(firstTokens);
    expect(second.tokens[0]).toBe(firstToken);
    expect(second.endState).toBe(end);
    expect(end.equals(tomlStateOf(['root', 'array']))).toBe(true);
    expect(end.equals(TOML_ROOT_STATE)).toBe(false);
    // A line of another length gets an array of its own length, of the same token objects.
    const third = tokenizer.tokenize('c', TOML_ROOT_STATE);
    expect(third.tokens).toHaveLength(1);
    expect(third.tokens[0]).toBe(firstToken);
  });

  it('leaves a line of 20,000 characters or more as plain text, its state carried, as Monarch did', () => {
    const oracle = monarch();
    const tokenizer = new TomlTokenizer();
    const open = read(tokenizer, 'xs = [', TOML_ROOT_STATE).end;
    let theirs = oracle.tokenize('xs = [', oracle.initial).end;
    for (const length of [MAX_TOKENIZED_LINE_LENGTH - 1, MAX_TOKENIZED_LINE_LENGTH, MAX_TOKENIZED_LINE_LENGTH + 1]) {
      const text = '1, '.repeat(length).slice(0, length);
      const expected = oracle.tokenize(text, theirs);
      const actual = read(tokenizer, text, open);
      expect(actual.tokens).toEqual(expected.tokens);
      expect(actual.end.names()).toEqual(expected.names);
      expect(actual.tokens.length === 1).toBe(length >= MAX_TOKENIZED_LINE_LENGTH);
      theirs = expected.end;
    }
  });

  it('gives a line of more tokens than the shared arrays hold all its tokens', () => {
    const text = Array.from({ length: 100 }, (_, i) => `${i}`).join(', ');
    const { tokens } = read(new TomlTokenizer(), text, tomlStateOf(['root', 'array']));
    expect(tokens.map(([t]) => t).join('')).toBe(text);
    // A number, a comma, a space, 100 times but the last two.
    expect(tokens).toHaveLength(298);
  });
});

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tomlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tomlFiles(path);
    return name.endsWith('.toml') ? [path] : [];
  });
}

const files = [...tomlFiles(resolve(repo, '../shared/conformance')), ...tomlFiles(resolve(repo, '../shared/data'))];

describe('the TOML tokenizer on the real TOML files of ../shared', () => {
  it('finds the conformance scenarios and the workspace files', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files.map((path) => [path.slice(resolve(repo, '..').length + 1), path]))('%s: Monarch tokens, root outside multi-line constructs', (_name, path) => {
    const oracle = monarch();
    const tokenizer = new TomlTokenizer();
    let theirs = oracle.initial;
    let ours: TomlState = TOML_ROOT_STATE;
    const lines = readFileSync(path, 'utf8').split(/\r\n|\r|\n/);
    lines.forEach((text, i) => {
      const expected = oracle.tokenize(text, theirs);
      const actual = read(tokenizer, text, ours);
      expect(actual.tokens, `line ${i + 1}`).toEqual(expected.tokens);
      expect(actual.end.names(), `line ${i + 1}`).toEqual(expected.names);
      // A line ends in the root unless an array, an inline table or a multi-line string is still open.
      expect(['root', 'array', 'inline', 'mlBasic', 'mlLiteral'], `line ${i + 1}`).toContain(actual.end.name);
      // These files are valid TOML: nothing in them is invalid.
      for (const [text_, token] of actual.tokens) expect(token, `line ${i + 1}: ${text_}`).not.toMatch(/invalid/);
      theirs = expected.end;
      ours = actual.end;
    });
    expect(ours.names()).toEqual(['root']);
  });
});
