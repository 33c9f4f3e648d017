// A JP workspace folder the user opened (issue 7): its `*.toml` files as read, the user's edits
// of them, which files are unlocked for editing and open as tabs, and the "make discoverable"
// choices. The scenario document keeps `[workspace] path, persona`; the files live here, are
// autosaved on their own (workspacePersistence.ts) and go to the derive worker with the document
// (`workspaceInput`), which loads them with the core's `loadWorkspace`.
import type { StoreApi } from 'zustand/vanilla';
import { DEFAULT_POLICY, workspaceStarterSteps } from '../core';
import type { ScenarioDoc } from '../core';
import type { WorkspaceInput } from '../derive/workspaceProtocol';
import type { Replacement } from './history';
import { edited } from './lineage';

export interface WorkspaceFolder {
  /** What the user opened (a folder's or a zip's name), for display. */
  readonly source: string;
  /** Every `*.toml` under the `.jp` folder as read: path relative to it → text. */
  readonly files: Readonly<Record<string, string>>;
  /** The user's edits: path → text. Only edited files are here. */
  readonly edited: Readonly<Record<string, string>>;
  /** Files unlocked for editing (read-only otherwise). */
  readonly editable: readonly string[];
  /** Workspace files open as editor tabs, in the order they were opened. */
  readonly tabs: readonly string[];
  /** Bumped on every change of the files; the derive host reuses its load while it stays. */
  readonly version: number;
}

export interface WorkspaceSlice {
  workspace: WorkspaceFolder | undefined;
  /** The workspace file shown in the layers panel's editor (instead of a scenario layer), if any. */
  workspaceFile: string | undefined;
  /** How many tools "make discoverable" keeps on. */
  discoverableKeep: number;
  /** Set by the make-discoverable command; the workspace panel applies the plan once it has it. */
  discoverablePending: boolean;
  /** Opens a folder's files. A scenario that names a workspace keeps its steps; otherwise a new scenario starts around the folder. */
  openWorkspace(folder: { source: string; files: Record<string, string> }): void;
  /** Puts back an autosaved folder without touching the document. */
  restoreWorkspace(folder: WorkspaceFolder): void;
  closeWorkspace(): void;
  /** Sets the scenario's `[workspace] persona` (undefined: none). */
  setPersona(persona: string | undefined): void;
  /** Shows a workspace file in the editor (opening a tab for it); undefined goes back to the scenario layer. */
  openWorkspaceFile(path: string | undefined): void;
  closeWorkspaceTab(path: string): void;
  setWorkspaceFileEditable(path: string, editable: boolean): void;
  setWorkspaceFileText(path: string, text: string): void;
  revertWorkspaceFile(path: string): void;
  setDiscoverableKeep(keep: number): void;
  setDiscoverablePending(pending: boolean): void;
  /** Writes the generated layer: replaces the layer of that name, or adds it on top. */
  putGeneratedLayer(name: string, text: string): void;
}

/** What the slice needs of the rest of the store. */
interface Host {
  doc: ScenarioDoc;
  revision: number;
  selectedEntry: number | undefined;
  selectedLayer: number;
  keepInHistory(doc: ScenarioDoc, reason: Replacement): string;
}

type State = WorkspaceSlice & Host;

export const SCENARIO_LAYER_TEXT = `# Scenario layers stack above the workspace's files (which are read-only tabs to the left).
# Anything here wins over the workspace and the persona, e.g.:
#
# [conversation.tools.web_fetch]
# enable = "discoverable"
`;

/**
 * A new scenario around a workspace folder. Its steps come from the workspace's own tools (JP's
 * worked example only where every tool it calls is configured); a user's own folder starts empty.
 */
export function workspaceDoc(source: string, files: Readonly<Record<string, string>> = {}): ScenarioDoc {
  return {
    name: 'JP workspace',
    description: `Opened from ${source}. The workspace's files are the lowest layers; pick a persona, then try "Make discoverable".`,
    policy: DEFAULT_POLICY,
    layers: [{ name: 'scenario', text: SCENARIO_LAYER_TEXT }],
    servers: [],
    steps: workspaceStarterSteps(files),
    workspace: { path: '.jp' },
  };
}

/**
 * The banner after a folder opened, whichever way (picker, drop, .zip, or by its path through the
 * bridge): each way shows it, so the banner never still names what was opened before.
 */
export function workspaceOpenedMessage(source: string, fileCount: number, kept: boolean): string {
  return `Opened the workspace ${source}: ${fileCount} .toml file${fileCount === 1 ? '' : 's'}${kept ? ', for the scenario that names it' : ''}. Pick a persona in the Workspace tab.`;
}

const inputs = new WeakMap<WorkspaceFolder, WorkspaceInput>();

/** What the derive worker gets: the files with the user's edits applied (stable per folder value). */
export function workspaceInput(s: { workspace: WorkspaceFolder | undefined }): WorkspaceInput | undefined {
  const w = s.workspace;
  if (!w) return undefined;
  let input = inputs.get(w);
  if (!input) {
    input = { version: w.version, files: { ...w.files, ...w.edited } };
    inputs.set(w, input);
  }
  return input;
}

/** A file's current text (edited or as read). */
export function workspaceFileText(w: WorkspaceFolder, path: string): string | undefined {
  return Object.hasOwn(w.edited, path) ? w.edited[path] : w.files[path];
}

