// The layer editor's models and their link to the store. A layer gets its own
// Monaco model when its tab is first shown, and keeps it for the life of the page
// (keyed by the layer's stable id, so its undo history survives renames, reorders
// and tab switches). A layer never shown has no model: a catalogue's model costs
// its line index, tokens and view state, which an unopened tab does not need, and
// until then the store's text is the layer's only copy. The link is synchronous
// both ways:
// - typing: the model's change event hands the store its changes at once (so a
//   tab switch can never lose text) and a live layer whose text is read from the
//   model on demand (state/liveLayer.ts): a keystroke never copies the layer's
//   text, which for a catalogue is megabytes; the store's echo is recognised by
//   the live layer's source (no setValue, so the cursor stays);
// - anything else that changes a layer's text in the store is applied to its
//   model as one minimal edit (cursor and undo kept).
// Markers come from the derivation's diagnostics, for every layer, and are
// only reset for a layer whose diagnostics changed.
import type { Diagnostic, LayerDoc } from '../core';
import { isLiveLayer, liveSourceOf } from '../state/liveLayer';
import type { TextSource } from '../state/liveLayer';
import { minimalSplice } from '../core/config/edit-primitives';
import type { Splice } from '../core/config/edit-primitives';
import type { WorkbenchStore } from '../state/store';
import type { LayerEditorBridge } from '../state/editsSlice';
import { layerIdsFor } from './layer-ids';
import type { LayerIds } from './layer-ids';
import { monaco } from './monaco';
import { TOML_LANGUAGE_ID } from './toml-language';
import { toolAt } from './toml-context';

export const MARKER_OWNER = 'workbench';

/** Above this many characters a layer is catalogue-sized: the editor's whole-model features are off. */
export const LARGE_LAYER_CHARS = 256 * 1024;

/**
 * A model's text as live layers read it: read on demand, and kept as the model is disposed (a
 * removed layer's text stays readable in a document that still holds it). The readers of one task
 * (a save reading every layer, a share link) share one read; the text is not kept past the task:
 * once a reader flattens it (a structured clone, JSON) it is a whole copy of the model's text,
 * which for a catalogue is megabytes held beside the model until the next keystroke.
 */
class ModelText implements TextSource {
  private cache: { version: number; text: string } | undefined;
  private frozen: string | undefined;

  constructor(private readonly model: monaco.editor.ITextModel) {
    model.onWillDispose(() => {
      this.frozen = model.getValue();
    });
  }

  read(): string {
    if (this.frozen !== undefined) return this.frozen;
    const version = this.model.getVersionId();
    if (this.cache?.version !== version) {
      const cache = { version, text: this.model.getValue() };
      this.cache = cache;
      setTimeout(() => {
        if (this.cache === cache) this.cache = undefined;
      }, 0);
    }
    return this.cache.text;
  }

  length(): number {
    return this.frozen?.length ?? this.model.getValueLength();
  }

  slice(start: number, end: number): string {
    if (this.frozen !== undefined) return this.frozen.slice(start, end);
    if (this.cache?.version === this.model.getVersionId()) return this.cache.text.slice(start, end);
    const a = this.model.getPositionAt(start);
    const b = this.model.getPositionAt(end);
    return this.model.getValueInRange(new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column));
  }
}

function severityOf(s: Diagnostic['severity']): monaco.MarkerSeverity {
  return s === 'error' ? monaco.MarkerSeverity.Error : s === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Info;
}

export class LayerSession {
  private readonly models = new Map<string, monaco.editor.ITextModel>();
  /** The layer object last exchanged with the store, per layer id (its text is the model's). */
  private readonly synced = new Map<string, LayerDoc>();
  /** Each model's text as live layers read it. */
  private readonly sources = new Map<string, ModelText>();
  private readonly markerKeys = new Map<string, string>();
  private readonly viewStates = new Map<string, monaco.editor.ICodeEditorViewState | null>();
  private readonly ids: LayerIds;
  private applyingFromStore = false;
  private diagnostics: readonly Diagnostic[] = [];
  /** The newest diagnostics by layer name (a model made later takes its markers from here). */
  private byLayer = new Map<string, Diagnostic[]>();
  editor: monaco.editor.IStandaloneCodeEditor | undefined;

  constructor(private readonly store: WorkbenchStore) {
    this.ids = layerIdsFor(store);
    this.sync();
    store.subscribe((s, prev) => {
      if (s.doc.layers !== prev.doc.layers) this.sync();
    });
  }

  private uriOf(id: string): monaco.Uri {
    return monaco.Uri.parse(`inmemory://layers/${id}.toml`);
  }

  /** The indexes of the layers that have a model (their tab was shown, or an edit came to them). */
  modelled(): number[] {
    return this.ids.all().flatMap((id, i) => (this.models.has(id) ? [i] : []));
  }

