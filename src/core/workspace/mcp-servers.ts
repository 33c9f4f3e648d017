// `[providers.mcp.NAME]` as JP starts it: the launch spec of every MCP server a
// workspace's layers declare, merged the way JP merges them, and the command line
// a user is asked to confirm. Pure: the bridge (node) runs the specs, the page
// shows them, and both compute them from the same layers with this module.
//
// JP (crates/jp_config/src/providers/mcp.rs, read 2026-12-01; ../shared/reference/jp-today.md 1.6):
// - `type = "stdio"` is the only transport (a serde tag);
// - `command` (a path; replaced by a later layer), `arguments` and `variables` (lists, append-merged:
//   a later layer adds to them), `checksum = { algorithm = "sha256"|"sha1" (default sha256), value }`,
//   `optional` (default false), `startup_timeout_secs` (default 60; 0 waits forever);
// - `variables` are NAMES: JP reads each from its own environment and gives it to the server
//   (crates/jp_mcp/src/client.rs, `create_client`), warning about any that is unset. The server
//   inherits the rest of the environment, so a value never appears in the config.
import type { LoadedLayer } from '../config/layer';

export type ChecksumAlgorithm = 'sha256' | 'sha1';

export interface McpLaunchSpec {
  readonly name: string;
  readonly command: string;
  readonly arguments: readonly string[];
  /** Environment variable names the server is given from the starting process's environment. */
  readonly variables: readonly string[];
  readonly checksum?: { readonly algorithm: ChecksumAlgorithm; readonly value: string };
  readonly optional: boolean;
  /** Seconds to spawn and answer `initialize`; 0 means no limit. */
  readonly startupTimeoutSecs: number;
  /** The layers that declared it, lowest first. */
  readonly layers: readonly string[];
}

export interface McpLaunchProblem {
  readonly server: string;
  readonly layer?: string;
  readonly message: string;
}

export interface McpLaunchSpecs {
  /** The servers that can be started, in declaration order. */
  readonly servers: readonly McpLaunchSpec[];
  /** Servers that cannot (no command, a bad value): each says why, naming the layer where it can. */
  readonly problems: readonly McpLaunchProblem[];
}

export const DEFAULT_STARTUP_TIMEOUT_SECS = 60;

interface Draft {
  type?: unknown;
  command?: string;
  arguments: string[];
  variables: string[];
  algorithm?: ChecksumAlgorithm;
  value?: string;
  optional?: boolean;
  timeout?: number;
  layers: string[];
  bad: McpLaunchProblem[];
}

const KNOWN_KEYS = new Set(['type', 'command', 'arguments', 'variables', 'checksum', 'optional', 'startup_timeout_secs']);

