// Real servers as JP runs them (issue 28), against hostile servers written for these tests
// (fixtures/hostile.mjs), driven by the bridge's own Upstream and through a running
// `tool-workbench serve` as the page reaches it: noise on stdout, a hung server, one name per
// server, sessions kept apart.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer, request } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Replies, ServerView } from '../bridge-protocol';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';
import { terminalOf } from './log';
import { Masker } from './secrets';
import { BIN, endsItsProcesses, eventually, FIXTURES, ROOT, serveForFile, serverBin, sleep, tempWorkspace } from './testServe';
import type { PageClient, Running } from './testServe';
import { httpFailure, nextPingDelay, PING_AT_MOST_EVERY_MS, Upstream } from './upstream';

// Whatever a failing test leaves running ends with the file (issue 34.7).
endsItsProcesses();

const spec = (name: string, args: readonly string[]): McpLaunchSpec => ({
  name,
  command: process.execPath,
  arguments: [join(FIXTURES, 'hostile.mjs'), ...args],
  variables: [],
  optional: false,
  startupTimeoutSecs: 20,
  layers: ['test'],
});

const started: Upstream[] = [];
function upstream(name: string, args: readonly string[]): Upstream {
  const masker = new Masker();
  const up = new Upstream(name, { kind: 'stdio', spec: spec(name, args), cwd: FIXTURES, from: 'the test' }, { terminal: terminalOf(() => undefined, masker), masker });
  started.push(up);
  return up;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.stop()));
});

describe('noise on stdout', () => {
  it('skips a line that is no JSON-RPC message, keeps it in the log, and goes on', async () => {
    const up = upstream('noisy', ['noisy']);
    await up.start();
    expect(up.error).toBeUndefined();
    expect(up.status).toBe('running');
    const tools = await up.forward('tools/list', undefined);
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual(['ask']);
    const stdout = up.logSince(0).filter((e) => e.stream === 'stdout').map((e) => e.text);
    expect(stdout).toEqual(['noise: handling initialize', 'booting the noisy server', '{"level":"info","msg":"ready"}', 'noise: handling tools/list']);
  });
});

/** Stops the process (SIGSTOP) and lets it go on again when the test ends, so the stop can end it. */
function freeze(pid: number): () => void {
  process.kill(pid, 'SIGSTOP');
  return () => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  };
}

describe('a hung stdio server', () => {
  it('is seen not answering once it misses pings (SIGSTOP), is never stopped for it, and answers again when let go', async () => {
    const up = upstream('hangs', ['asks']);
    await up.start();
    expect(up.status).toBe('running');
    const thaw = freeze(up.view().pid as number);
    let thawed = false;
    try {
      const secs = await eventually(() => up.view().notAnsweringSecs, 30_000, 'the hung server to be seen');
      expect(secs).toBeGreaterThanOrEqual(5);
      // JP sends no pings and kills nothing: the user decides (Stop). Still running, its process kept.
      await sleep(6000);
      expect(up.status).toBe('running');
      expect(up.view().notAnsweringSecs).toBeGreaterThan(secs);
      expect(up.logSince(0).map((e) => e.text)).toContainEqual(expect.stringMatching(/^no answer to ping for \d+ s/u));
      thaw();
      thawed = true;
      await eventually(() => (up.view().notAnsweringSecs === undefined ? true : undefined), 20_000, 'the server to answer again');
      const tools = await up.forward('tools/list', undefined);
      expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual(['ask']);
    } finally {
      if (!thawed) thaw();
    }
  }, 60_000);

  it('pings half as often while the server keeps answering, and never less than every 3 s', () => {
    const series = [1500];
    for (let i = 0; i < 5; i++) series.push(nextPingDelay(series.at(-1) as number));
    expect(series).toEqual([1500, 3000, 3000, 3000, 3000, 3000]);
    expect(PING_AT_MOST_EVERY_MS).toBe(3000);
  });
});

