// One MCP server the bridge reaches: a stdio child it started, or an HTTP server
// (Streamable HTTP, or the older HTTP+SSE) it connects to, so the page never meets
// CORS. The bridge holds the one session with the server (a stdio server can be
// initialized once), with the SDK's own Client; the page gets its own sessions
// from the facade (facade.ts), which forwards requests here. Status, the
// negotiated protocol version, stderr and a log of requests and responses are
// kept for the page; a server that stops answering is seen within seconds.
import type { ChildProcess } from 'node:child_process';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, McpError, ResultSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities, JSONRPCMessage, MessageExtraInfo, Notification, Progress, Request, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ServerStatus, ServerView } from '../bridge-protocol';
import { nestsDeeperThan, tooDeepTool } from '../core/import/depth';
import { describeHidden, hiddenIn } from '../core/workspace/hidden';
import { commandLine } from '../core/workspace/mcp-servers';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';
import { LogRing } from './log';
import type { LogEntry, Terminal } from './log';
import { BridgeOAuthClient } from './oauth';
import type { CallbackOutcome, OAuthAnswer, OAuthStates, PreRegisteredClient } from './oauth';
import { descendants, stopTree } from './processTree';
import { headerSecrets, urlSecrets } from './secrets';
import type { Masker } from './secrets';
import { ChildTransport, spawnServer, verifyChecksum } from './stdio';
import type { Watchdog } from './watchdog';

export type UpstreamSource =
  | {
      readonly kind: 'stdio';
      readonly spec: McpLaunchSpec;
      readonly cwd: string;
      /** Where the command came from, for the terminal and the page ("workspace /x/.jp", "the command line"). */
      readonly from: string;
    }
  | {
      readonly kind: 'http';
      readonly url: string;
      /** Header values are secrets: kept here only, never logged or sent to the page. */
      readonly headers: Readonly<Record<string, string>>;
      readonly transport: 'auto' | 'streamable' | 'sse';
      /** Client credentials registered with the server's authorization server beforehand (else the bridge registers itself). */
      readonly oauthClient?: PreRegisteredClient;
    };

export type UpstreamStatus = ServerStatus;

/** What every upstream of one bridge shares: its terminal, its one masker, its watchdog. */
export interface UpstreamContext {
  readonly terminal: Terminal;
  readonly masker: Masker;
  readonly watchdog?: Watchdog;
  /** How long a stop waits after SIGTERM before SIGKILL; stopTree's default when absent. */
  readonly stopGraceMs?: number;
  /**
   * OAuth for HTTP servers that want authorization (oauth.ts): the bridge's callback address and the
   * states it issued. Absent (snapshot, tests of plain HTTP): a 401 is said as it is.
   */
  readonly oauth?: { readonly states: OAuthStates; readonly redirectUrl: () => string };
}

/** An authorization the server waits for: the page asks the user to open `url` in their browser. */
export interface PendingAuthorization {
  readonly url: string;
  /** The authorization server's origin, to name it in the question. */
  readonly authorizationServer: string;
  readonly scope?: string;
  /** Whether the session is running and wants more (a step-up), or the connection waits for it. */
  readonly stepUp: boolean;
}

/**
 * A request from the server to the client (sampling, elicitation): the facade hands it to a page
 * session; the answer, or the error, goes back to the server.
 */
export type ServerRequestHandler = (request: Request, signal: AbortSignal) => Promise<Record<string, unknown>>;

/** How one forwarded request reports back: progress to relay, the page's own token for it. */
export interface ForwardOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: Progress) => void;
}

const PING_EVERY_MS = 1500;
/**
 * A stream the server ends before its reply is resumed, as the spec's Streamable HTTP "Resumability
 * and Redelivery" says: a GET with Last-Event-ID after the server's `retry` (else 1 s, then 2 s),
 * three times at most; then the server is failed, so no call waits out its 5 minutes.
 */
const RESUME = { maxRetries: 3, initialReconnectionDelay: 1000, maxReconnectionDelay: 4000, reconnectionDelayGrowFactor: 2 } as const;
/**
 * While a server keeps answering, its pings thin out to one every this often: half the traffic of
 * one every 1.5 s, and an HTTP server that went away is still seen within 5 s (bench/bridge.ts).
 */
export const PING_AT_MOST_EVERY_MS = 3000;
/**
 * How long a ping waits before the server counts as not answering. A stdio server gets longer than
 * an HTTP one: it may be busy on one thread for a moment. A missed ping stops nothing (JP sends no
 * pings and waits for a call however long it takes): the page says "not answering for N s" and the
 * user may stop the server.
 */
const PING_TIMEOUT_MS = { http: PING_EVERY_MS, stdio: 5000 } as const;

/** The wait before the next ping: doubled after each answer, up to PING_AT_MOST_EVERY_MS. */
export function nextPingDelay(previous: number): number {
  return Math.min(previous * 2, PING_AT_MOST_EVERY_MS);
}
const CALL_TIMEOUT_MS = 5 * 60_000;

/**
 * What the bridge's client declares by default: what JP's does. JP connects with rmcp's default
 * client handler (`().serve(child)`, crates/jp_mcp/src/client.rs), whose `ClientInfo::default()`
 * declares no capability, so a server that registers tools only for a client that can sample or
 * elicit (server-everything's trigger-sampling-request, trigger-elicitation-request) never offers
 * them to JP, and must not to the workbench either.
 */
