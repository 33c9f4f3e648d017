// A snapshot of real servers' tool lists: one catalogue file in the multi-server
// form (`[{ name, description, tools: { SERVER: { tools: [...] } } }]`), so a
// scenario names each server as `catalogue = "FILE#SERVER"` and `check` replays a
// real setup offline. `tool-workbench snapshot` and the page write the same file.
import { parseToolsList, toolEntryJson } from '../catalogue/tools-list';

export interface SnapshotServer {
  readonly name: string;
  /** The server's tools/list entries as it sent them. */
  readonly tools: readonly unknown[];
  /** Whole, as the server sent it (name, version, title, description, icons, websiteUrl, and any other field). */
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
}

export interface Snapshot {
  /** The file's JSON value. */
  readonly value: unknown[];
  /** Problems with the servers' tools (each dropped tool named). */
  readonly warnings: readonly string[];
}

/** The catalogue file for `servers`, each tool validated as the importer reads it. */
export function snapshotCatalogue(name: string, description: string, servers: readonly SnapshotServer[]): Snapshot {
  const warnings: string[] = [];
  const byServer: Record<string, unknown> = {};
  for (const s of servers) {
    const parsed = parseToolsList({ tools: s.tools });
    warnings.push(...parsed.errors.map((e) => `${s.name}: ${e}`));
    Object.defineProperty(byServer, s.name, {
      value: {
        ...(s.serverInfo ? { serverInfo: copy(s.serverInfo) } : {}),
        ...(s.protocolVersion !== undefined ? { protocolVersion: s.protocolVersion } : {}),
        ...(s.instructions !== undefined ? { instructions: s.instructions } : {}),
        ...(s.capabilities ? { capabilities: copy(s.capabilities) } : {}),
        tools: parsed.tools.map(toolEntryJson),
      },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { value: [{ name, description, tools: byServer }], warnings };
}

function copy(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}

/** The `[servers.NAME]` tables that replay a snapshot file (FILE relative to the scenario). */
export function snapshotServersToml(file: string, servers: readonly string[]): string {
  const key = (s: string) => (/^[A-Za-z0-9_-]+$/u.test(s) ? s : JSON.stringify(s));
  return servers.map((s) => `[servers.${key(s)}]\ncatalogue = ${JSON.stringify(`${file}#${s}`)}\n`).join('\n');
}