describe('a busy stdio server', () => {
  it('is not pinged while a call runs: a tool call that holds the server for 8 s returns its result', async () => {
    const masker = new Masker();
    const busySpec: McpLaunchSpec = { ...spec('busy', []), arguments: [join(FIXTURES, 'busy.mjs')] };
    const up = new Upstream('busy', { kind: 'stdio', spec: busySpec, cwd: FIXTURES, from: 'the test' }, { terminal: terminalOf(() => undefined, masker), masker });
    started.push(up);
    await up.start();
    expect(up.status).toBe('running');
    // Past the first ping, so the pinger is running when the call starts.
    await sleep(2000);
    const result = await up.forward('tools/call', { name: 'work', arguments: { seconds: 8 } });
    expect(result.content).toEqual([{ type: 'text', text: 'worked 8 s' }]);
    expect(up.status).toBe('running');
    expect(up.view().notAnsweringSecs).toBeUndefined();
    // The server is still there for everyone else.
    const tools = await up.forward('tools/list', undefined);
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual(['work']);
  }, 60_000);
});

/**
 * An HTTP MCP server written for these tests: it wants `Authorization: Bearer good` (401 with a
 * WWW-Authenticate otherwise), or answers every POST with `status` when given one. It records every
 * request's method, to tell whether the client fell back to the older HTTP+SSE transport (a GET).
 */
async function httpServer(options: { status?: number } = {}): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.method ?? '');
    if (options.status !== undefined) {
      res.writeHead(options.status, { 'content-type': 'text/plain' }).end('no');
      return;
    }
    if (req.headers.authorization !== 'Bearer good') {
      res.writeHead(401, { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"', 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
      return;
    }
    const server = new Server({ name: 'guarded', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'secret_tool', inputSchema: { type: 'object' } }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http: HttpServer = createServer((req, res) => void handle(req, res));
  const port = await new Promise<number>((ok) => http.listen(0, '127.0.0.1', () => ok((http.address() as { port: number }).port)));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((ok) => {
        http.closeAllConnections();
        http.close(() => ok());
      }),
  };
}

function httpUpstream(url: string, headers: Record<string, string> = {}): Upstream {
  const masker = new Masker();
  const up = new Upstream('remote', { kind: 'http', url, headers, transport: 'auto' }, { terminal: terminalOf(() => undefined, masker), masker });
  started.push(up);
  return up;
}

describe('errors say what happened', () => {
  it('says an HTTP server that took the connection and never answered initialize did not answer, and within how long', () => {
    // What the SDK's client throws when its initialize waits out the timeout (a real wait is 10 s).
    const timedOut = Object.assign(new Error('MCP error -32001: Request timed out'), { code: -32001 });
    expect(httpFailure(timedOut, undefined)).toBe('the server did not answer initialize within 10 s (it took the connection and said nothing): MCP error -32001: Request timed out');
  });

  // A server that ends as it starts fails the start in whichever way the bridge sees first: its exit,
  // or the initialize request written to its closed input (EPIPE); and 'exit' can come before the last
  // of its stderr is read. The reason is its exit, with what it said, either way. A shell that ends at
  // once meets the initialize request on either side of its end: several in a row see both.
  it('a server that ends as it starts: the error is its exit, with the last thing it said on stderr', async () => {
    for (let i = 0; i < 12; i++) {
      const masker = new Masker();
      const launch: McpLaunchSpec = { ...spec(`ending${i}`, []), command: '/bin/sh', arguments: ['-c', `echo "cannot start: no config ${i}" >&2; exit 3`] };
      const up = new Upstream(`ending${i}`, { kind: 'stdio', spec: launch, cwd: FIXTURES, from: 'the test' }, { terminal: terminalOf(() => undefined, masker), masker });
      started.push(up);
      await up.start();
      expect(up.status).toBe('failed');
      expect(up.error).toBe(`Server initialization error: /bin/sh -c 'echo "cannot start: no config ${i}" >&2; exit 3', error: the server exited (code 3)\nstderr:\n  cannot start: no config ${i}`);
    }
  }, 60_000);

  it('says a 401 is the server wanting authorization, and does not take it for an old HTTP+SSE server', async () => {
    const guarded = await httpServer();
    try {
      const up = httpUpstream(guarded.url);
      await up.start();
      expect(up.status).toBe('failed');
      expect(up.error).toMatch(/^401: the server wants authorization/u);
      expect(up.error).toContain('Bearer resource_metadata=');
      expect(guarded.seen).not.toContain('GET');
      const good = httpUpstream(guarded.url, { Authorization: 'Bearer good' });
      await good.start();
      expect(good.status).toBe('running');
    } finally {
      await guarded.close();
    }
  });

  it.each([400, 404, 405])('falls back to the older HTTP+SSE transport when the initialize POST gets %i (the spec says so)', async (status) => {
    const old = await httpServer({ status });
    try {
      const up = httpUpstream(old.url);
      await up.start();
      expect(up.status).toBe('failed');
      expect(old.seen).toEqual(['POST', 'GET']);
      expect(up.error).toMatch(new RegExp(`^Streamable HTTP: ${status}: .*; the older HTTP\\+SSE transport: ${status}: `, 'u'));
    } finally {
      await old.close();
    }
  });

  it.each([403, 406, 415, 422])('does not fall back on %i, and says the status', async (status) => {
    const other = await httpServer({ status });
    try {
      const up = httpUpstream(other.url);
      await up.start();
      expect(up.status).toBe('failed');
      expect(other.seen).toEqual(['POST']);
      expect(up.error).toMatch(new RegExp(`^${status}: `, 'u'));
    } finally {
      await other.close();
    }
  });
});

let s: Running;
let page: PageClient;
const node = process.execPath;
const hostileToml = (name: string, args: readonly string[]) =>
  `[providers.mcp.${name}]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = ${JSON.stringify([join(FIXTURES, 'hostile.mjs'), ...args])}\n`;

/** Opens the workspace, plans and confirms it: the started servers' views. */
async function startWorkspace(root: string): Promise<{ id: string; servers: ServerView[] }> {
  const id = (await page.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
  const plan = (await page.post(`/bridge/workspaces/${id}/plan`, {})).json<{ plan: { id: string } }>().plan;
  return { id, servers: (await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: ServerView[] }>().servers };
}

async function pageSession(name: string): Promise<Client & { heard: string[]; protocol: () => string | undefined }> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}/bridge/servers/${encodeURIComponent(name)}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${s.token}`, Origin: `http://127.0.0.1:${s.port}` } },
  });
  const heard: string[] = [];
  const client = Object.assign(new Client({ name: 'test-page', version: '1' }), { heard, protocol: () => transport.protocolVersion });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(`log ${n.params.level} ${String(n.params.data)}`));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('tools changed'));
  await client.connect(transport);
  return client;
}

