// Servers' lives under a running `tool-workbench serve`, against real servers from npm (pinned
// devDependencies) and one HTTP server of our own that sends no CORS headers: JP's start
// semantics (checksum, optional, startup timeout, protocol refusal), HTTP servers reached from the
// bridge (named from serverInfo, headers, offline within 5 s, the session ended with DELETE),
// the page's MCP endpoint, and no process left after Stop or after the bridge is stopped.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendants, isAlive } from './processTree';
import { endsItsProcesses, eventually, FIXTURES, pageClient, serveForFile, serverBin, startServe, tempWorkspace } from './testServe';
import type { PageClient, Running } from './testServe';

// Whatever a failing test leaves running ends with the file (issue 34.7).
endsItsProcesses();

interface View {
  name: string;
  status: string;
  error?: string;
  pid?: number;
  optional: boolean;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  refusal?: string;
  transport?: string;
  headerNames?: string[];
  endpoint: string;
}

let s: Running;
let page: PageClient;

serveForFile({}, (running, client) => {
  s = running;
  page = client;
});

const node = process.execPath;
const toml = (name: string, args: readonly string[], extra = '') =>
  `[providers.mcp.${name}]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = ${JSON.stringify(args)}\n${extra}`;

/** Opens the workspace, plans and confirms it; the started servers' views. */
async function startWorkspace(root: string, persona?: string): Promise<View[]> {
  const id = (await page.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
  const plan = (await page.post(`/bridge/workspaces/${id}/plan`, persona !== undefined ? { persona } : {})).json<{ plan: { id: string } }>().plan;
  return (await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: View[] }>().servers;
}

async function view(name: string): Promise<View | undefined> {
  return (await page.get('/bridge/servers')).json<{ servers: View[] }>().servers.find((v) => v.name === name);
}

/** The page's side: the SDK client on the bridge's endpoint, with the token and the bridge's Origin. */
async function pageSession(endpoint: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}${endpoint}`), {
    requestInit: { headers: { Authorization: `Bearer ${s.token}`, Origin: `http://127.0.0.1:${s.port}` } },
  });
  const client = new Client({ name: 'test-page', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

describe('stdio servers started as JP starts them', () => {
  it('server-filesystem: the page lists its tools and calls one, through the endpoint', async () => {
    const root = tempWorkspace((r) => toml('fs', [serverBin('filesystem'), join(r, 'data')]));
    const [fs] = await startWorkspace(root);
    expect(fs).toMatchObject({ name: 'fs', status: 'running', serverInfo: { name: 'secure-filesystem-server' }, protocolVersion: '2025-11-25', transport: 'stdio' });
    const { client, transport } = await pageSession(fs?.endpoint ?? '');
    expect(client.getServerVersion()?.name).toBe('secure-filesystem-server');
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['read_text_file', 'list_directory', 'write_file']));
    // Every field the server sent, annotations included, reaches the page.
    expect(tools.tools.find((t) => t.name === 'write_file')?.annotations).toMatchObject({ destructiveHint: true });
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: join(root, 'data', 'hello.txt') } });
    expect(JSON.stringify(result.content)).toContain('hello from the workspace');
    const log = (await page.get('/bridge/servers/fs/log?after=0')).json<{ entries: { stream: string; text: string }[] }>().entries;
    expect(log.some((e) => e.stream === 'stderr' && /Secure MCP Filesystem Server/u.test(e.text))).toBe(true);
    expect(log.some((e) => e.stream === 'request' && e.text.includes('"tools/call"'))).toBe(true);
    await transport.terminateSession();
    await client.close();
  });

  it('server-everything over stdio, and over Streamable HTTP reached from the bridge (named from its serverInfo)', async () => {
    const root = tempWorkspace(() => toml('everything', [serverBin('everything'), 'stdio']));
    const [ev] = await startWorkspace(root);
    expect(ev).toMatchObject({ status: 'running', serverInfo: { name: expect.stringMatching(/everything/u) } });
    // The same package over Streamable HTTP, on a free port.
    const port = await freePort();
    const { spawn } = await import('node:child_process');
    const http = spawn(node, [serverBin('everything'), 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    try {
      const connected = await eventually(async () => {
        const r = (await page.post('/bridge/servers', { url: `http://127.0.0.1:${port}/mcp` })).json<{ server: View }>().server;
        if (r.status === 'running') return r;
        await page.del(`/bridge/servers/${r.name}`);
        return undefined;
      }, 30_000, 'server-everything on HTTP');
      expect(connected).toMatchObject({ transport: 'streamable', serverInfo: { name: ev?.serverInfo?.name } });
      expect(connected.name).not.toMatch(/^connecting/u);
      const { client } = await pageSession(connected.endpoint);
      expect((await client.listTools()).tools.length).toBeGreaterThan(5);
      await client.close();
      await page.del(`/bridge/servers/${connected.name}`);
    } finally {
      http.kill();
    }
    await page.del('/bridge/servers/everything');
  }, 60_000);

  it('falls back to the older HTTP+SSE transport when Streamable HTTP is refused (server-everything sse)', async () => {
    const port = await freePort();
    const { spawn } = await import('node:child_process');
    const sse = spawn(node, [serverBin('everything'), 'sse'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    try {
      const v = await eventually(async () => {
        const r = (await page.post('/bridge/servers', { url: `http://127.0.0.1:${port}/sse`, name: 'old-sse' })).json<{ server: View }>().server;
        return r.status === 'running' ? r : undefined;
      }, 30_000, 'server-everything over SSE');
      expect(v).toMatchObject({ name: 'old-sse', transport: 'sse' });
      const { client } = await pageSession(v.endpoint);
      expect((await client.listTools()).tools.length).toBeGreaterThan(5);
      await client.close();
      const log = (await page.get('/bridge/servers/old-sse/log?after=0')).body;
      expect(log).toMatch(/trying the older HTTP\+SSE transport/u);
      await page.del('/bridge/servers/old-sse');
    } finally {
      sse.kill();
    }
  }, 60_000);

  it('refuses to run a binary whose checksum differs, naming both digests', async () => {
    const wrong = '0'.repeat(64);
    const [v] = await startWorkspace(tempWorkspace(() => toml('summed', [serverBin('memory')], `checksum = { algorithm = "sha256", value = "${wrong}" }\n`)));
    const actual = createHash('sha256').update(readFileSync(node)).digest('hex');
    expect(v).toMatchObject({ status: 'failed', error: `Checksum mismatch for server: summed (${node}), expected ${wrong}, got ${actual}` });
    expect(v?.pid).toBeUndefined();
    // The right digest runs.
    const [ok] = await startWorkspace(tempWorkspace(() => toml('summed2', [serverBin('memory')], `checksum = { value = "${actual}" }\n`)));
    expect(ok?.status).toBe('running');
    await page.del('/bridge/servers/summed2');
  });

  it('a failing required server carries the error JP aborts with; an optional one is marked optional', async () => {
    const views = await startWorkspace(
      // Each used by an enabled tool: JP starts (and aborts for) only such servers.
      tempWorkspace(
        () =>
          `${toml('broken', ['-e', 'process.stderr.write("cannot start: no config\\n"); process.exit(3)'])}\n${toml('maybe', ['-e', 'process.exit(4)'], 'optional = true\n')}` +
          '[conversation.tools.fix]\nsource = "mcp.broken"\n[conversation.tools.guess]\nsource = "mcp.maybe"\n',
      ),
    );
    const broken = views.find((v) => v.name === 'broken');
    expect(broken).toMatchObject({ status: 'failed', optional: false });
    expect(broken?.error).toMatch(/^Server initialization error: .* error: the server exited \(code 3\)\nstderr:\n {2}cannot start: no config/u);
    expect(views.find((v) => v.name === 'maybe')).toMatchObject({ status: 'failed', optional: true });
    expect(s.stdout()).toMatch(/maybe: optional server failed to start; skipped/u);
  });

  it('gives up after startup_timeout_secs, as JP does', async () => {
    const [v] = await startWorkspace(tempWorkspace(() => toml('slow', ['-e', 'setInterval(() => {}, 1000)'], 'startup_timeout_secs = 1\n')));
    expect(v).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Server initialization timed out after 1s: /u) });
    expect(v?.pid).toBeUndefined();
  });

  it('says which protocol versions it speaks, and what a server that refuses them answered', async () => {
    const [v] = await startWorkspace(tempWorkspace(() => toml('old', [join(FIXTURES, 'old-protocol.mjs')])));
    expect(v?.status).toBe('failed');
    expect(v?.error).toMatch(/protocol version is not supported: 1999-01-01/u);
    expect(v?.error).toMatch(/the bridge speaks MCP 2025-11-25, 2025-06-18/u);
    expect(v?.refusal).toContain('"protocolVersion":"1999-01-01"');
  });
});

