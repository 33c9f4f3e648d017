// `tool-workbench serve`: builds the app when needed, listens on 127.0.0.1 (4173,
// or the next free port), prints the address with a one-time code as the first
// line of stdout, opens the browser, and on SIGINT or SIGTERM stops every server it
// started (their whole process trees) before it exits. Its terminal is trusted: a
// line typed there (Enter) prints a new address, and with --confirm-in-terminal it
// asks y/N there before any process starts.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Bridge } from './bridge';
import { buildApp, staleness } from './build';
import { terminalOf } from './log';
import { Masker } from './secrets';
import { Sessions } from './security';
import { Watchdog } from './watchdog';

export interface ServeOptions {
  readonly root: string;
  /** undefined: 4173 or the next free one; 0: any free port. */
  readonly port?: number;
  readonly open: boolean;
  readonly build: boolean;
  readonly idleStopSecs: number;
  /** Plans wait this long for their confirmation; failed connections are dropped after it. */
  readonly expireSecs: number;
  readonly confirmInTerminal: boolean;
  /** How long a stop waits after SIGTERM before SIGKILL (default: stopTree's 1.5 s). */
  readonly stopGraceSecs?: number;
  /** `--record FILE`: every exchange with the user's model, appended (issue 26). */
  readonly record?: string;
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

/**
 * The terminal's input: each line answers the question asked (y/N), or, when none is, asks for a
 * new address. Questions wait in turn; with no input (stdin closed) every answer is no.
 */
class TerminalInput {
  private readonly waiting: ((yes: boolean) => void)[] = [];
  private closed = false;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly onEnter: () => void,
  ) {
    const lines = createInterface({ input });
    lines.on('line', (line) => {
      const answer = this.waiting.shift();
      if (answer) answer(/^\s*y(es)?\s*$/iu.test(line));
      else this.onEnter();
    });
    lines.on('close', () => {
      this.closed = true;
      for (const answer of this.waiting.splice(0)) answer(false);
    });
  }

  /** Each line said as a terminal line (masked, escaped), the last with the prompt. */
  ask(question: readonly string[], say: (line: string) => void): Promise<boolean> {
    const lines = question.length > 0 ? question : ['Go on?'];
    for (const line of lines.slice(0, -1)) say(line);
    if (this.closed) {
      say(`${lines.at(-1) ?? ''} [y/N] no (the terminal has no input)`);
      return Promise.resolve(false);
    }
    say(`${lines.at(-1) ?? ''} [y/N]`);
    return new Promise((ok) => this.waiting.push(ok));
  }
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
  const sessions = new Sessions();
  const masker = new Masker();
  const terminal = terminalOf((t) => io.out(t), masker);
  // The watchdog is this same CLI (`tool-workbench __watchdog`), started beside the bridge.
  const watchdog = new Watchdog([process.argv[1] as string, '__watchdog']);
  // Enter on the terminal: a new address (set once the port is known).
  let newAddress = () => {};
  const input = new TerminalInput(process.stdin, () => newAddress());
  const bridge = new Bridge({
    sessions,
    masker,
    dist: join(options.root, 'dist'),
    terminal,
    version,
    idleStopMs: options.idleStopSecs * 1000,
    expireMs: options.expireSecs * 1000,
    ...(options.stopGraceSecs !== undefined ? { stopGraceMs: options.stopGraceSecs * 1000 } : {}),
    watchdog,
    ...(options.record !== undefined ? { record: options.record } : {}),
    // Through the terminal's one door, as every line: the question shows the commands the user confirms.
    ...(options.confirmInTerminal ? { askInTerminal: (q: readonly string[]) => input.ask(q, (t) => terminal.line(t)) } : {}),
  });
  let port: number;
  try {
    port = await listen(bridge, options.port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.err(`tool-workbench serve: cannot listen on 127.0.0.1:${options.port ?? DEFAULT_PORT}${code === 'EADDRINUSE' ? ': the port is taken; pick another with --port N (0: any free port)' : `: ${(e as Error).message}`}\n`);
    return 2;
  }
  const address = () => `http://127.0.0.1:${port}/#code=${sessions.newCode()}`;
  const url = address();
  // The first line of stdout, which scripts and tests read. The code in it opens one page session.
  io.out(`Tool Catalogue Workbench on ${url}\n`);
  io.out(
    `The bridge starts MCP servers only from a workspace you confirm${options.confirmInTerminal ? ' in the page and here' : ' in the page'}, and prints each command here. The address opens one page session; press Enter here for a new one. Ctrl+C stops the bridge and every server it started.\n`,
  );
  newAddress = () => io.out(`A new address (the previous one no longer opens a session): ${address()}\n`);
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