/**
 * A page session opened by hand, to know for certain when its event stream (GET) is open: every
 * notification the bridge sends it outside a request arrives there.
 */
async function rawSession(name: string): Promise<{ heard: () => string; close: () => void }> {
  const path = `/bridge/servers/${encodeURIComponent(name)}/mcp`;
  const headers = { authorization: `Bearer ${s.token}`, origin: `http://127.0.0.1:${s.port}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const post = (body: unknown, session?: string) =>
    new Promise<string | undefined>((ok, fail) => {
      const r = request({ host: '127.0.0.1', port: s.port, method: 'POST', path, headers: { ...headers, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2024-11-05' } : {}) } }, (res) => {
        res.resume();
        res.on('end', () => ok(res.headers['mcp-session-id'] as string | undefined));
      });
      r.on('error', fail);
      r.end(JSON.stringify(body));
    });
  const session = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  let text = '';
  const open = await new Promise<{ close: () => void }>((ok, fail) => {
    const r = request({ host: '127.0.0.1', port: s.port, method: 'GET', path, headers: { ...headers, 'mcp-session-id': session as string, 'mcp-protocol-version': '2024-11-05' } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      ok({ close: () => r.destroy() });
    });
    r.on('error', fail);
    r.end();
  });
  return { heard: () => text, close: open.close };
}

/** A page's initialize through the bridge, raw: the result as the facade sent it (JSON or one SSE event). */
async function initializeThroughBridge(name: string): Promise<Record<string, unknown>> {
  const body = await new Promise<string>((ok, fail) => {
    const r = request(
      {
        host: '127.0.0.1',
        port: s.port,
        method: 'POST',
        path: `/bridge/servers/${encodeURIComponent(name)}/mcp`,
        headers: { authorization: `Bearer ${s.token}`, origin: `http://127.0.0.1:${s.port}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => ok(text));
      },
    );
    r.on('error', fail);
    r.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
  });
  const json = body.trimStart().startsWith('{') ? body : (body.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice('data: '.length);
  return (JSON.parse(json) as { result: Record<string, unknown> }).result;
}

