// A workspace file (a `.jp` folder's TOML) in Monaco: read-only unless the user unlocks it, with
// the derivation's diagnostics for that file as markers. Lazy, like the layer editor. Each file
// keeps its own model (undo history survives switching files); edits go to the workspace slice.
import { useEffect, useRef } from 'react';
import type { Diagnostic } from '../core';
import { applySystemTheme, BASE_EDITOR_OPTIONS, monaco, setUpMonaco } from './monaco';
import { TOML_LANGUAGE_ID } from './toml-language';

export interface WorkspaceFileEditorProps {
  readonly path: string;
  readonly text: string;
  readonly readOnly: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly onChange: (text: string) => void;
  readonly labelledBy?: string;
}

const OWNER = 'workspace';
const models = new Map<string, monaco.editor.ITextModel>();

function modelFor(path: string, text: string): monaco.editor.ITextModel {
  let m = models.get(path);
  if (!m || m.isDisposed()) {
    m = monaco.editor.createModel(text, TOML_LANGUAGE_ID, monaco.Uri.from({ scheme: 'inmemory', authority: 'workspace', path: `/${path}` }));
    models.set(path, m);
  }
  return m;
}

function severity(d: Diagnostic): monaco.MarkerSeverity {
  if (d.severity === 'error') return monaco.MarkerSeverity.Error;
  if (d.severity === 'warning') return monaco.MarkerSeverity.Warning;
  return monaco.MarkerSeverity.Info;
}

/** A diagnostic's range, widened so it is never empty (a point, or a range that is only a line break). */
function markerRange(model: monaco.editor.ITextModel, d: Diagnostic) {
  const lines = model.getLineCount();
  const line = Math.min(Math.max(1, d.line ?? 1), lines);
  let column = Math.max(1, d.column ?? 1);
  let endLine = Math.min(Math.max(line, d.endLine ?? line), lines);
  let endColumn = d.endLine !== undefined && d.endColumn !== undefined ? d.endColumn : column;
  // A range ending at the start of a later line stops at the end of the line before.
  if (endLine > line && endColumn <= 1) {
    endLine -= 1;
    endColumn = model.getLineMaxColumn(endLine);
  }
  if (endLine === line && endColumn <= column) {
    const max = model.getLineMaxColumn(line);
    const word = model.getWordAtPosition({ lineNumber: line, column });
    if (word) endColumn = Math.max(word.endColumn, column + 1);
    else if (column < max) endColumn = column + 1;
    else {
      // At the end of the line: mark its last character.
      column = Math.max(1, max - 1);
      endColumn = max;
    }
  }
  return { startLineNumber: line, startColumn: column, endLineNumber: endLine, endColumn: Math.max(1, endColumn) };
}

export default function WorkspaceFileEditor({ path, text, readOnly, diagnostics, onChange, labelledBy }: WorkspaceFileEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const onChangeRef = useRef(onChange);
  const applying = useRef(false);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    setUpMonaco();
    const ed = monaco.editor.create(host.current, {
      ...BASE_EDITOR_OPTIONS,
      // Squiggles in read-only files too (Monaco's default shows them only where one can type).
      renderValidationDecorations: 'on',
      readOnlyMessage: { value: 'This workspace file is read-only. Press **Edit** above to change it.', isTrusted: false, supportHtml: false },
      ariaLabel: 'Workspace file (TOML)',
    });
    editor.current = ed;
    applySystemTheme();
    const sub = ed.onDidChangeModelContent(() => {
      if (!applying.current) onChangeRef.current(ed.getValue());
    });
    const focus = ed.onDidFocusEditorText(applySystemTheme);
    return () => {
      sub.dispose();
      focus.dispose();
      ed.dispose();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    const ed = editor.current;
    if (!ed) return;
    const model = modelFor(path, text);
    if (ed.getModel() !== model) ed.setModel(model);
    if (model.getValue() !== text) {
      applying.current = true;
      // Keep it undoable: a revert or an outside change lands as one edit.
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
      applying.current = false;
    }
  }, [path, text]);

  useEffect(() => {
    editor.current?.updateOptions({ readOnly, domReadOnly: readOnly });
  }, [readOnly]);

  useEffect(() => {
    const model = editor.current?.getModel();
    if (!model) return;
    const markers = diagnostics.map((d) => ({ severity: severity(d), message: d.message, ...(d.code ? { code: d.code } : {}), ...markerRange(model, d) }));
    monaco.editor.setModelMarkers(model, OWNER, markers);
    // For tests and scripts: how many markers the shown file carries.
    host.current?.setAttribute('data-markers', String(markers.length));
  }, [diagnostics, path, text]);

  return <div ref={host} className="ws-editor" role="presentation" aria-labelledby={labelledBy} data-testid="workspace-file-editor" data-path={path} data-readonly={readOnly} />;
}
