// window.__layerEditor: what Playwright and reviewers' scripts read from the
// loaded layer editor without scraping Monaco's DOM. Read-only, except for
// placing the cursor (so a test can type at a known place).
import { monaco } from './monaco';
import type { LayerSession } from './session';
import { MARKER_OWNER } from './session';
import { TOML_LANGUAGE_ID } from './toml-language';

export interface MarkerView {
  readonly message: string;
  readonly code: string | undefined;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endLineNumber: number;
  readonly endColumn: number;
}

export interface LayerEditorHook {
  /** The text of layer `index`'s model (the shown layer when omitted). */
  value(index?: number): string | undefined;
  /** The workbench's markers on layer `index`'s model (the shown layer when omitted). */
  markers(index?: number): MarkerView[];
  /** The index of the layer the editor shows. */
  shownIndex(): number;
  /** The indexes of the layers that have a Monaco model (made when a layer's tab is first shown). */
  modelled(): number[];
  /** Monarch tokens of `text`: per line, `[offset, type]` pairs. */
  tokenize(text: string): [number, string][][];
  cursor(): { lineNumber: number; column: number } | undefined;
  setCursor(lineNumber: number, column: number): void;
  /** The line count of the shown model. */
  lineCount(): number;
  /** The page coordinates of the middle of the character at (`lineNumber`, `column`), revealed first. */
  pointAt(lineNumber: number, column: number): { x: number; y: number } | undefined;
}

declare global {
  interface Window {
    __layerEditor?: LayerEditorHook;
  }
}

function severityWord(s: monaco.MarkerSeverity): MarkerView['severity'] {
  return s === monaco.MarkerSeverity.Error ? 'error' : s === monaco.MarkerSeverity.Warning ? 'warning' : s === monaco.MarkerSeverity.Info ? 'info' : 'hint';
}

export function installEditorTestHook(session: LayerSession): () => void {
  // A layer whose tab was never shown has no model yet: asking for it makes one (with its markers).
  const modelOf = (index?: number) => (index === undefined ? session.editor?.getModel() ?? undefined : session.modelFor(index));
  const hook: LayerEditorHook = Object.freeze({
    value: (index?: number) => modelOf(index)?.getValue(),
    markers: (index?: number) => {
      const model = modelOf(index);
      if (!model) return [];
      return monaco.editor.getModelMarkers({ resource: model.uri, owner: MARKER_OWNER }).map((m) => ({
        message: m.message,
        code: typeof m.code === 'string' ? m.code : m.code?.value,
        severity: severityWord(m.severity),
        startLineNumber: m.startLineNumber,
        startColumn: m.startColumn,
        endLineNumber: m.endLineNumber,
        endColumn: m.endColumn,
      }));
    },
    shownIndex: () => session.indexOfModel(session.editor?.getModel()),
    modelled: () => session.modelled(),
    tokenize: (text: string) => monaco.editor.tokenize(text, TOML_LANGUAGE_ID).map((line) => line.map((t) => [t.offset, t.type] as [number, string])),
    cursor: () => {
      const p = session.editor?.getPosition();
      return p ? { lineNumber: p.lineNumber, column: p.column } : undefined;
    },
    setCursor: (lineNumber: number, column: number) => {
      session.editor?.setPosition({ lineNumber, column });
      session.editor?.revealLine(lineNumber);
    },
    lineCount: () => session.editor?.getModel()?.getLineCount() ?? 0,
    pointAt: (lineNumber: number, column: number) => {
      const ed = session.editor;
      const node = ed?.getDomNode();
      if (!ed || !node) return undefined;
      ed.revealPositionInCenterIfOutsideViewport({ lineNumber, column });
      const p = ed.getScrolledVisiblePosition({ lineNumber, column });
      if (!p) return undefined;
      const r = node.getBoundingClientRect();
      const width = ed.getOption(monaco.editor.EditorOption.fontInfo).typicalHalfwidthCharacterWidth;
      return { x: r.left + p.left + width / 2, y: r.top + p.top + p.height / 2 };
    },
  });
  window.__layerEditor = hook;
  return () => {
    if (window.__layerEditor === hook) delete window.__layerEditor;
  };
}
