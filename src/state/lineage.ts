// How each document the store made came from the one before it, so the derive worker can be sent
// what changed instead of the document (derive/document.ts, issue 32.1). Kept beside the documents
// (a WeakMap), not in them: a document is still plain data to save, share and clone.
import type { ScenarioDoc } from '../core';

/** One of Monaco's content changes: `rangeLength` characters at `rangeOffset` replaced by `text`. */
export interface LayerChange {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

/**
 * What made a document from `parent`: typing in layer `layer` (the changes of one editor event, each
 * offset into the text before it), or, without `layer`, any other edit of the store.
 */
export interface DocOrigin {
  readonly parent: ScenarioDoc;
  readonly layer?: number;
  readonly changes?: readonly LayerChange[];
}

const origins = new WeakMap<ScenarioDoc, DocOrigin>();

export function recordOrigin(doc: ScenarioDoc, origin: DocOrigin): void {
  if (doc !== origin.parent) origins.set(doc, origin);
}

/** How `doc` was made from its parent; undefined for a document that replaced another (opened, restored). */
export function originOf(doc: ScenarioDoc): DocOrigin | undefined {
  return origins.get(doc);
}

/**
 * Who reads the lineage, and from which document: the derive client sends the edits made since the
 * document the worker holds (derive/document.ts); autosave follows typing since its last save to
 * find the chunks and the journal's splices (persistence.ts, journal.ts). Kept whole, each document
 * would hold its parent back to the opened file, every keystroke's document and the opened text with
 * them (a WeakMap's value lives as long as its key), so the links above the oldest floor are let go.
 */
export type LineageReader = 'worker' | 'save';

const floors = new Map<LineageReader, ScenarioDoc>();
/** How far a floor is looked for above another (a lineage longer than this is kept, not walked). */
const MAX_WALK = 100_000;

function descends(doc: ScenarioDoc, from: ScenarioDoc): boolean {
  let d: ScenarioDoc | undefined = doc;
  for (let i = 0; d !== undefined && i < MAX_WALK; i++) {
    if (d === from) return true;
    d = origins.get(d)?.parent;
  }
  return false;
}

/** `reader` reads the lineage from `doc` on: the links above the oldest floor every reader descends from are dropped. */
export function lineageFloor(reader: LineageReader, doc: ScenarioDoc): void {
  floors.set(reader, doc);
  const all = [...floors.values()];
  // A floor no other floor leads back to is not dropped: another reader still walks through its parent.
  const oldest = all.find((f) => all.every((g) => descends(g, f)));
  if (oldest) origins.delete(oldest);
}

/** `reader` reads the lineage no more (autosave stopped). */
export function leaveLineage(reader: LineageReader): void {
  floors.delete(reader);
}

/** `doc`, recorded as an edit of `parent` (any edit but typing): returns `doc`. */
export function edited(parent: ScenarioDoc, doc: ScenarioDoc): ScenarioDoc {
  recordOrigin(doc, { parent });
  return doc;
}
