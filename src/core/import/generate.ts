// A catalogue → the parts of a scenario: one `[servers.NAME]` per server and one
// generated, readable layer with a `[conversation.tools.NAME]` per tool, each with
// its `source = "mcp.SERVER.TOOL"` and a starting availability.
import { toolEntryJson } from '../catalogue/tools-list';
import type { McpToolEntry } from '../catalogue/tools-list';
import { loadLayer } from '../config/layer';
import type { Availability } from '../config/types';
import type { LayerDoc, Plain, ScenarioDoc, ServerDoc, StepDoc } from '../scenario/doc';
import { tomlKey, tomlString } from '../scenario/doc';
import type { Catalogue } from './catalogue';
import { importLayerName, localToolNames, serverSlug, uniqueName } from './names';

export type PolicyKind = 'on' | 'discoverable' | 'per-server';
export type ServerMode = Availability;

export interface StartingPolicy {
  readonly kind: PolicyKind;
  /**
   * How many of the most useful tools stay on: over the whole import for `discoverable`, per
   * server for `per-server` (servers whose mode is `discoverable`).
   */
  readonly keep: number;
  /** `per-server`: each server's mode, by its scenario name; unnamed servers are `discoverable`. */
  readonly servers?: ReadonlyMap<string, ServerMode>;
  /** Tools whose MCP annotations say `destructiveHint: true` start off. */
  readonly offDestructive: boolean;
}

export const DEFAULT_KEEP = 8;

export const DEFAULT_POLICY: StartingPolicy = { kind: 'discoverable', keep: DEFAULT_KEEP, offDestructive: true };

export interface ImportOptions {
  readonly policy: StartingPolicy;
  /** Where the catalogue came from, for the layer's comment (a file name, a URL). */
  readonly origin?: string;
  /** Scenario names for the catalogue's servers, in catalogue order (a single tools/list needs one). */
  readonly serverNames?: readonly string[];
  /** The document the import lands in: its server and tool names are taken. */
  readonly into?: ScenarioDoc;
  /** Reference a catalogue file instead of copying tools inline: `catalogue = ref(index, key)`. */
  readonly catalogueRef?: (index: number, key: string | undefined) => string | undefined;
  /** A live server's endpoint, per server index. */
  readonly url?: (index: number) => string | undefined;
  /** The generated layer's name (made unique in `into`). */
  readonly layerName?: string;
}

export interface ToolHints {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly openWorld: boolean;
  readonly title?: string;
}

export interface GeneratedTool {
  /** The tool's name in the catalogue (what the model calls). */
  readonly name: string;
  readonly server: string;
  /** Its name on the server. */
  readonly backendName: string;
  readonly availability: Availability;
  /** Why it starts there, in a few words. */
  readonly because: string;
  readonly hints: ToolHints;
  readonly description: string;
}

export interface ImportResult {
  readonly servers: readonly ServerDoc[];
  readonly layer: LayerDoc;
  readonly tools: readonly GeneratedTool[];
  readonly counts: { readonly on: number; readonly discoverable: number; readonly off: number };
}

// ---- annotations and usefulness --------------------------------------------------------------

const own = (o: Readonly<Record<string, unknown>> | undefined, k: string): unknown => (o && Object.hasOwn(o, k) ? o[k] : undefined);

export function toolHints(tool: McpToolEntry): ToolHints {
  const a = tool.annotations;
  const title = tool.title ?? (typeof own(a, 'title') === 'string' ? (own(a, 'title') as string) : undefined);
  return {
    readOnly: own(a, 'readOnlyHint') === true,
    // MCP's default for destructiveHint is true, but only when readOnlyHint is false AND the server
    // said anything at all; a server that sends no annotations tells us nothing, so we only act on
    // an explicit `destructiveHint: true`.
    destructive: own(a, 'destructiveHint') === true && own(a, 'readOnlyHint') !== true,
    idempotent: own(a, 'idempotentHint') === true,
    openWorld: own(a, 'openWorldHint') === true,
    ...(title !== undefined && title.trim() !== '' ? { title } : {}),
  };
}

/** Verbs that ask for information rather than change anything: the ones a model reaches for first. */
const GENERAL_VERBS = ['search', 'list', 'get', 'read', 'find', 'fetch', 'query', 'show', 'view', 'lookup', 'describe'];

function firstWord(name: string): string {
  return (name.split(/[_\-.\s]|(?<=[a-z])(?=[A-Z])/u)[0] ?? '').toLowerCase();
}

