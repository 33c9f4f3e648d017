// `jp config set KEY=VALUE...` as a format-preserving edit of one layer file
// (jp-today 5.5, RFD 108 "Editing a file that still says state", semantics 8.16).
//
// The edit is what JP's `merge_delta` does, minus its hazards:
// - only keys the assignment names are touched; an existing value is replaced in place, so every
//   other byte (comments, spacing, other tables, other legacy `state` keys) stays as it was;
// - a table value merges key by key into an existing table (`enable:={...}` sets only the fields
//   it lists), a scalar value replaces;
// - a field-wise edit of a shorthand `enable` first expands the shorthand to the table it stands
//   for, so neither field is lost;
// - a field-wise edit of `enable` normalises the legacy `state` beside it: the `state = ...` pair
//   is replaced in place by `availability = "..."` (writing `enable.state` itself keeps the user's
//   spelling, unless the table already says `availability`, which is then what is written).
// Every assignment is validated first with the reader `--cfg` uses (./assign), so the error
// texts are JP's, prefixed by the key.
import { assignmentToDelta } from './assign';
import type { Assignment } from './assign';
import { SHORTHANDS } from './enable';
import {
  appendSection,
  applySplices,
  bool,
  formatKey,
  fromJson,
  hasLoneSurrogate,
  insertIntoDotted,
  insertIntoInline,
  insertIntoRoot,
  insertIntoSection,
  minimalSplice,
  nest,
  removePair,
  renderValue,
  str,
  tableOf,
  writeStrings,
} from './edit-primitives';
import type { Splice, TomlWrite } from './edit-primitives';
import { parseToml } from './toml';
import type { TomlDocument, TomlEntry, TomlTable, TomlValue } from './toml-ast';
import { LineIndex } from './toml-ast';

export type { Splice } from './edit-primitives';

/** One `KEY=VALUE` (`json: false`) or `KEY:=JSON` (`json: true`); the key split on `.`. */
export type EditAssignment = Assignment;

export type EditResult = { ok: true; text: string } | { ok: false; error: string };
export type SpliceResult = { ok: true; text: string; splice: Splice } | { ok: false; error: string };

type Result<T> = { ok: true; value: T } | { ok: false; error: string };
const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });

export type EnableField = 'availability' | 'allow_toggle' | 'state';

// ---- parsing ------------------------------------------------------------------------------------

function parse(text: string): Result<TomlDocument> {
  const doc = parseToml(text);
  const e = doc.errors[0];
  if (e === undefined) return { ok: true, value: doc };
  const at = new LineIndex(text).position(e.span.start);
  return fail(`the layer does not parse: ${at.line}:${at.column}: ${e.message}`);
}

// ---- walking the tree ---------------------------------------------------------------------------

interface Walk {
  /** `tables[i]` is the table at `path[0..i)`; `tables[0]` is the root. */
  readonly tables: TomlTable[];
  /** Whether `tables[i]` is an inline table or lies inside one. */
  readonly inInline: boolean[];
  /** The first segment that is missing, or whose value is not a table while more segments follow; `path.length` when the leaf exists. */
  readonly stop: number;
  /** The entry at `path[stop]` when it exists (the leaf, or the non-table in the way). */
  readonly entry?: TomlEntry;
}

function walk(root: TomlTable, path: readonly string[]): Walk {
  const tables: TomlTable[] = [root];
  const inInline: boolean[] = [false];
  let table = root;
  let inside = false;
  for (let i = 0; i < path.length; i++) {
    const entry = table.entries.get(path[i] ?? '');
    if (entry === undefined) return { tables, inInline, stop: i };
    if (i === path.length - 1) return { tables, inInline, stop: path.length, entry };
    const v = entry.value;
    if (v.kind !== 'table') return { tables, inInline, stop: i, entry };
    inside ||= v.origin === 'inline';
    table = v;
    tables.push(v);
    inInline.push(inside);
  }
  return { tables, inInline, stop: path.length };
}

/** Is `path` a tool's (or `'*'`'s) `enable`, or below it? */
function isEnablePath(path: readonly string[]): boolean {
  return path.length >= 4 && path[0] === 'conversation' && path[1] === 'tools' && path[3] === 'enable';
}

/**
 * The depth of the section a missing table is written as: `[conversation.tools.NAME]` for tool
 * keys (the tool table), otherwise the parent of the leaf (`assistant.model` → `[assistant]`).
 */
function sectionDepth(path: readonly string[]): number {
  if (path.length >= 3 && path[0] === 'conversation' && path[1] === 'tools') return 3;
  return path.length - 1;
}

// ---- the generic setter -------------------------------------------------------------------------

