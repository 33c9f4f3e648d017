// Starting a `[providers.mcp.NAME]` server as JP does (crates/jp_mcp/src/client.rs,
// `create_client`, read 2026-12-01): the checksum of the binary first (found on
// PATH like JP's `which`), then the command with its arguments, in the workspace
// root, inheriting the environment plus the named `variables`, in its own process
// group, stderr piped to the server's log. The MCP messages go over the child's
// stdin/stdout as the SDK frames them (one JSON message a line; serializeMessage,
// deserializeMessage), in a transport of ours: the SDK's StdioClientTransport cannot
// start the child as a group leader, which stopping the whole tree needs, and its
// ReadBuffer copies the whole pending line on every chunk, so one endless line
// pinned a core. Here a line is read in one pass and capped.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes, MAX_MESSAGE_BYTES } from '../core/import/catalogue';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';
import { newTreeCookie, TREE_VARIABLE } from './processTree';
import { environmentSecrets } from './secrets';

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
  /** The values given, and the inherited credentials (environmentSecrets), to mask them. */
  readonly secrets: readonly string[];
  /** The cookie in its environment (TREE_VARIABLE), which everything it starts inherits. */
  readonly cookie: string;
}

/**
 * Spawns the server: its own process group, in `cwd`, the environment plus the named variables, and
 * TREE_VARIABLE, so whatever it starts is found when it is stopped, even once re-parented.
 */
export function spawnServer(spec: McpLaunchSpec, cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnResult {
  const missing: string[] = [];
  const secrets: string[] = [];
  for (const name of spec.variables) {
    const value = env[name];
    if (value === undefined) missing.push(name);
    else secrets.push(value);
  }
  // The rest of the environment the server inherits: what is named as a credential is masked too.
  secrets.push(...environmentSecrets(env));
  const cookie = newTreeCookie();
  const child = spawn(spec.command, [...spec.arguments], {
    cwd,
    env: { ...env, [TREE_VARIABLE]: cookie },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
  });
  return { child, missing, secrets, cookie };
}

export class LineTooLong extends Error {}

/**
 * Splits a byte stream into lines (LF, an optional CR before it dropped). Each chunk is scanned once,
 * and a line is joined once, when it ends: no line may pass `cap` bytes, and the bytes of one that
 * would are never kept.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly cap: number) {}

  /** The lines `chunk` completes; throws LineTooLong as soon as the line in progress passes the cap. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.keep(chunk.subarray(start, nl));
      const line = (this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size)).toString('utf8');
      lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
      this.parts = [];
      this.size = 0;
      start = nl + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
    return lines;
  }

  private keep(piece: Buffer): void {
    if (this.size + piece.length > this.cap) {
      const size = this.size + piece.length;
      this.parts = [];
      this.size = 0;
      throw new LineTooLong(`the server sent a message line over ${formatBytes(this.cap)} (${formatBytes(size)} read, no end in sight); the bridge reads at most that in one message and stopped the server`);
    }
    this.parts.push(piece);
    this.size += piece.length;
  }
}

/** An MCP transport over a spawned child's stdin and stdout. */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  protocolVersion?: string;
  /** Why the transport gave up on the server (a line over the cap), when it did. */
  failure: string | undefined;
  private readonly lines: LineReader;
  private closed = false;
  /**
   * Messages are handed on one at a time, each after what the one before set in motion: the SDK
   * runs a notification's handler a microtask later but a reply's at once, so a progress update
   * read in the same chunk as its request's reply was dropped (its handler was gone by then).
   */
  private delivery: Promise<void> = Promise.resolve();

  constructor(
    private readonly child: ChildProcess,
    maxLineBytes = MAX_MESSAGE_BYTES,
  ) {
    this.lines = new LineReader(maxLineBytes);
  }

  async start(): Promise<void> {
    const { child } = this;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.closed) return;
      let lines: string[];
      try {
        lines = this.lines.push(chunk);
      } catch (e) {
        // Nothing more is read from a server past the cap: it fails, with the reason.
        this.failure = (e as Error).message;
        child.stdout?.destroy();
        this.onerror?.(e as Error);
        this.later(() => this.finish());
        return;
      }
      for (const line of lines) this.onLine(line);
    });
    child.stdin?.on('error', (e) => this.onerror?.(e));
    child.on('error', (e) => this.onerror?.(e));
    child.on('close', () => this.later(() => this.finish()));
  }

  /** Runs `f` after every message read before it has been handed on. */
  private later(f: () => void): void {
    this.delivery = this.delivery.then(f).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
  }

  /**
   * Told each line on stdout that is no JSON-RPC message (a server's own log line, a banner): it is
   * skipped and the server goes on, as the SDK's own client does; the owner keeps it in the log.
   */
  onNoise?: (line: string) => void;

  /** One line from the server: one JSON-RPC message, or noise, skipped. */
  private onLine(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.onNoise?.(line);
      return;
    }
    this.later(() => {
      if (this.closed) return;
      try {
        this.onmessage?.(message);
      } catch (e) {
        // Whatever a message does downstream, it never throws out of the stream's event.
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
    });
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
    this.onclose?.();
  }
}
