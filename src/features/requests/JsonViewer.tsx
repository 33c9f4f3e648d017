// A read-only Monaco editor for a request body. It reuses the workbench's lazy
// Monaco (src/editor/monaco.ts) and highlights JSON with a tiny Monarch
// tokenizer, so the JSON language worker is never loaded.
import { useEffect, useRef } from 'react';
import { monaco } from '../../editor/monaco';

const LANGUAGE = 'json-lite';
let registered = false;

function register(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: LANGUAGE });
  monaco.languages.setMonarchTokensProvider(LANGUAGE, {
    tokenizer: {
      root: [
        [/"(?:[^"\\]|\\.)*"(?=\s*:)/u, 'type'],
        [/"(?:[^"\\]|\\.)*"/u, 'string'],
        [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/u, 'number'],
        [/\b(?:true|false|null)\b/u, 'keyword'],
        [/[{}[\]]/u, 'delimiter.bracket'],
        [/[,:]/u, 'delimiter'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration(LANGUAGE, {
    brackets: [
      ['{', '}'],
      ['[', ']'],
    ],
  });
}

export default function JsonViewer({ text, label }: { readonly text: string; readonly label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);

  useEffect(() => {
    if (!host.current) return;
    register();
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const model = monaco.editor.createModel('', LANGUAGE);
    const ed = monaco.editor.create(host.current, {
      model,
      readOnly: true,
      domReadOnly: true,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      lineNumbersMinChars: 4,
      scrollBeyondLastLine: false,
      folding: true,
      wordWrap: 'off',
      renderLineHighlight: 'none',
      theme: dark ? 'vs-dark' : 'vs',
      ariaLabel: label,
      hover: { enabled: 'off' },
      links: false,
    });
    editor.current = ed;
    return () => {
      ed.dispose();
      model.dispose();
      editor.current = null;
    };
  }, [label]);

  useEffect(() => {
    const model = editor.current?.getModel();
    if (model && model.getValue() !== text) {
      model.setValue(text);
      editor.current?.setScrollTop(0);
    }
  }, [text]);

  return <div ref={host} className="json-viewer" data-testid="request-body" />;
}
