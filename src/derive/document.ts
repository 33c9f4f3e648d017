// The scenario document's two copies (issue 32.1). The worker owns the document: the page sends it
// whole only when one is opened, replaced or restored (or when the worker asks for a resync), and
// otherwise sends what changed since the revision the worker holds:
//   - typing in a layer: the layer and the editor's content changes ({rangeOffset, rangeLength,
//     text}, as Monaco reports them), a few bytes whatever the layer's size;
//   - any other edit (a step, the policy, a rename): the document's small fields, with every layer
//     the edit left alone named by its index in the previous document instead of its text.
// `DocumentSender` (page side) works out what to send from the store's lineage of documents
// (state/lineage.ts); `WorkerDocument` (worker side) applies it and keeps the parsed scenario, parsed
// once per non-layer change: a layer-text edit swaps the layer's text in the parsed scenario, which
// holds layers as plain name and text (the scenario text around them is never written or re-parsed).
import { decodeUtf8, parseScenario, scenarioDocFromText, writeScenario } from '../core';
import type { LayerDoc, ScenarioDoc } from '../core';
import type { TextReader } from '../core/config/chunked-text';
import { ChunkedText } from '../core/config/chunked-text';
import type { ChangedRange } from '../core/config/incremental';
import { composeRanges, noteTextEdit } from '../core/config/incremental';
import type { ScenarioParse } from '../core/scenario/parse';
import type { DocOrigin, LayerChange } from '../state/lineage';

export type { DocOrigin, LayerChange };

/** A layer kept from the previous document (by index there), or given with its text. */
export type LayerRef = { readonly name: string; readonly keep: number } | { readonly name: string; readonly text: string };

export type DocEdit =
  /** Typing: the changes of one editor event, each offset into the text before the event. */
  | { readonly kind: 'layer'; readonly layer: number; readonly changes: readonly LayerChange[] }
  /** Anything else: the document without its layers' texts, unless new. */
  | { readonly kind: 'doc'; readonly doc: Omit<ScenarioDoc, 'layers'>; readonly layers: readonly LayerRef[] };

/** What a revision's document is, given the revision the worker holds (`base`). */
export interface DocumentEdits {
  readonly base: number;
  readonly edits: readonly DocEdit[];
}

/** The worker does not hold the revision the edits build on: the page sends the document whole. */
export const RESYNC = 'resync: the worker does not hold revision';

export function isResync(e: unknown): boolean {
  return e instanceof Error && (e.message.startsWith(RESYNC) || e.message.startsWith(NO_SOURCE));
}

/**
 * The bytes of the file a document was opened from, by the document (page side, set by the open). Its
 * whole document crosses as those bytes, transferred (not copied), and the worker decodes and parses
 * them: the document itself is cloned (at 100,000 tools a 91 MB string: 0.1-1.3 s of the page's thread,
 * then ~0.5 s of the worker's to take it in), where decoding and parsing take the worker ~0.2 s. Used
 * once: the bytes go with the first send (a later resync sends the document itself). Where a worker
 * takes file offers (`offerFile`), the file itself went ahead and the document crosses as its offer.
 */
const SOURCES = new WeakMap<ScenarioDoc, Uint8Array | FileOffer>();

/**
 * An opened file handed to the worker before the page has read it: the worker reads, parses and
 * derives its own copy while the page reads, decodes and parses this one (at 100,000 tools 0.3-2.2 s of
 * the page's before it could send anything). The derivation of the opened revision then names the
 * offer, and finds its work done. A File is a snapshot: both reads give the same bytes, or the later
 * one fails (the worker then holds nothing for the offer, and the page sends the document).
 */
export interface FileOffer {
  readonly offer: number;
}

/** The message that hands a file to the worker (outside the method table: the worker reads it before anything after it). */
export interface FileOfferMessage {
  readonly offer: number;
  readonly file: Blob;
}

export function isFileOfferMessage(m: unknown): m is FileOfferMessage {
  return typeof m === 'object' && m !== null && typeof (m as { offer?: unknown }).offer === 'number' && (m as { file?: unknown }).file instanceof Blob;
}