  idOfModel(model: monaco.editor.ITextModel | null | undefined): string | undefined {
    if (!model) return undefined;
    for (const [id, m] of this.models) if (m === model) return id;
    return undefined;
  }

  /** Layer `index`'s model, if its tab was ever shown (undefined otherwise: see `modelFor`). */
  modelAt(index: number): monaco.editor.ITextModel | undefined {
    const id = this.ids.idAt(index);
    return id === undefined ? undefined : this.models.get(id);
  }

  /** Layer `index`'s model, made from the store's text if the layer has none yet. */
  modelFor(index: number): monaco.editor.ITextModel | undefined {
    const existing = this.modelAt(index);
    if (existing) return existing;
    const id = this.ids.idAt(index);
    const layer = this.store.getState().doc.layers[index];
    if (id === undefined || !layer) return undefined;
    const model = this.create(id, layer);
    this.setMarkers(index, model, id, true);
    return model;
  }

  indexOfModel(model: monaco.editor.ITextModel | null | undefined): number {
    const id = this.idOfModel(model);
    return id === undefined ? -1 : this.ids.indexOf(id);
  }

  /** Brings the models in line with the store's layers. */
  private sync(): void {
    const layers = this.store.getState().doc.layers;
    const ids = this.ids.all();
    const live = new Set(ids);
    for (const [id, m] of this.models) {
      if (live.has(id)) continue;
      m.dispose();
      this.models.delete(id);
      this.synced.delete(id);
      this.sources.delete(id);
      this.markerKeys.delete(id);
      this.viewStates.delete(id);
    }
    layers.forEach((layer, i) => {
      const id = ids[i];
      if (id === undefined) return;
      const model = this.models.get(id);
      // A layer without a model is made one when shown (modelFor).
      if (!model) return;
      if (this.synced.get(id) === layer || (isLiveLayer(layer) && liveSourceOf(layer) === this.sources.get(id))) {
        this.synced.set(id, layer);
        return;
      }
      this.applyFromStore(model, layer.text);
      this.synced.set(id, layer);
      this.keepExact(model, layer.text, id);
    });
    // New models (and renamed layers) get their markers from the newest diagnostics.
    this.setDiagnostics(this.diagnostics);
  }

  private create(id: string, layer: LayerDoc): monaco.editor.ITextModel {
    const existing = monaco.editor.getModel(this.uriOf(id));
    existing?.dispose();
    const text = layer.text;
    const model = monaco.editor.createModel(text, TOML_LANGUAGE_ID, this.uriOf(id));
    model.updateOptions({ tabSize: 2, insertSpaces: true });
    const source = new ModelText(model);
    this.models.set(id, model);
    this.sources.set(id, source);
    this.synced.set(id, layer);
    this.keepExact(model, text, id);
    model.onDidChangeContent((e) => {
      if (this.applyingFromStore) return;
      const index = this.ids.indexOf(id);
      if (index < 0) return;
      // A flush or a line-ending change reports no usable changes: the text goes over whole.
      if (e.isFlush || e.isEolChange) {
        this.store.getState().setLayerText(index, model.getValue());
        return;
      }
      this.store.getState().typeInLayer(index, e.changes.map((c) => ({ rangeOffset: c.rangeOffset, rangeLength: c.rangeLength, text: c.text })), source);
    });
    return model;
  }

  /**
   * Typing is sent as changes to the store's text, so the model must hold that very text. Monaco
   * normalizes line endings (a lone CR, mixed CRLF): when the model's text differs, the store takes
   * the model's (once, as the layer is opened or replaced; never per keystroke).
   */
  private keepExact(model: monaco.editor.ITextModel, text: string, id: string): void {
    if (model.getValueLength() === text.length && model.getValue() === text) return;
    queueMicrotask(() => {
      if (this.models.get(id) !== model || model.isDisposed()) return;
      const index = this.ids.indexOf(id);
      if (index >= 0) this.store.getState().setLayerText(index, model.getValue());
    });
  }

  /** A text the store has and the model does not: one minimal edit, undoable. */
  private applyFromStore(model: monaco.editor.ITextModel, text: string): void {
    const s = minimalSplice(model.getValue(), text);
    if (s.start === s.end && s.insert === '') return;
    this.applyingFromStore = true;
    try {
      this.edit(model, s);
    } finally {
      this.applyingFromStore = false;
    }
  }

