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
 * `doc` is what the derive worker now holds: the edits sent from here on start at `doc`, so the
 * link to its parent is dropped. Kept, each document would hold its parent to the one the file was
 * opened as, every keystroke's document since and the opened file's text with them (a WeakMap's
 * value lives as long as its key).
 */
export function heldByWorker(doc: ScenarioDoc): void {
  origins.delete(doc);
}

/** `doc`, recorded as an edit of `parent` (any edit but typing): returns `doc`. */
export function edited(parent: ScenarioDoc, doc: ScenarioDoc): ScenarioDoc {
  recordOrigin(doc, { parent });
  return doc;
}
