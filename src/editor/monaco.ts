// Monaco, loaded locally and lazily: the editor API, exactly the contributions
// the layer editor uses, and only the base editor worker (no TypeScript, CSS,
// HTML or JSON workers, no languages: see notes/toolchain.md). Everything in
// src/editor that imports this module is in the lazy chunk.
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
// Contributions (editor.api has none of them):
import 'monaco-editor/editor/contrib/hover/browser/hoverContribution'; // hovers, marker hovers
import 'monaco-editor/editor/contrib/suggest/browser/suggestController'; // completion widget (+ snippets)
import 'monaco-editor/editor/contrib/codeAction/browser/codeActionContributions'; // quick fixes, lightbulb, Ctrl+.
import 'monaco-editor/editor/contrib/gotoError/browser/gotoError'; // F8 / Shift+F8 through markers
import 'monaco-editor/editor/contrib/find/browser/findController'; // Ctrl+F, Ctrl+H
import 'monaco-editor/editor/contrib/folding/browser/folding'; // fold tables
import 'monaco-editor/editor/contrib/comment/browser/comment'; // Ctrl+/ toggles `#`
import 'monaco-editor/editor/contrib/bracketMatching/browser/bracketMatching';
import 'monaco-editor/editor/contrib/wordOperations/browser/wordOperations'; // Ctrl+←/→, Ctrl+Backspace
import 'monaco-editor/editor/contrib/linesOperations/browser/linesOperations'; // Alt+↑/↓, Shift+Alt+↓, Ctrl+Shift+K
import 'monaco-editor/editor/contrib/multicursor/browser/multicursor'; // Ctrl+D, Alt+click
import { TOML_LANGUAGE_ID, tomlLanguageConfiguration, tomlThemeRules } from './toml-language';
import { TomlTokenizer } from './toml-tokens';
import { tokenizeLargeModelsInView } from './viewport-tokens';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export const THEMES = { light: 'workbench-light', dark: 'workbench-dark' } as const;

let ready = false;

/** Registers the TOML language and the themes once, and makes Monaco's theme follow the system's. */
export function setUpMonaco(): void {
  if (ready) return;
  ready = true;
  monaco.languages.register({ id: TOML_LANGUAGE_ID, extensions: ['.toml'], aliases: ['TOML'] });
  // Not Monarch: Monaco tokenizes every line of a small layer in the background, and Monarch allocates
  // per line and per token; a catalogue-sized layer is tokenized only where shown (viewport-tokens.ts).
  monaco.languages.setTokensProvider(TOML_LANGUAGE_ID, new TomlTokenizer());
  tokenizeLargeModelsInView(TOML_LANGUAGE_ID);
  monaco.languages.setLanguageConfiguration(TOML_LANGUAGE_ID, tomlLanguageConfiguration);
  monaco.editor.defineTheme(THEMES.light, {
    base: 'vs',
    inherit: true,
    rules: [...tomlThemeRules.light],
    colors: {
      'editor.background': '#ffffff',
      'editorGutter.background': '#f6f7f9',
      'editorLineNumber.foreground': '#5f6778',
      'editorLineNumber.activeForeground': '#1d2330',
      'editorLineNumber.dimmedForeground': '#5f6778',
    },
  });
  monaco.editor.defineTheme(THEMES.dark, {
    base: 'vs-dark',
    inherit: true,
    rules: [...tomlThemeRules.dark],
    colors: {
      'editor.background': '#16181d',
      'editorGutter.background': '#1d2027',
      'editorLineNumber.foreground': '#9aa1ad',
      'editorLineNumber.activeForeground': '#e6e8ee',
      'editorLineNumber.dimmedForeground': '#9aa1ad',
    },
  });
  applySystemTheme();
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applySystemTheme);
}

/**
 * Sets the workbench theme matching the system's. Monaco's theme is global: another editor
 * created with `theme: 'vs'` replaces it, so the layer editor applies it again when focused.
 */
export function applySystemTheme(): void {
  monaco.editor.setTheme(window.matchMedia('(prefers-color-scheme: dark)').matches ? THEMES.dark : THEMES.light);
}

/** The look every TOML editor of the workbench shares (layers and workspace files alike). */
export const BASE_EDITOR_OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  model: null,
  automaticLayout: true,
  fixedOverflowWidgets: true,
  minimap: { enabled: false },
  fontSize: 12.5,
  lineHeight: 19,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  scrollBeyondLastLine: false,
  padding: { top: 6, bottom: 6 },
  lineNumbersMinChars: 3,
  renderLineHighlight: 'line',
  wordBasedSuggestions: 'off',
  scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
};

export { monaco };
