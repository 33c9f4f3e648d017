// The incremental layer parse (issue 32.2): an edit inside one tool's tables re-reads those tables
// alone, and the result EQUALS loadLayer of the new text (config with every origin's span, diagnostics
// with line and column). Incremental is only an optimisation; whenever it cannot show an edit is
// local it parses the whole layer.
//
// Why re-reading one tool's tables alone is the same as the whole parse. A layer is kept with its
// `conversation.tools` entries (units) in config order, each with what it read to and its diagnostics,
// and, for a tool whose table was made by headers (`[conversation.tools.X…]`, not dotted keys or an
// inline table) and whose headers are all consecutive, the run of text its headers cover: from its
// first header's `[` to the next other header (or the end). Nothing outside that run can add to or look
// into X's subtree (a dotted key can only enter a dotted table; a header naming X would be in the run),
// and the parse of the text before the run is unchanged. So when an edit lies inside the run (after its
// first `[`), the new run parsed as a document of its own (its spans then moved to offsets of the
// whole text) gives X's new subtree, provided that parse: has no error; starts with a header at the
// run's start; has only headers under `conversation.tools.X` (not `[[conversation.tools.X]]`); leaves X
// a header-made table; and ends where a header may begin (only blanks since the last newline).
// Otherwise (an edit outside any run, across two tools, creating a header of another table, an
// unterminated string or array, any syntax error, a layer whose last good text is unknown) the whole
// layer is parsed. A layer in error keeps its last error-free text as the base edits are measured
// from, so the keystrokes that mend a line are incremental again.
//
// What a consumer can rely on (layerChange(previous, next)): when `next` was made by an incremental edit
// of `previous` (the LoadedLayer the same LayerCache or LayerState gave before; after a text with a
// syntax error, the last one without), `changedTools` names the tools whose tables were re-read ('all'
// when the edit was in `'*'`, which every tool inherits from). Every other ToolConfig, the defaults, the
// MCP servers and the extends are === the previous ones. Their spans are kept relative to their header
// section (anchors.ts): when `shift` is present (the edit changed the text's length or lines, or a column
// after it on its last line), the spans at or after `shift.from` (an offset of the previous text) read
// moved by `shift.delta` through the anchors the edit moved, in `next` and, as they are the same
// objects, in `previous` too (a LoadedLayer's spans are those of the newest edit made from it).
// Diagnostics hold plain positions: those after the edit are copies with their span, line and column
// moved. `changedTools` is a superset: a re-read tool may read the same as before (an edit in a comment).
// layerChange answers undefined (anything may have changed) after a whole parse, or when `previous`
// is not the one `next` was derived from (a consumer that skipped a revision re-reads everything).
// `next` does not keep `previous` alive (only a number names it). Only the newest state of a lineage is
// edited table by table; an edit from an older one (whose anchors a later edit moved) parses whole.
//
// Cost of an edit read by table: the run's parse, the anchors after the edit moved (a number a header),
// and a walk of the units for diagnostics to move: nothing is made again for the tools after it. The
// units and anchors arrays are the lineage head's and edited in place; the tools Map is left pending
// (made when first read, `layerTool` reads a tool without it); the text is read through its chunks when
// it was joined from them (chunked-text.ts). The line index is carried over the edit (toml-ast.ts
// LineIndex.edited), so a diagnostic in the run does not find the whole text's lines again.
import type { Anchor } from './anchors';
import { anchorIndex, layerOrigins } from './anchors';
import type { ChunkedText, TextReader } from './chunked-text';
import type { Layer, LoadedLayer } from './layer';
import { positioned, readLayer } from './layer';
import type { ToolsEntryRead } from './read';
import { EMPTY_DEFAULTS, readToolsEntry } from './read';
import { parseToml } from './toml';
import type { LineIndex, Span, TomlEntry, TomlTable, TomlValue } from './toml-ast';
import type { Diagnostic, PartialConfig, ToolConfig } from './types';

