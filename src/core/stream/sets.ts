// The sets of semantics section 4 at one position, for one invocation.
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { ToolState } from './engine';

export interface SetsContext {
  readonly registered: boolean;
  /** The forced tool of the invocation (`-u NAME`), if any. */
  readonly forced?: string;
  /** Tools promoted under `promoted_position = "append"`, in commit order. */
  readonly appended?: readonly string[];
}

export interface Sets {
  /** Every configured tool, then the builtins. */
  readonly configured: readonly string[];
  readonly permitted: readonly string[];
  /** The provider's tools array order (before provider rendering). */
  readonly offered: readonly string[];
  readonly searchable: readonly string[];
  /** MCP servers of permitted tools. */
  readonly servers: readonly string[];
  /**
   * The configured tools without the builtins, in config order: `configured` before its builtins, read
   * without copying (a view indexes it by row; at 100,000 tools each copy is a cost).
   */
  readonly catalogue: readonly string[];
  /** How many names each list holds, known without building the lists (a panel's counts). */
  readonly sizes: SetSizes;
}

export interface SetSizes {
  readonly configured: number;
  readonly permitted: number;
  readonly offered: number;
  readonly searchable: number;
}

export function builtinNames(registered: boolean): string[] {
  return registered ? [DESCRIBE_TOOLS, SEARCH_TOOLS] : [DESCRIBE_TOOLS];
}

/** How many tools a scenario has, in the one set of words every panel uses (issue 24.5). */
export interface ToolCount {
  /** The configured set: the catalogue's tools and the builtins. */
  readonly total: number;
  /** Every [conversation.tools.NAME] of the layers (local and MCP tools, whatever their availability). */
  readonly catalogue: number;
  readonly builtins: readonly string[];
  /** "34 tools: 32 from the catalogue + 2 builtins". */
  readonly label: string;
}

/** The one count of a scenario's tools: its configured tools plus the builtins registered with them. */
export function toolCount(catalogue: number, registered: boolean): ToolCount {
  const builtins = builtinNames(registered);
  const total = catalogue + builtins.length;
  return { total, catalogue, builtins, label: `${total} tools: ${catalogue} from the catalogue + ${builtins.length} builtin${builtins.length === 1 ? '' : 's'}` };
}

export function isLockedOff(s: ToolState): boolean {
  return s.enable.availability.value === 'off' && s.enable.allowToggle.value === 'never';
}

/** Permitted: discoverable or on, plus the forced tool unless locked off; minus unresolvable tools. */
export function isPermitted(s: ToolState, forced: string | undefined): boolean {
  if (!s.resolution.ok) return false;
  const a = s.enable.availability.value;
  if (a !== 'off') return true;
  return forced === s.name && !isLockedOff(s);
}

export function isOffered(s: ToolState, forced: string | undefined): boolean {
  return isPermitted(s, forced) && (s.enable.availability.value === 'on' || forced === s.name);
}

/**
 * The forced tool is offered whatever its availability, so it is never searchable: the one statement
 * of that rule. `candidate` says whether the tool is resolvable at effective discoverable (the engine
 * keeps that set for the newest position, see StreamEngine.searchableNow). A tool is named by its name,
 * or by its config order where a search document carries only that (turn/call.ts).
 */
export function searchableUnlessForced<K extends string | number>(tool: K, candidate: boolean, forced: K | undefined): boolean {
  return candidate && tool !== forced;
}

/** Searchable: permitted, discoverable and not offered. */
export function isSearchable(s: ToolState, forced: string | undefined): boolean {
  return searchableUnlessForced(s.name, s.resolution.ok && s.enable.availability.value === 'discoverable', forced);
}

export function computeSets(states: Iterable<ToolState>, ctx: SetsContext): Sets {
  const configured: string[] = [];
  const permitted: string[] = [];
  const offeredInOrder: string[] = [];
  const searchable: string[] = [];
  const servers: string[] = [];
  const seenServers = new Set<string>();
  const appended = new Set(ctx.appended ?? []);
  const offeredSet = new Set<string>();
  for (const s of states) {
    configured.push(s.name);
    if (!isPermitted(s, ctx.forced)) continue;
    permitted.push(s.name);
    // A permitted MCP tool resolved against its server (read from the source, so the definition is not built).
    const source = s.config.source?.value;
    const server = source?.kind === 'mcp' ? source.server : undefined;
    if (server !== undefined && !seenServers.has(server)) {
      seenServers.add(server);
      servers.push(server);
    }
    if (isOffered(s, ctx.forced)) {
      offeredSet.add(s.name);
      if (!appended.has(s.name)) offeredInOrder.push(s.name);
    } else if (isSearchable(s, ctx.forced)) searchable.push(s.name);
  }
  const builtins = builtinNames(ctx.registered);
  const tail = (ctx.appended ?? []).filter((n) => offeredSet.has(n));
  const offered = [...offeredInOrder, ...builtins, ...tail];
  return {
    configured: [...configured, ...builtins],
    permitted: [...permitted, ...builtins],
    offered,
    searchable,
    servers,
    catalogue: configured,
    sizes: { configured: configured.length + builtins.length, permitted: permitted.length + builtins.length, offered: offered.length, searchable: searchable.length },
  };
}
