// Monaco ships no types for its Monarch internals; toml-tokens.test.ts runs them as the oracle the
// TOML tokenizer is checked against. Only what that test calls.
declare module 'monaco-editor/editor/standalone/common/monarch/monarchCompile' {
  import type { languages } from 'monaco-editor/editor/editor.api';
  export function compile(languageId: string, json: languages.IMonarchLanguage): unknown;
}

declare module 'monaco-editor/editor/standalone/common/monarch/monarchLexer' {
  import type { languages } from 'monaco-editor/editor/editor.api';
  export class MonarchTokenizer {
    constructor(languageService: unknown, themeService: unknown, languageId: string, lexer: unknown, configurationService: unknown);
    getInitialState(): languages.IState;
    tokenize(line: string, hasEOL: boolean, state: languages.IState): { tokens: { offset: number; type: string }[]; endState: languages.IState };
  }
}
