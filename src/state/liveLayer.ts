// A layer whose text lives in the layer editor's model. Typing makes a new document per keystroke;
// copying the model's text into it each time (model.getValue()) costs the whole layer, megabytes
// for a catalogue. So a typed layer's `text` is read from the model when something asks for it
// (a save, a share link, a quick fix), and cached per model version. The getter is enumerable, so
// structured clone (IndexedDB, postMessage) and JSON read it like a plain field.
//
// A live layer reads the model as it is NOW: a document kept past later typing must be made plain
// first (`plainDoc`): history does as it keeps a replaced document, autosave as it saves.
import type { LayerDoc, ScenarioDoc } from '../core';

/** Where a live layer's text comes from (the layer editor's model). */
export interface TextSource {
  read(): string;
  /** The text's length, without reading the text. */
  length(): number;
  /** Characters `start` to `end` of the text, without reading the rest (autosave reads the chunks typing changed). */
  slice?(start: number, end: number): string;
}

const live = new WeakMap<LayerDoc, TextSource>();

export function liveLayer(name: string, source: TextSource): LayerDoc {
  const layer = { name } as LayerDoc;
  Object.defineProperty(layer, 'text', { get: () => source.read(), enumerable: true, configurable: false });
  live.set(layer, source);
  return layer;
}

export function isLiveLayer(layer: LayerDoc): boolean {
  return live.has(layer);
}

/** The source a live layer reads (undefined for a plain layer). */
export function liveSourceOf(layer: LayerDoc): TextSource | undefined {
  return live.get(layer);
}

/** The layer's length in characters, without reading a live layer's text. */
export function layerChars(layer: LayerDoc): number {
  return live.get(layer)?.length() ?? layer.text.length;
}

/** The document with every layer's text read now (the same document when no layer is live). */
export function plainDoc(doc: ScenarioDoc): ScenarioDoc {
  if (!doc.layers.some((l) => live.has(l))) return doc;
  return { ...doc, layers: doc.layers.map((l) => (live.has(l) ? { name: l.name, text: l.text } : l)) };
}
