// The live MCP client against real SDK servers: paging through an in-memory
// pair, and the failures a user meets over HTTP (HTML, a hang, a 404, a closed
// port), each explained with its reason.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { closeSession, connect, listAllTools, LiveServerError } from './mcp';

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

  it('a closed port is refused; a server that answers but fails the fetch is CORS', async () => {
    const closed = await listen(() => undefined);
    const url = base(closed);
    closed.close();
    await new Promise((r) => setTimeout(r, 50));
    expect((await failure(connect(url, { timeoutMs: 2000 }))).reason).toBe('refused');
    // What a browser does on a CORS refusal: fetch fails, a no-cors probe succeeds.
    const e = await failure(connect(url, { timeoutMs: 2000, fetch: () => Promise.resolve(new Response(null)) }));
    expect(e.reason).toBe('cors');
    expect(e.message).toMatch(/does not allow this page's origin \(CORS\)/u);
  });

  it('a URL that is not http(s)', async () => {
    expect((await failure(connect('ftp://example.org/mcp', { timeoutMs: 100 }))).message).toMatch(/ftp: is not supported/u);
    expect((await failure(connect('not a url', { timeoutMs: 100 }))).message).toMatch(/is not a URL/u);
  });
});
