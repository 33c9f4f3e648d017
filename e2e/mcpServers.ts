// Real MCP servers for the live-server specs, on loopback ports the test picks:
// @modelcontextprotocol/server-everything in streamableHttp mode (started by the
// test, stopped by it or at teardown), and tiny HTTP servers that misbehave
// (answer HTML, hang, refuse CORS).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expectConsoleErrors, test as base } from './fixtures';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * How many tools server-everything lists to the page. It registers some tools only
 * for a client that declares the capability they need: the page declares
 * elicitation and sampling (issue 27), so trigger-elicitation-request and
 * trigger-sampling-request join the 13 it lists to any client.
 */
export const EVERYTHING_TOOLS = 15;

/**
 * What server-everything lists through the bridge: the bridge's client declares what JP's declares
 * (rmcp's default handler: no sampling, no elicitation; issue 34.3), so the two tools that need them
 * are not listed, as JP is never offered them.
 */
export const EVERYTHING_TOOLS_JP = 13;

export interface EverythingServer {
  readonly url: string;
  readonly port: number;
  /** Whether it is still running. */
  running(): boolean;
  stop(): Promise<void>;
}

/** Starts server-everything on a free loopback port and waits for "listening". */
export async function startEverything(at?: number): Promise<EverythingServer> {
  const port = at ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: nothing would stop it once the test has failed (three were found orphaned, still listening).
      child.kill('SIGKILL');
      reject(new Error(`server-everything did not start on ${port}:\n${output}`));
    }, 20_000);
    const onData = (d: Buffer) => {
      output += String(d);
      if (/listening/iu.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code ?? 'signal'}):\n${output}`));
    });
  });
  let alive = true;
  child.once('exit', () => {
    alive = false;
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    running: () => alive,
    stop: () =>
      new Promise<void>((resolve) => {
        if (!alive) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => {
          if (alive) child.kill('SIGKILL');
        }, 3000);
      }),
  };
}

export interface TinyServer {
  readonly url: string;
  /** Every request it received, as "METHOD /path". */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': 'mcp-session-id',
};

/** A loopback HTTP server: `html` answers a web page, `hang` never answers, `no-cors` answers MCP-looking JSON without CORS headers. */
export async function startTiny(kind: 'html' | 'hang' | 'no-cors'): Promise<TinyServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method ?? '?'} ${req.url ?? ''}`);
    if (kind === 'hang') return; // never answers, not even the preflight
    if (kind === 'html') {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      res.writeHead(200, { ...CORS, 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome</h1></body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback MCP server (hand-written, CORS open) whose tools/list is `tools` tools in one event
 * stream: 50,000 tools are about 8 MB, twice the importer's 4 MiB cap.
 */
export async function startBigList(tools: number): Promise<TinyServer & { readonly bytes: number }> {
  const requests: string[] = [];
  const list = JSON.stringify(
    Array.from({ length: tools }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}: looks a thing up in the inventory.`, inputSchema: { type: 'object', properties: { id: { type: 'string' } } } })),
  );
  const server = http.createServer((req, res) => {
    requests.push(`${req.method ?? '?'} ${req.url ?? ''}`);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    if (req.method === 'GET') {
      // The SDK's background stream for notifications: held open, silent.
      res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(202, CORS);
      res.end();
      return;
    }
    let body = '';
    req.on('data', (d: Buffer) => (body += String(d)));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id?: number; method: string };
      if (msg.id === undefined) {
        res.writeHead(202, CORS);
        res.end();
        return;
      }
      if (msg.method === 'initialize') {
        res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'big-list', version: '1.0.0' } } }));
        return;
      }
      res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream' });
      res.on('error', () => undefined);
      const framed = `event: message\ndata: {"jsonrpc":"2.0","id":${msg.id},"result":{"tools":${list}}}\n\n`;
      let at = 0;
      const pump = (): void => {
        while (at < framed.length && !res.destroyed) {
          const piece = framed.slice(at, at + 65536);
          at += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    bytes: list.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The live-server specs' fixtures: a fresh server-everything per test, stopped at teardown. */
export const test = base.extend<{ everything: EverythingServer }>({
  // eslint-disable-next-line no-empty-pattern
  everything: async ({}, use) => {
    const server = await startEverything();
    await use(server);
    // Stopped before the page's fixture checks its console: the page's open event stream is cut
    // (ERR_INCOMPLETE_CHUNKED_ENCODING, however late the browser reports it), as the test's end does.
    const origin = new URL(server.url).origin;
    expectConsoleErrors((text, url) => url.startsWith(`${origin}/`) && text.includes('net::ERR_'));
    await server.stop();
  },
});

/** Console errors a refused or blocked connection makes the browser print: expected in these tests. */
export function dropNetworkErrors(errors: string[], url: string): string[] {
  const origin = new URL(url).origin;
  const dropped: string[] = [];
  for (let i = errors.length - 1; i >= 0; i--) {
    const e = errors[i] ?? '';
    const network = /Failed to load resource: net::ERR_(CONNECTION_REFUSED|EMPTY_RESPONSE|CONNECTION_RESET|FAILED)|blocked by CORS policy|net::ERR_/u.test(e);
    if (network && (e.includes(origin) || e.startsWith('Failed to load resource'))) {
      dropped.push(e);
      errors.splice(i, 1);
    }
  }
  return dropped;
}

export { expect } from './fixtures';

export interface NoCorsMcp extends TinyServer {
  /** Replaces the tools it lists (the next tools/list sees them). */
  setTools(tools: readonly { name: string; description: string }[]): void;
  /** The Authorization values it was sent, in order. */
  readonly authorizations: readonly string[];
}

/**
 * A loopback MCP server (hand-written JSON-RPC, JSON replies) that sends NO CORS headers, as most
 * servers meant for a command line do: a page cannot reach it, the bridge can. It answers only a
 * request carrying `Authorization: <authorization>` (401 otherwise), names itself `notes-server`
 * in serverInfo, and its `whoami` tool's description repeats the Authorization it was sent, as a
 * careless server might echo a key: the bridge must mask it before the page sees it.
 */
export async function startNoCorsMcp(authorization: string): Promise<NoCorsMcp> {
  const requests: string[] = [];
  const authorizations: string[] = [];
  let tools: readonly { name: string; description: string }[] = [
    { name: 'notes_search', description: 'Search the notes by words in their title or text.' },
    { name: 'notes_read', description: 'Read one note by its id.' },
  ];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method ?? '?'} ${req.url ?? ''}`);
    const auth = req.headers.authorization ?? '';
    authorizations.push(auth);
    if (auth !== authorization) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"unauthorized"}');
      return;
    }
    if (req.method !== 'POST') {
      // No event stream for notifications (the SDK goes on without one); DELETE ends nothing here.
      res.writeHead(req.method === 'DELETE' ? 200 : 405);
      res.end();
      return;
    }
    let body = '';
    req.on('data', (d: Buffer) => (body += String(d)));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (msg.id === undefined) {
        res.writeHead(202);
        res.end();
        return;
      }
      const result =
        msg.method === 'initialize'
          ? { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'notes-server', version: '2.1.0' } }
          : msg.method === 'tools/list'
            ? { tools: [...tools, { name: 'whoami', description: `Says who you are (you sent ${auth}).` }].map((t) => ({ ...t, inputSchema: { type: 'object', properties: {} } })) }
            : {};
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    authorizations,
    setTools: (next) => {
      tools = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
