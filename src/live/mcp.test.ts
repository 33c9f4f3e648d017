// The live MCP client against real SDK servers: paging through an in-memory
// pair, and the failures a user meets over HTTP (HTML, a hang, a 404, a closed
// port), each explained with its reason.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { nestsDeeperThan } from '../core';
import { checkUrl, closeSession, connect, listAllTools, LiveServerError } from './mcp';

function pagedServer(pages: number, perPage: number, cursors?: (page: number) => string | undefined): Server {
  const server = new Server({ name: 'paged', version: '1.2.3' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const page = request.params?.cursor === undefined ? 0 : Number(request.params.cursor.slice(1));
    const tools = Array.from({ length: perPage }, (_, i) => ({ name: `tool_${page}_${i}`, description: `Tool ${i} of page ${page}.`, inputSchema: { type: 'object' as const, properties: {} } }));
    const next = cursors ? cursors(page) : page + 1 < pages ? `p${page + 1}` : undefined;
    return { tools, ...(next !== undefined ? { nextCursor: next } : {}) };
  });
  return server;
}

async function connectTo(server: Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return connect('memory://paged', { timeoutMs: 2000, transport: () => clientSide });
}

describe('listing tools page by page', () => {
  it('follows nextCursor to the end', async () => {
    const session = await connectTo(pagedServer(3, 4));
    expect(session.info).toMatchObject({ name: 'paged', version: '1.2.3', toolsListChanged: true });
    const listed = await listAllTools(session, { timeoutMs: 2000 });
    expect(listed.pages).toBe(3);
    expect(listed.tools).toHaveLength(12);
    expect((listed.tools[11] as { name: string }).name).toBe('tool_2_3');
    await closeSession(session);
  });

  it('refuses a tool nested past 100 levels with a sentence (100,000 levels would overflow the stack)', async () => {
    const server = new Server({ name: 'deep', version: '1' }, { capabilities: { tools: {} } });
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) schema = { type: 'object', properties: { a: schema } };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'deep_tool', inputSchema: schema as { type: 'object' } }] }));
    const session = await connectTo(server);
    const e = await listAllTools(session, { timeoutMs: 5000 }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LiveServerError);
    expect((e as LiveServerError).message).toMatch(/the tool "deep_tool" nests its JSON more than 100 levels deep/u);
    expect(nestsDeeperThan({ a: [[{}]] }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [[{ b: {} }]] }, 4)).toBe(true);
  });

  it('refuses a server that repeats a cursor or never stops', async () => {
    const loop = await connectTo(pagedServer(0, 1, () => 'p1'));
    await expect(listAllTools(loop, { timeoutMs: 2000 })).rejects.toThrow(/sent the cursor "p1" twice/u);
    const endless = await connectTo(pagedServer(0, 1, (p) => `p${p + 1}`));
    await expect(listAllTools(endless, { timeoutMs: 2000, maxPages: 5 })).rejects.toThrow(/still paging after 5 pages/u);
  });
});