  /** One splice as one undo step, through the editor when the model is shown (so the cursor follows). */
  private edit(model: monaco.editor.ITextModel, s: Splice): void {
    const a = model.getPositionAt(s.start);
    const b = model.getPositionAt(s.end);
    const op = { range: new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column), text: s.insert, forceMoveMarkers: false };
    const ed = this.editor;
    if (ed && ed.getModel() === model) {
      ed.pushUndoStop();
      ed.executeEdits('workbench', [op]);
      ed.pushUndoStop();
    } else {
      model.pushStackElement();
      model.pushEditOperations([], [op], () => null);
      model.pushStackElement();
    }
  }

  /** Shows layer `index` in the editor, keeping each layer's cursor and scroll. */
  show(index: number): void {
    const ed = this.editor;
    if (!ed) return;
    const model = this.modelFor(index);
    if (!model || ed.getModel() === model) return;
    const current = this.idOfModel(ed.getModel());
    if (current !== undefined) this.viewStates.set(current, ed.saveViewState());
    ed.setModel(model);
    const id = this.idOfModel(model);
    const vs = id !== undefined ? this.viewStates.get(id) : undefined;
    if (vs) ed.restoreViewState(vs);
    const name = this.store.getState().doc.layers[index]?.name ?? '';
    // Features that scan the whole model after every keystroke or caret move (word occurrences,
    // bracket matching and colouring) are off in a catalogue-sized layer.
    const large = model.getValueLength() > LARGE_LAYER_CHARS;
    ed.updateOptions({ occurrencesHighlight: large ? 'off' : 'singleFile', matchBrackets: large ? 'never' : 'always', bracketPairColorization: { enabled: !large } });
    ed.updateOptions({ ariaLabel: `Layer ${name} (TOML). Alt+F1 for accessibility help; Ctrl+Space for completions; Ctrl+. for quick fixes.` });
  }

  /** Sets the markers of every layer from the derivation's diagnostics, touching only layers whose diagnostics changed. */
  setDiagnostics(diagnostics: readonly Diagnostic[]): void {
    this.diagnostics = diagnostics;
    const layers = this.store.getState().doc.layers;
    const byLayer = new Map<string, Diagnostic[]>();
    for (const d of diagnostics) {
      if (d.layer === undefined) continue;
      const list = byLayer.get(d.layer);
      if (list) list.push(d);
      else byLayer.set(d.layer, [d]);
    }
    this.byLayer = byLayer;
    layers.forEach((_, i) => {
      const model = this.modelAt(i);
      const id = this.ids.idAt(i);
      if (model && id !== undefined) this.setMarkers(i, model, id, false);
    });
  }

  /** Layer `index`'s markers from the newest diagnostics; unless `fresh`, only when they changed. */
  private setMarkers(index: number, model: monaco.editor.ITextModel, id: string, fresh: boolean): void {
    const name = this.store.getState().doc.layers[index]?.name;
    const list = (name !== undefined ? this.byLayer.get(name) : undefined) ?? [];
    const key = list.map((d) => `${d.severity}|${d.line}|${d.column}|${d.endLine}|${d.endColumn}|${d.code}|${d.message}`).join('\n');
    if (!fresh && this.markerKeys.get(id) === key) return;
    this.markerKeys.set(id, key);
    monaco.editor.setModelMarkers(model, MARKER_OWNER, list.map((d) => this.marker(model, d)));
  }

  private marker(model: monaco.editor.ITextModel, d: Diagnostic): monaco.editor.IMarkerData {
    const lines = model.getLineCount();
    const line = Math.min(Math.max(d.line ?? 1, 1), lines);
    const column = Math.max(d.column ?? 1, 1);
    let endLine = Math.min(Math.max(d.endLine ?? line, line), lines);
    let endColumn = d.endColumn ?? column;
    if (endLine === line && endColumn <= column) {
      // A point: underline the word there, or one character.
      const word = model.getWordAtPosition({ lineNumber: line, column });
      endColumn = word ? Math.max(word.endColumn, column + 1) : Math.min(column + 1, model.getLineMaxColumn(line));
      endLine = line;
    }
    return {
      severity: severityOf(d.severity),
      message: d.message,
      startLineNumber: line,
      startColumn: column,
      endLineNumber: endLine,
      endColumn: Math.max(endColumn, 1),
      source: 'workbench',
      ...(d.code ? { code: d.code } : {}),
    };
  }

  /** The store's handle on the editor (see editsSlice). */
  readonly bridge: LayerEditorBridge = {
    textOf: (index) => this.modelAt(index)?.getValue(),
    // An edit from elsewhere (the sets panel, a quick fix) is undoable in the editor, and selects
    // its layer: the layer gets its model now.
    applySplice: (index, splice) => {
      const model = this.modelFor(index);
      if (!model) return false;
      this.edit(model, splice);
      return true;
    },
    toolAtCursor: () => {
      const ed = this.editor;
      const model = ed?.getModel();
      const pos = ed?.getPosition();
      if (!ed || !model || !pos) return undefined;
      const tool = toolAt((n) => model.getLineContent(n), pos.lineNumber, pos.column);
      const index = this.indexOfModel(model);
      return tool !== undefined && index >= 0 ? { index, tool } : undefined;
    },
  };
}

const sessions = new WeakMap<WorkbenchStore, LayerSession>();

export function sessionFor(store: WorkbenchStore): LayerSession {
  let s = sessions.get(store);
  if (!s) {
    s = new LayerSession(store);
    sessions.set(store, s);
  }
  return s;
}