/** One edit as Monaco reports it: `rangeLength` characters at `rangeOffset` replaced by `text`. */
export interface TextChange {
  readonly rangeOffset: number;
  readonly rangeLength: number;
  readonly text: string;
}

/** Where two texts differ: [start, oldEnd) of the old text became [start, newEnd) of the new. */
export interface ChangedRange {
  readonly start: number;
  readonly oldEnd: number;
  readonly newEnd: number;
}

/** How a LoadedLayer made by an incremental edit differs from the one before it (see the top of this file). */
export interface LayerChange {
  /** The tools whose tables were re-read; 'all' when `'*'`'s were. */
  readonly changedTools: ReadonlySet<string> | 'all';
  /** Spans at or after `from` (an offset of the previous text) moved by `delta`, and lines by `lines`. */
  readonly shift?: { readonly from: number; readonly delta: number; readonly lines: number };
}

/** Numbers naming LoadedLayers, so a change record names its previous layer without keeping it alive. */
const IDS = new WeakMap<LoadedLayer, number>();
let lastId = 0;
function idOf(loaded: LoadedLayer): number {
  let id = IDS.get(loaded);
  if (id === undefined) {
    id = ++lastId;
    IDS.set(loaded, id);
  }
  return id;
}

const CHANGES = new WeakMap<LoadedLayer, LayerChange & { readonly previous: number }>();
const NOTHING: LayerChange = { changedTools: new Set() };

/**
 * What changed from `previous` to `next` when `next` was made from it by an incremental edit (nothing
 * when they are the same object); undefined when anything may have changed.
 */
export function layerChange(previous: LoadedLayer, next: LoadedLayer): LayerChange | undefined {
  if (previous === next) return NOTHING;
  const change = CHANGES.get(next);
  if (!change || change.previous !== IDS.get(previous)) return undefined;
  return change.shift ? { changedTools: change.changedTools, shift: change.shift } : { changedTools: change.changedTools };
}

/**
 * Edits a shell made by changes (Monaco's), each its text before and after and where they differ: a
 * LayerCache given the whole new text (loadAll) then finds the changed range without comparing two
 * catalogue-sized texts (at 100,000 tools ~0.5 s a keystroke). Only speed depends on them: a noted
 * edit is used only when both its texts are the ones compared, so its range is theirs.
 */
interface Note {
  readonly before: string;
  readonly after: string;
  readonly range: ChangedRange;
  /** `after` in chunks (chunked-text.ts): read through them, `after` (a rope) is never copied flat. */
  readonly chunks?: ChunkedText;
}
const notes: Note[] = [];

/**
 * Notes that `after` is `before` with [range.start, range.oldEnd) replaced (the last few are kept), and
 * `chunks`, when given, the chunks `after` was joined from.
 */
export function noteTextEdit(before: string, after: string, range: ChangedRange, chunks?: ChunkedText): void {
  notes.push(chunks ? { before, after, range, chunks } : { before, after, range });
  if (notes.length > 4) notes.shift();
}

/** The note of the edit between two texts (the note is dropped: it keeps both texts alive). */
function noted(before: string, after: string): Note | undefined {
  for (let k = notes.length - 1; k >= 0; k--) {
    const n = notes[k];
    // Lengths first: a string comparison of two catalogues is what this avoids (the same string object compares at once).
    if (!n || n.before.length !== before.length || n.after.length !== after.length || n.before !== before || n.after !== after) continue;
    notes.splice(k, 1);
    return n;
  }
  return undefined;
}

/** The range from `a` to `c` of two edits, `first` from `a` to `b` and `second` from `b` to `c`. */
export function composeRanges(first: ChangedRange, second: ChangedRange): ChangedRange {
  // The stretch of `b` either edit touched; after it, offsets of `a`, `b` and `c` differ by the edits' deltas.
  const endB = Math.max(first.newEnd, second.oldEnd);
  return { start: Math.min(first.start, second.start), oldEnd: endB - (first.newEnd - first.oldEnd), newEnd: endB + (second.newEnd - second.oldEnd) };
}

