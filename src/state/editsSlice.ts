// Edits the UI makes to layer text (the sets panel setting a tool's
// availability, a command), and jumps into the layer editor. Every edit goes
// through the core's format-preserving `jp config set` edit and lands as ONE
// splice: on the layer's editor model when the editor is loaded (so Ctrl+Z
// undoes it), else on the store's text.
import type { StoreApi } from 'zustand/vanilla';
import { parseToml } from '../core';
import type { Availability, LayerDoc, TomlValue } from '../core';
import { setEnableField } from '../core/config/edit';
import type { Splice } from '../core/config/edit-primitives';
import type { WorkbenchState } from './store';

/** What the loaded layer editor offers the store (see src/editor/session.ts). */
export interface LayerEditorBridge {
  /** The text of layer `index` as its editor model holds it. */
  textOf(index: number): string | undefined;
  /** Applies a splice to layer `index`'s model as one undoable edit; false when it cannot. */
  applySplice(index: number, splice: Splice): boolean;
  /** The layer and tool table holding the cursor, if any. */
  toolAtCursor(): { index: number; tool: string } | undefined;
}

export interface RevealRequest {
  readonly index: number;
  readonly line: number;
  readonly column: number;
  /** Move keyboard focus into the editor. */
  readonly focus: boolean;
  /** Increases with every request (the same line may be asked for twice). */
  readonly seq: number;
}

export type EditOutcome =
  | { readonly ok: true; readonly layer: string; readonly index: number; readonly changed: boolean }
  | { readonly ok: false; readonly error: string };

export type EnableFieldName = 'availability' | 'allow_toggle';

export interface EditsSlice {
  /** The loaded layer editor, if any. */
  layerEditor: LayerEditorBridge | undefined;
  /** A line the layer editor should show (consumed by the editor). */
  revealRequest: RevealRequest | undefined;
  attachLayerEditor(bridge: LayerEditorBridge): void;
  detachLayerEditor(bridge: LayerEditorBridge): void;
  /**
   * Sets `conversation.tools.TOOL.enable.availability` in the layer that decides it (see
   * `layerToEdit`), as one undoable edit. Errors also show in the banner.
   */
  setToolAvailability(tool: string, availability: Availability): EditOutcome;
  /** The same for either enable field (`allow_toggle` takes any, never, if_named, if_named_or_group). */
  setToolEnableField(tool: string, field: EnableFieldName, value: string): EditOutcome;
  /** Selects the layer (by name or index) and reveals and highlights the line. False when there is no such layer. */
  revealInLayer(layer: string | number, line: number, column?: number, options?: { focus?: boolean }): boolean;
  consumeReveal(seq: number): void;
}

const RESERVED = new Set(['describe_tools', 'search_tools']);

function tableEntry(v: TomlValue | undefined, key: string): TomlValue | undefined {
  return v?.kind === 'table' ? v.entries.get(key)?.value : undefined;
}

/** What a layer says about a tool: nothing, that it defines it, or that it sets its availability. */
export function layerSays(text: string, tool: string): 'nothing' | 'defines' | 'availability' {
  if (!text.includes(tool)) return 'nothing';
  const doc = parseToml(text);
  const t = tableEntry(tableEntry(doc.root.entries.get('conversation')?.value, 'tools'), tool);
  if (!t) return 'nothing';
  const enable = tableEntry(t, 'enable');
  if (enable === undefined) return 'defines';
  if (enable.kind === 'string' || enable.kind === 'boolean') return 'availability';
  if (enable.kind === 'table' && (enable.entries.has('availability') || enable.entries.has('state'))) return 'availability';
  return 'defines';
}

/**
 * The layer an edit of `tool`'s enable goes to: the highest layer that sets the tool's own
 * availability (the one that decides it, as tools beat `'*'`), else the highest layer that
 * defines the tool, else the last layer.
 */
export function layerToEdit(layers: readonly LayerDoc[], tool: string): number {
  let defines = -1;
  for (let i = layers.length - 1; i >= 0; i--) {
    const says = layerSays(layers[i]?.text ?? '', tool);
    if (says === 'availability') return i;
    if (says === 'defines' && defines < 0) defines = i;
  }
  return defines >= 0 ? defines : layers.length - 1;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

type SetFn = StoreApi<WorkbenchState>['setState'];
type GetFn = StoreApi<WorkbenchState>['getState'];

export const editsSlice = (set: SetFn, get: GetFn): EditsSlice => {
  let seq = 0;
  const fail = (error: string): EditOutcome => {
    get().showBanner('error', error);
    return { ok: false, error };
  };
  const reveal = (index: number, line: number, column: number, focus: boolean): void => {
    seq += 1;
    set({ selectedLayer: index, revealRequest: { index, line, column, focus, seq } });
  };
  const setField = (tool: string, field: EnableFieldName, value: string): EditOutcome => {
    const { doc, layerEditor } = get();
    if (RESERVED.has(tool)) return fail(`${tool} is a builtin: it is always on and cannot be configured.`);
    if (tool === '') return fail('No tool named.');
    if (doc.layers.length === 0) return fail('There is no layer to edit: add one first.');
    const index = layerToEdit(doc.layers, tool);
    const layer = doc.layers[index] as LayerDoc;
    const text = layerEditor?.textOf(index) ?? layer.text;
    const r = setEnableField(text, tool, field, value);
    if (!r.ok) return fail(`Could not set ${tool}'s ${field} in layer ${layer.name}: ${r.error}`);
    const splice: Splice = { start: r.range.start, end: r.range.end, insert: r.replacement };
    const changed = r.text !== text;
    if (changed) {
      if (!layerEditor?.applySplice(index, splice)) get().setLayerText(index, r.text);
    }
    reveal(index, lineOf(r.text, splice.start), 1, false);
    return { ok: true, layer: layer.name, index, changed };
  };
  return {
    layerEditor: undefined,
    revealRequest: undefined,
    attachLayerEditor: (bridge) => set({ layerEditor: bridge }),
    detachLayerEditor: (bridge) => {
      if (get().layerEditor === bridge) set({ layerEditor: undefined });
    },
    setToolAvailability: (tool, availability) => setField(tool, 'availability', availability),
    setToolEnableField: (tool, field, value) => setField(tool, field, value),
    revealInLayer: (layer, line, column = 1, options = {}) => {
      const layers = get().doc.layers;
      const index = typeof layer === 'number' ? layer : layers.findIndex((l) => l.name === layer);
      if (index < 0 || index >= layers.length) return false;
      reveal(index, Math.max(1, line), Math.max(1, column), options.focus ?? true);
      return true;
    },
    consumeReveal: (n) => {
      if (get().revealRequest?.seq === n) set({ revealRequest: undefined });
    },
  };
};
