// The bridge's HTTP side: one loopback origin serving the built app and, under
// /bridge/, a small JSON API (servers, their logs, workspaces and their plans)
// plus one MCP endpoint per server. Every request passes the door (security.ts)
// first. The servers themselves are Upstreams (upstream.ts); a page session with
// one is a Facade (facade.ts).
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { BridgeInfo, ConnectHttpRequest, Replies, ServerView } from '../bridge-protocol';
import { serverSlug } from '../core/import/names';
import { Facade } from './facade';
import type { Terminal } from './log';
import { refusal } from './security';
import { serveStatic } from './static';
import { Upstream } from './upstream';
import type { UpstreamSource } from './upstream';
import { WorkspaceError, Workspaces } from './workspaces';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_HEADERS = 20;

export interface BridgeOptions {
  readonly token: string;
  /** The built app's folder (dist/). */
  readonly dist: string;
  readonly terminal: Terminal;
  readonly version: string;
  /** Stop every server when no page has asked anything for this long (ms); 0: never. */
  readonly idleStopMs: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Entry {
  readonly upstream: Upstream;
  readonly facade: Facade;
  /** The workspace whose confirmed plan started it (stdio), if any. */
  readonly workspace?: string;
}

type Reply = { readonly [K in keyof Replies]: Replies[K] }[keyof Replies] | BridgeInfo;

/** One JSON reply, of a shape the page's side declares too (src/bridge-protocol). */
function send(res: ServerResponse, status: number, value: Reply): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

function object(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new HttpError(400, `${key} must be a string`);
  return v;
}

export class Bridge {
  readonly http: HttpServer;
  port = 0;
  private readonly servers = new Map<string, Entry>();
  private readonly workspaces = new Workspaces();
  private lastSeen = Date.now();
  private open = 0;
  private idleTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: BridgeOptions) {
    this.http = createServer((req, res) => void this.handle(req, res));
    if (options.idleStopMs > 0) {
      this.idleTimer = setInterval(() => void this.stopIfIdle(), Math.min(5000, options.idleStopMs));
      this.idleTimer.unref();
    }
  }

  /** Listens on 127.0.0.1 only. */
  listen(port: number): Promise<number> {
    return new Promise((ok, fail) => {
      const onError = (e: Error) => fail(e);
      this.http.once('error', onError);
      this.http.listen(port, '127.0.0.1', () => {
        this.http.off('error', onError);
        const address = this.http.address();
        this.port = typeof address === 'object' && address ? address.port : port;
        ok(this.port);
      });
    });
  }

  /** Stops every server (their whole process trees) and closes the HTTP server. */
  async close(): Promise<void> {
    if (this.idleTimer) clearInterval(this.idleTimer);
    await Promise.all([...this.servers.values()].map(async (e) => {
      e.facade.dispose();
      await e.upstream.stop();
    }));
    this.http.closeAllConnections();
    await new Promise<void>((ok) => this.http.close(() => ok()));
  }