function requiredCount(tool: McpToolEntry): number {
  const r = own(tool.inputSchema, 'required');
  return Array.isArray(r) ? r.length : 0;
}

/**
 * The usefulness order, most useful first. Deterministic and deliberately simple:
 *   1. tools named with a general verb (search, list, get, read, find, fetch, query, show, view,
 *      lookup, describe) before specific ones: they answer the most questions;
 *   2. read-only tools (MCP `readOnlyHint: true`) before the rest: safe to offer, nothing to approve;
 *   3. fewer required parameters first: a general tool asks for less;
 *   4. shorter names first: `get_me`, `search_code` are the broad entry points of a server;
 *   5. catalogue order breaks the remaining ties.
 * Destructive tools (`destructiveHint: true`) are never kept on by this rule.
 */
export function usefulnessOrder(tools: readonly McpToolEntry[]): number[] {
  const keys = tools.map((t, i) => {
    const h = toolHints(t);
    return { i, ro: h.readOnly ? 0 : 1, verb: GENERAL_VERBS.includes(firstWord(t.name)) ? 0 : 1, req: requiredCount(t), len: t.name.length, destructive: h.destructive };
  });
  return keys
    .filter((k) => !k.destructive)
    .sort((a, b) => a.verb - b.verb || a.ro - b.ro || a.req - b.req || a.len - b.len || a.i - b.i)
    .map((k) => k.i);
}

// ---- generation ------------------------------------------------------------------------------

/** The names of every tool configured in a document's layers (so imports do not collide). */
export function configuredToolNames(doc: ScenarioDoc | undefined): Set<string> {
  const names = new Set<string>();
  if (!doc) return names;
  for (const layer of doc.layers) for (const name of loadLayer(layer).config.tools.keys()) names.add(name);
  return names;
}

function oneLine(text: string, max = 90): string {
  // A comment is one line of text: control characters go, runs of space collapse.
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/gu, ' ').replace(/\s+/gu, ' ').trim();
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

function entryPlain(t: McpToolEntry): { [key: string]: Plain } {
  return toolEntryJson(t) as { [key: string]: Plain };
}

function policyWords(p: StartingPolicy, counts: ImportResult['counts']): string {
  const destructive = p.offDestructive ? ' Destructive tools (MCP destructiveHint) start off.' : '';
  switch (p.kind) {
    case 'on':
      return `every tool on.${destructive}`;
    case 'discoverable':
      return `every tool discoverable, the ${Math.min(p.keep, counts.on)} most useful kept on.${destructive}`;
    case 'per-server':
      return `chosen per server; discoverable servers keep their ${p.keep} most useful tools on.${destructive}`;
  }
}

export function buildImport(catalogue: Catalogue, options: ImportOptions): ImportResult {
  const policy = options.policy;
  const into = options.into;
  const takenServers = new Set(into?.servers.map((s) => s.name) ?? []);
  const serverNames = catalogue.servers.map((s, i) => {
    const wanted = serverSlug(options.serverNames?.[i] ?? s.key ?? 'server');
    const name = uniqueName(wanted, takenServers, 48);
    takenServers.add(name);
    return name;
  });

  const flat = catalogue.servers.flatMap((s, si) => s.tools.map((t) => ({ si, server: serverNames[si] ?? 'server', entry: t })));
  const local = localToolNames(
    flat.map((f) => ({ server: f.server, tool: f.entry.name })),
    configuredToolNames(into),
  );

  // Which tools stay on under a discoverable policy.
  const keptOn = new Set<number>();
  const modeOf = (server: string): ServerMode => (policy.kind === 'on' ? 'on' : policy.kind === 'per-server' ? (policy.servers?.get(server) ?? 'discoverable') : 'discoverable');
  if (policy.kind === 'discoverable') {
    for (const i of usefulnessOrder(flat.map((f) => f.entry)).slice(0, Math.max(0, policy.keep))) keptOn.add(i);
  } else if (policy.kind === 'per-server') {
    let offset = 0;
    catalogue.servers.forEach((s, si) => {
      if (modeOf(serverNames[si] ?? '') === 'discoverable') {
        for (const i of usefulnessOrder(s.tools).slice(0, Math.max(0, policy.keep))) keptOn.add(offset + i);
      }
      offset += s.tools.length;
    });
  }

  const tools: GeneratedTool[] = flat.map((f, i) => {
    const hints = toolHints(f.entry);
    const mode = modeOf(f.server);
    let availability: Availability;
    let because: string;
    if (policy.offDestructive && hints.destructive) {
      availability = 'off';
      because = 'destructive';
    } else if (mode === 'on') {
      availability = 'on';
      because = policy.kind === 'per-server' ? 'server on' : 'all on';
    } else if (mode === 'off') {
      availability = 'off';
      because = 'server off';
    } else if (keptOn.has(i)) {
      availability = 'on';
      because = 'kept on: most useful';
    } else {
      availability = 'discoverable';
      because = 'discoverable';
    }
    return { name: local[i] ?? f.entry.name, server: f.server, backendName: f.entry.name, availability, because, hints, description: f.entry.description };
  });
  const counts = { on: 0, discoverable: 0, off: 0 };
  for (const t of tools) counts[t.availability] += 1;

  const servers: ServerDoc[] = catalogue.servers.map((s, si) => {
    const ref = options.catalogueRef?.(si, s.key);
    const url = options.url?.(si);
    return {
      name: serverNames[si] ?? 'server',
      status: 'running',
      ...(url !== undefined ? { url } : {}),
      ...(ref !== undefined ? { catalogue: ref } : {}),
      tools: ref !== undefined ? [] : s.tools.map(entryPlain),
    };
  });

  const layerNames = new Set(into?.layers.map((l) => l.name) ?? []);
  const layerName = uniqueName(options.layerName ?? (servers.length === 1 ? importLayerName(servers[0]?.name ?? 'server') : 'mcp-catalogue'), layerNames, 64);
  const text = layerText(catalogue, serverNames, tools, policy, counts, options.origin);
  return { servers, layer: { name: layerName, text }, tools, counts };
}