describe('HTTP servers reached from the bridge', () => {
  let http: HttpServer;
  let port = 0;
  const seen: { method: string; auth: string | undefined }[] = [];
  beforeAll(async () => {
    // A Streamable HTTP server that sends no CORS headers at all: a page could not reach it.
    http = createServer((req, res) => void serveMcp(req, res));
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    async function serveMcp(req: IncomingMessage, res: ServerResponse) {
      seen.push({ method: req.method ?? '', auth: req.headers.authorization });
      const id = req.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing) return existing.handleRequest(req, res);
      const server = new Server({ name: 'No CORS Server', version: '1.2.3' }, { capabilities: { tools: {} } });
      const auth = req.headers.authorization ?? '';
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [
          { name: 'shout', description: 'Upper-cases text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, outputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } },
          // A careless server that echoes the credentials it was sent.
          { name: 'whoami', description: `Says who you are (you sent ${auth}).`, inputSchema: { type: 'object' } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, async (r) => {
        if (r.params.name === 'whoami') {
          if (r.params.arguments?.fail === true) throw new McpError(-32001, `token ${auth.split(' ')[1] ?? ''} is expired`, { sent: auth });
          return { content: [{ type: 'text', text: `token ${auth.split(' ')[1] ?? ''}` }], structuredContent: { authorization: auth } };
        }
        const text = String(r.params.arguments?.text ?? '').toUpperCase();
        return { content: [{ type: 'text', text }], structuredContent: { text } };
      });
      const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => `s${sessions.size + 1}`, onsessioninitialized: (sid) => void sessions.set(sid, t) });
      await server.connect(t);
      await t.handleRequest(req, res);
    }
    port = await new Promise<number>((ok) => http.listen(0, '127.0.0.1', () => ok((http.address() as { port: number }).port)));
  });
  afterAll(() => {
    http.closeAllConnections();
    http.close();
  });

  it('connects with the headers the user gave, shows only their names, and keeps every tool field', async () => {
    const r = await page.post('/bridge/servers', { url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer header-secret-42' } });
    const v = r.json<{ server: View }>().server;
    expect(v).toMatchObject({ name: 'no_cors_server', status: 'running', headerNames: ['Authorization'], transport: 'streamable' });
    expect(r.body).not.toContain('header-secret-42');
    expect(seen.some((x) => x.auth === 'Bearer header-secret-42')).toBe(true);
    const { client } = await pageSession(v.endpoint);
    const tools = (await client.listTools()).tools;
    expect(tools[0]).toMatchObject({ name: 'shout', outputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } });
    expect(await client.callTool({ name: 'shout', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'HI' }] });
    // What the server echoes of the header reaches the page masked: the whole value, or the token alone.
    expect(tools[1]?.description).toBe('Says who you are (you sent ***).');
    const echoed = await client.callTool({ name: 'whoami', arguments: {} });
    expect(echoed).toMatchObject({ content: [{ type: 'text', text: 'token ***' }], structuredContent: { authorization: '***' } });
    const refused = await client.callTool({ name: 'whoami', arguments: { fail: true } }).then(
      (r) => JSON.stringify(r),
      (e: unknown) => JSON.stringify({ message: (e as Error).message, data: (e as McpError).data }),
    );
    expect(refused).toContain('is expired');
    expect(refused).not.toContain('header-secret-42');
    await client.close();
    const log = (await page.get(`/bridge/servers/${v.name}/log?after=0`)).body;
    const entries = JSON.parse(log) as { entries: { stream: string; text: string }[] };
    // The log shows the server's own reply, masked (the bridge masks before it forwards, too).
    expect(entries.entries.some((e) => e.stream === 'response' && e.text.includes('"text":"token ***"'))).toBe(true);
    expect(log).not.toContain('header-secret-42');
    expect(s.stdout()).not.toContain('header-secret-42');
  });

  it('ends the session with DELETE on stop, and sees a server that went away as failed (pinged)', async () => {
    const before = seen.filter((x) => x.method === 'DELETE').length;
    await page.post('/bridge/servers/no_cors_server/stop');
    expect(seen.filter((x) => x.method === 'DELETE').length).toBe(before + 1);
    expect((await view('no_cors_server'))?.status).toBe('stopped');
    await page.post('/bridge/servers/no_cors_server/start');
    expect((await view('no_cors_server'))?.status).toBe('running');
    // The server goes away without a word (its port closes).
    http.closeAllConnections();
    await new Promise<void>((ok) => http.close(() => ok()));
    // Pinged every 1.5 s, it is seen within seconds (the figure is in bench/bridge.ts; no timed assertion here).
    const failed = await eventually(async () => {
      const v = await view('no_cors_server');
      return v?.status === 'failed' ? v : undefined;
    }, 20_000, 'the stopped server to be seen');
    expect(failed.error).toMatch(/stopped answering/u);
  });
});