/** Adds `path[i..]` = `w` to `tables[i]`, which lacks `path[i]`. */
function addMissing(text: string, path: readonly string[], w: TomlWrite, at: Walk, i: number): Result<Splice> {
  const table = at.tables[i] as TomlTable;
  const inside = at.inInline[i] ?? false;
  const key = formatKey(path[i] ?? '');
  const valueText = renderValue(nest(path.slice(i + 1), w));
  if (table.origin === 'inline') return { ok: true, value: insertIntoInline(text, table, key, valueText) };
  const s = sectionDepth(path);
  if (!inside && i < s) {
    // The table the key belongs in does not exist: a new section at the end of the file.
    if (s < path.length) {
      return { ok: true, value: appendSection(text, path.slice(0, s), [[formatKey(path[s] ?? ''), renderValue(nest(path.slice(s + 1), w))]]) };
    }
    if (w.kind === 'table') {
      return { ok: true, value: appendSection(text, path, w.entries.map(([k, v]) => [formatKey(k), renderValue(v)] as const)) };
    }
    const last = path.length - 1;
    return { ok: true, value: appendSection(text, path.slice(0, last), [[formatKey(path[last] ?? ''), renderValue(w)]]) };
  }
  switch (table.origin) {
    case 'dotted': {
      const splice = insertIntoDotted(text, table, inside, key, valueText);
      return splice ? { ok: true, value: splice } : fail(`cannot add \`${path.join('.')}\` to the dotted table \`${path.slice(0, i).join('.')}\``);
    }
    case 'header':
    case 'array-element':
      return { ok: true, value: insertIntoSection(text, table, key, valueText) };
    case 'root':
      return { ok: true, value: insertIntoRoot(text, table, key, valueText) };
    case 'implicit':
      // A table that exists only as the parent of a [header]: give it its own section.
      return { ok: true, value: appendSection(text, path.slice(0, i), [[key, valueText]]) };
  }
  return fail(`cannot add \`${path.join('.')}\``);
}

/** Replaces the value of `entry` (at `path[0..=i]`) by `w`, when it is written as a value. */
function replaceValue(entry: TomlEntry, w: TomlWrite, path: readonly string[], i: number): Result<Splice> {
  const v = entry.value;
  const where = path.slice(0, i + 1).join('.');
  if (v.kind === 'table-array') return fail(`cannot set \`${path.join('.')}\`: \`${where}\` is an array of tables`);
  if (v.kind === 'table' && v.origin !== 'inline') {
    return fail(`cannot set \`${path.join('.')}\`: \`${where}\` is a table written with its own [header] or dotted keys, not a value`);
  }
  return { ok: true, value: { start: v.span.start, end: v.span.end, insert: renderValue(nest(path.slice(i + 1), w)) } };
}

function genericSplice(text: string, doc: TomlDocument, path: readonly string[], w: TomlWrite): Result<Splice> {
  const at = walk(doc.root, path);
  if (at.entry !== undefined) return replaceValue(at.entry, w, path, at.stop);
  return addMissing(text, path, w, at, at.stop);
}

// ---- enable -------------------------------------------------------------------------------------

function shorthandOf(v: TomlValue): readonly [string, string] | undefined {
  if (v.kind === 'boolean') return SHORTHANDS.get(String(v.value));
  if (v.kind === 'string') return SHORTHANDS.get(v.value);
  return undefined;
}

/** The field a write of `field` = `w` lands on when the table already says `availability`. */
function stateAsAvailability(w: TomlWrite): TomlWrite {
  return str(w.kind === 'boolean' && w.value ? 'on' : 'off');
}

