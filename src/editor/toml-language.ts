// TOML for Monaco: the language configuration (comments, brackets, auto-closing
// pairs, word pattern) and the token colours. The tokens come from toml-tokens.ts;
// folding by tables is a folding-range provider in providers.ts (TOML tables are
// not indented). Data only: the types come from Monaco, nothing runs at import.
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

/**
 * Token colours for the TOML tokens (toml-tokens.ts), over Monaco's `vs` / `vs-dark`. Token names
 * (with the `.toml` postfix): `comment`, `type.table` (header keys), `type.table.defaults` (`'*'`),
 * `delimiter.table` (`[`, `]]`), `key` (bare and quoted), `string`, `string.escape`, `string.invalid`,
 * `number`, `number.date`, `keyword` (booleans), `delimiter`, `invalid`.
 */
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
