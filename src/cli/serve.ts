// `tool-workbench serve` and `tool-workbench snapshot`: argument parsing and
// usage only; the bridge (src/bridge) does the work, loaded on first use so the
// other commands do not pay for it.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from './main';

export const SERVE_USAGE = `usage: tool-workbench serve [--port N] [--no-open] [--no-build] [--idle-stop SECONDS] [--expire SECONDS] [--stop-grace SECONDS] [--confirm-in-terminal] [--record FILE]
  Serves the workbench and its local bridge on one loopback origin, http://127.0.0.1:4173 (or the
  next free port), and prints the address with a one-time code as the first line (the page trades
  it for a session; press Enter for a new address). The bridge starts a JP workspace's stdio MCP
  servers once you confirm them in the page, reaches HTTP MCP servers for it (no CORS), and stops
  every server it started on Ctrl+C.
  --port N               listen on N (0: any free port); fails if N is taken
  --no-open              do not open a browser
  --no-build             serve dist/ as it is (by default the app is built when missing or stale)
  --idle-stop S          stop the servers when no page has been seen for S seconds (default 120; 0: never)
  --expire S             a plan must be confirmed within S seconds, and a failed connection is
                         dropped after S seconds (default 60)
  --stop-grace S         Stop sends SIGTERM to a server's whole tree and SIGKILL to what still runs
                         S seconds later (default 1.5)
  --confirm-in-terminal  also ask y/N here before any server process starts
  --record FILE          append every exchange with your model (the page's "Ask the model", the Tasks
                         tab) to FILE as JSON lines, never a key; tool-workbench tasks --replay reads it
  Your model's keys come from this terminal's environment (ANTHROPIC_API_KEY, OPENAI_API_KEY,
  GEMINI_API_KEY, OPENROUTER_API_KEY, CEREBRAS_API_KEY; base URLs ANTHROPIC_BASE_URL, OPENAI_BASE_URL,
  OLLAMA_HOST, LLAMACPP_BASE_URL...) or from the page, kept in this process's memory only.
`;

export const SNAPSHOT_USAGE = `usage: tool-workbench snapshot --workspace DIR [--persona NAME] --out FILE
  Starts the [providers.mcp.*] servers of the JP workspace DIR (a project or its .jp folder) as JP
  would, with the persona's config when given, takes every server's tools/list and writes one
  catalogue file, then stops them. A scenario replays it offline: [servers.NAME] catalogue =
  "FILE#NAME". A required server that fails is an error (exit 1); an optional one is left out.
`;

/** Options of the form --name VALUE; flags with no value are in \`flags\`. */
function parse(args: readonly string[], valued: readonly string[], flags: readonly string[]): { values: Map<string, string>; set: Set<string> } | string {
  const values = new Map<string, string>();
  const set = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (flags.includes(a)) set.add(a);
    else if (valued.includes(a)) {
      const v = args[i + 1];
      if (v === undefined) return `${a} needs a value`;
      values.set(a, v);
      i++;
    } else return `unknown argument ${JSON.stringify(a)}`;
  }
  return { values, set };
}

function here(): string {
  return dirname(fileURLToPath(import.meta.url));
}

function count(text: string | undefined, what: string, max: number): number | string | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return /^\d+$/u.test(text) && n <= max ? n : `${what} must be a whole number from 0 to ${max}, got ${JSON.stringify(text)}`;
}

export async function serveCommand(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(SERVE_USAGE);
    return 0;
  }
  const p = parse(args, ['--port', '--idle-stop', '--expire', '--stop-grace', '--record'], ['--no-open', '--no-build', '--confirm-in-terminal']);
  const port = typeof p === 'string' ? p : count(p.values.get('--port'), '--port', 65535);
  const idle = typeof p === 'string' ? undefined : count(p.values.get('--idle-stop'), '--idle-stop', 86400);
  const expire = typeof p === 'string' ? undefined : count(p.values.get('--expire'), '--expire', 86400);
  const grace = typeof p === 'string' ? undefined : count(p.values.get('--stop-grace'), '--stop-grace', 600);
  const bad = typeof p === 'string' ? p : [port, idle, expire, grace].find((v) => typeof v === 'string') ?? (expire === 0 ? '--expire must be at least 1' : undefined);
  if (bad !== undefined || typeof p === 'string') {
    io.err(`tool-workbench serve: ${bad ?? ''}\n\n${SERVE_USAGE}`);
    return 2;
  }
  const [{ serve }, { projectRoot }] = await Promise.all([import('../bridge/serve'), import('../bridge/build')]);
  return serve(
    {
      root: projectRoot(here()),
      ...(typeof port === 'number' ? { port } : {}),
      open: !p.set.has('--no-open'),
      build: !p.set.has('--no-build'),
      idleStopSecs: typeof idle === 'number' ? idle : 120,
      expireSecs: typeof expire === 'number' ? expire : 60,
      ...(typeof grace === 'number' ? { stopGraceSecs: grace } : {}),
      confirmInTerminal: p.set.has('--confirm-in-terminal'),
      ...(p.values.get('--record') !== undefined ? { record: p.values.get('--record') as string } : {}),
    },
    io,
  );
}

export async function snapshotCommand(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(SNAPSHOT_USAGE);
    return 0;
  }
  const p = parse(args, ['--workspace', '--persona', '--out'], []);
  const missing = typeof p === 'string' ? p : !p.values.has('--workspace') ? '--workspace DIR is required' : !p.values.has('--out') ? '--out FILE is required' : undefined;
  if (missing !== undefined || typeof p === 'string') {
    io.err(`tool-workbench snapshot: ${missing ?? ''}\n\n${SNAPSHOT_USAGE}`);
    return 2;
  }
  const { snapshot } = await import('../bridge/snapshot');
  const persona = p.values.get('--persona');
  return snapshot({ workspace: p.values.get('--workspace') as string, out: p.values.get('--out') as string, ...(persona !== undefined ? { persona } : {}) }, io);
}
