// The import feature's commands: palette, shortcuts and tests run these.
import type { Command } from '../../commands/registry';
import { openCatalogueFile } from '../../state/importSlice';
import type { WorkbenchStore } from '../../state/store';

export function pickCatalogueFile(store: WorkbenchStore): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.json,application/json';
  input.onchange = () => {
    const file = input.files?.[0];
    if (file) void openCatalogueFile(store, file);
  };
  input.click();
}

export const importCommands: Command[] = [
  { id: 'import.open', title: 'Import MCP tools (file, paste or live server)…', shortcut: 'Alt+I', group: 'Import', run: ({ store }) => store.getState().openImport({ kind: 'file', fileName: '', text: '' }) },
  { id: 'import.file', title: 'Import an MCP catalogue file (tools/list JSON)…', group: 'Import', run: ({ store }) => pickCatalogueFile(store) },
  { id: 'import.paste', title: 'Import MCP tools from pasted JSON…', group: 'Import', run: ({ store }) => store.getState().openImport({ kind: 'paste' }) },
  { id: 'import.live', title: 'Connect a live MCP server (Streamable HTTP)…', group: 'Import', run: ({ store }) => store.getState().openImport({ kind: 'url' }) },
  { id: 'import.undo', title: 'Undo the last import', group: 'Import', run: ({ store }) => store.getState().undoImport() },
];