describe('no process is left behind', () => {
  it('stops the servers when no page has been seen for --idle-stop seconds', async () => {
    const own = await startServe({}, ['--idle-stop', '1']);
    try {
      const client = pageClient(own);
      const root = tempWorkspace(() => toml('idle', [serverBin('memory')]));
      const id = (await client.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
      const plan = (await client.post(`/bridge/workspaces/${id}/plan`)).json<{ plan: { id: string } }>().plan;
      const [v] = (await client.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: View[] }>().servers;
      expect(v?.status).toBe('running');
      // No request for a while: the page is gone.
      await eventually(() => (isAlive(v?.pid as number) ? undefined : true), 15_000, 'the idle server to stop');
      expect(own.stdout()).toMatch(/no page for 1 s: stopping idle/u);
      // The status turns 'stopped' once the whole tree is reaped, which may be a moment after the server's own pid is gone.
      const status = async () => (await client.get('/bridge/servers')).json<{ servers: View[] }>().servers[0]?.status;
      await eventually(async () => ((await status()) === 'stopped' ? true : undefined), 15_000, 'the idle server to read as stopped');
      expect(await status()).toBe('stopped');
    } finally {
      own.proc.kill('SIGTERM');
      await own.exited;
    }
  }, 60_000);

  // It failed 2 of 5 runs on a loaded machine: a stop waits 1.5 s (a /proc scan every 50 ms counted as
  // 50 ms, so longer under load) before SIGKILL, and a server not scheduled in that time never ran its
  // SIGTERM handler, so the helper it starts there ("started after the stop began") never started and
  // the wait for its pid timed out (reproduced with the server SIGSTOPped for 6 s over its stop). Nothing
  // was left running; the test asked for a race. Here the bridge gives 5 s (--stop-grace), the test 120.
  it('Stop ends the whole tree: a grandchild that left the group under a launcher that ignores SIGTERM, a grandchild that ignores SIGTERM itself, and one started after the stop began', async () => {
    const own = await startServe({}, ['--stop-grace', '5']);
    const client = pageClient(own);
    try {
      const root = tempWorkspace(() => `${toml('wrapped', [join(FIXTURES, 'wrapper.mjs'), serverBin('memory')])}\n${toml('treed', [join(FIXTURES, 'stubborn-tree.mjs'), serverBin('memory')])}\n${toml('late', [join(FIXTURES, 'orphaner.mjs'), 'stay', serverBin('memory')])}`);
      const id = (await client.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
      const plan = (await client.post(`/bridge/workspaces/${id}/plan`)).json<{ plan: { id: string } }>().plan;
      const views = (await client.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: View[] }>().servers;
      expect(views.map((v) => v.status)).toEqual(['running', 'running', 'running']);
      const tree = views.flatMap((v) => [v.pid as number, ...descendants(v.pid as number)]);
      expect(tree.length).toBeGreaterThanOrEqual(6);
      const helper = await stubbornHelper(client, 'treed');
      expect(tree).toContain(helper);
      await client.post('/bridge/servers/wrapped/stop');
      await client.post('/bridge/servers/treed/stop');
      await client.post('/bridge/servers/late/stop');
      expect(tree.filter(isAlive)).toEqual([]);
      // The helper the server started on SIGTERM, during the stop, out of its group: ended too.
      const late = await stubbornHelper(client, 'late', 'late helper');
      expect(isAlive(late)).toBe(false);
    } finally {
      own.proc.kill('SIGTERM');
      await own.exited;
    }
  }, 120_000);

  // SIGKILL: the bridge cannot clean up; its watchdog, which notices the bridge is gone, does.
  it.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('a bridge stopped with %s leaves no process behind: not a grandchild that ignores SIGTERM, not a server that ignores the end of its input and SIGTERM', async (signal) => {
    const own = await startServe();
    const client = pageClient(own);
    const root = tempWorkspace(
      (r) =>
        `${toml('fs', [serverBin('filesystem'), join(r, 'data')])}\n${toml('wrapped', [join(FIXTURES, 'wrapper.mjs'), serverBin('memory')])}\n` +
        `${toml('treed', [join(FIXTURES, 'stubborn-tree.mjs'), serverBin('memory')])}\n${toml('stubborn', [join(FIXTURES, 'stubborn.mjs'), serverBin('memory')])}\n` +
        // Ends when its input does, which the bridge's death brings: its helper is then under no server.
        toml('eof', [join(FIXTURES, 'orphaner.mjs'), 'eof-exit', serverBin('memory')]),
    );
    const id = (await client.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
    const plan = (await client.post(`/bridge/workspaces/${id}/plan`)).json<{ plan: { id: string } }>().plan;
    const started = (await client.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: View[] }>().servers;
    expect(started.map((x) => x.status)).toEqual(['running', 'running', 'running', 'running', 'running']);
    const helper = await stubbornHelper(client, 'treed');
    const eofHelper = await stubbornHelper(client, 'eof');
    const pid = own.proc.pid as number;
    const servers = started.map((v) => v.pid as number);
    const tree = descendants(pid);
    // fs, the launcher and its grandchild, the stubborn server, the stubborn tree and its helper (and the watchdog).
    expect(tree).toEqual(expect.arrayContaining([...servers, helper, eofHelper]));
    own.proc.kill(signal);
    expect(await own.exited).toBe(signal === 'SIGKILL' ? null : 0);
    // The watchdog needs the grace (SIGTERM, then SIGKILL) once it sees the bridge gone.
    await eventually(() => (tree.some(isAlive) ? undefined : true), 20_000, `every process the bridge started to end after ${signal}`);
    expect(tree.filter(isAlive)).toEqual([]);
    if (signal !== 'SIGKILL') expect(own.stdout()).toContain(`${signal}: stopping every server`);
  }, 90_000);
});

/** The pid of the stubborn grandchild the `stubborn-tree.mjs` server started (it says so on stderr). */
async function stubbornHelper(client: ReturnType<typeof pageClient>, server: string, label = 'helper'): Promise<number> {
  return eventually(async () => {
    const entries = (await client.get(`/bridge/servers/${server}/log?after=0`)).json<{ entries: { text: string }[] }>().entries;
    const m = entries.map((e) => new RegExp(`^${label} (\\d+)$`, 'u').exec(e.text)).find((x) => x !== null);
    return m ? Number(m[1]) : undefined;
  }, 10_000, `${server}'s helper pid`);
}

async function freePort(): Promise<number> {
  const srv = createServer();
  const port = await new Promise<number>((ok) => srv.listen(0, '127.0.0.1', () => ok((srv.address() as { port: number }).port)));
  await new Promise<void>((ok) => srv.close(() => ok()));
  return port;
}
