// Which of a workspace's MCP servers JP starts, and in which folder. Pure: the
// bridge's "Start servers", `tool-workbench snapshot` and the page's plan all ask
// this one function.
//
// JP today (../shared/reference/jp-today.md §1.6 "Startup" and §4.7, dcdpr/jp at 4c1c39f1):
// `Ctx::configure_active_mcp_servers` (crates/jp_cli/src/ctx.rs:172-191) collects the server of
// every MCP tool whose `is_enabled()` holds, and `run_services` starts those and nothing else; a
// declared server no enabled tool names is never started, so its failure cannot abort anything.
// RFD 108 (Phase 2, "MCP server startup: permitted") widens this to the permitted set: a
// discoverable tool's server starts eagerly too ("Discovery saves context, not startup").
// The folder: JP's `create_client` (crates/jp_mcp/src/client.rs:316 at 4c1c39f1) spawns
// `Command::new(command)` with no `current_dir`, so a server runs in JP's own working directory
// (where `jp` was run), not the workspace root.
import { effectiveEnable } from '../config/effective';
import type { PartialConfig } from '../config/types';

export interface ServersJpStartsOptions {
  /** RFD 108: a discoverable tool's server starts too (it is permitted). Today's JP has no discoverable. */
  readonly discoverable?: boolean;
}

export interface ServerNotStarted {
  readonly server: string;
  /** Some tool names it, but none of those is enabled (false: no tool names it at all). */
  readonly named: boolean;
  readonly reason: string;
}

export interface ServersJpStarts {
  /** Declared servers JP starts, in declaration order, each with the tools that need it. */
  readonly started: readonly { readonly server: string; readonly tools: readonly string[] }[];
  /** Declared servers it leaves alone: no enabled (or discoverable) tool names them. */
  readonly notStarted: readonly ServerNotStarted[];
}

/**
 * The servers JP starts for `config` (the merged layers): those of MCP tools that are on (and, under
 * RFD 108, discoverable), out of `declared` (the `[providers.mcp.*]` names, in order).
 */
export function serversJpStarts(config: PartialConfig, declared: readonly string[], options: ServersJpStartsOptions = {}): ServersJpStarts {
  const discoverable = options.discoverable ?? true;
  const needs = new Map<string, string[]>();
  const off = new Map<string, string[]>();
  for (const tool of config.tools.values()) {
    const source = tool.source?.value;
    if (source?.kind !== 'mcp') continue;
    const availability = effectiveEnable(tool, config.defaults).availability.value;
    const starts = availability === 'on' || (availability === 'discoverable' && discoverable);
    const into = starts ? needs : off;
    into.set(source.server, [...(into.get(source.server) ?? []), tool.name]);
  }
  const started: { server: string; tools: string[] }[] = [];
  const notStarted: ServerNotStarted[] = [];
  for (const server of declared) {
    const tools = needs.get(server);
    if (tools) started.push({ server, tools });
    else {
      const unused = off.get(server);
      notStarted.push({
        server,
        named: unused !== undefined,
        reason:
          unused === undefined
            ? 'no tool names it (source = "mcp.' + server + '")'
            : `no enabled tool uses it (${unused.join(', ')} ${unused.length === 1 ? 'is' : 'are'} off${discoverable ? '' : ' or discoverable'})`,
      });
    }
  }
  return { started, notStarted };
}

