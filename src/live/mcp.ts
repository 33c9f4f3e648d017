// Live MCP servers over Streamable HTTP, with the MCP SDK's own client and
// transport (no hand-written protocol): connect, list every page of tools, and
// say why a connection failed in words a user can act on, from the error the SDK
// gives (never a probing request of our own). The SDK is loaded on first use, so
// the first paint does not pay for it. Only loopback addresses and the page's own
// origin are reached: that is what the page's Content-Security-Policy allows.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MAX_CATALOGUE_BYTES, MAX_MESSAGE_BYTES, formatBytes, tooDeepTool } from '../core';
import { elicit, sample } from './asks';
import { bridgeHeaders } from './bridge';
import { cappedFetch, OVER_CAP_MARK } from './capped';
import type { Exceeded } from './capped';

/**
 * Why a connection failed. `unreachable`: the browser's fetch failed, which it reports the same
 * way for a closed port and for a server that refuses this page's origin (CORS); `refused` is
 * only said where the error itself says so (node's ECONNREFUSED).
 */
export type FailureReason = 'refused' | 'unreachable' | 'not-loopback' | 'unconfirmed' | 'too-large' | 'protocol' | 'timeout' | 'cancelled';

export const REASON_WORDS: Record<FailureReason, string> = {
  refused: 'refused',
  unreachable: 'unreachable',
  'not-loopback': 'not loopback',
  unconfirmed: 'not confirmed',
  'too-large': 'too large',
  protocol: 'protocol error',
  timeout: 'timeout',
  cancelled: 'cancelled',
};

/** The most one reply may carry: the core's cap on one MCP message (a catalogue at the importer's cap, plus the envelope). */
export const MAX_REPLY_BYTES = MAX_MESSAGE_BYTES;

/** A failure with its reason: what the status line shows. */
export class LiveServerError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'LiveServerError';
  }
}

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  /** Whether the server says it notifies tool list changes. */
  readonly toolsListChanged: boolean;
}

export interface LiveSession {
  readonly url: string;
  readonly client: Client;
  readonly transport: Transport;
  readonly info: ServerInfo;
  /** Distinguishes sessions to one URL (the tools query is keyed by it). */
  readonly key: string;
  /** Where an over-size reply is reported: the operation in flight aborts with it. */
  readonly guard: ReplyGuard;
}

/** Routes "a reply passed the cap" to whichever operation (connect, list) is waiting for it. */
export interface ReplyGuard {
  onExceeded: ((e: Exceeded) => void) | undefined;
}

export interface ConnectOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The server went away (its event stream broke). */
  readonly onLost?: (message: string) => void;
  /** The server notified `notifications/tools/list_changed`. */
  readonly onToolsChanged?: () => void;
  /** For tests: a transport other than Streamable HTTP (e.g. the SDK's in-memory pair). */
  readonly transport?: () => Transport;
  /** The fetch under the transport (tests pass their own). */
  readonly fetch?: typeof fetch;
  /** The cap on one reply; MAX_REPLY_BYTES unless a test says otherwise. */
  readonly maxReplyBytes?: number;
}

let sessions = 0;

/**
 * The hosts the page may reach besides its own origin, exactly the `connect-src` of its
 * Content-Security-Policy (src/app/csp.ts). A CSP source cannot name an IPv6 literal, so
 * `[::1]` is not among them.
 */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost'];

export function checkUrl(url: string, pageOrigin: string | undefined = globalThis.location?.origin): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LiveServerError('protocol', `${JSON.stringify(url)} is not a URL; give the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3001/mcp`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new LiveServerError('protocol', `${parsed.protocol} is not supported: the browser connects over Streamable HTTP (http: or https:)`);
  }
  if (parsed.origin !== pageOrigin && !LOOPBACK_HOSTS.includes(parsed.hostname)) {
    throw new LiveServerError(
      'not-loopback',
      `${parsed.host} is not on this machine: the workbench only reaches servers on loopback (${LOOPBACK_HOSTS.join(', ')}, any port) or on its own origin, which is all its Content-Security-Policy allows. Reach a remote server through a local proxy on 127.0.0.1.`,
    );
  }
  return parsed;
}