/** One entry of `conversation.tools` as read, with its diagnostics and, if editable alone, its run. */
interface Unit {
  readonly name: string;
  readonly read: ToolsEntryRead;
  readonly diagnostics: readonly Diagnostic[];
  /** The anchor of its run's first header (the run starts at its base); absent when an edit of it parses the layer. */
  readonly first?: Anchor;
  /** The anchor of the header after its run (the run ends at its base); absent when the run ends at the end of the text. */
  readonly next?: Anchor;
}

/** An error-free text of a layer with its parts: what edits are measured from. */
interface LayerIndex {
  readonly text: string;
  readonly loaded: LoadedLayer;
  /** Diagnostics before the first entry of `conversation.tools` (extends, config_load_paths). */
  readonly head: readonly Diagnostic[];
  readonly units: readonly Unit[];
  /** Diagnostics after the last entry (providers.mcp). */
  readonly tail: readonly Diagnostic[];
  /** Positions in `units` of the editable ones, by the start of their runs. */
  readonly runs: readonly number[];
  /** The anchors of `loaded`'s spans (anchors.ts): the root's, then one per header, in order. */
  readonly anchors: readonly Anchor[];
  /** The line index of `text`, carried over table edits (built once, when a position is first asked). */
  readonly lines: LineIndex;
  /** What `text`'s characters are read through: its chunks when it was joined from them, else `text`. */
  readonly reader: TextReader;
  /**
   * The indexes that share these anchors, and the newest of them: only the newest may be edited table
   * by table (an edit moves the shared anchors, so an older index's no longer describe its text).
   */
  readonly lineage: { head: LayerIndex | undefined };
}

/** A loaded layer and what an edit of it starts from. An edit gives a new state (and moves the anchors it shares with this one). */
export interface LayerState {
  readonly name: string;
  readonly text: string;
  readonly loaded: LoadedLayer;
  /** The last error-free text, indexed (this text's, unless it has a syntax error). */
  readonly base: LayerIndex | undefined;
  /** The line index of `text`. */
  readonly lines: LineIndex;
  /** `text` in chunks, when it was joined from them (read through them, it is never copied flat). */
  readonly chunks?: ChunkedText;
}

/** How an edit was applied: `same` text, one tool's `table`s re-read, or a `whole` parse. */
export type EditHow = 'same' | 'table' | 'whole';

const NONE: readonly Diagnostic[] = [];

/** loadLayer of the layer, kept with what an incremental edit needs. */
export function loadLayerState(layer: Layer): LayerState {
  return whole(layer, undefined);
}

function whole(layer: Layer, previousBase: LayerIndex | undefined): LayerState {
  const entries: TomlEntry[] = [];
  const reads: ToolsEntryRead[] = [];
  const marks: number[] = [];
  let first = -1;
  const got = readLayer(layer, {
    beforeTools: (n) => (first = n),
    toolsEntry: (entry, read, n) => {
      entries.push(entry);
      reads.push(read);
      marks.push(n);
    },
  });
  const { loaded, sections, anchors, lines } = got;
  if (!sections || !anchors) return { name: layer.name, text: layer.text, loaded, base: previousBase, lines };
  const diagnostics = got.diagnostics;
  // The run of each tool's headers; a tool whose headers are not consecutive has none. Section k's
  // anchor is anchors[k + 1] (anchors[0] is the root's).
  const runs = new Map<string, { first: Anchor; next: Anchor | undefined; ok: boolean }>();
  let previousOwner: string | undefined;
  for (let i = 0; i < sections.length; i++) {
    const s = sections[i];
    if (!s) continue;
    const next = anchors[i + 2];
    const owner = s.path.length >= 3 && s.path[0] === 'conversation' && s.path[1] === 'tools' ? s.path[2] : undefined;
    if (owner !== undefined) {
      const run = runs.get(owner);
      if (run === undefined) runs.set(owner, { first: anchors[i + 1] as Anchor, next, ok: true });
      else if (previousOwner === owner) run.next = next;
      else run.ok = false;
    }
    previousOwner = owner;
  }
  const units: Unit[] = [];
  const editable: number[] = [];
  let at = first < 0 ? diagnostics.length : first;
  const head = diagnostics.slice(0, at);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as TomlEntry;
    const mark = marks[i] ?? at;
    const own = mark === at ? NONE : diagnostics.slice(at, mark);
    at = mark;
    const run = runs.get(entry.key);
    const ok = run !== undefined && run.ok && headerMade(entry.value);
    if (ok) editable.push(i);
    const unit: { -readonly [K in keyof Unit]: Unit[K] } = { name: entry.key, read: reads[i] as ToolsEntryRead, diagnostics: own };
    if (ok) {
      unit.first = run.first;
      if (run.next) unit.next = run.next;
    }
    units.push(unit);
  }
  const tail = diagnostics.slice(at);
  editable.sort((x, y) => (units[x]?.first?.base ?? 0) - (units[y]?.first?.base ?? 0));
  const lineage: { head: LayerIndex | undefined } = { head: undefined };
  const base: LayerIndex = { text: layer.text, loaded, head, units, tail, runs: editable, anchors, lines, reader: layer.text, lineage };
  lineage.head = base;
  return { name: layer.name, text: layer.text, loaded, base, lines };
}