export const JP_CLIENT_CAPABILITIES: ClientCapabilities = {};
/** Declared when the user forwards a server's questions to the page (a per-server choice). */
export const FORWARDING_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };
/** The server's requests of its client that a page may answer. */
const PAGE_ANSWERS = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);
/** The longest stderr line kept whole before it is cut (an entry shows 4,000 characters of it). */
const MAX_STDERR_LINE_CHARS = 64 * 1024;
/** "No limit" (startup_timeout_secs = 0) as the SDK needs a number: about 24 days. */
const NO_LIMIT_MS = 2 ** 31 - 1;

/**
 * The deepest a message from a server may nest. Deeper values overflow the stack wherever they are
 * written out again (JSON.stringify is recursive): a tool schema nested 5,000 levels deep made its
 * tools/list reply vanish without a word. Past this, a reply becomes an error saying so.
 */
export const MAX_MESSAGE_DEPTH = 1000;

/** Wraps a transport to log what passes and to keep the server's raw reply to `initialize`. */
class Observed implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  protocolVersion?: string;
  initializeReply?: JSONRPCMessage;
  private initializeId: string | number | undefined;
  private readonly quiet = new Set<string | number>();
  /** The method of each request in flight, by id, to say what a refused reply answered. */
  private readonly methods = new Map<string | number, string>();

  constructor(
    readonly inner: Transport,
    private readonly log: LogRing,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** A message nested past the cap: a reply becomes an error naming the request; anything else is dropped. */
  private tooDeep(m: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!nestsDeeperThan(m, MAX_MESSAGE_DEPTH)) return m;
    const id = 'id' in m && !('method' in m) ? m.id : undefined;
    const what = id !== undefined ? `reply to ${this.methods.get(id) ?? 'a request'}` : `${'method' in m ? m.method : 'message'}`;
    const message = `the server's ${what} nests its JSON more than ${MAX_MESSAGE_DEPTH} levels deep (real tool lists nest fewer than 20); the bridge does not pass it on`;
    this.log.add('bridge', message);
    this.onTooDeep?.(message);
    return id !== undefined ? { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message } } : undefined;
  }

  /** Told each time a message nested past the cap is refused (the terminal says so). */
  onTooDeep?: (message: string) => void;

  async start(): Promise<void> {
    this.inner.onmessage = (raw, extra) => {
      const m = this.tooDeep(raw);
      if (!m) return;
      if ('id' in m && m.id !== undefined && !('method' in m)) this.methods.delete(m.id);
      if ('id' in m && this.initializeId !== undefined && m.id === this.initializeId && !('method' in m)) this.initializeReply = m;
      const id = 'id' in m ? m.id : undefined;
      if (!(id !== undefined && !('method' in m) && this.quiet.delete(id))) this.log.add('method' in m && !('id' in m) ? 'notification' : 'response', JSON.stringify(m));
      this.onmessage?.(m, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && 'id' in message) {
      this.methods.set(message.id, message.method);
      if (message.method === 'initialize') this.initializeId = message.id;
      // Pings every 1.5 s would drown the log.
      if (message.method === 'ping') this.quiet.add(message.id);
    }
    if (!('method' in message && message.method === 'ping')) this.log.add('method' in message && !('id' in message) ? 'notification' : 'request', JSON.stringify(message));
    await this.inner.send(message, options);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The server's input is closed: a write to it failed (EPIPE), or the transport closed under the request. */
function inputClosed(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'EPIPE' || (e instanceof McpError && e.code === ErrorCode.ConnectionClosed);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** How long an HTTP server has to answer initialize. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** An HTTP refusal, said as what happened: its status first, then what the server said. */
export function httpFailure(e: unknown, challenge: string | undefined): string {
  const code = (e as { code?: unknown }).code;
  const m = messageOf(e);
  if (code === ErrorCode.RequestTimeout) return `the server did not answer initialize within ${CONNECT_TIMEOUT_MS / 1000} s (it took the connection and said nothing): ${m}`;
  const said = challenge !== undefined ? ` (WWW-Authenticate: ${challenge})` : '';
  if (code === 401) return `401: the server wants authorization${said}; give its header (e.g. Authorization: Bearer ...) when connecting: ${m}`;
  if (code === 403) return `403: the server refuses these credentials${said}: ${m}`;
  if (typeof code === 'number' && code >= 400 && code < 600) return `${code}: ${m}`;
  // The SSE transport says its status only in its text.
  const sse = /Non-200 status code \((\d{3})\)/u.exec(m);
  if (sse) return httpFailure(Object.assign(new Error(m), { code: Number(sse[1]) }), challenge);
  return m;
}

export class Upstream {
  status: UpstreamStatus = 'starting';
  error: string | undefined;
  readonly log: LogRing;
  private client: Client | undefined;
  private observed: Observed | undefined;
  private child: ChildProcess | undefined;
  /** The child's TREE_VARIABLE: what it started is found by it once re-parented (processTree.ts). */
  private cookie: string | undefined;
  private missing: readonly string[] = [];
  private transportKind: 'stdio' | 'streamable' | 'sse' | undefined;
  private refusal: string | undefined;
  private startedAt: number | undefined;
  private pinger: ReturnType<typeof setTimeout> | undefined;
  private pingDelay = PING_EVERY_MS;
  /** Requests the bridge is waiting on the server for: while any runs, the server is busy and not pinged. */
  private inFlight = 0;
  /** When the first ping it has not answered was sent (ms since the epoch); cleared by its next answer. */
  private unansweredSince: number | undefined;
  private stopping = false;
  private readonly listeners = new Set<() => void>();
  /** Notifications from the server (tools/list_changed, ...), for the page's sessions. */
  onNotification: ((n: Notification) => void) | undefined;
  /** Requests from the server (sampling, elicitation), for a page session to answer. */
  onServerRequest: ServerRequestHandler | undefined;
  /** What started the server last, for the terminal ("POST /bridge/... from session 1"). */
  startedBy = '';
  /**
   * Whether the client declares sampling, elicitation and roots and hands those requests to the page
   * (FORWARDING_CAPABILITIES), or declares what JP's client does (none: the default). A change takes
   * effect on the next start (setForwarding reconnects).
   */
  forwardsToPage = false;
  /** The tool names the server listed while the bridge declared JP's capabilities (taken when forwarding is turned on). */
  private offeredToJp: ReadonlySet<string> | undefined;
  /** While forwarding: the tools listed now that JP's capabilities were not offered (for the page to mark). */
  private notOfferedToJp: readonly string[] | undefined;
  /** The server's OAuth client (its tokens, in memory only), kept across restarts of this upstream. */
  private oauthClient: BridgeOAuthClient | undefined;
  /** The authorization the server waits for, shown to the page; cleared by its answer, a stop or a new start. */
  authorization: PendingAuthorization | undefined;
  private authorizationTimer: ReturnType<typeof setTimeout> | undefined;
  /** Told when the server wants the user to authorize (the tests' stand-in for the user follows the URL). */
  onAuthorization: ((pending: PendingAuthorization) => void) | undefined;
  /** The start under way: an authorization's answer waits for it before it reconnects. */
  private run: Promise<void> | undefined;

  constructor(
    /** Its name in the bridge (and its endpoint's path); set once, before the page meets it. */
    public name: string,
    readonly source: UpstreamSource,
    private readonly context: UpstreamContext,
    readonly optional = false,
    /** False: JP would not start it (no tool names it yet); started to list its tools, its failure aborts nothing. */
    readonly jpStarts = true,
  ) {
    this.log = new LogRing(context.masker);
    if (source.kind === 'http') context.masker.registerAll([...headerSecrets(source.headers), ...urlSecrets(source.url)]);
  }

  /** A line on the bridge's terminal (masked and escaped there). */
  private say(text: string): void {
    this.context.terminal.line(text);
  }

  /** Called on every status change (the facade closes the page's sessions when a server goes). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** When the status last changed (ms since the epoch): a failed connection expires after a while. */
  since = Date.now();

  private set(status: UpstreamStatus, error?: string): void {
    this.status = status;
    this.error = error;
    this.since = Date.now();
    for (const l of this.listeners) l();
  }

  get endpoint(): string {
    return `/bridge/servers/${encodeURIComponent(this.name)}/mcp`;
  }

  /** What the page sees of the server: never a secret. */
  view(): ServerView {
    const info = this.client?.getServerVersion();
    const src = this.source;
    return {
      name: this.name,
      ...(src.kind === 'stdio' ? { declaredAs: src.spec.name } : {}),
      kind: src.kind,
      status: this.status,
      ...(this.error !== undefined ? { error: this.error } : {}),
      optional: this.optional,
      ...(this.jpStarts ? {} : { jpStarts: false }),
      forwardsToPage: this.forwardsToPage,
      ...(this.forwardsToPage && this.notOfferedToJp !== undefined ? { notOfferedToJp: [...this.notOfferedToJp] } : {}),
      ...(src.kind === 'stdio'
        ? { from: src.from, commandLine: commandLine(src.spec), cwd: src.cwd, variables: src.spec.variables, missingVariables: this.missing }
        : { url: src.url, headerNames: Object.keys(src.headers) }),
      ...(this.authorization ? { authorization: { ...this.authorization } } : {}),
      ...(this.oauthClient?.authorized ? { oauthAuthorized: true } : {}),
      ...(this.transportKind ? { transport: this.transportKind } : {}),
      ...(info && this.status === 'running' ? { serverInfo: this.rawServerInfo ?? { name: info.name, version: info.version } } : {}),
      ...(this.status === 'running' && this.initializeResult && isRecord(this.initializeResult.capabilities) ? { capabilities: this.initializeResult.capabilities } : {}),
      ...(this.observed?.protocolVersion && this.status === 'running' ? { protocolVersion: this.observed.protocolVersion } : {}),
      ...(this.refusal !== undefined ? { refusal: this.refusal } : {}),
      ...(this.status === 'running' && this.instructions ? { instructions: this.instructions } : {}),
      ...(this.child?.pid !== undefined && (this.status === 'running' || this.status === 'starting') ? { pid: this.child.pid } : {}),
      ...(this.startedAt !== undefined ? { startedAt: this.startedAt } : {}),
      ...(this.unansweredSince !== undefined && this.status === 'running' ? { notAnsweringSecs: Math.floor((Date.now() - this.unansweredSince) / 1000) } : {}),
      lastLog: this.log.last,
      endpoint: this.endpoint,
    };
  }

  /** serverInfo whole, as the server sent it, when it sent a name and a version. */
  private get rawServerInfo(): ServerView['serverInfo'] {
    const info = this.initializeResult?.serverInfo;
    return isRecord(info) && typeof info.name === 'string' && typeof info.version === 'string' ? (info as ServerView['serverInfo']) : undefined;
  }

  logSince(seq: number): LogEntry[] {
    return this.log.since(seq);
  }

  get capabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities();
  }

  get serverInfo(): { name: string; version: string } | undefined {
    return this.client?.getServerVersion();
  }

  /** The server's reply to `initialize` as it sent it (the SDK's parse keeps only the fields it knows). */
  get initializeResult(): Readonly<Record<string, unknown>> | undefined {
    const reply = this.observed?.initializeReply;
    const result = reply && 'result' in reply ? (reply.result as unknown) : undefined;
    return typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
  }

  /** The protocol version the server and the bridge agreed on. */
  get protocolVersion(): string | undefined {
    return this.observed?.protocolVersion;
  }

  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  /** Starts (or restarts) the server and opens the session. Never throws: a failure is the status. */
  async start(): Promise<void> {
    const run = this.startOnce();
    this.run = run;
    await run;
    this.notOfferedToJp = undefined;
    // What forwarding adds is known only against a list taken under JP's capabilities.
    if (this.forwardsToPage && this.offeredToJp !== undefined && this.status === 'running') {
      const jp = this.offeredToJp;
      const now = await this.toolNames();
      this.notOfferedToJp = now?.filter((n) => !jp.has(n));
      for (const l of this.listeners) l();
    }
  }

  /** Every page of the server's tool names, or undefined when it cannot list them (a failure is logged, not thrown). */
  private async toolNames(maxPages = 50): Promise<string[] | undefined> {
    const names: string[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < maxPages; page++) {
        const result = await this.forward('tools/list', cursor !== undefined ? { cursor } : undefined);
        for (const t of Array.isArray(result.tools) ? (result.tools as unknown[]) : []) if (isRecord(t) && typeof t.name === 'string') names.push(t.name);
        cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
        if (cursor === undefined) return names;
      }
    } catch (e) {
      this.log.add('bridge', `could not list the tools to compare with JP's: ${messageOf(e)}`);
    }
    return undefined;
  }

  private async startOnce(): Promise<void> {
    await this.shutdown();
    this.clearAuthorization();
    this.stopping = false;
    this.refusal = undefined;
    this.unansweredSince = undefined;
    this.set('starting');
    try {
      if (this.source.kind === 'stdio') await this.startStdio(this.source);
      else if ((await this.startHttp(this.source)) === 'authorizing') {
        // Starting still: it waits for the user (the page shows `authorization`) and the callback.
        this.set('starting');
        return;
      }
      this.startedAt = Date.now();
      this.set('running');
      this.log.add('bridge', `running: ${this.serverInfo?.name ?? '(unnamed)'} ${this.serverInfo?.version ?? ''}, protocol ${this.observed?.protocolVersion ?? '?'}`);
    } catch (e) {
      const message = messageOf(e);
      this.log.add('bridge', message);
      const what = !this.jpStarts ? 'failed to start (JP would not start it: no tool names it; nothing would abort)' : this.optional ? 'optional server failed to start; skipped' : 'failed';
      this.say(`${this.name}: ${what}: ${message.split('\n')[0] ?? ''}`);
      await this.shutdown();
      this.set('failed', message);
    }
  }

  /** Forward the server's questions to the page or not: it reconnects (a stdio server restarts) with those capabilities. */
  async setForwarding(on: boolean): Promise<void> {
    if (on && !this.forwardsToPage) {
      // The list JP's capabilities are offered, taken now, to say which tools forwarding adds; a server
      // not running is started with JP's capabilities first to take it.
      if (this.status !== 'running') await this.start();
      if (this.status === 'running') {
        const names = await this.toolNames();
        this.offeredToJp = names !== undefined ? new Set(names) : undefined;
      }
    }
    this.forwardsToPage = on;
    this.log.add('bridge', on ? 'forwarding sampling, elicitation and roots to the page: reconnecting with those capabilities' : "declaring JP's client capabilities (none): reconnecting");
    await this.start();
  }

  private newClient(): Client {
    const forwarding = this.forwardsToPage;
    const client = new Client({ name: 'tool-catalogue-workbench-bridge', version: '0.1.0' }, { capabilities: forwarding ? FORWARDING_CAPABILITIES : JP_CLIENT_CAPABILITIES });
    client.fallbackNotificationHandler = async (n) => this.onNotification?.(n);
    const ask = async (request: Request, signal: AbortSignal) => {
      const handler = this.onServerRequest;
      if (!handler) throw new McpError(ErrorCode.InternalError, `no page is connected to the bridge to answer ${request.method}`);
      this.log.add('bridge', `the server asks the page: ${request.method}`);
      return handler(request, signal) as never;
    };
    if (forwarding) {
      client.setRequestHandler(CreateMessageRequestSchema, (r, extra) => ask(r, extra.signal));
      client.setRequestHandler(ElicitRequestSchema, (r, extra) => ask(r, extra.signal));
      client.setRequestHandler(ListRootsRequestSchema, (r, extra) => ask(r, extra.signal));
    } else {
      // Undeclared, and asked all the same (a server that ignores capabilities): still the page's to
      // answer rather than a silent refusal, and the log says JP's client would not have been asked.
      client.fallbackRequestHandler = async (r, extra) => {
        if (!PAGE_ANSWERS.has(r.method)) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${r.method}`);
        this.log.add('bridge', `the server asks ${r.method} though the bridge, as JP's client, did not declare it`);
        return ask({ method: r.method, ...(r.params !== undefined ? { params: r.params } : {}) }, extra.signal);
      };
    }
    client.onerror = (e) => {
      // The resumption gave up: whatever waited on that stream would wait out its timeout.
      if (/Maximum reconnection attempts/u.test(e.message) && this.status === 'running' && !this.stopping) {
        this.log.add('bridge', e.message);
        this.set('failed', `the server's event stream ended and could not be resumed (${e.message})`);
        void this.shutdown();
      }
    };
    client.onclose = () => {
      if (this.status === 'running' && !this.stopping) {
        this.log.add('bridge', 'the connection closed');
        this.set('failed', this.transportFailure() ?? this.exitText() ?? 'the connection to the server closed');
        void this.shutdown();
      }
    };
    return client;
  }

  /** Why the stdio transport gave up on the server (a message line over the cap), if it did. */
  private transportFailure(): string | undefined {
    const inner = this.observed?.inner;
    return inner instanceof ChildTransport ? inner.failure : undefined;
  }

  private observe(inner: Transport): Observed {
    const observed = new Observed(inner, this.log);
    observed.onTooDeep = (message) => this.say(`${this.name}: ${message}`);
    return observed;
  }

  private exitText(): string | undefined {
    const c = this.child;
    if (!c || (c.exitCode === null && c.signalCode === null)) return undefined;
    const tail = this.log.stderrTail(5);
    return `the server exited (${c.signalCode ? `signal ${c.signalCode}` : `code ${c.exitCode}`})${tail.length > 0 ? `\nstderr:\n  ${tail.join('\n  ')}` : ''}`;
  }

  private async startStdio(src: Extract<UpstreamSource, { kind: 'stdio' }>): Promise<void> {
    const { spec, cwd } = src;
    const cmd = commandLine(spec);
    const sum = verifyChecksum(this.name, spec, cwd);
    if (!sum.ok) throw new Error(sum.message);
    const hidden = hiddenIn([this.name, cmd, cwd, ...spec.variables].join(' '));
    this.say(
      `starting ${this.name} (from ${src.from}${this.startedBy !== '' ? `; ${this.startedBy}` : ''}): ${cmd}  [in ${cwd}]${spec.variables.length > 0 ? ` with ${spec.variables.join(', ')}` : ''}` +
        (hidden.length > 0 ? `  WARNING: hidden characters, shown escaped: ${describeHidden(hidden)}` : ''),
    );
    const { child, missing, secrets, cookie } = spawnServer(spec, cwd);
    this.context.masker.registerAll(secrets);
    if (child.pid !== undefined) this.context.watchdog?.watch(child.pid, cookie);
    this.child = child;
    this.cookie = cookie;
    this.missing = missing;
    this.transportKind = 'stdio';
    for (const m of missing) this.log.add('bridge', `warning: environment variable ${m} is not set; the server starts without it (JP warns the same way)`);
    let pending = '';
    // A line past the cap is kept (masked, then cut, as every entry) and the rest of it, to its end, dropped:
    // one endless stderr line grew without bound and was split again on every chunk.
    let dropping = false;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      let text = chunk;
      if (dropping) {
        const end = text.indexOf('\n');
        if (end === -1) return;
        dropping = false;
        text = text.slice(end + 1);
      }
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.log.add('stderr', line.replace(/\r$/u, ''));
      if (pending.length > MAX_STDERR_LINE_CHARS) {
        this.log.add('stderr', pending);
        this.log.add('bridge', `the server wrote a stderr line over ${MAX_STDERR_LINE_CHARS / 1024} K characters; the bridge dropped the rest of it, up to its end`);
        pending = '';
        dropping = true;
      }
    });
    child.once('exit', () => {
      if (child.pid !== undefined) this.context.watchdog?.forget(child.pid);
    });
    // The server's end, once what it wrote on stderr is all read: 'exit' can come before the last of it
    // (Node: the stdio streams may still be open), and it belongs in the error. A descendant that keeps
    // the pipe open holds this up a second at most.
    const ended = new Promise<void>((ok) => {
      child.once('exit', () => {
        const err = child.stderr;
        if (!err || err.closed) return ok();
        const late = setTimeout(ok, 1000);
        err.once('close', () => {
          clearTimeout(late);
          ok();
        });
      });
    }).then(() => {
      if (pending.trim() !== '') this.log.add('stderr', pending);
      pending = '';
      this.log.add('bridge', `process ${child.pid ?? ''} exited (${child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`})`);
      if (this.status === 'running' && !this.stopping) {
        this.set('failed', this.transportFailure() ?? this.exitText());
        void this.shutdown();
      }
    });
    const spawned = new Promise<never>((_, fail) => {
      child.once('error', (e) => fail(new Error(`Cannot spawn process: ${cmd}, error: ${e.message}`)));
      void ended.then(() => fail(new Error(`Server initialization error: ${cmd}, error: ${this.exitText() ?? 'the server exited'}`)));
    });
    const stdio = new ChildTransport(child);
    stdio.onNoise = (line) => this.log.add('stdout', line);
    const transport = this.observe(stdio);
    const client = this.newClient();
    this.client = client;
    this.observed = transport;
    const timeoutMs = spec.startupTimeoutSecs === 0 ? NO_LIMIT_MS : spec.startupTimeoutSecs * 1000;
    const stderr = () => {
      const tail = this.log.stderrTail();
      return tail.length > 0 ? `\nstderr:\n  ${tail.join('\n  ')}` : '';
    };
    try {
      await Promise.race([client.connect(transport, { timeout: timeoutMs }), spawned]);
    } catch (e) {
      const failure = this.transportFailure();
      if (failure !== undefined) throw new Error(`Server initialization error: ${cmd}, error: ${failure}`);
      // A server that ends as it starts fails the start in whichever way is seen first: its exit, the
      // initialize request written to its closed input (EPIPE), the transport's close. The reason is its
      // end, with what it said on stderr (a server alive with its input closed is given a second).
      if (!messageOf(e).startsWith('Cannot spawn process') && (child.exitCode !== null || child.signalCode !== null || inputClosed(e))) {
        await Promise.race([ended, new Promise((ok) => setTimeout(ok, 1000).unref())]);
        const exit = this.exitText();
        if (exit !== undefined) throw new Error(`Server initialization error: ${cmd}, error: ${exit}`);
      }
      const m = messageOf(e);
      if (/^(Cannot spawn process|Server initialization error)/u.test(m)) throw new Error(`${m}${m.includes('stderr:') ? '' : stderr()}`);
      if (/timed out/iu.test(m)) throw new Error(`Server initialization timed out after ${spec.startupTimeoutSecs}s: ${cmd}${stderr()}`);
      throw new Error(`Server initialization error: ${cmd}, error: ${this.explainRefusal(m)}${stderr()}`);
    }
    spawned.catch(() => undefined);
    // A hung server (SIGSTOP, a deadlock) keeps its pipes open: only asking it shows it is gone.
    this.schedulePing(PING_EVERY_MS);
  }

  /** A refused protocol version: what the server answered, kept for the page. */
  private explainRefusal(message: string): string {
    const reply = this.observed?.initializeReply;
    if (reply && ('error' in reply || /protocol version/iu.test(message))) {
      // Masked before it is cut, as every cut is: a secret across the cut would leave its first characters.
      this.refusal = this.context.masker.cut(JSON.stringify(reply), 2000);
      return `${message} (the bridge speaks MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}; the server answered ${this.refusal})`;
    }
    return message;
  }

  /**
   * The server's OAuth client, made once: none when the bridge has no callback (snapshot) or the user
   * gave an Authorization header of their own (theirs is sent, as before).
   */
  private oauthFor(src: Extract<UpstreamSource, { kind: 'http' }>): BridgeOAuthClient | undefined {
    const oauth = this.context.oauth;
    if (!oauth || Object.keys(src.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    this.oauthClient ??= new BridgeOAuthClient({
      redirectUrl: oauth.redirectUrl,
      masker: this.context.masker,
      issueState: () => oauth.states.issue(this, this.name, (answer) => this.authorized(answer)),
      onAuthorizationUrl: (url) => this.wantsAuthorization(url, oauth.states.ttlMs),
      ...(src.oauthClient ? { preRegistered: src.oauthClient } : {}),
    });
    return this.oauthClient;
  }

  /**
   * The SDK built the authorization request (after discovery, registration and PKCE): the page shows
   * it and asks the user before opening it; the answer comes to the callback. Only the authorization
   * server's origin is logged: the URL carries the state, the callback's one credential.
   */
  private wantsAuthorization(url: URL, ttlMs: number): void {
    const scope = url.searchParams.get('scope') ?? undefined;
    const stepUp = this.status === 'running';
    this.authorization = { url: url.href, authorizationServer: url.origin, ...(scope !== undefined && scope !== '' ? { scope } : {}), stepUp };
    if (this.authorizationTimer) clearTimeout(this.authorizationTimer);
    const pending = this.authorization;
    this.authorizationTimer = setTimeout(() => void this.authorizationExpired(pending, ttlMs), ttlMs);
    this.authorizationTimer.unref();
    const what = `${stepUp ? 'more authorization' : 'authorization'} at ${url.origin}${scope !== undefined && scope !== '' ? ` (scope ${scope})` : ''}`;
    this.log.add('bridge', `the server wants ${what}: the page asks you to open the authorization server's page in your browser; its answer comes back to the bridge on loopback`);
    this.say(`${this.name}: wants ${what}; the page asks you to open it`);
    this.onAuthorization?.(pending);
  }

  private async authorizationExpired(pending: PendingAuthorization, ttlMs: number): Promise<void> {
    if (this.authorization !== pending) return;
    this.clearAuthorization();
    const why = `no authorization came back within ${Math.round(ttlMs / 1000)} s; Start asks again`;
    this.log.add('bridge', why);
    if (!pending.stepUp && this.status === 'starting') {
      await this.shutdown();
      this.set('failed', why);
    }
  }

  private clearAuthorization(): void {
    this.authorization = undefined;
    if (this.authorizationTimer) clearTimeout(this.authorizationTimer);
    this.authorizationTimer = undefined;
    this.context.oauth?.states.forget(this);
  }

  /**
   * The callback's answer to an authorization this upstream asked for: the code exchanged for a token
   * (PKCE), then the connection made again with it; or, for a step-up, the running session carries on
   * with the new token. What the callback page says comes back.
   */
  private async authorized(answer: OAuthAnswer): Promise<CallbackOutcome> {
    // The answer may come back before the start that asked has given up its first attempt.
    await this.run;
    const pending = this.authorization;
    if (!pending) return { status: 409, title: 'Not waiting for authorization', text: `${this.name} no longer waits for an authorization (it stopped or started again): nothing was done.` };
    this.clearAuthorization();
    const failed = async (status: number, why: string): Promise<CallbackOutcome> => {
      this.log.add('bridge', why);
      this.say(`${this.name}: ${why}`);
      if (!pending.stepUp) {
        await this.shutdown();
        this.set('failed', why);
      }
      return { status, title: `${this.name}: not authorized`, text: why };
    };
    if (answer.code === undefined) return failed(200, `the authorization server did not authorize: ${answer.error ?? 'no code'}${answer.errorDescription !== undefined ? ` (${answer.errorDescription})` : ''}`);
    this.context.masker.register(answer.code);
    const inner = this.observed?.inner;
    try {
      if (!(inner instanceof StreamableHTTPClientTransport || inner instanceof SSEClientTransport)) throw new Error('the server has no HTTP transport');
      await inner.finishAuth(answer.code);
    } catch (e) {
      return failed(502, `the authorization code was not exchanged for a token: ${messageOf(e)}`);
    }
    this.log.add('bridge', 'authorized: the bridge holds a token for the server, in its memory only');
    if (pending.stepUp && this.status === 'running') {
      this.say(`${this.name}: authorized again at ${pending.authorizationServer}`);
      return { status: 200, title: `${this.name}: authorized`, text: 'The bridge holds the new token; repeat what asked for it.' };
    }
    this.say(`${this.name}: authorized at ${pending.authorizationServer} (the token stays in the bridge's memory); connecting again`);
    await this.start();
    if (this.status === 'running') return { status: 200, title: `${this.name}: authorized and connected`, text: `The bridge holds a token for ${this.name} (in its memory only) and is connected.` };
    if (this.authorization) return { status: 200, title: `${this.name}: one more authorization`, text: 'The server asks for another authorization; the workbench shows it.' };
    return { status: 502, title: `${this.name}: authorized, not connected`, text: this.error ?? 'the connection failed' };
  }

  private async startHttp(src: Extract<UpstreamSource, { kind: 'http' }>): Promise<'connected' | 'authorizing'> {
    let url: URL;
    try {
      url = new URL(src.url);
    } catch {
      throw new Error(`${JSON.stringify(src.url)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} is not supported: give an http: or https: URL`);
    this.say(`connecting ${this.name}: ${src.url}${Object.keys(src.headers).length > 0 ? ` with headers ${Object.keys(src.headers).join(', ')}` : ''}`);
    const requestInit: RequestInit = { headers: { ...src.headers } };
    // What the server said with a refusal (WWW-Authenticate names how to authorize), for the error.
    let challenge: string | undefined;
    const watchedFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (res.status === 401 || res.status === 403) challenge = res.headers.get('www-authenticate') ?? undefined;
      return res;
    };
    const authProvider = this.oauthFor(src);
    const auth = authProvider ? { authProvider } : {};
    const attempt = async (kind: 'streamable' | 'sse') => {
      const inner: Transport =
        kind === 'streamable'
          ? new StreamableHTTPClientTransport(url, { requestInit, fetch: watchedFetch, reconnectionOptions: RESUME, ...auth })
          : new SSEClientTransport(url, { requestInit, fetch: watchedFetch, ...auth });
      const transport = this.observe(inner);
      const client = this.newClient();
      this.client = client;
      this.observed = transport;
      this.transportKind = kind;
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    };
    try {
      if (src.transport === 'sse') await attempt('sse');
      else {
        try {
          await attempt('streamable');
        } catch (e) {
          const code = (e as { code?: unknown }).code;
          const answered = this.observed?.initializeReply !== undefined;
          // The MCP spec's backwards compatibility (2025-11-25, basic/transports, "Backwards
          // Compatibility"): only a 400, 404 or 405 to the POST of the InitializeRequest means an
          // old HTTP+SSE server. A 401 is a server wanting authorization, not an old one.
          if (src.transport === 'streamable' || answered || !(code === 400 || code === 404 || code === 405)) throw new Error(httpFailure(e, challenge));
          this.log.add('bridge', `Streamable HTTP answered ${code} to initialize; trying the older HTTP+SSE transport, as the MCP spec says`);
          await this.client?.close().catch(() => undefined);
          try {
            await attempt('sse');
          } catch (old) {
            throw new Error(`Streamable HTTP: ${httpFailure(e, challenge)}; the older HTTP+SSE transport: ${httpFailure(old, challenge)}`);
          }
        }
      }
    } catch (e) {
      // The SDK's auth asked for the user's authorization: the connection waits for its answer.
      if (this.authorization !== undefined) return 'authorizing';
      const m = this.explainRefusal(src.transport === 'sse' ? httpFailure(e, challenge) : messageOf(e));
      // A 401 the bridge's OAuth could not get through (no metadata, a registration refused): both said.
      if (authProvider && challenge !== undefined && !/^(Streamable HTTP: )?40[13]: /u.test(m)) throw new Error(`401: the server wants authorization (WWW-Authenticate: ${challenge}); the bridge's OAuth did not get through: ${m}`);
      throw new Error(m);
    }
    // A server that keeps no event stream open is only seen gone on the next request: ask.
    this.schedulePing(PING_EVERY_MS);
    return 'connected';
  }

  private schedulePing(delay: number): void {
    this.pingDelay = delay;
    if (this.pinger) clearTimeout(this.pinger);
    this.pinger = setTimeout(() => void this.ping(), delay);
    this.pinger.unref();
  }

  /**
   * Pings an idle server (one with no request in flight): each answer lets the next ping wait
   * longer. A server that lets a ping time out is not stopped, only said to be not answering (since
   * that ping was sent) until it answers again; a ping refused outright (an HTTP server whose port
   * closed) means the server is gone.
   */
  private async ping(): Promise<void> {
    const client = this.client;
    if (!client || this.status === 'stopped' || this.status === 'failed') return;
    if (this.status !== 'running') return this.schedulePing(PING_EVERY_MS);
    // Busy: JP waits for a call without pinging; forward() pings again once the last request ends.
    if (this.inFlight > 0) return;
    // Waiting for the user to authorize more: a ping would only ask again.
    if (this.authorization !== undefined) return this.schedulePing(PING_AT_MOST_EVERY_MS);
    const sent = Date.now();
    try {
      await client.ping({ timeout: PING_TIMEOUT_MS[this.source.kind] });
      if (this.client !== client || this.status !== 'running') return;
      if (this.unansweredSince !== undefined) {
        this.log.add('bridge', `answering again after ${Math.round((Date.now() - this.unansweredSince) / 1000)} s`);
        this.say(`${this.name}: answering again`);
        this.unansweredSince = undefined;
      }
      this.schedulePing(nextPingDelay(this.pingDelay));
    } catch (e) {
      if (this.client !== client || this.status !== 'running' || this.stopping) return;
      if ((e as { code?: unknown }).code === ErrorCode.RequestTimeout) {
        const first = this.unansweredSince === undefined;
        this.unansweredSince ??= sent;
        if (first) {
          const secs = Math.round((Date.now() - sent) / 1000);
          this.log.add('bridge', `no answer to ping for ${secs} s: the server is still running (not stopped for it); Stop ends it`);
          this.say(`${this.name}: not answering for ${secs} s (still running; Stop ends it)`);
        }
        if (this.inFlight === 0) this.schedulePing(PING_EVERY_MS);
        return;
      }
      // Its token refused, and a new authorization asked of the user: the server is there.
      if (e instanceof UnauthorizedError || this.authorization !== undefined) return this.schedulePing(PING_AT_MOST_EVERY_MS);
      this.log.add('bridge', `ping refused: ${messageOf(e)}`);
      this.set('failed', `the server stopped answering (ping: ${messageOf(e)})`);
      await this.shutdown();
    }
  }

  /**
   * Forwards one request from the page to the server, every field of the result kept (the facade
   * masks what it sends on). Progress the server reports comes back through `onProgress`: the SDK
   * gives the request its own progress token towards the server, and the facade relays each update
   * under the page's token. A tool list nested past the importer's cap is refused here, saying so,
   * rather than left to fail deeper down without a word.
   */
  async forward(method: string, params: Record<string, unknown> | undefined, options: ForwardOptions = {}): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client || this.status !== 'running') throw new Error(`the server ${this.name} is ${this.status}`);
    const { signal, onProgress } = options;
    // Busy from now until the last request in flight ends: no ping meanwhile (a server holding its only
    // thread for a long call would miss it). The page is using the server: once idle, a hang should show soon.
    this.inFlight++;
    if (this.pinger) clearTimeout(this.pinger);
    this.pinger = undefined;
    let result: Record<string, unknown>;
    try {
      result = (await client.request({ method, ...(params !== undefined ? { params } : {}) }, ResultSchema, {
        // A page's ping asks whether the server answers now: it gets the bridge's ping wait, not a call's.
        timeout: method === 'ping' ? PING_TIMEOUT_MS[this.source.kind] : CALL_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
      })) as Record<string, unknown>;
    } catch (e) {
      // The SDK's server answers with this error's code, message and data: keep them. Its message
      // without the SDK's "MCP error N: " (the page's SDK puts that in front again), and, when the server
      // failed under the request (a line over the cap, an exit), why, rather than "Connection closed".
      const { code, data } = e as { code?: unknown; data?: unknown };
      const why = code === ErrorCode.ConnectionClosed ? (this.transportFailure() ?? this.exitText()) : undefined;
      if (e instanceof UnauthorizedError) {
        // A step-up (403 insufficient_scope) or a token refused: the user authorizes, then repeats the request.
        const pending = this.authorization;
        const scope = pending?.scope !== undefined ? ` (scope ${pending.scope})` : '';
        throw new Error(pending !== undefined ? `the server wants more authorization${scope} at ${pending.authorizationServer}: the workbench asks you to open its page; repeat this once authorized` : `the server refused the bridge's authorization: ${messageOf(e)}`);
      }
      const message = messageOf(e).replace(/^MCP error -?\d+: /u, '');
      throw Object.assign(new Error(why !== undefined ? `${message}: ${why}` : message), { ...(code !== undefined ? { code } : {}), ...(data !== undefined ? { data } : {}) });
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.client === client && this.status === 'running') this.schedulePing(PING_EVERY_MS);
    }
    if (method === 'tools/list' && Array.isArray(result.tools)) {
      const tooDeep = tooDeepTool(result.tools as unknown[], `${this.name}'s tools/list`);
      if (tooDeep !== undefined) {
        this.log.add('bridge', tooDeep);
        this.say(`${this.name}: ${tooDeep}`);
        throw new McpError(ErrorCode.InvalidParams, tooDeep);
      }
    }
    return result;
  }

  /** Forwards a notification from the page (e.g. roots/list_changed). */
  async notify(n: Notification): Promise<void> {
    await this.client?.notification(n as never).catch(() => undefined);
  }

  /** Stop: ends the session (HTTP DELETE), stops the process tree. */
  async stop(): Promise<void> {
    this.clearAuthorization();
    if (this.status === 'stopped') return;
    this.stopping = true;
    this.log.add('bridge', 'stopping');
    await this.shutdown();
    this.set('stopped');
  }

  private async shutdown(): Promise<void> {
    if (this.pinger) clearTimeout(this.pinger);
    this.pinger = undefined;
    const client = this.client;
    const observed = this.observed;
    const child = this.child;
    this.client = undefined;
    // Listed before the client closes our end of the pipe, which may end the server and orphan its children.
    const tree = child?.pid !== undefined ? descendants(child.pid) : [];
    if (observed?.inner instanceof StreamableHTTPClientTransport && observed.inner.sessionId !== undefined) {
      // client.close() does not end the session; the DELETE does (the MCP spec's session end).
      await observed.inner.terminateSession().catch(() => undefined);
    }
    if (client) {
      const wasStopping = this.stopping;
      this.stopping = true;
      await client.close().catch(() => undefined);
      this.stopping = wasStopping;
    }
    const cookie = this.cookie;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) await stopTree(child.pid, this.context.stopGraceMs, tree, cookie);
    else if (child?.pid !== undefined) await stopTree(child.pid, 0, tree, cookie);
    if (child?.pid !== undefined) this.context.watchdog?.forget(child.pid);
  }
}
