// The bridge specs run their own `tool-workbench serve` (the built app from dist/, a free port
// picked at run time), the way a user runs `npm start`, and a temporary JP workspace.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectConsoleErrors } from './fixtures';

/** The repository: `serve` runs here (the servers it starts run in their workspace's root, issue 34.1). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface Serve {
  readonly proc: ChildProcess;
  /** The address with its one-time code, as printed: it opens one page session. */
  readonly url: string;
  stdout(): string;
  /** Presses Enter on the bridge's terminal: a new address, with a new one-time code. */
  newAddress(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `env`: added to this process's environment (a model provider's key and base URL, issue 26); `extra`:
 * more `serve` arguments, e.g. a short `--idle-stop`; `port`: 0 (the default) lets the system pick one.
 */
export function startServe(env: Readonly<Record<string, string>> = {}, extra: readonly string[] = [], port = 0): Promise<Serve> {
  const proc = spawn(process.execPath, [join(ROOT, 'cli-bin', 'tool-workbench.cjs'), 'serve', '--port', String(port), '--no-open', '--no-build', ...extra], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<void>((ok) => proc.once('exit', () => ok()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve printed no address; stderr: ${err}`)), 60_000);
    proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^Tool Catalogue Workbench on (http:\/\/127\.0\.0\.1:\d+\/#code=[A-Za-z0-9_-]+)\n/u.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({
          proc,
          url: m[1] as string,
          stdout: () => out,
          newAddress: async () => {
            const before = out.length;
            proc.stdin?.write('\n');
            for (let i = 0; i < 100; i++) {
              const fresh = /A new address \(the previous one no longer opens a session\): (http:\/\/\S+#code=[A-Za-z0-9_-]+)/u.exec(out.slice(before));
              if (fresh) return fresh[1] as string;
              await new Promise((r) => setTimeout(r, 100));
            }
            throw new Error('the bridge printed no new address');
          },
          stop: async () => {
            // The page may still be open on it: its heartbeat and polls now meet a closed port.
            const origin = new URL(m[1] as string).origin;
            expectConsoleErrors((text, url) => url.startsWith(`${origin}/`) && text.includes('net::ERR_CONNECTION_REFUSED'));
            proc.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
  });
}

/** A JP project in a temporary folder: `.jp/config.toml`, a persona `dev`, and a `data` folder. */
export function jpWorkspace(files: (root: string) => Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'wb-e2e-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'hello.txt'), 'hello from the workspace\n');
  for (const [path, text] of Object.entries(files(root))) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export const serverBin = (pkg: 'filesystem' | 'memory') => join(ROOT, 'node_modules', '@modelcontextprotocol', `server-${pkg}`, 'dist', 'index.js');

/** The bridge's hostile test server (src/bridge/fixtures/hostile.mjs): `asks` elicits a form and reports progress. */
export const hostileBin = join(ROOT, 'src', 'bridge', 'fixtures', 'hostile.mjs');
