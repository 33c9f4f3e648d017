// window.__workbenchLayers: the layer actions for Playwright and reviewers'
// scripts (the same store actions the sets panel calls), available before
// Monaco loads. The editor's own read-outs are window.__layerEditor.
import type { Availability } from '../../core';
import type { EditOutcome, EnableFieldName } from '../../state/editsSlice';
import type { WorkbenchStore } from '../../state/store';
import { layerIdsFor } from '../../editor/layer-ids';

export interface LayersHook {
  setToolAvailability(tool: string, availability: Availability): EditOutcome;
  setToolEnableField(tool: string, field: EnableFieldName, value: string): EditOutcome;
  revealInLayer(layer: string | number, line: number, column?: number): boolean;
  /** The stable ids of the layers, in order. */
  layerIds(): readonly string[];
  selectedLayer(): number;
  /** Whether the Monaco editor has loaded and is linked to the store. */
  editorLoaded(): boolean;
}

declare global {
  interface Window {
    __workbenchLayers?: LayersHook;
  }
}

export function installLayersHook(store: WorkbenchStore): () => void {
  const hook: LayersHook = Object.freeze({
    setToolAvailability: (tool: string, availability: Availability) => store.getState().setToolAvailability(tool, availability),
    setToolEnableField: (tool: string, field: EnableFieldName, value: string) => store.getState().setToolEnableField(tool, field, value),
    revealInLayer: (layer: string | number, line: number, column?: number) => store.getState().revealInLayer(layer, line, column),
    layerIds: () => [...layerIdsFor(store).all()],
    selectedLayer: () => store.getState().selectedLayer,
    editorLoaded: () => store.getState().layerEditor !== undefined,
  });
  window.__workbenchLayers = hook;
  return () => {
    if (window.__workbenchLayers === hook) delete window.__workbenchLayers;
  };
}
