// The workbench store: a zustand vanilla store built from slices and handed
// down through React context (GraphiQL's pattern). It holds what the user made
// (the scenario document) and what they are looking at; it never derives sets:
// the derive worker does that from the document.
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { Policy, PolicyKey, ScenarioDoc, StepDoc, CycleDoc } from '../core';
import { labSlice } from './labSlice';
import type { LabSlice } from './labSlice';
import { editsSlice } from './editsSlice';
import type { EditsSlice } from './editsSlice';
import { workspaceSlice } from './workspaceSlice';
import type { WorkspaceSlice } from './workspaceSlice';
import { importSlice } from './importSlice';
import type { ImportSlice } from './importSlice';
import { reviewSlice } from './reviewSlice';
import type { ReviewSlice } from './reviewSlice';
import { findabilitySlice } from './findabilitySlice';
import type { FindabilitySlice } from './findabilitySlice';
import { bridgeSlice } from './bridgeSlice';
import type { BridgeSlice } from './bridgeSlice';
import { historySlice } from './historySlice';
import type { HistoryDeps, HistorySlice } from './historySlice';
import { memoryHistory, standingUndo } from './history';
import type { Replacement } from './history';
import { tabsSlice } from './tabsSlice';
import { recordOrigin } from './lineage';
import type { LayerChange } from './lineage';
import { liveLayer } from './liveLayer';
import type { TextSource } from './liveLayer';
import type { TabsSlice } from './tabsSlice';

export interface DocSlice {
  doc: ScenarioDoc;
  /** Bumped on every change of the document; derivations are keyed by it. */
  revision: number;
  /**
   * Replaces the whole document. The one it replaces is kept first in Recent documents (with
   * `why`), so a replacement never throws work away; returns that recent document's id.
   */
  replaceDoc(doc: ScenarioDoc, why: Replacement): string;
  setName(name: string): void;
  setPolicy<K extends PolicyKey>(key: K, value: Policy[K]): void;
  setLayerText(index: number, text: string): void;
  /**
   * Typing in layer `index`: the editor's content changes of one event, and the layer's text as a
   * live layer (liveLayer.ts) read from the editor's model on demand. Nothing here costs the
   * layer's size: the derive worker is sent the changes (lineage.ts), not the text.
   */
  typeInLayer(index: number, changes: readonly LayerChange[], source: TextSource): void;
  addLayer(name?: string): void;
  renameLayer(index: number, name: string): void;
  moveLayer(index: number, delta: -1 | 1): void;
  removeLayer(index: number): void;
  addStep(step: StepDoc, at?: number): void;
  updateStep(index: number, step: StepDoc): void;
  removeStep(index: number): void;
  /** Appends a cycle to a step (the simulator acting as the model). */
  appendCycle(stepIndex: number, cycle: CycleDoc): void;
  /** Replaces the last cycle of a step. */
  replaceLastCycle(stepIndex: number, cycle: CycleDoc): void;
  /**
   * The last deleted step, bound to the revision its deletion made: any later change of the
   * document (an edit, a replacement) retires it, so undo never inserts into another document.
   */
  stepUndo: StepUndo | undefined;
  /** Removes a step and remembers it for undo. */
  deleteStep(index: number): void;
  /** Puts the deleted step back, only while the document is still the revision the deletion made. */
  undoStepDelete(): void;
  dismissStepUndo(): void;
}

export interface StepUndo {
  readonly step: StepDoc;
  readonly index: number;
  /** The document's revision right after the deletion; the undo is offered only at that revision. */
  readonly revision: number;
}

/** The step undo the document still accepts (none once the document changed since the deletion). */
export function liveStepUndo(s: { readonly stepUndo: StepUndo | undefined; readonly revision: number }): StepUndo | undefined {
  return standingUndo(s.stepUndo, s.revision);
}

export interface SelectionSlice {
  /** The selected timeline row (an index into TimelineView.entries). */
  selectedEntry: number | undefined;
  selectedLayer: number;
  selectEntry(index: number | undefined): void;
  selectLayer(index: number): void;
}

export type DockTab = 'simulator' | 'requests' | 'chart' | 'search' | 'questions' | 'workspace' | 'servers' | 'findability' | 'cost' | 'tasks';

export interface UiSlice {
  dockTab: DockTab;
  paletteOpen: boolean;
  banner: { kind: 'error' | 'info'; message: string } | undefined;
  setDockTab(tab: DockTab): void;
  setPaletteOpen(open: boolean): void;
  showBanner(kind: 'error' | 'info', message: string): void;
  dismissBanner(): void;
}

export type WorkbenchState = DocSlice & SelectionSlice & UiSlice & LabSlice & EditsSlice & WorkspaceSlice & ImportSlice & ReviewSlice & FindabilitySlice & BridgeSlice & HistorySlice & TabsSlice;
export type WorkbenchStore = StoreApi<WorkbenchState>;

type Slice<T> = (set: StoreApi<WorkbenchState>['setState'], get: StoreApi<WorkbenchState>['getState']) => T;

const NEW_LAYER_TEXT = `# A new config layer. Each tool is a [conversation.tools.NAME] table:
#
# [conversation.tools.fs_read_file]
# source = "local"
# enable = "on"            # on | off | discoverable | always | explicit
# summary = "Read a file."
`;