let offerTo: ((m: FileOfferMessage) => void) | undefined;
let offers = 0;

/** The worker client takes the page's file offers (one worker per page); the function given back stops it. */
export function takeFileOffers(post: (m: FileOfferMessage) => void): () => void {
  offerTo = post;
  return () => {
    if (offerTo === post) offerTo = undefined;
  };
}

/** Hands an opened file to the worker now; undefined when no worker takes offers (the bytes then go with the derivation). */
export function offerFile(file: Blob): FileOffer | undefined {
  if (!offerTo) return undefined;
  const offer = ++offers;
  offerTo({ offer, file });
  return { offer };
}

/** Says `doc` is scenarioDocFromText of the file's text: bytes (then transferred away) or the file offered ahead. */
export function openedFrom(doc: ScenarioDoc, from: Uint8Array | FileOffer): void {
  SOURCES.set(doc, from);
}

/** The worker could not take the document from its file's bytes: the page sends the document itself. */
export const NO_SOURCE = 'resync: the worker could not take the document from its file';

/** The document a file's bytes hold, as the page parsed it; a NO_SOURCE error when they do not give one. */
export function docFromSource(bytes: Uint8Array): ScenarioDoc {
  // Bytes detached on the way (sent twice) or not bytes at all.
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) throw new Error(`${NO_SOURCE} (no bytes)`);
  const text = decodeUtf8(bytes);
  if (!text.ok) throw new Error(`${NO_SOURCE} (not UTF-8)`);
  const parsed = scenarioDocFromText(text.text);
  if (!parsed.ok) throw new Error(`${NO_SOURCE} (it does not parse)`);
  return parsed.doc;
}

/**
 * `text` with Monaco's changes of one event applied. Each change's offset is into the text before
 * the event and the ranges do not overlap, so applying them from the last to the first keeps every
 * offset valid (Monaco lists them that way; sorting makes the order not matter).
 */
export function applyChanges(text: string, changes: readonly LayerChange[]): string {
  checkChanges(text.length, changes);
  const sorted = changes.length > 1 ? [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset) : changes;
  let out = text;
  for (const c of sorted) out = out.slice(0, c.rangeOffset) + c.text + out.slice(c.rangeOffset + c.rangeLength);
  return out;
}

/** Throws a RESYNC error unless `changes` fit a text of `length` characters without overlapping. */
function checkChanges(length: number, changes: readonly LayerChange[]): void {
  const sorted = changes.length > 1 ? [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset) : changes;
  let limit = length;
  for (const c of sorted) {
    const end = c.rangeOffset + c.rangeLength;
    if (!Number.isInteger(c.rangeOffset) || !Number.isInteger(c.rangeLength) || c.rangeOffset < 0 || c.rangeLength < 0 || end > limit) {
      throw new Error(`${RESYNC}: a change (${c.rangeOffset}+${c.rangeLength}) does not fit the layer's ${length} characters`);
    }
    limit = c.rangeOffset;
  }
}

// writeScenario writes a lone surrogate as U+FFFD (no TOML string holds one), so that is the text
// a whole parse reads back.
const LONE_SURROGATE = /\p{Cs}/u;

/** A layer's text as the scenario parser reads it back from the written document. */
export function parsedLayerText(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(/\p{Cs}/gu, '\ufffd') : text;
}

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/**
 * Whether `changes` applied to `before`, a text with no lone surrogate, leave none either: no change
 * brings a surrogate and none cuts a pair (the characters either side of each range are none). Then
 * the new text is its own parsed text, without a pass over a catalogue-sized layer per keystroke.
 */
export function keepsSurrogatesPaired(before: TextReader, changes: readonly LayerChange[]): boolean {
  for (const c of changes) {
    // `SURROGATE` with the u flag would read a pair as one code point: test the code units.
    for (let k = 0; k < c.text.length; k++) if (isSurrogate(c.text.charCodeAt(k))) return false;
    if (c.rangeOffset > 0 && isSurrogate(before.charCodeAt(c.rangeOffset - 1))) return false;
    const end = c.rangeOffset + c.rangeLength;
    if (end < before.length && isSurrogate(before.charCodeAt(end))) return false;
  }
  return true;
}

