// The workspace's files in the layers panel (issue 7): a separate, labelled row of tabs, each
// under its real path in the `.jp` folder, read-only until the user presses Edit; an edited file
// can be downloaded back under its own name or reverted. The files, the tabs and the edits live in
// the workspace slice; the load order and the problems come from the derivation.
import { lazy, Suspense, useMemo } from 'react';
import { comparePaths } from '../../core';
import { useTimeline } from '../../derive/hooks';
import { useWorkbench } from '../../state/context';
import { workspaceFileText } from '../../state/workspaceSlice';
import '../../components/measures.css';
import './workspace-tabs.css';
import { downloadBlob } from '../../components/download';

const WorkspaceFileEditor = lazy(() => import('../../editor/WorkspaceFileEditor'));

export function workspaceTabId(path: string): string {
  return `ws-tab-${path.replace(/[^A-Za-z0-9_-]/gu, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/** The workspace file the editor shows instead of a scenario layer, if any. */
export function useShownWorkspaceFile(): string | undefined {
  return useWorkbench((s) =>
    s.workspace && s.doc.workspace && s.workspaceFile !== undefined && Object.hasOwn(s.workspace.files, s.workspaceFile) ? s.workspaceFile : undefined,
  );
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function download(fileName: string, text: string): void {
  downloadBlob(fileName, new Blob([text], { type: 'application/toml' }));
}

export function WorkspaceTabs() {
  const folder = useWorkbench((s) => s.workspace);
  const docWorkspace = useWorkbench((s) => s.doc.workspace);
  const openFile = useWorkbench((s) => s.openWorkspaceFile);
  const closeTab = useWorkbench((s) => s.closeWorkspaceTab);
  const shown = useShownWorkspaceFile();
  const { data: view } = useTimeline();
  const layers = view?.workspace?.layers;
  const files = folder?.files;
  const notLoaded = useMemo(() => {
    const loaded = new Set(layers ?? []);
    return Object.keys(files ?? {})
      .filter((p) => !loaded.has(p))
      .sort(comparePaths);
  }, [files, layers]);
  if (!folder || !docWorkspace) return null;
  const problems = new Map<string, number>();
  for (const d of view?.workspace?.diagnostics ?? []) if (d.layer && d.severity === 'error') problems.set(d.layer, (problems.get(d.layer) ?? 0) + 1);
  return (
    <div className="ly-ws" role="group" aria-label="Workspace files (read-only unless edited)">
      <span className="ly-ws-label" title={`The workspace ${folder.source}: its files are the lowest layers, below the scenario's own`}>
        workspace
        {docWorkspace.persona !== undefined && <span className="ly-ws-persona"> · {docWorkspace.persona}</span>}
      </span>
      <select
        className="ly-ws-open"
        aria-label="Open a workspace file"
        value=""
        onChange={(e) => {
          if (e.target.value) openFile(e.target.value);
        }}
      >
        <option value="">{layers ? `${layers.length} layers…` : 'files…'}</option>
        {layers && layers.length > 0 && (
          <optgroup label="Loaded, lowest precedence first">
            {layers.map((p, i) => (
              <option key={p} value={p}>
                {i + 1}. {p}
                {problems.has(p) ? ' (error)' : ''}
              </option>
            ))}
          </optgroup>
        )}
        {notLoaded.length > 0 && (
          <optgroup label="Not loaded (no file extends them)">
            {notLoaded.map((p) => (
              <option key={p} value={p}>{p}</option>
            ))}
          </optgroup>
        )}
      </select>
      <div className="ly-ws-tabs" role="tablist" aria-label="Open workspace files">
        {folder.tabs.map((p) => {
          const edited = Object.hasOwn(folder.edited, p);
          const errors = problems.get(p) ?? 0;
          const at = layers?.indexOf(p) ?? -1;
          return (
            <button
              key={p}
              id={workspaceTabId(p)}
              type="button"
              role="tab"
              className="ly-tab ly-ws-tab"
              aria-selected={shown === p}
              aria-controls="layer-tabpanel"
              aria-label={`${p}, workspace file${edited ? ', edited' : ', read-only'}${errors ? `, ${errors} error${errors === 1 ? '' : 's'}` : ''}`}
              aria-keyshortcuts="Delete"
              data-workspace-file={p}
              title={`${p}: ${at >= 0 ? `workspace layer ${at + 1} of ${layers?.length ?? 0}` : 'not loaded'}${edited ? ', edited' : ''}. Delete closes the tab.`}
              onClick={() => openFile(p)}
              onKeyDown={(e) => {
                if (e.key === 'Delete') {
                  e.preventDefault();
                  closeTab(p);
                }
              }}
            >
              <span className="ly-tab-name">{p}</span>
              {edited && <span className="ly-ws-edited">edited</span>}
              {errors > 0 && (
                <span className="ly-count error" aria-hidden="true">
                  {errors}
                </span>
              )}
              <span
                className="ly-ws-close"
                aria-hidden="true"
                title="Close the tab (Delete)"
                onClick={(e) => {
                  e.stopPropagation();
                  closeTab(p);
                }}
              >
                ×
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function WorkspaceFileView({ path }: { readonly path: string }) {
  const folder = useWorkbench((s) => s.workspace);
  const setEditable = useWorkbench((s) => s.setWorkspaceFileEditable);
  const setText = useWorkbench((s) => s.setWorkspaceFileText);
  const revert = useWorkbench((s) => s.revertWorkspaceFile);
  const { data: view } = useTimeline();
  const allDiagnostics = view?.workspace?.diagnostics;
  const diagnostics = useMemo(() => (allDiagnostics ?? []).filter((d) => d.layer === path), [allDiagnostics, path]);
  if (!folder) return null;
  const text = workspaceFileText(folder, path) ?? '';
  const editable = folder.editable.includes(path);
  const edited = Object.hasOwn(folder.edited, path);
  const layers = view?.workspace?.layers ?? [];
  const at = layers.indexOf(path);
  return (
    <div className="ly-ws-file" data-testid="workspace-file" data-path={path}>
      <div className="ly-ws-bar">
        <code className="ly-ws-path" title={path}>{path}</code>
        <span className="muted">{at >= 0 ? `layer ${at + 1} of ${layers.length}` : 'not loaded'}</span>
        <span className={`word ${editable ? 'ly-ws-editing' : 'ly-ws-readonly'}`} data-testid="workspace-file-mode">
          {editable ? 'editing' : 'read-only'}
        </span>
        {edited && <span className="word ly-ws-edited-word">edited</span>}
        <span className="spacer" />
        <button type="button" aria-pressed={editable} onClick={() => setEditable(path, !editable)} title={editable ? 'Make it read-only again (keeps your edits)' : 'Unlock this file for editing'}>
          {editable ? 'Done editing' : 'Edit'}
        </button>
        <button type="button" disabled={!edited} onClick={() => download(baseName(path), text)} title={`Download the edited file as ${baseName(path)}`}>
          Download
        </button>
        <button type="button" disabled={!edited} onClick={() => revert(path)} title="Back to the file as it was read">
          Revert
        </button>
      </div>
      <div className="ly-ws-editor">
        <Suspense fallback={<pre className="ly-ws-preview mono">{text}</pre>}>
          <WorkspaceFileEditor path={path} text={text} readOnly={!editable} diagnostics={diagnostics} onChange={(t) => setText(path, t)} labelledBy={workspaceTabId(path)} />
        </Suspense>
      </div>
    </div>
  );
}