export function workspaceSlice<S extends State>(set: StoreApi<S>['setState'], get: StoreApi<S>['getState']): WorkspaceSlice {
  const put = (f: (s: S) => Partial<State>) => set((s) => f(s) as Partial<S>);
  let lastVersion = 0;
  const nextVersion = (): number => (lastVersion += 1);
  /** A change of the files: a new version and a new revision (the derivation depends on them). */
  const editFolder = (f: (w: WorkspaceFolder) => WorkspaceFolder) =>
    put((s) => (s.workspace ? { workspace: { ...f(s.workspace), version: nextVersion() }, revision: s.revision + 1 } : {}));
  /** A change of the folder's view state only (tabs, editability): no new derivation. */
  const viewFolder = (f: (w: WorkspaceFolder) => WorkspaceFolder) => put((s) => (s.workspace ? { workspace: f(s.workspace) } : {}));
  return {
    workspace: undefined,
    workspaceFile: undefined,
    discoverableKeep: 10,
    discoverablePending: false,
    openWorkspace: ({ source, files }) => {
      // A new scenario starts around the folder: the document it replaces is kept first.
      if (get().doc.workspace === undefined) get().keepInHistory(get().doc, { kind: 'workspace', name: source });
      put((s) => {
        const keepDoc = s.doc.workspace !== undefined;
        const tabs = ['config.toml'].filter((p) => Object.hasOwn(files, p));
        // The kept document's About text names the folder it was written for: while it is still the
        // text the workbench wrote (not the author's), it names the folder opened now.
        const generated = s.workspace !== undefined && s.doc.description === workspaceDoc(s.workspace.source).description;
        const renamed = keepDoc && generated && s.workspace?.source !== source ? { doc: edited(s.doc, { ...s.doc, description: workspaceDoc(source).description }) } : {};
        return {
          workspace: { source, files, edited: {}, editable: [], tabs, version: nextVersion() },
          workspaceFile: undefined,
          revision: s.revision + 1,
          // A new document: the undo entries of the one it replaces go with it.
          ...(keepDoc ? renamed : { doc: workspaceDoc(source, files), selectedEntry: undefined, selectedLayer: 0, stepUndo: undefined, lastImport: undefined, lastFlip: undefined }),
        };
      });
    },
    restoreWorkspace: (folder) => {
      lastVersion = Math.max(lastVersion, folder.version);
      put((s) => ({ workspace: { ...folder, version: nextVersion() }, revision: s.revision + 1 }));
    },
    closeWorkspace: () => put((s) => ({ workspace: undefined, workspaceFile: undefined, revision: s.revision + 1 })),
    setPersona: (persona) =>
      put((s) => {
        const ws = s.doc.workspace ?? { path: '.jp' };
        const { persona: _old, ...rest } = ws;
        return { doc: edited(s.doc, { ...s.doc, workspace: persona !== undefined ? { ...rest, persona } : rest }), revision: s.revision + 1 };
      }),
    openWorkspaceFile: (path) =>
      put((s) => {
        if (path === undefined || !s.workspace) return { workspaceFile: undefined };
        const tabs = s.workspace.tabs.includes(path) ? s.workspace.tabs : [...s.workspace.tabs, path];
        return { workspaceFile: path, workspace: { ...s.workspace, tabs } };
      }),
    closeWorkspaceTab: (path) =>
      put((s) => {
        if (!s.workspace) return {};
        const i = s.workspace.tabs.indexOf(path);
        const tabs = s.workspace.tabs.filter((p) => p !== path);
        const workspaceFile = s.workspaceFile === path ? tabs[Math.min(i, tabs.length - 1)] : s.workspaceFile;
        return { workspace: { ...s.workspace, tabs }, workspaceFile };
      }),
    setWorkspaceFileEditable: (path, editable) =>
      viewFolder((w) => ({ ...w, editable: editable ? [...new Set([...w.editable, path])] : w.editable.filter((p) => p !== path) })),
    setWorkspaceFileText: (path, text) => {
      const w = get().workspace;
      if (!w || workspaceFileText(w, path) === text) return;
      editFolder((f) => {
        if (f.files[path] === text) {
          const { [path]: _dropped, ...edited } = f.edited;
          return { ...f, edited };
        }
        return { ...f, edited: { ...f.edited, [path]: text } };
      });
    },
    revertWorkspaceFile: (path) => {
      if (!Object.hasOwn(get().workspace?.edited ?? {}, path)) return;
      editFolder((f) => {
        const { [path]: _dropped, ...edited } = f.edited;
        return { ...f, edited, editable: f.editable.filter((p) => p !== path) };
      });
    },
    setDiscoverableKeep: (keep) => put(() => ({ discoverableKeep: Math.max(0, Math.min(999, Math.floor(keep) || 0)) })),
    setDiscoverablePending: (discoverablePending) => put(() => ({ discoverablePending })),
    putGeneratedLayer: (name, text) =>
      put((s) => {
        const i = s.doc.layers.findIndex((l) => l.name === name);
        if (i >= 0 && s.doc.layers[i]?.text === text) return {};
        const layers = i >= 0 ? s.doc.layers.map((l, j) => (j === i ? { ...l, text } : l)) : [...s.doc.layers, { name, text }];
        return { doc: edited(s.doc, { ...s.doc, layers }), revision: s.revision + 1, selectedLayer: i >= 0 ? i : layers.length - 1, workspaceFile: undefined };
      }),
  };
}