function layerText(catalogue: Catalogue, serverNames: readonly string[], tools: readonly GeneratedTool[], policy: StartingPolicy, counts: ImportResult['counts'], origin: string | undefined): string {
  const lines: string[] = [];
  const n = tools.length;
  const s = catalogue.servers.length;
  lines.push(`# Imported${origin ? ` from ${oneLine(origin, 120)}` : ''}: ${n} tool${n === 1 ? '' : 's'} of ${s} MCP server${s === 1 ? '' : 's'}.`);
  lines.push(`# Starting policy: ${policyWords(policy, counts)}`);
  lines.push(`# Now ${counts.on} on, ${counts.discoverable} discoverable, ${counts.off} off.`);
  lines.push('# Descriptions and parameters come from each server; add `summary` or `description` to a tool to override them.');
  let at = 0;
  catalogue.servers.forEach((server, si) => {
    const name = serverNames[si] ?? 'server';
    const mine = tools.slice(at, at + server.tools.length);
    at += server.tools.length;
    lines.push('');
    const about = server.key !== undefined && server.key !== name ? ` ("${oneLine(server.key, 60)}")` : '';
    const what = server.description ? `: ${oneLine(server.description, 80)}` : '';
    lines.push(`# ── MCP server ${name}${about}, ${mine.length} tool${mine.length === 1 ? '' : 's'}${what}`);
    for (const t of mine) {
      lines.push('');
      lines.push(`[conversation.tools.${tomlKey(t.name)}]`);
      lines.push(`source = ${tomlString(`mcp.${t.server}.${t.backendName}`)}`);
      const notes = [t.hints.readOnly ? 'read-only' : '', t.hints.destructive ? 'destructive' : '', t.hints.title ? oneLine(t.hints.title, 70) : ''].filter((x) => x !== '');
      lines.push(`enable = ${tomlString(t.availability)}${notes.length > 0 ? `  # ${notes.join(' · ')}` : ''}`);
    }
  });
  // The closing newline as one more (empty) line, so a catalogue's layer text is one flat string, not a
  // rope flattened (copied) by its first reader.
  lines.push('');
  return lines.join('\n');
}

/** The document with the import added: its servers after the existing ones, its layer last. */
export function applyImport(doc: ScenarioDoc, result: ImportResult): ScenarioDoc {
  return { ...doc, layers: [...doc.layers, result.layer], servers: [...doc.servers, ...result.servers] };
}

/**
 * A first step that pins the starting point: a plain query whose expectations are the tools the
 * import offers (plus the builtins) and whether search_tools is registered. Makes a generated
 * scenario check something the moment it is saved.
 */
export function startingStep(result: ImportResult): StepDoc {
  const on = result.tools.filter((t) => t.availability === 'on').map((t) => t.name);
  const registered = result.counts.discoverable > 0;
  return {
    command: "jp q 'What can you do?'",
    cycles: [],
    expect: { offered: [...on, 'describe_tools', ...(registered ? ['search_tools'] : [])], search_tools: registered },
  };
}
