// Each server the bridge reaches, handed to the page as an ordinary Streamable
// HTTP MCP endpoint (`/bridge/servers/NAME/mcp`), so the page's own SDK client,
// the Servers panel, import, the diff of tool lists and the sets work exactly as
// for a server the page reaches itself. A page session is an SDK `Server` that
// answers `initialize` with the real server's serverInfo and capabilities and
// forwards every other request to the one upstream session, unchanged; progress
// the server reports on a request comes back on that request, under the page's
// own progress token; and what the server asks of the client (sampling,
// elicitation) is asked of the page session whose request is running, or of any
// page session when none is. Sessions are kept apart: what the server says while a
// page request runs (a log line, a list changed) goes to that request's session
// only; a log line outside a request goes to the sessions that set a logging level,
// at or above it; a resource update to the sessions subscribed to it. A session's
// logging/setLevel and its ping reach the server, and a page learns the protocol
// version the server really speaks. Every message to the page passes the masker. When the
// real server goes, its page sessions are closed, so the page sees it at once.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, InitializeRequestSchema, LoggingLevelSchema, McpError, PingRequestSchema, ResultSchema, SetLevelRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { InitializeRequest, InitializeResult, LoggingLevel, Notification, Request, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Masker } from './secrets';
import type { Upstream } from './upstream';

interface PageSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** The level its logging/setLevel asked for: log lines outside its requests reach it only then. */
  level?: LoggingLevel;
  /** The resource URIs it subscribed to. */
  readonly subscriptions: Set<string>;
}

const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;

