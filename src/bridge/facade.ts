// Each server the bridge reaches, handed to the page as an ordinary Streamable
// HTTP MCP endpoint (`/bridge/servers/NAME/mcp`), so the page's own SDK client,
// the Servers panel, import, the diff of tool lists and the sets work exactly as
// for a server the page reaches itself. A page session is an SDK `Server` that
// answers `initialize` with the real server's serverInfo and capabilities and
// forwards every other request to the one upstream session, unchanged. When the
// real server goes, its page sessions are closed, so the page sees it at once.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Notification } from '@modelcontextprotocol/sdk/types.js';
import type { Upstream } from './upstream';

interface PageSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
}

export class Facade {
  private readonly sessions = new Map<string, PageSession>();
  private readonly unsubscribe: () => void;

  constructor(private readonly upstream: Upstream) {
    this.unsubscribe = upstream.onChange(() => {
      if (upstream.status !== 'running') void this.closeAll();
    });
    upstream.onNotification = (n) => this.broadcast(n);
  }

  get size(): number {
    return this.sessions.size;
  }

  private broadcast(n: Notification): void {
    for (const s of this.sessions.values()) void s.transport.send({ jsonrpc: '2.0', method: n.method, ...(n.params !== undefined ? { params: n.params } : {}) }).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }

  dispose(): void {
    this.unsubscribe();
    this.upstream.onNotification = undefined;
    void this.closeAll();
  }

  private newSession(): PageSession {
    const up = this.upstream;
    const info = up.serverInfo ?? { name: up.name, version: '' };
    const server = new Server(info, { capabilities: up.capabilities ?? {}, ...(up.instructions !== undefined ? { instructions: up.instructions } : {}) });
    server.fallbackRequestHandler = async (request, extra) => up.forward(request.method, request.params as Record<string, unknown> | undefined, extra.signal) as never;
    server.fallbackNotificationHandler = async (n) => up.notify(n);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    return { transport, server };
  }

  /** One HTTP request to the endpoint (POST, GET for the event stream, DELETE to end a session). */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const up = this.upstream;
    const id = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(id) ? id[0] : id;
    if (sessionId !== undefined) {
      const s = this.sessions.get(sessionId);
      if (!s) return refuse(res, 404, `no session ${sessionId} with ${up.name} (the server restarted or the session ended): connect again`);
      await s.transport.handleRequest(req, res, body);
      return;
    }
    if (up.status !== 'running') return refuse(res, 503, `${up.name} is ${up.status}${up.error ? `: ${up.error.split('\n')[0] ?? ''}` : ''}`);
    if (req.method !== 'POST') return refuse(res, 400, 'start a session with an initialize request (POST)');
    const s = this.newSession();
    await s.server.connect(s.transport);
    await s.transport.handleRequest(req, res, body);
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  // A JSON-RPC error body, as the SDK's own transport answers, so the page's client reports the text.
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
