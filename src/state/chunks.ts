// How a layer's text is stored by autosave (persistence.ts): as a list of chunks, each its own
// IndexedDB record. A chunk is known by its length, not its offset, so an insertion changes the
// chunk it falls in and shifts no later chunk: a keystroke in a 90 MB catalogue makes one chunk
// of ~32 KB to write at the next save, and the rest of the catalogue is never cloned again.
//
// A layer's layout (its chunks, each with the key it is stored under or none yet) is kept beside
// the layer object (a WeakMap, like lineage.ts) and carried from a layer to the one typing made
// from it by the editor's content changes, so a save learns which chunks changed without reading
// the layer's text; only the changed chunks' text is read (TextSource.slice, from the model).
import type { LayerDoc } from '../core';
import type { LayerChange } from './lineage';

/** A stretch of a layer's text: stored under `key`, or (no key) changed since it was stored. */
export interface Chunk {
  readonly key?: string;
  readonly length: number;
}

export type Layout = readonly Chunk[];

/**
 * A chunk is cut at a table header (a line starting with `[`) at least this far into it, so a
 * chunk holds whole tools. 32 KiB: a 100,000-tool catalogue is ~2,800 chunks (a head record of
 * ~40 KB of keys), and a typed chunk costs a clone of ~32-64 KB.
 */
export const MIN_CHUNK = 32 * 1024;
/** With no header in reach (a long array, a multi-line string) a chunk is cut at a line end past this. */
export const MAX_CHUNK = 256 * 1024;

/** Where to cut a piece of `text` that starts at `start` (text.length when it stays whole). */
function cutAfter(text: string, start: number): number {
  const rest = text.length - start;
  // A piece too short to leave two chunks of MIN_CHUNK stays whole (a chunk typed in grows and is
  // written again whole, instead of leaving a small tail chunk behind at each save).
  if (rest < 2 * MIN_CHUNK) return text.length;
  const header = text.indexOf('\n[', start + MIN_CHUNK - 1);
  if (header >= 0 && header + 1 - start <= MAX_CHUNK && text.length - (header + 1) >= MIN_CHUNK) return header + 1;
  if (rest <= MAX_CHUNK) return text.length;
  const line = text.indexOf('\n', start + MAX_CHUNK - 1);
  if (line >= 0 && line + 1 < text.length) return line + 1;
  if (line >= 0) return text.length;
  // One line longer than MAX_CHUNK: cut anywhere but inside a surrogate pair.
  let cut = start + MAX_CHUNK;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut += 1;
  return cut;
}

/** `text` cut into chunks (their concatenation is `text`; none is empty). */
export function splitText(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    const cut = cutAfter(text, start);
    pieces.push(text.slice(start, cut));
    start = cut;
  }
  return pieces;
}

/** The layout's length in characters. */
export function layoutLength(layout: Layout): number {
  let n = 0;
  for (const c of layout) n += c.length;
  return n;
}

/**
 * The layout after one replacement of `rangeLength` characters at `offset` by `inserted`
 * characters: the chunks the range touches become one changed chunk (an insertion between two
 * chunks goes into the one before), every other chunk is kept with its key.
 */
function replaceIn(layout: Layout, offset: number, rangeLength: number, inserted: number): Layout {
  const end = offset + rangeLength;
  let pos = 0;
  let first = -1;
  let last = -1;
  let firstStart = 0;
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i] as Chunk;
    const cStart = pos;
    const cEnd = pos + c.length;
    pos = cEnd;
    // The chunk holding `offset` (an insertion between two chunks: the earlier one), then every
    // chunk the range enters. Chunks are never empty, so the first one ending past `offset` holds it.
    const touches = first < 0 ? (rangeLength > 0 ? offset < cEnd : offset <= cEnd) : cStart < end;
    if (touches) {
      if (first < 0) {
        first = i;
        firstStart = cStart;
      }
      last = i;
    } else if (first >= 0) break;
  }
  if (first < 0) {
    // An empty layout: the insertion is its only chunk.
    if (offset !== 0 || rangeLength !== 0 || layout.length > 0) throw new Error(`a change (${offset}+${rangeLength}) does not fit a layout of ${layoutLength(layout)} characters`);
    return inserted > 0 ? [{ length: inserted }] : [];
  }
  let covered = 0;
  for (let i = first; i <= last; i++) covered += (layout[i] as Chunk).length;
  if (end > firstStart + covered) throw new Error(`a change (${offset}+${rangeLength}) does not fit a layout of ${layoutLength(layout)} characters`);
  const merged: Chunk = { length: covered - rangeLength + inserted };
  return [...layout.slice(0, first), ...(merged.length > 0 ? [merged] : []), ...layout.slice(last + 1)];
}

/**
 * The layout after the changes of one editor event (each offset into the text before the event,
 * the ranges apart: applied from the last to the first, as derive/document.ts applyChanges does).
 */
export function layoutAfter(layout: Layout, changes: readonly LayerChange[]): Layout {
  const sorted = changes.length > 1 ? [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset) : changes;
  let out = layout;
  for (const c of sorted) out = replaceIn(out, c.rangeOffset, c.rangeLength, c.text.length);
  return out;
}

const layouts = new WeakMap<LayerDoc, Layout>();

/** The layout a layer's text is stored in, as far as this page knows it. */
export function layoutOf(layer: LayerDoc): Layout | undefined {
  return layouts.get(layer);
}

export function setLayout(layer: LayerDoc, layout: Layout): void {
  layouts.set(layer, layout);
}
