// Starting a `[providers.mcp.NAME]` server as JP does (crates/jp_mcp/src/client.rs,
// `create_client`, read 2026-12-01): the checksum of the binary first (found on
// PATH like JP's `which`), then the command with its arguments, in the workspace
// root, inheriting the environment plus the named `variables`, in its own process
// group, stderr piped to the server's log. The MCP messages go over the child's
// stdin/stdout with the SDK's own framing (ReadBuffer, serializeMessage), in a
// transport of ours only because the SDK's StdioClientTransport cannot start the
// child as a group leader, which stopping the whole tree needs.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';

/** The largest single message a server may send (a 4 MiB tool list, with room to spare). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** The file `command` runs: a path (relative to `cwd`) when it has a slash, else the first match on PATH. */
export function locate(command: string, cwd: string, path = process.env.PATH ?? ''): string | undefined {
  const isFile = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const p = isAbsolute(command) ? command : resolve(cwd, command);
    return isFile(p) ? p : undefined;
  }
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const p = join(dir, command);
    if (isFile(p)) return p;
  }
  return undefined;
}

export type ChecksumResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** JP's `verify_file_checksum`: the digest of the binary `command` names, before it runs. */
export function verifyChecksum(server: string, spec: McpLaunchSpec, cwd: string): ChecksumResult {
  const wanted = spec.checksum;
  if (!wanted) return { ok: true };
  const path = locate(spec.command, cwd);
  if (!path) return { ok: false, message: `Cannot locate binary: ${spec.command}` };
  let contents: Buffer;
  try {
    contents = readFileSync(path);
  } catch (e) {
    return { ok: false, message: `Cannot read file: ${path}, error: ${(e as Error).message}` };
  }
  const got = createHash(wanted.algorithm).update(contents).digest('hex');
  if (got === wanted.value.toLowerCase()) return { ok: true };
  return { ok: false, message: `Checksum mismatch for server: ${server} (${path}), expected ${wanted.value}, got ${got}` };
}

export interface SpawnResult {
  readonly child: ChildProcess;
  /** Variables the spec names that the bridge's environment does not have (JP warns and goes on). */
  readonly missing: readonly string[];
  /** The values given, to mask them in logs. */
  readonly secrets: readonly string[];
}

/** Spawns the server: its own process group, in `cwd`, the environment plus the named variables. */
export function spawnServer(spec: McpLaunchSpec, cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnResult {
  const missing: string[] = [];
  const secrets: string[] = [];
  for (const name of spec.variables) {
    const value = env[name];
    if (value === undefined) missing.push(name);
    else secrets.push(value);
  }
  const child = spawn(spec.command, [...spec.arguments], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
  });
  return { child, missing, secrets };
}

/** An MCP transport over a spawned child's stdin and stdout. */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  protocolVersion?: string;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private closed = false;

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    const { child } = this;
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
        for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
      } catch (e) {
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
    });
    child.stdin?.on('error', (e) => this.onerror?.(e));
    child.on('error', (e) => this.onerror?.(e));
    child.on('close', () => this.finish());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child.stdin;
    if (this.closed || !stdin || stdin.destroyed) throw new Error('the server process has ended');
    await new Promise<void>((ok, fail) => {
      stdin.write(serializeMessage(message), (e) => (e ? fail(e) : ok()));
    });
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async close(): Promise<void> {
    // Ending stdin is the polite stop (the MCP spec's stdio shutdown); the owner stops the tree.
    this.child.stdin?.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