function own(o: Readonly<Record<string, unknown>>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

function asInteger(v: unknown): number | undefined {
  if (typeof v === 'bigint') return v >= 0n && v <= 4294967295n ? Number(v) : undefined;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 4294967295 ? v : undefined;
}

/** One layer's table over the draft: scalars replace, lists append (JP's `append_vec`). */
function mergeInto(d: Draft, name: string, layer: string, raw: Readonly<Record<string, unknown>>): void {
  const bad = (message: string) => d.bad.push({ server: name, layer, message: `providers.mcp.${name}: ${message}` });
  d.layers.push(layer);
  for (const key of Object.keys(raw)) if (!KNOWN_KEYS.has(key)) bad(`unknown key \`${key}\` (JP knows ${[...KNOWN_KEYS].join(', ')})`);
  const type = own(raw, 'type');
  if (type !== undefined) d.type = type;
  const command = own(raw, 'command');
  if (command !== undefined) {
    if (typeof command === 'string' && command.trim() !== '') d.command = command;
    else bad('`command` must be a non-empty string');
  }
  for (const key of ['arguments', 'variables'] as const) {
    const v = own(raw, key);
    if (v === undefined) continue;
    const list = stringList(v);
    if (list) d[key].push(...list);
    else bad(`\`${key}\` must be an array of strings`);
  }
  const checksum = own(raw, 'checksum');
  if (checksum !== undefined) {
    if (typeof checksum !== 'object' || checksum === null || Array.isArray(checksum)) bad('`checksum` must be a table { algorithm, value }');
    else {
      const c = checksum as Record<string, unknown>;
      const algorithm = own(c, 'algorithm');
      if (algorithm === 'sha256' || algorithm === 'sha1') d.algorithm = algorithm;
      else if (algorithm !== undefined) bad(`\`checksum.algorithm\` must be "sha256" or "sha1", got ${JSON.stringify(algorithm)}`);
      const value = own(c, 'value');
      if (typeof value === 'string' && /^[0-9a-f]+$/iu.test(value)) d.value = value;
      else if (value !== undefined) bad('`checksum.value` must be a hexadecimal digest');
    }
  }
  const optional = own(raw, 'optional');
  if (typeof optional === 'boolean') d.optional = optional;
  else if (optional !== undefined) bad('`optional` must be true or false');
  const timeout = own(raw, 'startup_timeout_secs');
  if (timeout !== undefined) {
    const n = asInteger(timeout);
    if (n !== undefined) d.timeout = n;
    else bad('`startup_timeout_secs` must be a whole number of seconds (0: no limit)');
  }
}

function finish(name: string, d: Draft): McpLaunchSpec | McpLaunchProblem[] {
  const problems = [...d.bad];
  const where = d.layers[d.layers.length - 1];
  const at = (message: string): McpLaunchProblem => ({ server: name, ...(where !== undefined ? { layer: where } : {}), message: `providers.mcp.${name}: ${message}` });
  if (d.type === undefined) problems.push(at('missing `type`; JP starts servers with type = "stdio" only'));
  else if (d.type !== 'stdio') problems.push(at(`type ${JSON.stringify(d.type)} is not one JP starts; the only transport is "stdio"`));
  if (d.command === undefined) problems.push(at('missing `command`: nothing to start'));
  if (d.algorithm !== undefined && d.value === undefined) problems.push(at('`checksum` has no `value`'));
  if (problems.length > 0 || d.command === undefined) return problems;
  return {
    name,
    command: d.command,
    arguments: d.arguments,
    variables: d.variables,
    ...(d.value !== undefined ? { checksum: { algorithm: d.algorithm ?? 'sha256', value: d.value.toLowerCase() } } : {}),
    optional: d.optional ?? false,
    startupTimeoutSecs: d.timeout ?? DEFAULT_STARTUP_TIMEOUT_SECS,
    layers: d.layers,
  };
}

/** Every `[providers.mcp.NAME]` of the layers (lowest precedence first), merged as JP merges them. */
export function mcpLaunchSpecs(layers: readonly LoadedLayer[]): McpLaunchSpecs {
  const drafts = new Map<string, Draft>();
  for (const layer of layers) {
    for (const [name, server] of layer.config.mcpServers) {
      let d = drafts.get(name);
      if (!d) {
        d = { arguments: [], variables: [], layers: [], bad: [] };
        drafts.set(name, d);
      }
      mergeInto(d, name, layer.name, server.raw);
    }
  }
  const servers: McpLaunchSpec[] = [];
  const problems: McpLaunchProblem[] = [];
  for (const [name, d] of drafts) {
    const done = finish(name, d);
    if (Array.isArray(done)) problems.push(...done);
    else servers.push(done);
  }
  return { servers, problems };
}

/** One word as a POSIX shell would need it written (so a confirmation shows exactly what runs). */
export function shellWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/u.test(word)) return word;
  return `'${word.replace(/'/gu, `'\\''`)}'`;
}

/** The exact command line: the command and each argument, quoted where a shell would need it. */
export function commandLine(spec: Pick<McpLaunchSpec, 'command' | 'arguments'>): string {
  return [spec.command, ...spec.arguments].map(shellWord).join(' ');
}