  private async stopIfIdle(): Promise<void> {
    if (this.open > 0 || Date.now() - this.lastSeen < this.options.idleStopMs) return;
    const running = [...this.servers.values()].filter((e) => e.upstream.status === 'running' || e.upstream.status === 'starting');
    if (running.length === 0) return;
    this.options.terminal.line(`no page for ${Math.round(this.options.idleStopMs / 1000)} s: stopping ${running.map((e) => e.upstream.name).join(', ')}`);
    await Promise.all(running.map((e) => e.upstream.stop()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://bridge.invalid');
    const method = req.method ?? 'GET';
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    // The confirmation dialog must not be framed by another page (clickjacking); a meta tag cannot say this.
    res.setHeader('content-security-policy', "frame-ancestors 'none'");
    res.setHeader('x-frame-options', 'DENY');
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const refused = refusal({ method, path: url.pathname, host: header('host'), origin: header('origin'), authorization: header('authorization') }, this.options.token, this.port);
    if (refused) {
      // Read (and drop) whatever body came, so the refusal reaches the client rather than a reset.
      req.resume();
      send(res, refused.status, { error: refused.message });
      return;
    }
    if (!url.pathname.startsWith('/bridge/')) {
      req.resume();
      if (method !== 'GET' && method !== 'HEAD') {
        send(res, 405, { error: 'the app is read-only' });
        return;
      }
      serveStatic(this.options.dist, url.pathname, res, method === 'HEAD');
      return;
    }
    this.lastSeen = Date.now();
    this.open += 1;
    res.once('close', () => {
      this.open -= 1;
      this.lastSeen = Date.now();
    });
    try {
      await this.route(method, url, req, res);
    } catch (e) {
      if (e instanceof HttpError) send(res, e.status, { error: e.message });
      else if (e instanceof WorkspaceError) send(res, 400, { error: e.message });
      else {
        this.options.terminal.line(`internal error on ${method} ${url.pathname}: ${e instanceof Error ? e.message : String(e)}`);
        send(res, 500, { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  private entry(name: string): Entry {
    const e = this.servers.get(name);
    if (!e) throw new HttpError(404, `no server ${JSON.stringify(name)} in this bridge`);
    return e;
  }

  private async route(method: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts = url.pathname.split('/').slice(2).map((p) => decodeURIComponent(p));
    const [a, b, c] = parts;
    const is = (m: string, n: number) => method === m && parts.length === n;
    if (a === 'info' && is('GET', 1)) {
      const info: BridgeInfo = { app: 'tool-catalogue-workbench', version: this.options.version, protocolVersions: SUPPORTED_PROTOCOL_VERSIONS, latestProtocolVersion: LATEST_PROTOCOL_VERSION };
      send(res, 200, info);
      return;
    }
    if (a === 'servers') {
      if (b === undefined && method === 'GET') return send(res, 200, { servers: [...this.servers.values()].map((e) => e.upstream.view()) });
      if (b === undefined && method === 'POST') return send(res, 200, { server: await this.connectHttp(object(await readBody(req))) });
      if (b !== undefined && c === 'mcp' && parts.length === 3) {
        const body = method === 'POST' ? await readBody(req) : undefined;
        await this.entry(b).facade.handle(req, res, body);
        return;
      }
      if (b !== undefined && c === 'log' && is('GET', 3)) {
        const after = Number(url.searchParams.get('after') ?? '0');
        return send(res, 200, { entries: this.entry(b).upstream.logSince(Number.isFinite(after) ? after : 0) });
      }
      if (b !== undefined && c === 'stop' && is('POST', 3)) {
        const e = this.entry(b);
        await e.upstream.stop();
        return send(res, 200, { server: e.upstream.view() });
      }
      if (b !== undefined && c === 'start' && is('POST', 3)) {
        const e = this.entry(b);
        // Only what the bridge already holds: a confirmed workspace's command, or a URL the user connected.
        await e.upstream.start();
        return send(res, 200, { server: e.upstream.view() });
      }
      if (b !== undefined && is('DELETE', 2)) {
        const e = this.entry(b);
        e.facade.dispose();
        await e.upstream.stop();
        this.servers.delete(b);
        res.writeHead(204).end();
        return;
      }
    }
    if (a === 'workspaces') {
      if (b === undefined && method === 'POST') {
        const path = optionalString(object(await readBody(req)), 'path');
        if (path === undefined) throw new HttpError(400, 'give the path of a JP project or its .jp folder');
        const w = this.workspaces.open(path);
        return send(res, 200, { workspace: w, files: Object.fromEntries(this.workspaces.files(w.id)) });
      }
      if (b !== undefined && c === 'plan' && is('POST', 3)) {
        const persona = optionalString(object(await readBody(req)), 'persona');
        const { specs: _specs, ...plan } = this.workspaces.plan(b, persona);
        return send(res, 200, { plan });
      }
      if (b !== undefined && c === 'start' && is('POST', 3)) {
        const planId = optionalString(object(await readBody(req)), 'plan');
        if (planId === undefined) throw new HttpError(400, 'name the plan the user confirmed');
        return send(res, 200, { servers: await this.startPlan(b, planId) });
      }
      if (b !== undefined && c === 'stop' && is('POST', 3)) {
        const mine = [...this.servers.values()].filter((e) => e.workspace === b);
        await Promise.all(mine.map((e) => e.upstream.stop()));
        return send(res, 200, { servers: mine.map((e) => e.upstream.view()) });
      }
    }
    throw new HttpError(404, `no such bridge route: ${method} ${url.pathname}`);
  }

  private uniqueName(base: string, replaceable: (e: Entry) => boolean): string {
    let name = base;
    for (let k = 2; this.servers.has(name) && !replaceable(this.servers.get(name) as Entry); k++) name = `${base}-${k}`;
    return name;
  }

  private add(name: string, upstream: Upstream, workspace?: string): Entry {
    const old = this.servers.get(name);
    if (old) {
      old.facade.dispose();
      void old.upstream.stop();
    }
    const e: Entry = { upstream, facade: new Facade(upstream), ...(workspace !== undefined ? { workspace } : {}) };
    this.servers.set(name, e);
    return e;
  }

  /** Starts the servers of a plan the user confirmed, in parallel, each under its config name. */
  private async startPlan(workspace: string, planId: string): Promise<ServerView[]> {
    const plan = this.workspaces.confirm(planId);
    if (plan.workspace !== workspace) throw new HttpError(400, 'that plan belongs to another workspace');
    const w = this.workspaces.get(workspace);
    this.options.terminal.line(`confirmed in the page: ${plan.specs.length} server${plan.specs.length === 1 ? '' : 's'} of ${w.jpDir}${plan.persona !== undefined ? ` (persona ${plan.persona})` : ''}`);
    const started = plan.specs.map((spec) => {
      const name = this.uniqueName(spec.name, (e) => e.workspace === workspace);
      const src: UpstreamSource = { kind: 'stdio', spec, cwd: w.root, from: `workspace ${w.jpDir}` };
      return this.add(name, new Upstream(name, src, this.options.terminal, spec.optional), workspace);
    });
    await Promise.all(started.map((e) => e.upstream.start()));
    return started.map((e) => e.upstream.view());
  }

  /** Connects an HTTP server from the bridge side (no process starts), named from its serverInfo unless named. */
  private async connectHttp(body: Record<string, unknown>): Promise<ServerView> {
    const { url, name: named, headers = {}, transport = 'auto' } = readConnect(body);
    const same = (e: Entry) => e.upstream.source.kind === 'http' && e.upstream.source.url === url;
    const provisional = this.uniqueName(named !== undefined ? serverSlug(named) : `connecting-${this.servers.size + 1}`, same);
    const up = new Upstream(provisional, { kind: 'http', url, headers, transport }, this.options.terminal);
    await up.start();
    // Named after the server itself, before any page session exists.
    if (named === undefined && up.status === 'running') up.name = this.uniqueName(serverSlug(up.serverInfo?.name ?? 'server'), same);
    this.add(up.name, up);
    return up.view();
  }
}

/** The body of `POST /bridge/servers`, checked: a URL, and headers that are headers. */
function readConnect(body: Record<string, unknown>): ConnectHttpRequest {
  const url = optionalString(body, 'url');
  if (url === undefined) throw new HttpError(400, 'give the server URL');
  const name = optionalString(body, 'name');
  const transport = optionalString(body, 'transport') ?? 'auto';
  if (transport !== 'auto' && transport !== 'streamable' && transport !== 'sse') throw new HttpError(400, 'transport must be auto, streamable or sse');
  const pairs: [string, string][] = [];
  const given = object(body.headers);
  const names = Object.keys(given);
  if (names.length > MAX_HEADERS) throw new HttpError(400, `at most ${MAX_HEADERS} headers`);
  for (const k of names) {
    const v = given[k];
    if (typeof v !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/u.test(k) || /[\r\n\0]/u.test(v)) throw new HttpError(400, `header ${JSON.stringify(k)} is not a valid header`);
    pairs.push([k, v]);
  }
  // fromEntries: a header called __proto__ is an own field, not the object's prototype.
  return { url, ...(name !== undefined ? { name } : {}), headers: Object.fromEntries(pairs), transport };
}
