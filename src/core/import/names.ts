// Names for imported servers and tools. A tool name is what the model calls, so it
// must be a valid function name for every provider (`^[A-Za-z0-9_-]{1,64}$`) and
// unique across the whole catalogue; the MCP name stays in `source`.
import { RESERVED_TOOL_NAMES } from '../config/read';

const VALID_TOOL = /^[A-Za-z0-9_-]{1,64}$/u;
const MAX_TOOL = 64;
const MAX_SERVER = 48;

export function isValidToolName(name: string): boolean {
  return VALID_TOOL.test(name) && !RESERVED_TOOL_NAMES.has(name);
}

/**
 * A server key for `[servers.NAME]`, `source = "mcp.NAME.TOOL"` and `[providers.mcp.NAME]`:
 * lower case, runs of anything but letters, digits, `_` and `-` become `_`. No dots, because the
 * source grammar splits at them.
 */
export function serverSlug(raw: string): string {
  const slug = raw
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/gu, '_')
    .replace(/^[_-]+|[_-]+$/gu, '')
    .slice(0, MAX_SERVER)
    .replace(/[_-]+$/u, '');
  return slug === '' ? 'server' : slug;
}

/**
 * The generated layer of one imported server: `mcp-github` for `github`. A server whose name already
 * says mcp (`mcp-servers_everything`, named from its serverInfo) keeps it as is: `mcp-mcp-…` says it twice.
 */
export function importLayerName(server: string): string {
  return /^mcp(?:[-_]|$)/iu.test(server) ? server : `mcp-${server}`;
}

/** A valid tool name from any string: invalid characters become `_`, cut at 64. */
export function toolSlug(raw: string): string {
  if (VALID_TOOL.test(raw)) return raw;
  const slug = raw.replace(/[^A-Za-z0-9_-]+/gu, '_').replace(/^_+|_+$/gu, '').slice(0, MAX_TOOL);
  return slug === '' ? 'tool' : slug;
}

/** `base`, or `base_2`, `base_3`… — the first not in `taken` (kept within `max` characters). */
export function uniqueName(base: string, taken: ReadonlySet<string>, max = MAX_TOOL): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = `${base.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export interface NamedTool {
  readonly server: string;
  readonly tool: string;
}

/**
 * Local names for every (server, tool) pair, in input order. A tool keeps its MCP name when
 * that name is valid, not reserved, not taken by the existing catalogue and not listed by another
 * imported server; otherwise every occurrence is prefixed with its server (`filesystem_read_file`,
 * `text-editor_read_file`), so no server's tool silently wins the plain name.
 */
export function localToolNames(tools: readonly NamedTool[], existing: ReadonlySet<string> = new Set()): string[] {
  const serversOf = new Map<string, Set<string>>();
  for (const t of tools) {
    const set = serversOf.get(t.tool) ?? new Set<string>();
    set.add(t.server);
    serversOf.set(t.tool, set);
  }
  const taken = new Set(existing);
  for (const r of RESERVED_TOOL_NAMES) taken.add(r);
  const out: string[] = [];
  for (const t of tools) {
    const shared = (serversOf.get(t.tool)?.size ?? 0) > 1;
    const prefixed = toolSlug(`${t.server}_${t.tool}`);
    let base = shared ? prefixed : toolSlug(t.tool);
    if (taken.has(base)) base = prefixed;
    const name = uniqueName(base, taken);
    taken.add(name);
    out.push(name);
  }
  return out;
}