/** Where one editor event's changes (offsets into `before`, not overlapping) changed the text: one range covering them. */
export function rangeOfChanges(before: string, after: string, changes: readonly LayerChange[]): ChangedRange {
  if (changes.length === 0) return { start: 0, oldEnd: 0, newEnd: 0 };
  let start = before.length;
  let oldEnd = 0;
  for (const c of changes) {
    start = Math.min(start, c.rangeOffset);
    oldEnd = Math.max(oldEnd, c.rangeOffset + c.rangeLength);
  }
  return { start, oldEnd, newEnd: oldEnd + after.length - before.length };
}

/**
 * A document's scenario, parsed without its layers' texts, which are then put back as a whole parse of
 * the written document reads them (parsedLayerText): writing a catalogue into the scenario's TOML and
 * scanning it back out was a second of an open at 100,000 tools (~90 M characters written, flattened and
 * read), and of every scratch run of the hosts (cost, tasks, the open questions). Its spans are then the
 * skeleton's, not the written document's (`whole` false: the report parses the document whole); a
 * skeleton that fails is parsed whole, so errors name the written document's lines. `clean` says, by
 * layer, whether the parsed text is the document's (no lone surrogate).
 */
export function parseDoc(doc: ScenarioDoc): { readonly parse: ScenarioParse; readonly whole: boolean; readonly clean: readonly boolean[] } {
  const skeleton = parseScenario(writeScenario({ ...doc, layers: doc.layers.map((l) => ({ name: l.name, text: '' })) }));
  if (!skeleton.ok) return { parse: parseScenario(writeScenario(doc)), whole: true, clean: [] };
  const clean = doc.layers.map((l) => !LONE_SURROGATE.test(l.text));
  const layers = doc.layers.map((l, i) => ({ name: l.name, text: clean[i] ? l.text : parsedLayerText(l.text) }));
  return { parse: { ...skeleton, scenario: { ...skeleton.scenario, layers } }, whole: false, clean };
}

/** The worker's copy of the document, its revision and its parsed scenario. */
export class WorkerDocument {
  private current: { revision: number; doc: ScenarioDoc } | undefined;
  private parse: ScenarioParse | undefined;
  private whole = false;
  /** By layer index, whether the parsed scenario's text of the layer is the document's (it has no lone surrogate); unknown when absent. */
  private clean: readonly boolean[] = [];
  /**
   * Typed layers' texts in chunks (core/config/chunked-text.ts), by the layer object holding the text:
   * a keystroke edits the chunks and joins them as a rope nothing on its path reads, so no copy of a
   * catalogue-sized text is made per keystroke (applying the changes to the previous text read it whole).
   */
  private chunked = new WeakMap<LayerDoc, ChunkedText>();
  /** Whole parses made (for tests: a layer edit makes none). */
  parses = 0;

  /** Whether `parsed` is a whole parse of the written `doc` (its spans are the written document's): only when the document failed to parse (parseDoc). */
  get parsedWhole(): boolean {
    return this.whole;
  }

  get revision(): number | undefined {
    return this.current?.revision;
  }

  get doc(): ScenarioDoc {
    if (!this.current) throw new Error('no document yet');
    return this.current.doc;
  }

  /** The parsed scenario of the current document. */
  get parsed(): ScenarioParse {
    if (!this.parse) {
      this.parses++;
      const parsed = parseDoc(this.doc);
      this.parse = parsed.parse;
      this.whole = parsed.whole;
      this.clean = parsed.clean;
    }
    return this.parse;
  }

