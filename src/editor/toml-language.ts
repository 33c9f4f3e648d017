// TOML for Monaco: a Monarch tokenizer and the language configuration
// (comments, brackets, auto-closing pairs, word pattern). Folding by tables is
// a folding-range provider in providers.ts (TOML tables are not indented).
// Data only: the types come from Monaco, nothing runs at import.
import type { languages } from 'monaco-editor/editor/editor.api';

export const TOML_LANGUAGE_ID = 'toml';

/** A model longer than this is tokenized only where shown (viewport-tokens.ts; 1,000 tools are ~0.9 MB, 22,000 lines). */
export const BACKGROUND_TOKENIZE_MAX_CHARS = 256 * 1024;

export const tomlLanguageConfiguration: languages.LanguageConfiguration = {
  comments: { lineComment: '#' },
  brackets: [
    ['{', '}'],
    ['[', ']'],
  ],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '"', close: '"', notIn: ['string', 'comment'] },
    { open: "'", close: "'", notIn: ['string', 'comment'] },
  ],
  surroundingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '"', close: '"' },
    { open: "'", close: "'" },
  ],
  // Bare keys hold `-` and `_`; numbers keep their dots.
  wordPattern: /(-?\d*\.\d\w*)|([A-Za-z0-9_-]+)/u,
  indentationRules: {
    increaseIndentPattern: /^.*(\{[^}]*|\[[^\]]*)$/u,
    decreaseIndentPattern: /^\s*[}\]]/u,
  },
};

const escapes = /\\(?:[btnfr"\\e]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})/;

/**
 * Token names (with the `.toml` postfix): `comment`, `type.table` (header keys), `type.table.defaults`
 * (`'*'`), `delimiter.table` (`[`, `]]`), `key` (bare and quoted), `string`, `string.escape`,
 * `string.invalid`, `number`, `number.date`, `keyword` (booleans), `delimiter`, `invalid`.
 */
export const tomlMonarch: languages.IMonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.toml',
  // Newlines reach the rules, so a single-line string ends at the end of its line.
  includeLF: true,
  brackets: [
    { open: '{', close: '}', token: 'delimiter.curly' },
    { open: '[', close: ']', token: 'delimiter.square' },
  ],
  escapes,
  tokenizer: {
    root: [
      // A table header at the start of a line: [a.b] or [[a.b]].
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

    // One value after `=`, then back to where the key was.
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
      // Anything else starts an item: read it as a value.
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
      // Up to two quotes may end the content just before the closing three.
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

/** Token colours for the TOML tokens, over Monaco's `vs` / `vs-dark`. */
export const tomlThemeRules = {
  light: [
    { token: 'comment.toml', foreground: '6a737d', fontStyle: 'italic' },
    { token: 'type.table.toml', foreground: '6f42c1', fontStyle: 'bold' },
    { token: 'type.table.defaults.toml', foreground: 'b35900', fontStyle: 'bold' },
    { token: 'delimiter.table.toml', foreground: '6f42c1' },
    { token: 'key.toml', foreground: '005cc5' },
    { token: 'key.defaults.toml', foreground: 'b35900' },
    { token: 'string.toml', foreground: '0a6e31' },
    { token: 'string.escape.toml', foreground: 'b35900' },
    { token: 'string.invalid.toml', foreground: 'b3261e' },
    { token: 'number.toml', foreground: '9a3412' },
    { token: 'number.date.toml', foreground: '9a3412' },
    { token: 'keyword.toml', foreground: 'a21caf' },
    { token: 'invalid.toml', foreground: 'b3261e' },
  ],
  dark: [
    { token: 'comment.toml', foreground: '8b949e', fontStyle: 'italic' },
    { token: 'type.table.toml', foreground: 'd2a8ff', fontStyle: 'bold' },
    { token: 'type.table.defaults.toml', foreground: 'f0c060', fontStyle: 'bold' },
    { token: 'delimiter.table.toml', foreground: 'd2a8ff' },
    { token: 'key.toml', foreground: '79c0ff' },
    { token: 'key.defaults.toml', foreground: 'f0c060' },
    { token: 'string.toml', foreground: '7ee787' },
    { token: 'string.escape.toml', foreground: 'f0c060' },
    { token: 'string.invalid.toml', foreground: 'ff8a80' },
    { token: 'number.toml', foreground: 'ffa657' },
    { token: 'number.date.toml', foreground: 'ffa657' },
    { token: 'keyword.toml', foreground: 'ff7b72' },
    { token: 'invalid.toml', foreground: 'ff8a80' },
  ],
} as const;
