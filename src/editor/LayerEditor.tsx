// One Monaco editor bound to the selected layer. Each layer keeps its own model
// (so undo history survives tab switches); edits flow into the store.
import { useEffect, useRef } from 'react';
import { monaco } from './monaco';

export interface LayerEditorProps {
  readonly layerKey: string;
  readonly text: string;
  readonly onChange: (text: string) => void;
}

const models = new Map<string, monaco.editor.ITextModel>();

function modelFor(key: string, text: string): monaco.editor.ITextModel {
  let m = models.get(key);
  if (!m || m.isDisposed()) {
    m = monaco.editor.createModel(text, 'plaintext', monaco.Uri.parse(`inmemory://layers/${encodeURIComponent(key)}.toml`));
    models.set(key, m);
  }
  return m;
}

export default function LayerEditor({ layerKey, text, onChange }: LayerEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const ed = monaco.editor.create(host.current, {
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      scrollBeyondLastLine: false,
      theme: dark ? 'vs-dark' : 'vs',
      ariaLabel: 'Layer editor',
    });
    editor.current = ed;
    const sub = ed.onDidChangeModelContent(() => onChangeRef.current(ed.getValue()));
    return () => {
      sub.dispose();
      ed.dispose();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    const ed = editor.current;
    if (!ed) return;
    const model = modelFor(layerKey, text);
    if (ed.getModel() !== model) ed.setModel(model);
    if (model.getValue() !== text) model.setValue(text);
  }, [layerKey, text]);

  return <div ref={host} style={{ height: '100%', width: '100%' }} data-testid="layer-editor" />;
}