  /**
   * Finds which layers are clean (their text has no lone surrogate), for a document taken whole: the
   * first keystroke in a layer of unknown cleanness looked over the whole edited text (at 100,000 tools
   * copying the catalogue's rope flat to read it) and, not knowing the parsed text was the document's,
   * left the layer cache to compare two catalogue-sized texts. Done while the worker is idle (the
   * host's `prepare`).
   */
  prepare(): void {
    if (!this.current) return;
    const parse = this.parsed;
    if (!parse.ok) return;
    const { revision, doc } = this.current;
    const marks = this.clean.slice();
    const parsedLayers = parse.scenario.layers;
    let same = true;
    const layers = doc.layers.map((layer, i) => {
      marks[i] ??= !LONE_SURROGATE.test(layer.text);
      // A clean layer's text as the parsed scenario's string, which the layer cache holds: the two were
      // equal strings made apart (the document's and the parse of the written document), and every
      // revision's comparison of them (host.ts layerLink: which line index reads the layer) compared a
      // catalogue's characters (~7 ms a keystroke at 100,000 tools). Compared once here.
      const parsed = parsedLayers[i];
      if (!marks[i] || !parsed || parsed.name !== layer.name || parsed.text !== layer.text) return layer;
      same = false;
      return { name: layer.name, text: parsed.text };
    });
    this.clean = marks;
    if (!same) this.current = { revision, doc: { ...doc, layers } };
  }

  /** Takes a whole document (opened, replaced, restored, or a resync); `parsed`: parseDoc(doc), when already made. */
  replace(revision: number, doc: ScenarioDoc, parsed?: ReturnType<typeof parseDoc>): void {
    this.current = { revision, doc };
    this.parse = parsed?.parse;
    this.whole = parsed?.whole ?? false;
    this.clean = parsed?.clean ?? [];
  }

  /**
   * Brings the document to `revision` with the edits made since `base`. Throws a RESYNC error when
   * this copy is not at `base` (the page then sends the document whole); the copy is then unchanged.
   */
  apply(revision: number, { base, edits }: DocumentEdits): void {
    const at = this.current;
    if (!at || at.revision !== base) throw new Error(`${RESYNC} ${base} (it holds ${at ? at.revision : 'none'})`);
    let doc = at.doc;
    let parse = this.parse;
    let clean = this.clean;
    // By layer, the parsed text before these edits and the range they changed, while both texts are clean.
    const edited = new Map<number, { readonly before: string; readonly range: ChangedRange; readonly chunks: ChunkedText } | undefined>();
    // Made for this call's layers (kept only if the call succeeds).
    const chunked = new Map<LayerDoc, ChunkedText>();
    for (const e of edits) {
      if (e.kind === 'layer') {
        const layer = doc.layers[e.layer];
        if (!layer) throw new Error(`${RESYNC}: no layer ${e.layer}`);
        checkChanges(layer.text.length, e.changes);
        const was = chunked.get(layer) ?? this.chunked.get(layer) ?? ChunkedText.of(layer.text);
        const chunks = was.edited(e.changes);
        const text = chunks.text;
        const made: LayerDoc = { name: layer.name, text };
        chunked.set(made, chunks);
        doc = { ...doc, layers: doc.layers.map((l, i) => (i === e.layer ? made : l)) };
        // Only the layer's text changed: the parsed scenario is the same but for that text. A
        // scenario that did not parse is parsed again (its errors' positions move with the text).
        if (parse?.ok) {
          const p = parse;
          // A layer known clean stays clean unless the edit brings or cuts a surrogate: looked at
          // there only, not over the whole layer (at 100,000 tools a pass over ~90 M characters).
          const stays = clean[e.layer] === true && keepsSurrogatesPaired(was, e.changes);
          const lone = !stays && LONE_SURROGATE.test(text);
          const parsedText = lone ? parsedLayerText(text) : text;
          const range = rangeOfChanges(layer.text, text, e.changes);
          const prior = edited.get(e.layer);
          const before = edited.has(e.layer) ? prior && { before: prior.before, range: composeRanges(prior.range, range), chunks } : clean[e.layer] === true ? { before: p.scenario.layers[e.layer]?.text ?? '', range, chunks } : undefined;
          edited.set(e.layer, lone ? undefined : before);
          const marks = clean.slice();
          marks[e.layer] = !lone;
          clean = marks;
          parse = { ...p, scenario: { ...p.scenario, layers: p.scenario.layers.map((l, i) => (i === e.layer ? { name: l.name, text: parsedText } : l)) } };
        } else {
          parse = undefined;
          clean = [];
          edited.clear();
        }
      } else {
        const before = doc.layers;
        const layers: LayerDoc[] = e.layers.map((r) => {
          if ('text' in r) return { name: r.name, text: r.text };
          const kept = before[r.keep];
          if (!kept) throw new Error(`${RESYNC}: no layer ${r.keep} to keep`);
          if (kept.name === r.name) return kept;
          const renamed = { name: r.name, text: kept.text };
          const chunks = chunked.get(kept) ?? this.chunked.get(kept);
          if (chunks) chunked.set(renamed, chunks);
          return renamed;
        });
        doc = { ...e.doc, layers };
        parse = undefined;
        clean = [];
        edited.clear();
      }
    }
    // The layer cache is given the new texts whole: it is told where they changed (config/incremental.ts).
    if (parse?.ok) {
      const layers = parse.scenario.layers;
      for (const [i, e] of edited) {
        const after = layers[i]?.text;
        if (e && after !== undefined) noteTextEdit(e.before, after, e.range, e.chunks);
      }
    }
    for (const [layer, chunks] of chunked) this.chunked.set(layer, chunks);
    if (parse !== this.parse) this.whole = false;
    this.current = { revision, doc };
    this.parse = parse;
    this.clean = clean;
  }
}