/** An operation's own controller: follows the caller's signal, and aborts when a reply passes the cap. */
function operation(guard: ReplyGuard, signal: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
  const c = new AbortController();
  const follow = () => c.abort(signal?.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener('abort', follow, { once: true });
  guard.onExceeded = (e) => c.abort(tooLarge(e));
  return {
    signal: c.signal,
    done() {
      signal?.removeEventListener('abort', follow);
      guard.onExceeded = undefined;
    },
  };
}

function tooLarge(e: Exceeded): LiveServerError {
  const how = e.announced ? `announced ${formatBytes(e.bytes)}` : `passed ${formatBytes(e.limit)}`;
  return new LiveServerError('too-large', `the server's reply ${how}; the workbench stops reading there (a tool list the importer could take is at most ${formatBytes(MAX_CATALOGUE_BYTES)}). Nothing of it was parsed.`);
}

/** How a body the cap cut reads in the SDK's errors (see capped.ts). */
const OVER_CAP = new RegExp(`${OVER_CAP_MARK}`, 'u');

/** Opens a session: the MCP handshake (initialize) within the timeout, cancellable. */
export async function connect(url: string, options: ConnectOptions): Promise<LiveSession> {
  // No eval anywhere, as the page's CSP requires (script-src 'self', no 'unsafe-eval'): Zod 4
  // compiles object parsers with `new Function`, and its probe for that alone is reported as a
  // violation, so it runs jitless (zod's `config`, set before any schema parses; see
  // colinhacks/zod discussion #6671 and modelcontextprotocol/ext-apps#618, read 2026-12-02). The
  // client's default output-schema validator, Ajv, compiles schemas to functions as soon as tools
  // are listed; the SDK's @cfworker/json-schema validator interprets them instead.
  const { config } = await import('zod/v4/core');
  config({ jitless: true });
  const [{ Client: ClientClass }, { StreamableHTTPClientTransport: TransportClass }, { ToolListChangedNotificationSchema, ElicitRequestSchema, CreateMessageRequestSchema }, { CfWorkerJsonSchemaValidator }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/cfworker'),
  ]);
  const target = options.transport ? undefined : checkUrl(url);
  // A server may ask the user while a tool runs (elicitation: a form; sampling: a reply in place of
  // a model): asks.ts holds each question for the panel that ran the call.
  const client = new ClientClass(
    { name: 'tool-catalogue-workbench', version: '0.1.0' },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, (r, extra) => elicit(url, r.params as { message: string; requestedSchema?: unknown }, extra.signal));
  client.setRequestHandler(CreateMessageRequestSchema, (r, extra) => sample(url, r.params, extra.signal));
  const guard: ReplyGuard = { onExceeded: undefined };
  const transport: Transport =
    options.transport?.() ??
    (new TransportClass(target as URL, {
      // The bridge's endpoints (same origin) carry its token; no other server ever sees it.
      ...(bridgeHeaders(url) ? { requestInit: { headers: bridgeHeaders(url) } } : {}),
      fetch: cappedFetch(options.fetch ?? ((input, init) => fetch(input, init)), options.maxReplyBytes ?? MAX_REPLY_BYTES, (e) => guard.onExceeded?.(e)),
      // One broken stream is enough to know the server went away; retrying only adds noise.
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
    }) as StreamableHTTPClientTransport);
  let open = true;
  client.onerror = (e: Error) => {
    const m = e.message;
    // A reply stream the size cap cut (capped.ts) is not the server going away: the operation
    // waiting for it fails as too large instead.
    if (OVER_CAP.test(m)) return;
    if (open && /SSE stream disconnected|Failed to reconnect SSE stream|Maximum reconnection attempts/u.test(m)) {
      open = false;
      options.onLost?.(m);
    }
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    options.onToolsChanged?.();
  });
  const op = operation(guard, options.signal);
  const onAbort = () => void transport.close().catch(() => undefined);
  op.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await client.connect(transport, { timeout: options.timeoutMs, signal: op.signal });
  } catch (e) {
    open = false;
    await transport.close().catch(() => undefined);
    throw explain(e, url, { ...options, signal: op.signal });
  } finally {
    op.signal.removeEventListener('abort', onAbort);
    op.done();
  }
  const v = client.getServerVersion();
  const caps = client.getServerCapabilities();
  sessions += 1;
  const instructions = client.getInstructions();
  return {
    url,
    client,
    transport,
    key: `s${sessions}`,
    guard,
    info: {
      name: v?.name ?? '(unnamed server)',
      version: v?.version ?? '',
      ...(typeof v?.title === 'string' ? { title: v.title } : {}),
      ...('protocolVersion' in transport && typeof transport.protocolVersion === 'string' ? { protocolVersion: transport.protocolVersion } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
      toolsListChanged: caps?.tools?.listChanged === true,
    },
  };
}

export interface ListedTools {
  /** The tools as the server sent them (validated again by the core when imported). */
  readonly tools: readonly unknown[];
  readonly pages: number;
  /** UTF-8 bytes of the tools' JSON. */
  readonly bytes: number;
}

export interface ListOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Stop after this many pages (a server that never stops paging). */
  readonly maxPages?: number;
}

