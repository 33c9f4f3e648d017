// `--cfg KEY=VALUE` / `KEY:=JSON` (and tool `writes`, which use the same
// grammar): each assignment becomes a small config tree read by the same reader
// as a layer file, so every validation rule and error text is shared.
import { readConfig } from './read';
import { mergeConfigs } from './merge';
import type { Span, TomlEntry, TomlTable, TomlValue } from './toml-ast';
import type { Origin, PartialConfig } from './types';
import { EMPTY_CONFIG } from './read';
import { STATE_VALUE_ERROR } from './enable';

export interface Assignment {
  /** The key split on `.`, e.g. ['conversation', 'tools', 'deploy', 'enable', 'state']. */
  readonly path: readonly string[];
  readonly value: string;
  /** `:=`: the value is JSON. */
  readonly json: boolean;
}

export type AssignResult = { ok: true; delta: PartialConfig } | { ok: false; error: string };

const NO_SPAN: Span = { start: 0, end: 0 };

function table(entries: [string, TomlValue][], origin: TomlTable['origin'] = 'inline'): TomlTable {
  const map = new Map<string, TomlEntry>();
  for (const [key, value] of entries) map.set(key, { key, keySpan: NO_SPAN, value, pairSpan: NO_SPAN });
  return { kind: 'table', origin, entries: map, span: NO_SPAN };
}

/** JSON → syntax tree. `null` members are dropped (JP: null clears, and an unset cannot be persisted). */
export function jsonToNode(value: unknown): TomlValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return { kind: 'string', value, span: NO_SPAN };
  if (typeof value === 'boolean') return { kind: 'boolean', value, span: NO_SPAN };
  if (typeof value === 'number') return Number.isInteger(value) ? { kind: 'integer', value, span: NO_SPAN } : { kind: 'float', value, span: NO_SPAN };
  if (Array.isArray(value)) {
    const items: TomlValue[] = [];
    for (const v of value) {
      const n = jsonToNode(v);
      if (n) items.push(n);
    }
    return { kind: 'array', items, span: NO_SPAN };
  }
  if (typeof value === 'object') {
    const entries: [string, TomlValue][] = [];
    for (const key of Object.keys(value)) {
      const n = jsonToNode((value as Record<string, unknown>)[key]);
      if (n) entries.push([key, n]);
    }
    return table(entries);
  }
  return undefined;
}

/** A `KEY=VALUE` string typed by the key it lands on, as JP's assignment arms do. */
function stringValueNode(path: readonly string[], value: string): TomlValue | string {
  const leaf = path[path.length - 1];
  const parent = path[path.length - 2];
  if (parent === 'enable' && leaf === 'state') {
    if (value === 'true' || value === 'false') return { kind: 'boolean', value: value === 'true', span: NO_SPAN };
    return STATE_VALUE_ERROR(value);
  }
  if (leaf === 'required') {
    if (value === 'true' || value === 'false') return { kind: 'boolean', value: value === 'true', span: NO_SPAN };
    return `invalid required: '${value}', expected true or false`;
  }
  return { kind: 'string', value, span: NO_SPAN };
}

/** Applies one assignment to an empty config, giving a delta. */
export function assignmentToDelta(assignment: Assignment, origin: Origin): AssignResult {
  const path = assignment.path.map((s) => (s === "'*'" ? '*' : s));
  const key = path.join('.');
  if (path.length === 0 || path.some((s) => s === '')) return { ok: false, error: `${key}: invalid key` };
  // The workbench simulates conversation.tools and providers.mcp; other keys are JP's and change nothing here.
  const simulated = (path[0] === 'conversation' && path[1] === 'tools') || (path[0] === 'providers' && path[1] === 'mcp');
  if (!simulated) return { ok: true, delta: EMPTY_CONFIG };
  let leaf: TomlValue | undefined;
  if (assignment.json) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(assignment.value);
    } catch (e) {
      return { ok: false, error: `${key}: invalid JSON value: ${e instanceof Error ? e.message : String(e)}` };
    }
    leaf = jsonToNode(parsed);
    if (!leaf) return { ok: true, delta: EMPTY_CONFIG };
  } else {
    const typed = stringValueNode(path, assignment.value);
    if (typeof typed === 'string') return { ok: false, error: `${key}: ${typed}` };
    leaf = typed;
  }
  let node: TomlValue = leaf;
  for (let i = path.length - 1; i >= 0; i--) node = table([[path[i] ?? '', node]], i === 0 ? 'root' : 'dotted');
  const errors: string[] = [];
  const delta = readConfig(node as TomlTable, {
    origin: () => origin,
    report: (severity, message) => {
      if (severity === 'error') errors.push(message);
    },
  });
  if (errors.length > 0) return { ok: false, error: `${key}: ${errors[0] ?? ''}` };
  return { ok: true, delta };
}

/** Applies assignments in order; the first failure is reported. */
export function assignmentsToDelta(assignments: readonly Assignment[], origin: Origin): AssignResult {
  let delta: PartialConfig = EMPTY_CONFIG;
  for (const a of assignments) {
    const r = assignmentToDelta(a, origin);
    if (!r.ok) return r;
    delta = mergeConfigs(delta, r.delta);
  }
  return { ok: true, delta };
}

/** Splits `KEY=VALUE` / `KEY:=JSON` (the tool-write grammar). */
export function parseAssignment(text: string): Assignment | undefined {
  const eq = text.indexOf('=');
  if (eq <= 0) return undefined;
  const json = text[eq - 1] === ':';
  const key = text.slice(0, json ? eq - 1 : eq);
  return { path: key.split('.'), value: text.slice(eq + 1), json };
}