function uniqueLayerName(doc: ScenarioDoc, base: string): string {
  const names = new Set(doc.layers.map((l) => l.name));
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base}-${i}`)) return `${base}-${i}`;
}

const docSlice =
  (initial: ScenarioDoc): Slice<DocSlice> =>
  (set, get) => {
    const edit = (f: (doc: ScenarioDoc) => ScenarioDoc): void =>
      set((s) => {
        const doc = f(s.doc);
        recordOrigin(doc, { parent: s.doc });
        return { doc, revision: s.revision + 1 };
      });
    return {
      doc: initial,
      revision: 1,
      replaceDoc: (doc, why) => {
        const kept = get().keepInHistory(get().doc, why);
        // A shared link's "restore your previous work" is about the document this one replaces.
        // Undo entries belong to the document they came from: a replacement drops them (the open
        // questions' "Flip back" too, which would set the other document's switch).
        set((s) => ({ doc, revision: s.revision + 1, selectedEntry: undefined, selectedLayer: 0, sharedPrevious: undefined, stepUndo: undefined, lastImport: undefined, lastFlip: undefined, toolListUndo: undefined }));
        return kept;
      },
      setName: (name) => edit((d) => ({ ...d, name })),
      setPolicy: (key, value) => edit((d) => ({ ...d, policy: { ...d.policy, [key]: value } })),
      setLayerText: (index, text) => {
        if (get().doc.layers[index]?.text === text) return;
        edit((d) => ({ ...d, layers: d.layers.map((l, i) => (i === index ? { ...l, text } : l)) }));
      },
      typeInLayer: (index, changes, source) => {
        const s = get();
        const layer = s.doc.layers[index];
        if (!layer) return;
        const typed = liveLayer(layer.name, source);
        const doc = { ...s.doc, layers: s.doc.layers.map((l, i) => (i === index ? typed : l)) };
        recordOrigin(doc, { parent: s.doc, layer: index, changes });
        set({ doc, revision: s.revision + 1 });
      },
      addLayer: (name) => {
        edit((d) => ({ ...d, layers: [...d.layers, { name: uniqueLayerName(d, name ?? 'layer'), text: NEW_LAYER_TEXT }] }));
        set((s) => ({ selectedLayer: s.doc.layers.length - 1 }));
      },
      renameLayer: (index, name) => edit((d) => ({ ...d, layers: d.layers.map((l, i) => (i === index ? { ...l, name } : l)) })),
      moveLayer: (index, delta) => {
        const to = index + delta;
        if (to < 0 || to >= get().doc.layers.length) return;
        edit((d) => {
          const layers = [...d.layers];
          const [l] = layers.splice(index, 1);
          if (l) layers.splice(to, 0, l);
          return { ...d, layers };
        });
        set({ selectedLayer: to });
      },
      removeLayer: (index) => {
        edit((d) => ({ ...d, layers: d.layers.filter((_, i) => i !== index) }));
        set((s) => ({ selectedLayer: Math.max(0, Math.min(s.selectedLayer, s.doc.layers.length - 1)) }));
      },
      addStep: (step, at) => edit((d) => {
        const steps = [...d.steps];
        steps.splice(at ?? steps.length, 0, step);
        return { ...d, steps };
      }),
      updateStep: (index, step) => edit((d) => ({ ...d, steps: d.steps.map((s, i) => (i === index ? step : s)) })),
      removeStep: (index) => edit((d) => ({ ...d, steps: d.steps.filter((_, i) => i !== index) })),
      appendCycle: (stepIndex, cycle) => edit((d) => ({ ...d, steps: d.steps.map((s, i) => (i === stepIndex ? { ...s, cycles: [...s.cycles, cycle] } : s)) })),
      replaceLastCycle: (stepIndex, cycle) =>
        edit((d) => ({ ...d, steps: d.steps.map((s, i) => (i === stepIndex ? { ...s, cycles: [...s.cycles.slice(0, -1), cycle] } : s)) })),
      stepUndo: undefined,
      deleteStep: (index) => {
        const step = get().doc.steps[index];
        if (!step) return;
        edit((d) => ({ ...d, steps: d.steps.filter((_, i) => i !== index) }));
        set((s) => ({ stepUndo: { step, index, revision: s.revision } }));
      },
      undoStepDelete: () => {
        const entry = liveStepUndo(get());
        set({ stepUndo: undefined });
        if (!entry) return;
        edit((d) => {
          const steps = [...d.steps];
          steps.splice(Math.min(entry.index, steps.length), 0, entry.step);
          return { ...d, steps };
        });
      },
      dismissStepUndo: () => set({ stepUndo: undefined }),
    };
  };

const selectionSlice: Slice<SelectionSlice> = (set) => ({
  selectedEntry: undefined,
  selectedLayer: 0,
  selectEntry: (index) => set({ selectedEntry: index }),
  selectLayer: (index) => set({ selectedLayer: index }),
});

const uiSlice: Slice<UiSlice> = (set) => ({
  dockTab: 'simulator',
  paletteOpen: false,
  banner: undefined,
  setDockTab: (dockTab) => set({ dockTab }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  showBanner: (kind, message) => set({ banner: { kind, message } }),
  dismissBanner: () => set({ banner: undefined }),
});

export interface StoreDeps {
  /** Where replaced documents are kept: memory unless the page passes IndexedDB's. */
  readonly history?: HistoryDeps;
}

export function createWorkbenchStore(initial: ScenarioDoc, deps: StoreDeps = {}): WorkbenchStore {
  const history = deps.history ?? { storage: memoryHistory() };
  return createStore<WorkbenchState>()((set, get) => ({
    ...docSlice(initial)(set, get),
    ...selectionSlice(set, get),
    ...uiSlice(set, get),
    ...labSlice<WorkbenchState>(set),
    ...editsSlice(set, get),
    ...workspaceSlice<WorkbenchState>(set, get),
    ...importSlice<WorkbenchState>(set, get),
    ...reviewSlice<WorkbenchState>(set),
    ...findabilitySlice<WorkbenchState>(set),
    ...bridgeSlice<WorkbenchState>(set, get),
    ...historySlice<WorkbenchState>(set, get, history),
    ...tabsSlice<WorkbenchState>(set),
  }));
}
