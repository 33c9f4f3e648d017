// Test helpers: a real `tool-workbench serve` (the bundled bin, as a user runs it), raw HTTP
// requests with any Host and Origin (fetch would not let a test forge them), and JP workspaces
// in temporary folders.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { isAlive, markedBy } from './processTree';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The variable that marks every process a test file starts, directly or not: `serve`, the servers it
 * starts, what they start, `snapshot`. Its value is the file's cookie (each test file loads this module
 * afresh), put in this process's environment so every child inherits it, whatever spawned it.
 */
export const TEST_VARIABLE = 'TOOL_WORKBENCH_TEST';
export const TEST_COOKIE = randomBytes(9).toString('hex');
process.env[TEST_VARIABLE] = TEST_COOKIE;

/**
 * Ends (SIGKILL: the tests are over, and some fixtures ignore SIGTERM) every process carrying this
 * file's cookie, and waits until none runs; what it ended (pid and command line). A failing lifecycle test once left
 * 30 fixture processes running: no test's failure may leave one.
 */
export async function endTestProcesses(): Promise<string[]> {
  const ended = new Map<number, string>();
  for (let round = 0; round < 100; round++) {
    const left = markedBy(TEST_VARIABLE, TEST_COOKIE).filter(isAlive);
    if (left.length === 0) return [...ended].map(([pid, command]) => `${pid} ${command}`);
    for (const p of left) {
      if (!ended.has(p)) ended.set(p, commandOf(p));
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await sleep(50);
  }
  throw new Error(`processes of this test file still run after SIGKILL: ${markedBy(TEST_VARIABLE, TEST_COOKIE).filter(isAlive).join(', ')}`);
}

/** A process's command line, cut, for saying what was left running. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200);
  } catch {
    return '(gone)';
  }
}

/** Called first in a test file: after its last test (and after its other afterAll hooks), no process of it runs. */
export function endsItsProcesses(): void {
  afterAll(async () => {
    const ended = await endTestProcesses();
    // Said, not failed: the tests' own assertions say what should have stopped; this only cleans up.
    if (ended.length > 0) console.warn(`ended ${ended.length} process${ended.length === 1 ? '' : 'es'} this test file left running (${TEST_VARIABLE}=${TEST_COOKIE}):\n  ${ended.join('\n  ')}`);
  }, 30_000);
}
export const FIXTURES = join(ROOT, 'src', 'bridge', 'fixtures');
export const BIN = join(ROOT, 'cli-bin', 'tool-workbench.cjs');
export const serverBin = (pkg: 'filesystem' | 'memory' | 'everything') => join(ROOT, 'node_modules', '@modelcontextprotocol', `server-${pkg}`, 'dist', 'index.js');

export interface Running {
  readonly proc: ChildProcess;
  readonly port: number;
  /** The session token the printed code was exchanged for (as the page does). */
  readonly token: string;
  /** The printed address's one-time code (spent by the exchange). */
  readonly code: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<number | null>;
}

/** The one request that trades the printed code for a session token (README: "Scripts and tests"). */
export async function exchangeCode(port: number, code: string): Promise<Reply> {
  return raw(port, { method: 'POST', path: '/bridge/session', origin: `http://127.0.0.1:${port}`, body: { code } });
}

/**
 * Starts `tool-workbench serve --port 0 --no-open --no-build`; resolves once its first line is out and
 * its code is exchanged for a session token. `stdin: 'pipe'` leaves the terminal's input open
 * (proc.stdin) for tests that answer it.
 */
export function startServe(env: NodeJS.ProcessEnv = {}, extra: readonly string[] = [], stdin: 'ignore' | 'pipe' = 'ignore'): Promise<Running> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-open', '--no-build', ...extra], { cwd: ROOT, env: { ...process.env, ...env }, stdio: [stdin, 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((ok) => proc.once('exit', (code) => ok(code)));
  const printed = new Promise<{ port: number; code: string }>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve printed no address in 60 s; stderr: ${err}`)), 60_000);
    proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^Tool Catalogue Workbench on http:\/\/127\.0\.0\.1:(\d+)\/#code=([A-Za-z0-9_-]+)\n/u.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ port: Number(m[1]), code: m[2] as string });
      }
    });
    void exited.then((code) => fail(new Error(`serve exited (${code}) before printing its address; stderr: ${err}`)));
  });
  return printed.then(async ({ port, code }) => {
    const r = await exchangeCode(port, code);
    if (r.status !== 200) throw new Error(`the printed code was refused: ${r.status} ${r.body}`);
    return { proc, port, code, token: r.json<{ token: string }>().token, stdout: () => out, stderr: () => err, exited };
  });
}

export interface Reply {
  readonly status: number;
  readonly body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface Req {
  readonly method?: string;
  readonly path: string;
  readonly host?: string | null;
  readonly origin?: string | null;
  readonly token?: string | null;
  readonly body?: unknown;
}

/** One HTTP request to 127.0.0.1:port with exactly the Host, Origin and Authorization given. */
export function raw(port: number, r: Req): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (r.host !== null) headers.host = r.host ?? `127.0.0.1:${port}`;
  if (r.origin !== null && r.origin !== undefined) headers.origin = r.origin;
  if (r.token !== null && r.token !== undefined) headers.authorization = `Bearer ${r.token}`;
  const data = r.body === undefined ? undefined : JSON.stringify(r.body);
  if (data !== undefined) headers['content-type'] = 'application/json';
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers, setHost: false, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body, json: <T>() => JSON.parse(body) as T }));
    });
    req.on('error', fail);
    req.end(data);
  });
}

/** A client of one running bridge, as the page is: its token and its own Origin on every request. */
export function pageClient(s: Running) {
  const own = `http://127.0.0.1:${s.port}`;
  return {
    get: (path: string) => raw(s.port, { path, token: s.token }),
    post: (path: string, body: unknown = {}) => raw(s.port, { method: 'POST', path, token: s.token, origin: own, body }),
    del: (path: string) => raw(s.port, { method: 'DELETE', path, token: s.token, origin: own }),
  };
}

/** A temporary JP project: `.jp/config.toml` with the given text, and a `data` folder. */
export function tempWorkspace(configToml: (root: string) => string): string {
  const root = mkdtempSync(join(tmpdir(), 'wb-bridge-'));
  mkdirSync(join(root, '.jp'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'hello.txt'), 'hello from the workspace\n');
  writeFileSync(join(root, '.jp', 'config.toml'), configToml(root));
  return root;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `f` gives a value (or throws after `ms`). */
export async function eventually<T>(f: () => Promise<T | undefined> | T | undefined, ms = 20_000, what = 'the condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

export type PageClient = ReturnType<typeof pageClient>;

/**
 * One real `serve` for the tests of a file (or of the describe it is called in): started before the
 * first, stopped after the last, and handed over with the page's client to it.
 */
export function serveForFile(env: NodeJS.ProcessEnv, started: (running: Running, page: PageClient) => void): void {
  let running: Running | undefined;
  beforeAll(async () => {
    running = await startServe(env);
    started(running, pageClient(running));
  }, 90_000);
  afterAll(async () => {
    running?.proc.kill('SIGTERM');
    await running?.exited;
  }, 30_000);
}
