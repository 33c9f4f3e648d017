// A server's tool list, fetched again: what changed, and what that does to the
// prompt cache. Providers cache the request prefix, and the tools array comes
// first; so a change to a tool that is offered rewrites the prefix from that tool
// on, while a change to a discoverable or off tool touches only what search_tools
// can find — the cache keeps hitting.
import { formatFloat, isJsonFloat } from '../json/serde';
import type { McpToolEntry } from '../catalogue/tools-list';

export type ChangedField = 'title' | 'description' | 'inputSchema' | 'annotations' | 'outputSchema' | 'execution' | 'icons' | '_meta';

export interface ToolListDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly { readonly name: string; readonly fields: readonly ChangedField[] }[];
}

/** JSON with object keys sorted, so two equal schemas compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // A whole float is written as JP writes it: `1.0` is not `1` on the wire.
  if (isJsonFloat(value)) return formatFloat(value.value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

export function diffToolLists(before: readonly McpToolEntry[], after: readonly McpToolEntry[]): ToolListDiff {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const added = after.filter((t) => !old.has(t.name)).map((t) => t.name);
  const removed = before.filter((t) => !now.has(t.name)).map((t) => t.name);
  const changed: { name: string; fields: ChangedField[] }[] = [];
  for (const t of after) {
    const o = old.get(t.name);
    if (!o) continue;
    const fields: ChangedField[] = [];
    if ((o.title ?? '') !== (t.title ?? '')) fields.push('title');
    if (o.description !== t.description) fields.push('description');
    if (canonicalJson(o.inputSchema) !== canonicalJson(t.inputSchema)) fields.push('inputSchema');
    for (const key of ['annotations', 'outputSchema', 'execution', 'icons', '_meta'] as const) {
      if (canonicalJson(o[key] ?? null) !== canonicalJson(t[key] ?? null)) fields.push(key);
    }
    if (fields.length > 0) changed.push({ name: t.name, fields });
  }
  return { added, removed, changed };
}

export function isEmptyDiff(d: ToolListDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
}

/**
 * The short words of how a server's live list differs from the recorded one (issue 24.2: the live
 * list shows beside the recording, never rewrites it): "+2 / −1", "~1" for a changed tool; "" when
 * the two agree.
 */
export function diffWords(d: ToolListDiff): string {
  const parts: string[] = [];
  if (d.added.length > 0) parts.push(`+${d.added.length}`);
  if (d.removed.length > 0) parts.push(`\u2212${d.removed.length}`);
  if (d.changed.length > 0) parts.push(`~${d.changed.length}`);
  return parts.join(' / ');
}

/** The same difference twice (a cache impact judged on one difference is shown only while it still holds). */
export function sameDiff(a: ToolListDiff, b: ToolListDiff): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** One configured tool of the server, as the core placed it at the position looked at. */
export interface ServerToolPlace {
  /** Its catalogue name. */
  readonly name: string;
  /** Its name on the server. */
  readonly backendName: string;
  readonly availability: 'on' | 'off' | 'discoverable';
  /** Index in the offered tools array, when offered. */
  readonly offeredIndex?: number;
}

export interface CacheImpact {
  readonly status: 'hit' | 'miss';
  /** Offered tools the change touches, in array order. */
  readonly offered: readonly string[];
  /** Discoverable tools it touches (search results change; the prefix does not). */
  readonly discoverable: readonly string[];
  /** Server tools that are new and not configured yet (they join nothing until a layer names them). */
  readonly unconfigured: readonly string[];
  readonly sentence: string;
}

/**
 * What a tool-list change does to the next request's prompt cache. Only changes that reach the
 * offered array matter: a changed description or schema rewrites the array from that tool on; a
 * removed offered tool drops out of it. `description` and `annotations` of a discoverable tool
 * change only search_tools results.
 */
export function prefixCacheImpact(diff: ToolListDiff, places: readonly ServerToolPlace[]): CacheImpact {
  const byBackend = new Map<string, ServerToolPlace[]>();
  for (const p of places) byBackend.set(p.backendName, [...(byBackend.get(p.backendName) ?? []), p]);
  // Annotations and title are not part of the definition a provider gets (name, description, schema).
  const reaching = new Set<string>([
    ...diff.removed,
    ...diff.added,
    ...diff.changed.filter((c) => c.fields.includes('description') || c.fields.includes('inputSchema')).map((c) => c.name),
  ]);
  const offered: ServerToolPlace[] = [];
  const discoverable: string[] = [];
  const unconfigured: string[] = [];
  const touched = new Set<string>([...reaching, ...diff.changed.map((c) => c.name)]);
  for (const backend of touched) {
    const mine = byBackend.get(backend);
    if (!mine) {
      if (diff.added.includes(backend)) unconfigured.push(backend);
      continue;
    }
    for (const p of mine) {
      if (p.offeredIndex !== undefined && reaching.has(backend)) offered.push(p);
      // A configured, on tool the server did not list before joins the array now.
      else if (p.availability === 'on' && diff.added.includes(backend)) offered.push(p);
      else if (p.availability === 'discoverable') discoverable.push(p.name);
    }
  }
  offered.sort((a, b) => (a.offeredIndex ?? Number.MAX_SAFE_INTEGER) - (b.offeredIndex ?? Number.MAX_SAFE_INTEGER));
  const first = offered[0];
  const sentence = first
    ? first.offeredIndex === undefined
      ? `${first.name} is configured on and now listed, so it joins the tools array and the next request rewrites the cached prefix.`
      : `Offered tool ${first.name} changed, so the tools array differs from position ${first.offeredIndex + 1} on and the next request rewrites the cached prefix from there.`
    : discoverable.length > 0
      ? `Only discoverable tools changed (${discoverable.length}); the tools array is the same, so the cached prefix still matches. search_tools results may differ.`
      : 'No offered tool changed, so the cached prefix still matches.';
  return { status: first ? 'miss' : 'hit', offered: offered.map((p) => p.name), discoverable, unconfigured, sentence };
}