/** Whether a log line of `level` is below what the session asked for (a level the spec does not know passes). */
function below(level: unknown, wanted: LoggingLevel | undefined): boolean {
  if (wanted === undefined) return false;
  const i = SEVERITY.indexOf(level as LoggingLevel);
  return i !== -1 && i < SEVERITY.indexOf(wanted);
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How long a page has to answer a server's question (a person fills the form). */
const ASK_TIMEOUT_MS = 10 * 60_000;

export class Facade {
  private readonly sessions = new Map<string, PageSession>();
  private readonly unsubscribe: () => void;
  /** The page requests being forwarded now, newest last: whom to ask when the server asks. */
  private readonly running: { readonly session: PageSession; readonly extra: Extra; done?: Promise<unknown> }[] = [];

  constructor(
    private readonly upstream: Upstream,
    private readonly masker: Masker,
  ) {
    this.unsubscribe = upstream.onChange(() => {
      if (upstream.status !== 'running') void this.closeAfterReplies();
    });
    upstream.onNotification = (n) => this.route(n);
    upstream.onServerRequest = (r, signal) => this.ask(r, signal);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * One notification from the server, to the sessions it concerns. While page requests run it is
   * taken to belong to the newest of them (the one the server is most likely working on; a stdio
   * server's messages carry no request of their own), and goes on that request's stream.
   */
  private route(n: Notification): void {
    const level = n.method === 'notifications/message' ? (n.params as { level?: unknown } | undefined)?.level : undefined;
    const message = { jsonrpc: '2.0' as const, method: n.method, ...(n.params !== undefined ? { params: n.params } : {}) };
    // Straight to the transport, as the server said it: the SDK's Server would drop what the server's capabilities do not declare.
    const running = this.running.at(-1);
    if (running) {
      if (!below(level, running.session.level)) void running.session.transport.send(message, { relatedRequestId: running.extra.requestId }).catch(() => undefined);
      return;
    }
    const send = (s: PageSession) => void s.transport.send(message).catch(() => undefined);
    for (const s of this.sessions.values()) {
      if (n.method === 'notifications/message' && (s.level === undefined || below(level, s.level))) continue;
      if (n.method === 'notifications/resources/updated' && !s.subscriptions.has(String((n.params as { uri?: unknown } | undefined)?.uri))) continue;
      send(s);
    }
  }

  /** The level the server is asked for: the most verbose any session wants. */
  private async setLevel(): Promise<void> {
    const levels = [...this.sessions.values()].map((s) => s.level).filter((l): l is LoggingLevel => l !== undefined);
    const most = levels.sort((a, b) => SEVERITY.indexOf(a) - SEVERITY.indexOf(b))[0];
    if (most !== undefined) await this.upstream.forward('logging/setLevel', { level: most });
  }

  /** A server's request for the client: to the page whose request it serves (the newest running), else to any page session. */
  private async ask(request: Request, signal: AbortSignal): Promise<Record<string, unknown>> {
    const running = this.running.at(-1);
    const options = { signal, timeout: ASK_TIMEOUT_MS };
    if (running) return (await running.extra.sendRequest(request as ServerRequest, ResultSchema, options)) as Record<string, unknown>;
    const any = [...this.sessions.values()].at(-1);
    if (!any) throw new McpError(ErrorCode.InternalError, `no page is connected to answer ${request.method}`);
    return (await any.server.request(request as ServerRequest, ResultSchema, options)) as Record<string, unknown>;
  }

  /** The server went: the requests it was answering fail first (their error reaches the page), then the sessions close. */
  private async closeAfterReplies(): Promise<void> {
    await Promise.allSettled(this.running.map((r) => r.done));
    await new Promise((ok) => setImmediate(ok));
    await this.closeAll();
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }

  dispose(): void {
    this.unsubscribe();
    this.upstream.onNotification = undefined;
    this.upstream.onServerRequest = undefined;
    void this.closeAll();
  }

  /** One page request, forwarded: its progress relayed under the page's token, the session kept as the one to ask. */
  private async forward(session: PageSession, request: Request, extra: Extra): Promise<Record<string, unknown>> {
    const token = extra._meta?.progressToken;
    const mine: (typeof this.running)[number] = { session, extra };
    this.running.push(mine);
    const done = this.upstream.forward(request.method, request.params as Record<string, unknown> | undefined, {
      signal: extra.signal,
      ...(token !== undefined ? { onProgress: (p) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => undefined) } : {}),
    });
    mine.done = done;
    try {
      return await done;
    } finally {
      this.running.splice(this.running.indexOf(mine), 1);
    }
  }

  private newSession(): PageSession {
    const up = this.upstream;
    const info = up.serverInfo ?? { name: up.name, version: '' };
    const server = new Server(info, { capabilities: up.capabilities ?? {}, ...(up.instructions !== undefined ? { instructions: up.instructions } : {}) });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
      },
    });
    const session: PageSession = { transport, server, subscriptions: new Set() };
    server.fallbackRequestHandler = async (request, extra) => this.forward(session, request, extra) as never;
    // The page's ping is the server's to answer: the bridge answering it would hide a hung server.
    server.setRequestHandler(PingRequestSchema, async (request, extra) => this.forward(session, request, extra) as never);
    // The version the server speaks, not the newest the bridge's SDK does: a 2024-11-05-only server
    // is one to the page too. (The SDK's own answer is kept for what it records of the client.)
    const sdkInitialize = (server as unknown as { _oninitialize(r: InitializeRequest): Promise<InitializeResult> })._oninitialize.bind(server);
    // And what the server said, as it said it: its raw reply (serverInfo with `debug`, `vendorInfo` or any
    // key no spec names, capabilities beyond the SDK's), not the SDK's parse of it, which drops such keys,
    // so the page session sees what the bridge's view and the snapshot keep.
    server.setRequestHandler(InitializeRequestSchema, async (request) => {
      const result = await sdkInitialize(request);
      const said = up.initializeResult;
      const reply = said !== undefined ? ({ ...said } as InitializeResult) : result;
      return up.protocolVersion !== undefined ? { ...reply, protocolVersion: up.protocolVersion } : reply;
    });
    if (up.capabilities?.logging) {
      server.setRequestHandler(SetLevelRequestSchema, async (request) => {
        session.level = request.params.level;
        await this.setLevel();
        return {};
      });
    }
    if (up.capabilities?.resources?.subscribe) {
      server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
        const result = await this.forward(session, request, extra);
        session.subscriptions.add(request.params.uri);
        return result as never;
      });
      server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
        session.subscriptions.delete(request.params.uri);
        // The server's subscription is the bridge's: it ends when no page session wants it.
        if ([...this.sessions.values()].some((s) => s.subscriptions.has(request.params.uri))) return {};
        return this.forward(session, request, extra) as never;
      });
    }
    server.fallbackNotificationHandler = async (n) => up.notify(n);
    // The choke point towards the page: every message (initialize's serverInfo included) masked.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(this.masker.maskDeep(message), options);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    return session;
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
    if (up.status !== 'running') return refuse(res, 503, this.masker.mask(`${up.name} is ${up.status}${up.error ? `: ${up.error.split('\n')[0] ?? ''}` : ''}`));
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