describe('failures over HTTP, with their reasons', () => {
  let html: http.Server;
  let hang: http.Server;
  let notFound: http.Server;
  const base = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`;
  const listen = (handler: http.RequestListener) =>
    new Promise<http.Server>((resolve) => {
      const s = http.createServer(handler);
      s.listen(0, '127.0.0.1', () => resolve(s));
    });

  beforeAll(async () => {
    html = await listen((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<!doctype html><title>Welcome</title>');
    });
    hang = await listen(() => undefined);
    notFound = await listen((_q, r) => {
      r.writeHead(404, { 'content-type': 'text/plain' });
      r.end('not here');
    });
  });
  afterAll(() => {
    for (const s of [html, hang, notFound]) {
      s.closeAllConnections();
      s.close();
    }
  });

  const failure = async (p: Promise<unknown>): Promise<LiveServerError> => {
    try {
      await p;
    } catch (e) {
      expect(e).toBeInstanceOf(LiveServerError);
      return e as LiveServerError;
    }
    throw new Error('it connected');
  };

  it('HTML instead of MCP is a protocol error', async () => {
    const e = await failure(connect(base(html), { timeoutMs: 2000 }));
    expect(e.reason).toBe('protocol');
    expect(e.message).toMatch(/answered text\/html, not JSON or an event stream/u);
  });

  it('a hang is a timeout', async () => {
    const e = await failure(connect(base(hang), { timeoutMs: 300 }));
    expect(e.reason).toBe('timeout');
    expect(e.message).toMatch(/no answer within 0\.3 s/u);
  });

  it('a hang can be cancelled', async () => {
    const c = new AbortController();
    setTimeout(() => c.abort(new LiveServerError('cancelled', 'cancelled by the test')), 100);
    const e = await failure(connect(base(hang), { timeoutMs: 10_000, signal: c.signal }));
    expect(e.reason).toBe('cancelled');
  });

  it('a 404 says nothing serves MCP there', async () => {
    const e = await failure(connect(base(notFound), { timeoutMs: 2000 }));
    expect(e).toMatchObject({ reason: 'protocol' });
    expect(e.message).toMatch(/HTTP 404/u);
  });

  it('a closed port is refused (node says so); a bare fetch failure is unreachable, with no request of our own', async () => {
    const closed = await listen(() => undefined);
    const url = base(closed);
    closed.close();
    await new Promise((r) => setTimeout(r, 50));
    expect((await failure(connect(url, { timeoutMs: 2000 }))).reason).toBe('refused');
    // What a browser does on a closed port and on a CORS refusal alike: "Failed to fetch", no cause.
    const calls: string[] = [];
    const browserLike: typeof fetch = (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return Promise.reject(new TypeError('Failed to fetch'));
    };
    const e = await failure(connect(url, { timeoutMs: 2000, fetch: browserLike }));
    expect(e.reason).toBe('unreachable');
    expect(e.message).toMatch(/nothing is listening there, or the server does not allow this page's origin/u);
    // Only the SDK's own initialize POST: no probe to find out more.
    expect(calls).toEqual([`POST ${url}`]);
  });

  it('a server off loopback is refused before any request (the page CSP would block it)', async () => {
    const calls: string[] = [];
    const counting: typeof fetch = (input) => {
      calls.push(String(input));
      return Promise.reject(new TypeError('Failed to fetch'));
    };
    for (const url of ['http://evil.example/mcp', 'https://169.254.169.254/latest/meta-data/', 'http://127.0.0.2:4999/mcp', 'http://[::1]:4999/mcp']) {
      const e = await failure(connect(url, { timeoutMs: 2000, fetch: counting }));
      expect(e.reason, url).toBe('not-loopback');
      expect(e.message).toMatch(/only reaches servers on loopback \(127\.0\.0\.1, localhost, any port\)/u);
    }
    expect(checkUrl('http://example.org:8080/mcp', 'http://example.org:8080').href).toBe('http://example.org:8080/mcp');
    expect(checkUrl('http://localhost:3001/mcp', undefined).hostname).toBe('localhost');
    expect(calls).toEqual([]);
  });

  it('a URL that is not http(s)', async () => {
    expect((await failure(connect('ftp://example.org/mcp', { timeoutMs: 100 }))).message).toMatch(/ftp: is not supported/u);
    expect((await failure(connect('not a url', { timeoutMs: 100 }))).message).toMatch(/is not a URL/u);
  });
});

/** A hand-written Streamable HTTP server: initialize as JSON, then a tools/list of `tools` tools, as JSON or as an event stream. */
function bigListServer(tools: number, form: 'json' | 'sse'): Promise<{ url: string; close: () => void }> {
  const list = JSON.stringify(Array.from({ length: tools }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}, which does a thing.`, inputSchema: { type: 'object', properties: { x: { type: 'string' } } } })));
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.on('data', (d: Buffer) => (body += String(d)));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id?: number; method: string };
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (msg.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } } }));
        return;
      }
      const reply = `{"jsonrpc":"2.0","id":${msg.id},"result":{"tools":${list}}}`;
      if (form === 'json') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
        res.end(reply);
        return;
      }
      // An event stream in 16 KiB pieces, as a real server streams a big reply.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const framed = `event: message\ndata: ${reply}\n\n`;
      let at = 0;
      const pump = () => {
        while (at < framed.length) {
          const piece = framed.slice(at, at + 16384);
          at += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

describe('a tool list over the size cap', () => {
  for (const form of ['json', 'sse'] as const) {
    it(`fails at once as too large, before parsing (${form === 'json' ? 'announced by Content-Length' : 'counted as it streams'})`, async () => {
      const big = await bigListServer(20_000, form);
      try {
        // A minute's timeout: waiting for it instead of failing at once would outlast the test.
        let lost = 0;
        const session = await connect(big.url, { timeoutMs: 60_000, maxReplyBytes: 256 * 1024, onLost: () => (lost += 1) });
        let error: unknown;
        try {
          await listAllTools(session, { timeoutMs: 60_000 });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(LiveServerError);
        expect((error as LiveServerError).reason).toBe('too-large');
        expect((error as LiveServerError).message).toMatch(form === 'json' ? /reply announced \d+\.\d MB/u : /reply passed 256\.0 KB/u);
        expect((error as LiveServerError).message).toMatch(/Nothing of it was parsed/u);
        // The cut stream is not the server going away (which would reconnect, and list again, forever).
        expect(lost).toBe(0);
        await closeSession(session);
      } finally {
        big.close();
      }
    });
  }

  it('a list under the cap is read whole', async () => {
    const big = await bigListServer(300, 'sse');
    try {
      const session = await connect(big.url, { timeoutMs: 10_000, maxReplyBytes: 256 * 1024 });
      const listed = await listAllTools(session, { timeoutMs: 10_000 });
      expect(listed.tools).toHaveLength(300);
      await closeSession(session);
    } finally {
      big.close();
    }
  });
});