function headerMade(v: TomlValue): v is TomlTable {
  return v.kind === 'table' && (v.origin === 'header' || v.origin === 'implicit');
}

/** Where `a` and `b` differ: their common prefix and (not overlapping it) common suffix left out. */
export function changedRange(a: string, b: string): ChangedRange {
  const n = Math.min(a.length, b.length);
  // Whole chunks compared as strings first (a catalogue layer runs to tens of megabytes).
  const CHUNK = 4096;
  let p = 0;
  while (p + CHUNK <= n && a.slice(p, p + CHUNK) === b.slice(p, p + CHUNK)) p += CHUNK;
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  const room = n - p;
  let s = 0;
  while (s + CHUNK <= room && a.slice(a.length - s - CHUNK, a.length - s) === b.slice(b.length - s - CHUNK, b.length - s)) s += CHUNK;
  while (s < room && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { start: p, oldEnd: a.length - s, newEnd: b.length - s };
}

/**
 * Applies Monaco's content changes of one event to `text`: each relative to the text before the event,
 * none overlapping another (Monaco's guarantee). Returns the new text and the one range covering them.
 */
export function applyTextChanges(text: string, changes: readonly TextChange[]): { readonly text: string; readonly range: ChangedRange } {
  const sorted = [...changes].sort((x, y) => y.rangeOffset - x.rangeOffset);
  let out = text;
  let start = text.length;
  let oldEnd = 0;
  let limit = text.length;
  for (const c of sorted) {
    const end = c.rangeOffset + c.rangeLength;
    if (!Number.isInteger(c.rangeOffset) || !Number.isInteger(c.rangeLength) || c.rangeOffset < 0 || c.rangeLength < 0 || end > limit) {
      throw new RangeError(`a text change at ${c.rangeOffset} (length ${c.rangeLength}) is outside a text of ${text.length} characters or overlaps another change`);
    }
    out = out.slice(0, c.rangeOffset) + c.text + out.slice(end);
    start = Math.min(start, c.rangeOffset);
    oldEnd = Math.max(oldEnd, end);
    limit = c.rangeOffset;
  }
  if (sorted.length === 0) return { text, range: { start: 0, oldEnd: 0, newEnd: 0 } };
  return { text: out, range: { start, oldEnd, newEnd: oldEnd + out.length - text.length } };
}

/**
 * The layer with its text replaced by `text`, re-reading only the tables the edit touches when that is
 * provably the same as a whole parse. `range`, if given, is where `prev.text` and `text` differ (else it
 * is found by comparing them).
 */
export function editLayer(prev: LayerState, text: string, range?: ChangedRange, chunks?: ChunkedText): { readonly state: LayerState; readonly how: EditHow } {
  // With a range, only the changed part is compared (comparing two catalogues costs a pass over both).
  if (!range) {
    const note = noted(prev.text, text);
    range = note?.range;
    chunks ??= note?.chunks;
  }
  // Texts joined from chunks are read through them: reading a rope's characters copies it whole.
  const reader: TextReader = chunks && chunks.length === text.length ? chunks : text;
  if (range ? sameText(prev.chunks ?? prev.text, reader, range) : text === prev.text) return { state: prev, how: 'same' };
  const base = prev.base;
  if (base) {
    const r = range && base.text.length === prev.text.length && base.text === prev.text ? range : changedRange(base.text, text);
    const state = tableEdit(prev, base, text, r, reader);
    if (state) return { state, how: 'table' };
  }
  return { state: whole({ name: prev.name, text }, base), how: 'whole' };
}

function sameText(a: TextReader, b: TextReader, r: ChangedRange): boolean {
  return a.length === b.length && r.oldEnd === r.newEnd && a.slice(r.start, r.oldEnd) === b.slice(r.start, r.newEnd);
}

/** editLayer with Monaco's content changes of one event, relative to `prev.text`. */
export function loadLayerIncremental(prev: LayerState, changes: readonly TextChange[]): { readonly state: LayerState; readonly how: EditHow } {
  const applied = applyTextChanges(prev.text, changes);
  return editLayer(prev, applied.text, applied.range);
}


function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** The run of the editable unit holding [start, oldEnd] after its first `[`, as a position in base.units. */
function unitAt(base: LayerIndex, start: number, oldEnd: number): number {
  const runs = base.runs;
  let lo = 0;
  let hi = runs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const first = base.units[runs[mid] ?? 0]?.first;
    if (first && first.base < start) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return -1;
  const i = runs[found] ?? -1;
  const u = base.units[i];
  return u && oldEnd <= (u.next ? u.next.base : base.text.length) ? i : -1;
}

function tableEdit(prev: LayerState, base: LayerIndex, text: string, r: ChangedRange, src: TextReader): LayerState | undefined {
  // An older index of the lineage: its anchors were moved by a later edit.
  if (base.lineage.head !== base) return undefined;
  const i = unitAt(base, r.start, r.oldEnd);
  const unit = base.units[i];
  if (!unit?.first) return undefined;
  const start = unit.first.base;
  const oldEnd = unit.next ? unit.next.base : base.text.length;
  const delta = text.length - base.text.length;
  const end = oldEnd + delta;
  // The run must end where a header may begin: at the end, or after a newline and blanks.
  if (end < text.length) {
    let k = end - 1;
    while (k >= start && isBlank(src.charCodeAt(k))) k--;
    if (src.charCodeAt(k) !== 10) return undefined;
  }
  // The run's new text as a string of its own, so the values read from it (slices of it) keep only it
  // alive, not the revision's whole text; its spans are moved to offsets of the whole text below.
  const old = base.reader;
  const run = flat(old.slice(start, r.start) + src.slice(r.start, r.newEnd) + old.slice(r.oldEnd, oldEnd));
  const doc = parseToml(run, { sections: true });
  if (doc.errors.length > 0 || !doc.sections || doc.sections[0]?.start !== 0) return undefined;
  for (const s of doc.sections) {
    if (s.path.length < 3 || s.path[0] !== 'conversation' || s.path[1] !== 'tools' || s.path[2] !== unit.name || (s.array && s.path.length === 3)) return undefined;
  }
  const conversation = onlyEntry(doc.root, 'conversation');
  const tools = conversation && conversation.value.kind === 'table' ? onlyEntry(conversation.value, 'tools') : undefined;
  const entry = tools && tools.value.kind === 'table' ? onlyEntry(tools.value, unit.name) : undefined;
  if (!entry || !headerMade(entry.value)) return undefined;
  moveTree(entry, start, new Set());
  // The run's anchors: its first header's (the same object: the edit is after it, so it has not
  // moved), then new ones for its other headers, which nothing outside the run can point into.
  const runAnchors: Anchor[] = [unit.first];
  for (let k = 1; k < doc.sections.length; k++) runAnchors.push({ base: start + (doc.sections[k]?.start ?? 0) });

  const name = prev.name;
  const at = layerOrigins(runAnchors, name);
  // The line index carried over the edit: a diagnostic in the run needs no pass over the whole text.
  const lines = base.lines.edited(src, r);
  const own: Diagnostic[] = [];
  const read: ToolsEntryRead = readToolsEntry(entry, {
    origin: (node: TomlValue | Span) => at.origin('kind' in node ? node.span : node),
    sourced: (value, node) => at.sourced(value, node.span),
    report: (severity, message, at, code) => own.push(positioned(name, lines, severity, message, at, code)),
  });

  const config = configWith(base.loaded.config, base.units, i, unit.name, read);

  // Every move is decided; from here the edit is made (the anchors after it moved, shared with `base`).
  const { anchors, after } = spliced(base.anchors as Anchor[], unit.first, unit.next, runAnchors);
  if (delta !== 0) for (let k = after; k < anchors.length; k++) (anchors[k] as Anchor).base += delta;

  const removed = newlines(old, r.start, r.oldEnd);
  const added = newlines(src, r.start, r.newEnd);
  const shift: Shift = { from: r.oldEnd, delta, lines: added - removed, text: src };
  // With the length and lines kept, only columns after the edit on its last line can move, and only
  // another unit's if that line runs into the next header.
  const nl = old.indexOf('\n', r.oldEnd);
  const moves = delta !== 0 || shift.lines !== 0 || (nl === -1 ? oldEnd < base.text.length : nl >= oldEnd);
  // In place, as the anchors: only the lineage head's units are read again.
  const units = base.units as Unit[];
  const edited: { -readonly [K in keyof Unit]: Unit[K] } = { name: unit.name, read, diagnostics: own.length === 0 ? NONE : own, first: unit.first };
  if (unit.next) edited.next = unit.next;
  units[i] = edited;
  let head = base.head;
  let tail = base.tail;
  if (moves) {
    // Diagnostics keep plain positions (they cross to the page): those after the edit are copied, moved.
    for (let k = 0; k < units.length; k++) {
      const u = units[k];
      if (k === i || !u || u.diagnostics.length === 0) continue;
      const diagnostics = shiftDiagnostics(u.diagnostics, shift);
      if (diagnostics !== u.diagnostics) units[k] = { ...u, diagnostics };
    }
    head = shiftDiagnostics(head, shift);
    tail = shiftDiagnostics(tail, shift);
  }
  const diagnostics: Diagnostic[] = [...head];
  for (const u of units) if (u && u.diagnostics.length > 0) diagnostics.push(...u.diagnostics);
  diagnostics.push(...tail);
  const loaded: LoadedLayer = { name, config, diagnostics };
  CHANGES.set(loaded, {
    previous: idOf(base.loaded),
    changedTools: read.kind === 'defaults' ? 'all' : new Set([unit.name]),
    ...(moves ? { shift: { from: shift.from, delta: shift.delta, lines: shift.lines } } : {}),
  });
  const next: LayerIndex = { text, loaded, head, units, tail, runs: base.runs, anchors, lines, reader: src, lineage: base.lineage };
  base.lineage.head = next;
  return src === text ? { name, text, loaded, base: next, lines } : { name, text, loaded, base: next, lines, chunks: src as ChunkedText };
}

/**
 * A layer's tools Map not made yet (issue 32, the catalogue keystroke): `root` with `writes`, tools whose
 * table an edit re-read, each already a key of `root` (so the Map made keeps root's order and size).
 * Copying a 100,000-tool Map per keystroke cost ~35 ms and its garbage; nothing on the keystroke's path
 * reads the layer's whole Map (the derivation reads the re-read tools through `layerTool`), so it is made
 * when first read (`config.tools` is then a getter) and kept on the pending record for every config sharing it.
 */
interface PendingTools {
  readonly root: ReadonlyMap<string, ToolConfig>;
  readonly writes: ReadonlyMap<string, ToolConfig>;
  made?: ReadonlyMap<string, ToolConfig>;
}
const PENDING = new WeakMap<PartialConfig, PendingTools>();
/** Past this many re-read tools since its Map was made, an edit makes the Map (the writes are copied per edit). */
const MAX_WRITES = 256;
const NO_WRITES: ReadonlyMap<string, ToolConfig> = new Map();

/** The tool `name` of a layer's config (config.tools.get), without making a tools Map an edit left pending. */
export function layerTool(config: PartialConfig, name: string): ToolConfig | undefined {
  const p = PENDING.get(config);
  if (!p || p.made) return (p?.made ?? config.tools).get(name);
  return p.writes.get(name) ?? p.root.get(name);
}

/** How many tools a layer's config has (config.tools.size), without making a pending tools Map. */
export function layerToolCount(config: PartialConfig): number {
  const p = PENDING.get(config);
  return p ? p.root.size : config.tools.size;
}

function madeTools(p: PendingTools): ReadonlyMap<string, ToolConfig> {
  if (!p.made) {
    const m = new Map(p.root);
    for (const [k, v] of p.writes) m.set(k, v);
    p.made = m;
  }
  return p.made;
}

/** What a config's tools are: pending (root and writes), its Map made from the pending record, or its own Map. */
function pendingOf(config: PartialConfig): PendingTools {
  const p = PENDING.get(config);
  if (p) return p.made ? { root: p.made, writes: NO_WRITES } : p;
  return { root: config.tools, writes: NO_WRITES };
}

/** The layer's config with unit `i` (the table of `name`, or `'*'`'s defaults) read anew as `read`. */
function configWith(old: PartialConfig, units: readonly Unit[], i: number, name: string, read: ToolsEntryRead): PartialConfig {
  const was = pendingOf(old);
  let tools: ReadonlyMap<string, ToolConfig> | PendingTools = was.writes.size === 0 ? was.root : was;
  if (read.kind === 'tool') {
    const had = was.root.has(name);
    // The tools Map keeps its order when the tool stays in it (a write) or leaves it; one that enters it is
    // placed where a whole parse would put it, so the Map is made again from the units.
    if (read.tool && !had) tools = toolsOf(units, i, read);
    else if (read.tool) {
      const writes = new Map(was.writes);
      writes.set(name, read.tool);
      const pending: PendingTools = { root: was.root, writes };
      tools = writes.size > MAX_WRITES ? madeTools(pending) : pending;
    } else if (had) {
      const toolMap = new Map(madeTools(was));
      toolMap.delete(name);
      tools = toolMap;
    }
  }
  // The fields in the order a whole parse gives them (tests compare configs key by key).
  const config = {} as Record<string, unknown>;
  for (const key of Object.keys(old)) {
    if (key === 'tools') {
      if (tools instanceof Map) config.tools = tools;
      else {
        const pending = tools as PendingTools;
        Object.defineProperty(config, 'tools', { enumerable: true, configurable: true, get: () => madeTools(pending) });
      }
    } else config[key] = key === 'defaults' && read.kind === 'defaults' ? (read.defaults ?? EMPTY_DEFAULTS) : (old as unknown as Record<string, unknown>)[key];
  }
  const out = config as unknown as PartialConfig;
  if (!(tools instanceof Map)) PENDING.set(out, tools as PendingTools);
  return out;
}

/** The tools Map made from the units, unit `i` read as `read`. */
function toolsOf(units: readonly Unit[], i: number, read: ToolsEntryRead): Map<string, ToolConfig> {
  const out = new Map<string, ToolConfig>();
  for (let k = 0; k < units.length; k++) {
    const u = units[k];
    if (!u) continue;
    const r = k === i ? read : u.read;
    if (r.kind === 'tool' && r.tool) out.set(u.name, r.tool);
  }
  return out;
}

/**
 * `anchors` with the run from `first` to before `next` (or to the end) replaced by `run`, in place, and
 * where the anchors after it start. The array is the lineage head's: no other index reads it again (an
 * edit from an older one parses whole), and copying it (one anchor a header, several hundred thousand
 * at 100,000 tools) cost ~17 ms a keystroke.
 */
function spliced(anchors: Anchor[], first: Anchor, next: Anchor | undefined, run: readonly Anchor[]): { anchors: Anchor[]; after: number } {
  const a = anchorIndex(anchors, first.base);
  const b = next ? anchorIndex(anchors, next.base) : anchors.length;
  if (anchors[a] !== first || (next && anchors[b] !== next)) throw new Error('incremental layer parse: a run\'s anchors are not where its index says');
  anchors.splice(a, b - a, ...run);
  return { anchors, after: a + run.length };
}

/** `s` as a flat string of its own (a concatenation is a rope until read; reading it flattens it). */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Moves every span of a freshly parsed subtree by `by`, each span object once (lines share some). */
function moveTree(entry: TomlEntry, by: number, seen: Set<object>): void {
  const move = (span: Span | undefined): void => {
    if (!span || seen.has(span)) return;
    seen.add(span);
    const w = span as Writable<Span>;
    w.start += by;
    w.end += by;
  };
  move(entry.keySpan);
  move(entry.pairSpan);
  moveValue(entry.value, by, seen, move);
}

function moveValue(v: TomlValue, by: number, seen: Set<object>, move: (span: Span | undefined) => void): void {
  if (seen.has(v)) return;
  seen.add(v);
  move(v.span);
  if (v.kind === 'table') {
    move(v.headerSpan);
    if (v.bodyEnd !== undefined) v.bodyEnd += by;
    for (const e of v.entries.values()) moveTree(e, by, seen);
  } else if (v.kind === 'array' || v.kind === 'table-array') {
    for (const item of v.items) moveValue(item, by, seen, move);
  }
}

/** The entry `key` of a table that holds nothing else. */
function onlyEntry(t: TomlTable, key: string): TomlEntry | undefined {
  return t.entries.size === 1 ? t.entries.get(key) : undefined;
}

function newlines(text: TextReader, from: number, to: number): number {
  let n = 0;
  for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

interface Shift {
  readonly from: number;
  readonly delta: number;
  readonly lines: number;
  /** The new text (columns on the edit's last line are counted again in it). */
  readonly text: TextReader;
}

function moveSpan(s: Span, sh: Shift): Span {
  return { start: s.start + sh.delta, end: s.end + sh.delta };
}

function shiftDiagnostics(ds: readonly Diagnostic[], sh: Shift): readonly Diagnostic[] {
  if (ds.length === 0) return ds;
  let out: Diagnostic[] | undefined;
  for (let k = 0; k < ds.length; k++) {
    const d = ds[k] as Diagnostic;
    const moved = shiftDiagnostic(d, sh);
    if (moved === d) continue;
    out ??= ds.slice();
    out[k] = moved;
  }
  return out ?? ds;
}

/** Line and column of an offset of the old text past the edit, given its old line and column. */
function movedPosition(offset: number, line: number, column: number, sh: Shift): { line: number; column: number } {
  const lineStart = offset - (column - 1);
  if (lineStart > sh.from) return { line: line + sh.lines, column };
  // On the line the edit ends on: count the column again in the new text.
  const at = offset + sh.delta;
  return { line: line + sh.lines, column: at - (at > 0 ? sh.text.lastIndexOf('\n', at - 1) + 1 : 0) + 1 };
}

function shiftDiagnostic(d: Diagnostic, sh: Shift): Diagnostic {
  const span = d.span;
  if (!span || span.start < sh.from || d.line === undefined || d.column === undefined) return d;
  const a = movedPosition(span.start, d.line, d.column, sh);
  const out: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = { ...d, span: sh.delta === 0 ? span : moveSpan(span, sh), line: a.line, column: a.column };
  if (d.endLine !== undefined && d.endColumn !== undefined) {
    const b = movedPosition(span.end, d.endLine, d.endColumn, sh);
    out.endLine = b.line;
    out.endColumn = b.column;
  }
  return out;
}
