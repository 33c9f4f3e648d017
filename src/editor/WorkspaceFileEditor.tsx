// A workspace file (a `.jp` folder's TOML) in Monaco: read-only unless the user unlocks it, with
// the derivation's diagnostics for that file as markers. Lazy, like the layer editor. Each file
// keeps its own model (undo history survives switching files); edits go to the workspace slice.
import { useEffect, useRef } from 'react';
import type { Diagnostic } from '../core';
import { applySystemTheme, monaco, setUpMonaco } from './monaco';
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
    monaco.editor.setModelMarkers(
      model,
      OWNER,
      diagnostics.map((d) => {
        const line = Math.min(Math.max(1, d.line ?? 1), model.getLineCount());
        const column = Math.max(1, d.column ?? 1);
        const endLine = Math.min(Math.max(line, d.endLine ?? line), model.getLineCount());
        const endColumn = d.endLine !== undefined && d.endColumn !== undefined ? d.endColumn : model.getLineMaxColumn(endLine);
        return {
          severity: severity(d),
          message: d.message,
          ...(d.code ? { code: d.code } : {}),
          startLineNumber: line,
          startColumn: column,
          endLineNumber: endLine,
          endColumn: endLine === line ? Math.max(column + 1, endColumn) : endColumn,
        };
      }),
    );
  }, [diagnostics, path, text]);

  return <div ref={host} className="ws-editor" role="presentation" aria-labelledby={labelledBy} data-testid="workspace-file-editor" data-path={path} data-readonly={readOnly} />;
}