/** How far back the sender walks a document's lineage before it sends the document whole. */
const MAX_CHAIN = 2000;

/**
 * The page's side: what to send so the worker holds `doc` as `revision`, given what was sent last.
 * Sends are made in order (the client's derive queue), so the worker holds what was last sent.
 */
export class DocumentSender {
  private sent: { doc: ScenarioDoc; revision: number } | undefined;

  constructor(private readonly originOf: (doc: ScenarioDoc) => DocOrigin | undefined) {}

  /**
   * The document's update; `whole` forces the whole document (a resync). A document opened from a file
   * goes as the file's bytes the first time it goes whole, and as itself after (the bytes were moved).
   */
  update(doc: ScenarioDoc, revision: number, whole = false): { doc: ScenarioDoc } | { source: Uint8Array } | { offer: number } | { edits: DocumentEdits } {
    const sent = this.sent;
    this.sent = { doc, revision };
    if (!whole && sent) {
      const edits = editsBetween(sent.doc, doc, this.originOf);
      if (edits) return { edits: { base: sent.revision, edits } };
    }
    const source = SOURCES.get(doc);
    if (!source) return { doc };
    SOURCES.delete(doc);
    return source instanceof Uint8Array ? { source } : { offer: source.offer };
  }

  /** Forgets what was sent (a send failed): the next update is the whole document. */
  reset(): void {
    this.sent = undefined;
  }
}

/** The edits that make `to` from `from`, by the lineage; undefined when `to` does not descend from `from`. */
export function editsBetween(from: ScenarioDoc, to: ScenarioDoc, originOf: (doc: ScenarioDoc) => DocOrigin | undefined): DocEdit[] | undefined {
  const chain: { doc: ScenarioDoc; origin: DocOrigin }[] = [];
  let d = to;
  while (d !== from) {
    const origin = originOf(d);
    if (!origin || chain.length >= MAX_CHAIN) return undefined;
    chain.push({ doc: d, origin });
    d = origin.parent;
  }
  chain.reverse();
  return chain.map(({ doc, origin }) => {
    if (origin.layer !== undefined && origin.changes) return { kind: 'layer', layer: origin.layer, changes: origin.changes };
    const before = origin.parent.layers;
    const { layers, ...rest } = doc;
    return {
      kind: 'doc',
      doc: rest,
      layers: layers.map((l) => {
        const keep = before.indexOf(l);
        return keep >= 0 ? { name: l.name, keep } : { name: l.name, text: l.text };
      }),
    };
  });
}