/** `enable.FIELD = w` against an existing `enable` table (inline, [header] or dotted). */
function fieldSplices(text: string, table: TomlTable, inInline: boolean, field: EnableField, w: TomlWrite, path: readonly string[]): Result<Splice[]> {
  const state = table.entries.get('state');
  const availability = table.entries.get('availability');
  const splices: Splice[] = [];
  const set = (entry: TomlEntry, value: TomlWrite): void => {
    splices.push({ start: entry.value.span.start, end: entry.value.span.end, insert: renderValue(value) });
  };
  /** `state = x` → `availability = "..."`, key and value replaced in place, spacing and comment kept. */
  const renameState = (entry: TomlEntry, value: TomlWrite): void => {
    splices.push({ start: entry.keySpan.start, end: entry.keySpan.end, insert: 'availability' });
    set(entry, value);
  };
  const remove = (entry: TomlEntry): Result<null> => {
    const s = removePair(text, entry, inInline || table.origin === 'inline');
    if (!s) return fail(`${path.join('.')}: cannot remove the legacy \`state\` beside \`availability\``);
    splices.push(s);
    return { ok: true, value: null };
  };
  const add = (key: string, value: TomlWrite): Result<null> => {
    const keyText = formatKey(key);
    const valueText = renderValue(value);
    let s: Splice | undefined;
    if (table.origin === 'inline') s = insertIntoInline(text, table, keyText, valueText);
    else if (table.origin === 'dotted') s = insertIntoDotted(text, table, inInline, keyText, valueText);
    else if (table.origin === 'header' || table.origin === 'array-element') s = insertIntoSection(text, table, keyText, valueText);
    if (!s) return fail(`${path.join('.')}: cannot add \`${key}\` to this \`enable\` table`);
    splices.push(s);
    return { ok: true, value: null };
  };

  let r: Result<null> = { ok: true, value: null };
  if (field === 'availability') {
    if (availability) {
      set(availability, w);
      if (state) r = remove(state);
    } else if (state) renameState(state, w);
    else r = add('availability', w);
  } else if (field === 'allow_toggle') {
    const allow = table.entries.get('allow_toggle');
    if (allow) set(allow, w);
    else r = add('allow_toggle', w);
    if (r.ok && state) {
      if (availability) r = remove(state);
      else if (state.value.kind === 'boolean') renameState(state, str(state.value.value ? 'on' : 'off'));
      // A `state` that is not a boolean is already an error in the file; it is left for the user.
    }
  } else {
    if (availability) {
      set(availability, stateAsAvailability(w));
      if (state) r = remove(state);
    } else if (state) set(state, w);
    else r = add('state', w);
  }
  if (!r.ok) return r;
  return { ok: true, value: splices };
}

/** `conversation.tools.NAME.enable.FIELD` = `w`. */
function enableFieldSplices(text: string, doc: TomlDocument, path: readonly string[], field: EnableField, w: TomlWrite): Result<Splice[]> {
  const enablePath = path.slice(0, 4);
  const at = walk(doc.root, enablePath);
  const entry = at.stop === 4 ? at.entry : undefined;
  if (entry === undefined) {
    const g = genericSplice(text, doc, path, w);
    return g.ok ? { ok: true, value: [g.value] } : g;
  }
  const v = entry.value;
  if (v.kind === 'table-array') return fail(`cannot set \`${path.join('.')}\`: \`${enablePath.join('.')}\` is an array of tables`);
  if (v.kind !== 'table') {
    // A shorthand stands for both fields: write the table it stands for, with this field changed.
    const preset = shorthandOf(v);
    let entries: [string, TomlWrite][];
    if (preset === undefined) entries = [[field, w]];
    else {
      entries = [
        ['availability', str(preset[0])],
        ['allow_toggle', str(preset[1])],
      ];
      const target = field === 'state' ? 'availability' : field;
      const value = field === 'state' ? stateAsAvailability(w) : w;
      entries = entries.map(([k, x]) => [k, k === target ? value : x]);
    }
    return { ok: true, value: [{ start: v.span.start, end: v.span.end, insert: renderValue(tableOf(entries)) }] };
  }
  return fieldSplices(text, v, at.inInline[3] ?? false, field, w, path);
}

// ---- one write ------------------------------------------------------------------------------------

const ENABLE_FIELDS: readonly string[] = ['availability', 'allow_toggle', 'state'];

/** Writes `w` at `path` in `text`. Tables merge key by key into an existing table. */
function write(text: string, path: readonly string[], w: TomlWrite): Result<string> {
  const parsed = parse(text);
  if (!parsed.ok) return parsed;
  const doc = parsed.value;
  const at = walk(doc.root, path);
  const existing = at.stop === path.length ? at.entry?.value : undefined;
  const isEnable = isEnablePath(path);

  if (isEnable && path.length === 4) {
    if (existing !== undefined && w.kind === 'table') {
      // Merge: each listed field is a field-wise edit (a shorthand is expanded by the first one).
      // A value that is neither a table nor a shorthand is replaced by the whole table.
      if (existing.kind === 'table' || shorthandOf(existing) !== undefined) return writeEach(text, path, w.entries);
    } else if (existing?.kind === 'table' && existing.origin !== 'inline' && w.kind !== 'table') {
      // A shorthand over a table written with a [header] or dotted keys: written field-wise, both fields.
      const preset = SHORTHANDS.get(w.kind === 'boolean' ? String(w.value) : w.kind === 'string' ? w.value : '');
      if (preset === undefined) return fail(`${path.join('.')}: cannot write this value over an enable table`);
      return writeEach(text, path, [
        ['availability', str(preset[0])],
        ['allow_toggle', str(preset[1])],
      ]);
    }
  } else if (isEnable && path.length === 5 && ENABLE_FIELDS.includes(path[4] ?? '')) {
    const r = enableFieldSplices(text, doc, path, path[4] as EnableField, w);
    return r.ok ? { ok: true, value: applySplices(text, r.value) } : r;
  } else if (existing?.kind === 'table' && w.kind === 'table') {
    return writeEach(text, path, w.entries);
  }
  const r = genericSplice(text, doc, path, w);
  return r.ok ? { ok: true, value: applySplices(text, [r.value]) } : r;
}