/** `tools/list`, following `nextCursor` page by page, within the importer's size cap. */
export async function listAllTools(session: LiveSession, options: ListOptions): Promise<ListedTools> {
  const maxPages = options.maxPages ?? 200;
  const tools: unknown[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  let bytes = 2;
  const encoder = new TextEncoder();
  const op = operation(session.guard, options.signal);
  try {
    do {
      const page = await session.client.listTools(cursor !== undefined ? { cursor } : undefined, { timeout: options.timeoutMs, signal: op.signal });
      pages += 1;
      for (const t of page.tools) {
        const tooDeep = tooDeepTool([t], "the server's reply");
        if (tooDeep) throw new LiveServerError('protocol', tooDeep);
        tools.push(t);
        bytes += encoder.encode(JSON.stringify(t)).length + 1;
      }
      if (bytes > MAX_CATALOGUE_BYTES) {
        throw new LiveServerError('protocol', `the server's tool list passed ${formatBytes(MAX_CATALOGUE_BYTES)} after ${pages} pages (${tools.length} tools); the importer reads at most that`);
      }
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (seenCursors.has(cursor)) throw new LiveServerError('protocol', `the server sent the cursor ${JSON.stringify(cursor)} twice; paging would never end`);
        seenCursors.add(cursor);
      }
      if (pages >= maxPages && cursor !== undefined) {
        throw new LiveServerError('protocol', `the server was still paging after ${maxPages} pages (${tools.length} tools)`);
      }
    } while (cursor !== undefined);
  } catch (e) {
    throw explain(e, session.url, { ...options, signal: op.signal });
  } finally {
    op.done();
  }
  return { tools, pages, bytes };
}

export async function closeSession(session: LiveSession): Promise<void> {
  try {
    await session.client.close();
  } catch {
    // Closing a session to a server that is gone cannot fail usefully.
  }
}

function isAbort(e: unknown): boolean {
  return e instanceof Error && (e.name === 'AbortError' || /aborted/iu.test(e.message));
}

/** A sentence and a reason for whatever the SDK or fetch threw: read from the error alone, no request of our own. */
export function explain(e: unknown, url: string, options: { signal?: AbortSignal; timeoutMs?: number }): LiveServerError {
  if (e instanceof LiveServerError) return e;
  if (options.signal?.aborted) {
    const why: unknown = options.signal.reason;
    if (why instanceof LiveServerError) return why;
    return new LiveServerError('cancelled', 'cancelled before the server answered');
  }
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as { code?: unknown }).code;
  const message = err.message;
  // McpError RequestTimeout (-32001): the SDK's own timer.
  if (code === -32001 || /Request timed out/iu.test(message)) {
    return new LiveServerError('timeout', `no answer within ${Math.round((options.timeoutMs ?? 0) / 100) / 10} s; the server may be hanging`);
  }
  if (isAbort(err)) return new LiveServerError('cancelled', 'the request was cancelled');
  if (err.name === 'StreamableHTTPError' || /Streamable HTTP error/iu.test(message)) {
    const contentType = /Unexpected content type: ([^\s,;]+)/iu.exec(message)?.[1];
    if (contentType) return new LiveServerError('protocol', `the server answered ${contentType}, not JSON or an event stream: is ${url} an MCP endpoint?`);
    const status = /Error POSTing to endpoint \(HTTP (\d+)\)/iu.exec(message)?.[1] ?? (typeof code === 'number' && code > 0 ? String(code) : undefined);
    if (status === '404') return new LiveServerError('protocol', `HTTP 404: nothing serves MCP at ${url}`);
    if (status === '401' || status === '403') return new LiveServerError('protocol', `HTTP ${status}: the server wants authorization, which the workbench does not do`);
    if (status) return new LiveServerError('protocol', `HTTP ${status}: ${message.replace(/^Streamable HTTP error:\s*/iu, '').slice(0, 200)}`);
    return new LiveServerError('protocol', message.replace(/^Streamable HTTP error:\s*/iu, '').slice(0, 240));
  }
  if (err instanceof TypeError && /fetch|network|load failed/iu.test(message)) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    if (cause === 'ECONNREFUSED') return new LiveServerError('refused', `nothing answered at ${url} (${cause}): is the server running?`);
    // A browser says "Failed to fetch" alike for a closed port, a refused origin (CORS) and a
    // blocked address; which one it was is only in its console, not in the error.
    const origin = globalThis.location?.origin;
    return new LiveServerError(
      'unreachable',
      `no usable answer from ${url}${cause ? ` (${cause})` : ''}: either nothing is listening there, or the server does not allow ${origin ? `this page's origin, ${origin},` : "this page's origin"} (CORS; the browser's console says which). Is the server running, and does it send Access-Control-Allow-Origin?`,
    );
  }
  // The SDK validates every message: a reply that is not MCP fails here.
  if (err.name === 'ZodError' || err.name === 'McpError' || /invalid|expected|JSON/iu.test(message)) {
    return new LiveServerError('protocol', `the server's reply is not valid MCP: ${message.slice(0, 240)}`);
  }
  return new LiveServerError('protocol', message.slice(0, 240) || 'the connection failed');
}
