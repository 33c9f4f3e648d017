// The one Monaco internal the editor reaches (viewport-tokens.ts): the tokenization registry, to give a
// language a background tokenizer of its own. Only what is used is declared.
declare module 'monaco-editor/editor/common/languages' {
  import type { editor } from 'monaco-editor/editor/editor.api';

  /** Monaco's IBackgroundTokenizer. */
  export interface BackgroundTokenizer {
    dispose(): void;
    requestTokens(startLineNumber: number, endLineNumberExclusive: number): void;
  }

  export interface TokenizationSupport {
    /** Called per model as its tokenization starts; `undefined` keeps Monaco's default (tokenize every line while idle). */
    createBackgroundTokenizer?: (model: editor.ITextModel, store: unknown) => BackgroundTokenizer | undefined;
  }

  export const TokenizationRegistry: { get(languageId: string): TokenizationSupport | null };
}