function writeEach(text: string, path: readonly string[], entries: readonly (readonly [string, TomlWrite])[]): Result<string> {
  let out = text;
  for (const [k, v] of entries) {
    const r = write(out, [...path, k], v);
    if (!r.ok) return r;
    out = r.value;
  }
  return { ok: true, value: out };
}

// ---- assignments --------------------------------------------------------------------------------

/** A `KEY=VALUE` string typed by the key it lands on, as JP's assignment arms (and ./assign) do. */
function typedString(path: readonly string[], value: string): TomlWrite {
  const leaf = path[path.length - 1];
  const boolish = value === 'true' || value === 'false';
  if (boolish && isEnablePath(path) && (path.length === 4 || leaf === 'state')) return bool(value === 'true');
  if (boolish && leaf === 'required') return bool(value === 'true');
  return str(value);
}

function applyOne(text: string, assignment: EditAssignment): Result<string> {
  const path = assignment.path.map((s) => (s === "'*'" ? '*' : s));
  const key = path.join('.');
  if (path.length === 0 || path.some((s) => s === '')) return fail(`${key}: invalid key`);
  let w: TomlWrite | undefined;
  if (assignment.json) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(assignment.value);
    } catch (e) {
      return fail(`${key}: invalid JSON value: ${e instanceof Error ? e.message : String(e)}`);
    }
    w = fromJson(parsed);
  } else {
    w = typedString(path, assignment.value);
  }
  // JP's own validation and error texts (unknown enable key, bad shorthand, bad availability, ...).
  const checked = assignmentToDelta({ path, value: assignment.value, json: assignment.json }, { kind: 'default' });
  if (!checked.ok) return checked;
  // `KEY:=null` unsets, and an unset is not persisted: the file does not change.
  if (w === undefined) return { ok: true, value: text };
  if ([...path, ...writeStrings(w)].some(hasLoneSurrogate)) return fail(`${key}: the key or value holds a lone UTF-16 surrogate, which a TOML file cannot hold`);
  const r = write(text, path, w);
  if (!r.ok) return r;
  // A guard: an edit must leave a file that parses.
  const again = parse(r.value);
  if (!again.ok) return fail(`${key}: internal error: the edit would leave invalid TOML (${again.error})`);
  return r;
}

/**
 * `jp config set KEY=VALUE...` against one layer file: the assignments apply in order, each as a
 * format-preserving edit. The first invalid assignment (or a layer that does not parse) fails the
 * whole edit.
 */
export function editLayer(text: string, assignments: readonly EditAssignment[]): EditResult {
  const first = parse(text);
  if (!first.ok) return fail(first.error);
  let out = text;
  for (const a of assignments) {
    const r = applyOne(out, a);
    if (!r.ok) return fail(r.error);
    out = r.value;
  }
  return { ok: true, text: out };
}

/**
 * One assignment as the smallest single splice of the old text (for an editor to apply as one
 * undoable edit), and the new text. An assignment that changes nothing gives an empty splice.
 */
export function editLayerSplice(text: string, assignment: EditAssignment): SpliceResult {
  const r = editLayer(text, [assignment]);
  if (!r.ok) return r;
  return { ok: true, text: r.text, splice: minimalSplice(text, r.text) };
}

export type EnableEditResult =
  | { ok: true; text: string; range: { start: number; end: number }; replacement: string }
  | { ok: false; error: string };

/**
 * "Set this tool's availability (or allow_toggle) from the sets panel": `jp config set
 * conversation.tools.TOOL.enable.FIELD=VALUE` against a layer, as one splice: replace
 * `text[range.start, range.end)` by `replacement`. `tool` may be `*` (the defaults table).
 */
export function setEnableField(text: string, tool: string, field: EnableField, value: string): EnableEditResult {
  const r = editLayerSplice(text, { path: ['conversation', 'tools', tool, 'enable', field], value, json: false });
  if (!r.ok) return r;
  return { ok: true, text: r.text, range: { start: r.splice.start, end: r.splice.end }, replacement: r.splice.insert };
}
