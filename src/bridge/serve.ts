// `tool-workbench serve`: builds the app when needed, listens on 127.0.0.1 (4173,
// or the next free port), prints the address with its token as the first line of
// stdout, opens the browser, and on SIGINT or SIGTERM stops every server it
// started (their whole process trees) before it exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bridge } from './bridge';
import { buildApp, staleness } from './build';
import { terminalOf } from './log';
import { newToken } from './security';

export interface ServeOptions {
  readonly root: string;
  /** undefined: 4173 or the next free one; 0: any free port. */
  readonly port?: number;
  readonly open: boolean;
  readonly build: boolean;
  readonly idleStopSecs: number;
}

export interface ServeIo {
  out(text: string): void;
  err(text: string): void;
}

const DEFAULT_PORT = 4173;
const TRIES = 20;

function openBrowser(url: string): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser opener: the address is on the terminal.
  }
}

async function listen(bridge: Bridge, wanted: number | undefined): Promise<number> {
  if (wanted !== undefined) return bridge.listen(wanted);
  for (let p = DEFAULT_PORT; p < DEFAULT_PORT + TRIES; p++) {
    try {
      return await bridge.listen(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
  return bridge.listen(0);
}

/** Runs until SIGINT or SIGTERM; resolves to the exit status. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  if (options.build) {
    const why = staleness(options.root);
    if (why) {
      io.err(`${why}: building it (vite build)…\n`);
      await buildApp(options.root, (t) => io.err(t));
    }
  }
  const version = (JSON.parse(readFileSync(join(options.root, 'package.json'), 'utf8')) as { version: string }).version;
  const token = newToken();
  const terminal = terminalOf((t) => io.out(t), () => [token]);
  const bridge = new Bridge({ token, dist: join(options.root, 'dist'), terminal, version, idleStopMs: options.idleStopSecs * 1000 });
  let port: number;
  try {
    port = await listen(bridge, options.port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.err(`tool-workbench serve: cannot listen on 127.0.0.1:${options.port ?? DEFAULT_PORT}${code === 'EADDRINUSE' ? ': the port is taken; pick another with --port N (0: any free port)' : `: ${(e as Error).message}`}\n`);
    return 2;
  }
  const url = `http://127.0.0.1:${port}/#token=${token}`;
  // The first line of stdout, which scripts and tests read; the token is printed only here.
  io.out(`Tool Catalogue Workbench on ${url}\n`);
  io.out('The bridge starts MCP servers only from a workspace you confirm in the page, and prints each command here. Ctrl+C stops it and every server it started.\n');
  if (options.open) openBrowser(url);
  return new Promise<number>((done) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      terminal.line(`${signal}: stopping every server…`);
      void bridge.close().then(() => {
        for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, handlers[s]);
        done(0);
      });
    };
    const handlers = { SIGINT: () => stop('SIGINT'), SIGTERM: () => stop('SIGTERM'), SIGHUP: () => stop('SIGHUP') };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, handlers[s]);
  });
}