describe('through the bridge', () => {
  serveForFile({}, (running, client) => {
    s = running;
    page = client;
  });

  it("tells the page the workspace's name for a server the bridge holds under another (two workspaces' fs)", async () => {
    const a = await startWorkspace(tempWorkspace(() => hostileToml('fs', ['asks'])));
    expect(a.servers.map((v) => [v.name, v.declaredAs, v.status])).toEqual([['fs', 'fs', 'running']]);
    await page.post(`/bridge/workspaces/${a.id}/stop`);
    const b = await startWorkspace(tempWorkspace(() => hostileToml('fs', ['asks'])));
    expect(b.servers.map((v) => [v.name, v.declaredAs, v.status])).toEqual([['fs-2', 'fs', 'running']]);
    await page.post(`/bridge/workspaces/${b.id}/stop`);
  }, 60_000);

  it('lists the workspaces it opened, and a second Start of one whose server runs starts nothing and says so; a changed command, or a stopped server, starts (issue 34.5)', async () => {
    const root = tempWorkspace(() => hostileToml('again', ['asks']));
    const jpDir = join(root, '.jp');
    const first = await startWorkspace(root);
    expect(first.servers.map((v) => [v.name, v.status])).toEqual([['again', 'running']]);
    // What a reloaded page asks: the folders the bridge opened by path, to find its own among them.
    expect((await page.get('/bridge/workspaces')).json<Replies['workspaces']>().workspaces).toContainEqual({ id: first.id, root, jpDir });
    const startAgain = async () => {
      const plan = (await page.post(`/bridge/workspaces/${first.id}/plan`, {})).json<{ plan: { id: string } }>().plan;
      return (await page.post(`/bridge/workspaces/${first.id}/start`, { plan: plan.id })).json<Replies['started']>();
    };
    const ours = async () => (await page.get('/bridge/servers')).json<Replies['servers']>().servers.filter((v) => v.from === `workspace ${jpDir}`);

    const again = await startAgain();
    expect(again.alreadyRunning).toEqual(['again']);
    expect(again.servers.map((v) => [v.name, v.status, v.pid])).toEqual(first.servers.map((v) => [v.name, v.status, v.pid]));
    expect((await ours()).map((v) => [v.name, v.pid])).toEqual(first.servers.map((v) => [v.name, v.pid]));
    expect(s.stdout().match(/^starting again /gmu)?.length).toBe(1);
    expect(s.stdout()).toContain(`again already runs (pid ${first.servers[0]?.pid ?? ''}): not started again`);

    // The command changed on disk: the plan's command is not the one running, so it starts (in its place).
    writeFileSync(join(jpDir, 'config.toml'), hostileToml('again', ['asks', 'changed']));
    const changed = await startAgain();
    expect(changed.alreadyRunning).toEqual([]);
    expect(changed.servers.map((v) => [v.name, v.status])).toEqual([['again', 'running']]);
    expect(changed.servers[0]?.pid).not.toBe(first.servers[0]?.pid);
    expect((await ours()).length).toBe(1);

    // Stopped, it is not running: a Start starts it.
    await page.post(`/bridge/workspaces/${first.id}/stop`);
    const restarted = await startAgain();
    expect(restarted.alreadyRunning).toEqual([]);
    expect(restarted.servers.map((v) => [v.name, v.status])).toEqual([['again', 'running']]);
    expect(restarted.servers[0]?.pid).not.toBe(changed.servers[0]?.pid);
    await page.post(`/bridge/workspaces/${first.id}/stop`);
  }, 60_000);

  it("passes the page's ping to the server itself: a hung server's ping fails", async () => {
    const root = tempWorkspace(() => hostileToml('frozen', ['asks']));
    const { servers } = await startWorkspace(root);
    const v = servers.find((x) => x.name === 'frozen');
    expect(v?.status).toBe('running');
    const client = await pageSession('frozen');
    await client.ping();
    const thaw = freeze(v?.pid as number);
    try {
      await expect(client.ping()).rejects.toThrow();
    } finally {
      thaw();
      await client.close().catch(() => undefined);
    }
  }, 60_000);

  describe('sessions kept apart', () => {
    it('sends the log and list-changed notifications of a call to the session that made it, and to no other', async () => {
      await startWorkspace(tempWorkspace(() => hostileToml('old', ['old'])));
      const other = await rawSession('old');
      const caller = await pageSession('old');
      try {
        await caller.callTool({ name: 'shout', arguments: { what: 'mine' } });
        expect(caller.heard).toEqual(['log warning shouted "mine"', 'tools changed']);
        // A whole request of the other session after it: anything sent its way earlier is in by now.
        await caller.callTool({ name: 'level', arguments: {} });
        expect(other.heard()).not.toContain('shouted');
        expect(other.heard()).not.toContain('list_changed');
      } finally {
        other.close();
        await caller.close();
      }
    }, 60_000);

    it("passes the page's logging/setLevel to the server, and holds back what is below the session's level", async () => {
      const page1 = await pageSession('old');
      try {
        await page1.setLoggingLevel('error');
        const r = await page1.callTool({ name: 'level', arguments: {} });
        expect(r.content).toEqual([{ type: 'text', text: 'error' }]);
        await page1.callTool({ name: 'shout', arguments: { what: 'quiet' } });
        expect(page1.heard).toEqual(['tools changed']);
      } finally {
        await page1.close();
      }
    }, 60_000);

    it('announces a 2024-11-05-only server to the page with its real protocol version', async () => {
      const page1 = await pageSession('old');
      try {
        expect(page1.protocol()).toBe('2024-11-05');
        const v = (await page.get('/bridge/servers')).json<{ servers: ServerView[] }>().servers.find((x) => x.name === 'old');
        expect(v?.protocolVersion).toBe('2024-11-05');
      } finally {
        await page1.close();
      }
    }, 60_000);
  });

  it('keeps one entry for a URL that fails to connect again and again, not a pile of connecting-N', async () => {
    const dead = await httpServer({ status: 500 });
    await dead.close();
    for (let i = 0; i < 3; i++) expect((await page.post('/bridge/servers', { url: dead.url })).json<{ server: ServerView }>().server.status).toBe('failed');
    const mine = (await page.get('/bridge/servers')).json<{ servers: ServerView[] }>().servers.filter((v) => v.url === dead.url);
    expect(mine.map((v) => v.status)).toEqual(['failed']);
  }, 60_000);

  it("answers a page's initialize with the server's own reply: serverInfo raw (debug, vendorInfo kept), instructions, capabilities", async () => {
    const { id, servers } = await startWorkspace(tempWorkspace(() => hostileToml('rich', ['rich'])));
    const v = servers.find((x) => x.declaredAs === 'rich');
    expect(v?.status).toBe('running');
    const result = await initializeThroughBridge(v?.name ?? 'rich');
    const said = {
      name: 'rich',
      version: '3.1.4',
      title: 'Rich Server',
      description: 'Says everything about itself.',
      icons: [{ src: 'https://example.com/rich.png', mimeType: 'image/png', sizes: ['48x48'] }],
      websiteUrl: 'https://example.com/rich',
      'x-vendor': 'acme',
      debug: { build: 'abc123', features: ['a', 'b'] },
      vendorInfo: { vendor: 'Acme', support: 'https://example.com/support' },
    };
    expect(result.serverInfo).toEqual(said);
    expect(result.serverInfo).toEqual(v?.serverInfo);
    expect(result.instructions).toBe('Call plain before fancy.');
    expect(result.capabilities).toEqual({ tools: { listChanged: true }, logging: {}, experimental: { 'x-rich': { level: 2 } } });
    expect(result.protocolVersion).toBe(v?.protocolVersion);
    await page.post(`/bridge/workspaces/${id}/stop`);
  }, 60_000);

  describe("JP's capabilities", () => {
    /** server-everything over Streamable HTTP on a free loopback port (the pinned devDependency). */
    async function everything(): Promise<{ url: string; stop: () => void }> {
      const port = await new Promise<number>((ok) => {
        const probe = createServer();
        probe.listen(0, '127.0.0.1', () => {
          const { port: p } = probe.address() as { port: number };
          probe.close(() => ok(p));
        });
      });
      const child = spawn(node, [serverBin('everything'), 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      let said = '';
      const hear = (d: Buffer) => void (said += d.toString());
      child.stdout.on('data', hear);
      child.stderr.on('data', hear);
      await eventually(() => (/listening/iu.test(said) ? true : undefined), 20_000, 'server-everything to listen').catch((e: unknown) => {
        child.kill('SIGKILL');
        throw e;
      });
      return { url: `http://127.0.0.1:${port}/mcp`, stop: () => void child.kill('SIGKILL') };
    }

    it("still hands the page a question a server asks though the bridge did not declare it (a server that ignores capabilities)", async () => {
      const { id, servers } = await startWorkspace(tempWorkspace(() => hostileToml('asker', ['asks'])));
      const v = servers.find((x) => x.declaredAs === 'asker');
      expect(v).toMatchObject({ status: 'running', forwardsToPage: false });
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}${v?.endpoint ?? ''}`), {
        requestInit: { headers: { Authorization: `Bearer ${s.token}`, Origin: `http://127.0.0.1:${s.port}` } },
      });
      const client = new Client({ name: 'test-page', version: '1' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { colour: 'red', count: 3 } }));
      await client.connect(transport);
      try {
        const result = await client.callTool({ name: 'ask', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: `answered ${JSON.stringify({ action: 'accept', content: { colour: 'red', count: 3 } })}` }]);
        const log = (await page.get(`/bridge/servers/${v?.name ?? ''}/log?after=0`)).json<{ entries: { text: string }[] }>().entries.map((e) => e.text);
        expect(log).toContain("the server asks elicitation/create though the bridge, as JP's client, did not declare it");
      } finally {
        await client.close();
        await page.post(`/bridge/workspaces/${id}/stop`);
      }
    }, 60_000);

    it('lists the 13 tools JP is offered by default; forwarding to the page is a per-server choice that reconnects it with sampling, elicitation and roots', async () => {
      const server = await everything();
      try {
        const connected = (await page.post('/bridge/servers', { url: server.url, name: 'every' })).json<{ server: ServerView }>().server;
        expect(connected.status).toBe('running');
        expect(connected.forwardsToPage).toBe(false);
        const names = async () => {
          const client = await pageSession('every');
          try {
            return (await client.listTools()).tools.map((t) => t.name);
          } finally {
            await client.close();
          }
        };
        const before = await names();
        expect(before).toHaveLength(13);
        const on = await page.post('/bridge/servers/every/forwarding', { forward: true });
        expect(on.status).toBe(200);
        expect(on.json<{ server: ServerView }>().server).toMatchObject({ status: 'running', forwardsToPage: true });
        // The tools JP would not be offered, for the page to mark on the server's card: listed with
        // JP's capabilities just before the reconnect, against those listed with forwarding.
        expect([...(on.json<{ server: ServerView }>().server.notOfferedToJp ?? [])].sort()).toEqual(['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request']);
        const forwarded = await names();
        // Those a client that can sample, elicit (forms) and give roots is offered, JP never.
        expect(forwarded.filter((n) => !before.includes(n)).sort()).toEqual(['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request']);
        const off = await page.post('/bridge/servers/every/forwarding', { forward: false });
        expect(off.json<{ server: ServerView }>().server).toMatchObject({ status: 'running', forwardsToPage: false });
        expect(off.json<{ server: ServerView }>().server.notOfferedToJp).toBeUndefined();
        expect(await names()).toHaveLength(13);
        expect((await page.post('/bridge/servers/every/forwarding', { forward: 'yes' })).status).toBe(400);
      } finally {
        await page.del('/bridge/servers/every');
        server.stop();
      }
    }, 60_000);
  });

  describe('start what JP starts', () => {
    // fs: used by an enabled tool. broken: would fail, but only an off tool uses it. where: no tool names it.
    const workspace = () =>
      tempWorkspace(
        () =>
          hostileToml('fs', ['where']) +
          '[providers.mcp.broken]\ntype = "stdio"\ncommand = "/nonexistent/server"\n' +
          '[conversation.tools.read]\nsource = "mcp.fs"\nenable = true\n' +
          '[conversation.tools.fix]\nsource = "mcp.broken"\nenable = false\n',
      );

    it('starts only the servers of enabled tools, and says why another is left alone', async () => {
      const id = (await page.post('/bridge/workspaces', { path: workspace() })).json<{ workspace: { id: string } }>().workspace.id;
      const plan = (await page.post(`/bridge/workspaces/${id}/plan`, {})).json<{ plan: { id: string; servers: { name: string }[]; notStarted: { server: string; reason: string }[] } }>().plan;
      expect(plan.servers.map((x) => x.name)).toEqual(['fs']);
      expect(plan.notStarted).toEqual([{ server: 'broken', reason: 'no enabled tool uses it (fix is off)' }]);
      const started = (await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: ServerView[] }>().servers;
      expect(started.map((v) => [v.declaredAs, v.status])).toEqual([['fs', 'running']]);
      await page.post(`/bridge/workspaces/${id}/stop`);
    }, 60_000);

    it("runs a server in the workspace's root (the folder that holds .jp), so a relative argument is found there", async () => {
      // JP's root-as-working-directory (RFD 087): its servers run as if launched from the workspace root.
      const root = tempWorkspace(() => `[providers.mcp.rel]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = ["server.mjs", "where"]\n`);
      copyFileSync(join(FIXTURES, 'hostile.mjs'), join(root, 'server.mjs'));
      const { id, servers } = await startWorkspace(root);
      const v = servers.find((x) => x.declaredAs === 'rel');
      expect(v?.error).toBeUndefined();
      expect(v?.status).toBe('running');
      expect(v?.cwd).toBe(root);
      expect(v?.instructions).toBe(`running in ${root}`);
      expect(s.stdout()).toContain(`): ${node} server.mjs where  [in ${root}]`);
      await page.post(`/bridge/workspaces/${id}/stop`);
    }, 60_000);

    it('snapshot runs a server in the workspace root too, wherever it is run from', () => {
      const root = tempWorkspace(() => `[providers.mcp.rel]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = ["server.mjs", "where"]\n`);
      copyFileSync(join(FIXTURES, 'hostile.mjs'), join(root, 'server.mjs'));
      const out = join(root, 'snap.json');
      const r = spawnSync(node, [BIN, 'snapshot', '--workspace', root, '--out', out], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`starting rel (from the command line): ${node} server.mjs where  [in ${root}]`);
      const [entry] = JSON.parse(readFileSync(out, 'utf8')) as [{ tools: { rel: { instructions?: string } } }];
      expect(entry.tools.rel.instructions).toBe(`running in ${root}`);
    }, 60_000);

    it('snapshot leaves out a server JP would not start instead of saying JP would abort', () => {
      const root = workspace();
      const r = spawnSync(node, [BIN, 'snapshot', '--workspace', root, '--out', join(root, 'snap.json')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('broken: not started, as JP would not start it: no enabled tool uses it (fix is off)');
      expect(r.stdout).not.toContain('/nonexistent/server');
    }, 60_000);
  });
});
