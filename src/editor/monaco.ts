// Monaco, loaded locally and lazily: only the editor API and the contributions
// the workbench uses, and only the base editor worker (no TypeScript, CSS,
// HTML or JSON workers; see notes/toolchain.md).
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };
