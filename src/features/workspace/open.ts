// Opening a workspace into the store: from the directory picker (or its fallback input), a .zip, or
// a drop. A folder that cannot be read gets an error banner and the current work stays.
import type { Command } from '../../commands/registry';
import type { WorkbenchStore } from '../../state/store';
import { workspaceOpenedMessage } from '../../state/workspaceSlice';
import { droppedEntries, hasDirectoryPicker, pickDirectory, readDroppedFolder, readFileList, readZip } from './read';
import type { ReadWorkspace } from './read';

export async function openWorkspaceFrom(store: WorkbenchStore, reading: Promise<ReadWorkspace | undefined>): Promise<boolean> {
  try {
    const ws = await reading;
    if (!ws) return false;
    const s = store.getState();
    const kept = s.doc.workspace !== undefined;
    s.openWorkspace(ws);
    s.setDockTab('workspace');
    s.showBanner('info', workspaceOpenedMessage(ws.source, Object.keys(ws.files).length, kept));
    return true;
  } catch (e) {
    store.getState().showBanner('error', `Could not open the workspace: ${e instanceof Error ? e.message : String(e)}. Your current work is unchanged.`);
    return false;
  }
}

function chooseFiles(setup: (input: HTMLInputElement) => void, onFiles: (files: FileList) => void): void {
  const input = document.createElement('input');
  input.type = 'file';
  setup(input);
  input.onchange = () => {
    if (input.files && input.files.length > 0) onFiles(input.files);
  };
  input.click();
}

export function readZipFile(file: File): Promise<ReadWorkspace> {
  return file.arrayBuffer().then((b) => readZip(new Uint8Array(b), file.name));
}

export function pickWorkspaceFolder(store: WorkbenchStore): void {
  if (hasDirectoryPicker()) {
    void openWorkspaceFrom(store, pickDirectory());
    return;
  }
  chooseFiles(
    (input) => input.setAttribute('webkitdirectory', ''),
    (files) => void openWorkspaceFrom(store, readFileList(files)),
  );
}

export function pickWorkspaceZip(store: WorkbenchStore): void {
  chooseFiles(
    (input) => (input.accept = '.zip,application/zip'),
    (files) => {
      const f = files[0];
      if (f) void openWorkspaceFrom(store, readZipFile(f));
    },
  );
}

/**
 * Takes drops of a folder or a .zip (in the capture phase, before the scenario-file drop zone) and
 * marks them handled with preventDefault; other drops go on to the drop zone.
 */
export function installWorkspaceDrop(store: WorkbenchStore): () => void {
  const drop = (e: DragEvent): void => {
    const dt = e.dataTransfer;
    if (!dt || !dt.types.includes('Files')) return;
    const entries = droppedEntries(dt);
    const dir = entries.find((x) => x.isDirectory) as FileSystemDirectoryEntry | undefined;
    if (dir) {
      e.preventDefault();
      void openWorkspaceFrom(store, readDroppedFolder(dir));
      return;
    }
    const zip = [...dt.files].find((f) => /\.zip$/iu.test(f.name));
    if (zip) {
      e.preventDefault();
      void openWorkspaceFrom(store, readZipFile(zip));
    }
  };
  window.addEventListener('drop', drop, { capture: true });
  return () => window.removeEventListener('drop', drop, { capture: true });
}

export const workspaceCommands: Command[] = [
  { id: 'workspace.openFolder', title: 'Open a JP workspace folder (.jp)…', group: 'Workspace', run: ({ store }) => pickWorkspaceFolder(store) },
  { id: 'workspace.openZip', title: 'Open a JP workspace from a .zip…', group: 'Workspace', run: ({ store }) => pickWorkspaceZip(store) },
  {
    id: 'workspace.makeDiscoverable',
    title: "Make discoverable: keep the persona's most used tools on, the rest discoverable",
    group: 'Workspace',
    run: ({ store }) => {
      const s = store.getState();
      s.setDockTab('workspace');
      if (!s.workspace || !s.doc.workspace) {
        s.showBanner('error', 'Open a JP workspace folder first (Workspace tab, or drop its .jp folder on the page).');
        return;
      }
      s.setDiscoverablePending(true);
    },
  },
  {
    id: 'workspace.close',
    title: 'Close the workspace folder',
    group: 'Workspace',
    run: ({ store }) => store.getState().closeWorkspace(),
  },
  { id: 'dock.workspace', title: 'Show the workspace', shortcut: 'Alt+6', group: 'View', run: ({ store }) => store.getState().setDockTab('workspace') },
];
