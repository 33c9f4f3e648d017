// The bridge's HTTP side: one loopback origin serving the built app and, under
// /bridge/, a small JSON API (the code exchange, servers, their logs, workspaces
// and their plans) plus one MCP endpoint per server. Every request passes the door
// (security.ts) first, and every reply the masker (secrets.ts) last. The servers
// themselves are Upstreams (upstream.ts); a page session with one is a Facade
// (facade.ts).
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { BridgeInfo, ConnectHttpRequest, ForwardingRequest, HiddenInPlan, Replies, ServerView } from '../bridge-protocol';
import { serverSlug } from '../core/import/names';
import { describeHidden } from '../core/workspace/hidden';
import { Facade } from './facade';
import { ModelDesk, ModelRouteError } from './modelRoutes';
import type { SendOptions } from './models';
import type { Terminal } from './log';
import type { Masker } from './secrets';
import { callbackPage, OAUTH_CALLBACK_PATH, OAuthStates } from './oauth';
import { EXCHANGE_PATH, refusal } from './security';
import type { Session, Sessions } from './security';
import { serveStatic } from './static';
import { Upstream } from './upstream';
import type { UpstreamContext, UpstreamSource } from './upstream';
import type { Watchdog } from './watchdog';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';
import { HiddenUnconfirmed, hiddenInSpecs, WorkspaceError, Workspaces } from './workspaces';

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_HEADERS = 20;

export interface BridgeOptions {
  /** The one-time codes and the session tokens (security.ts). */
  readonly sessions: Sessions;
  readonly masker: Masker;
  /** The built app's folder (dist/). */
  readonly dist: string;
  readonly terminal: Terminal;
  readonly version: string;
  /** Stop every server when no page has asked anything for this long (ms); 0: never. */
  readonly idleStopMs: number;
  /** Plans wait this long for their confirmation, and a failed connection is dropped after it (ms). */
  readonly expireMs: number;
  /** How long a stop waits after SIGTERM before SIGKILL (serve --stop-grace). */
  readonly stopGraceMs?: number;
  readonly watchdog?: Watchdog;
  /**
   * `serve --confirm-in-terminal`: asks y/N on the terminal before any process starts. The question's
   * lines are printed as every terminal line is (masked, hidden characters escaped).
   */
  readonly askInTerminal?: (question: readonly string[]) => Promise<boolean>;
  /** Where the user's model keys and base URLs come from (default: this process's environment). */
  readonly modelEnv?: Readonly<Record<string, string | undefined>>;
  /** `serve --record FILE`: every exchange with the user's model appended to FILE. */
  readonly record?: string;
  /** The sender's options (tests: no waiting before a retry). */
  readonly modelSend?: SendOptions;
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

function reply(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(text);
}

/** The request, as the terminal names it: "POST /bridge/workspaces/ID/start from session 1" (the session's line names its User-Agent). */
function requestText(method: string, path: string, session: Session | undefined): string {
  return `${method} ${path}${session ? ` from session ${session.n}` : ''}`;
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
  private readonly workspaces: Workspaces;
  private readonly context: UpstreamContext;
  private lastSeen = Date.now();
  private open = 0;
  private idleTimer: ReturnType<typeof setInterval> | undefined;
  private readonly expireTimer: ReturnType<typeof setInterval>;
  private readonly models: ModelDesk;
  /** The OAuth states the bridge issued (oauth.ts): each as long-lived as a plan. */
  private readonly oauthStates: OAuthStates;

  constructor(private readonly options: BridgeOptions) {
    this.workspaces = new Workspaces(options.expireMs);
    this.oauthStates = new OAuthStates(options.expireMs);
    this.models = new ModelDesk({ env: options.modelEnv ?? process.env, masker: options.masker, terminal: options.terminal, ...(options.record !== undefined ? { record: options.record } : {}), ...(options.modelSend ? { send: options.modelSend } : {}) });
    this.context = { terminal: options.terminal, masker: options.masker, ...(options.watchdog ? { watchdog: options.watchdog } : {}), ...(options.stopGraceMs !== undefined ? { stopGraceMs: options.stopGraceMs } : {}),
      oauth: { states: this.oauthStates, redirectUrl: () => `http://127.0.0.1:${this.port}${OAUTH_CALLBACK_PATH}` },
    };
    this.http = createServer((req, res) => void this.handle(req, res));
    if (options.idleStopMs > 0) {
      this.idleTimer = setInterval(() => void this.stopIfIdle(), Math.min(5000, options.idleStopMs));
      this.idleTimer.unref();
    }
    this.expireTimer = setInterval(() => this.expire(), Math.min(5000, options.expireMs));
    this.expireTimer.unref();
  }

  /** One JSON reply, of a shape the page's side declares too (src/bridge-protocol), masked on its way out. */
  private send(res: ServerResponse, status: number, value: Reply): void {
    reply(res, status, this.options.masker.mask(JSON.stringify(value)));
  }

  /** Plans nobody confirmed in time, and connections that failed that long ago, are let go. */
  private expire(): void {
    this.workspaces.expire();
    this.oauthStates.expire();
    const now = Date.now();
    for (const [name, e] of this.servers) {
      if (e.upstream.source.kind === 'http' && e.upstream.status === 'failed' && now - e.upstream.since >= this.options.expireMs) {
        e.facade.dispose();
        this.servers.delete(name);
      }
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
    clearInterval(this.expireTimer);
    await Promise.all([...this.servers.values()].map(async (e) => {
      e.facade.dispose();
      await e.upstream.stop();
    }));
    this.options.watchdog?.close();
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
    const door = refusal({ method, path: url.pathname, host: header('host'), origin: header('origin'), authorization: header('authorization') }, this.options.sessions, this.port);
    if ('status' in door) {
      // Read (and drop) whatever body came, so the refusal reaches the client rather than a reset.
      req.resume();
      this.send(res, door.status, { error: door.message });
      return;
    }
    if (!url.pathname.startsWith('/bridge/')) {
      req.resume();
      if (method !== 'GET' && method !== 'HEAD') {
        this.send(res, 405, { error: 'the app is read-only' });
        return;
      }
      serveStatic(this.options.dist, url.pathname, res, method === 'HEAD');
      return;
    }
    if (url.pathname === OAUTH_CALLBACK_PATH && method === 'GET') {
      await this.oauthCallback(url, res);
      return;
    }
    if (url.pathname === EXCHANGE_PATH && method === 'POST') {
      await this.exchange(req, res).catch((e: unknown) => this.send(res, e instanceof HttpError ? e.status : 500, { error: e instanceof Error ? e.message : String(e) }));
      return;
    }
    this.lastSeen = Date.now();
    this.open += 1;
    res.once('close', () => {
      this.open -= 1;
      this.lastSeen = Date.now();
    });
    try {
      await this.route(method, url, req, res, door.session);
    } catch (e) {
      if (e instanceof HttpError || e instanceof ModelRouteError) this.send(res, e.status, { error: e.message });
      else if (e instanceof HiddenUnconfirmed) this.send(res, 409, { error: e.message });
      else if (e instanceof WorkspaceError) this.send(res, 400, { error: e.message });
      else {
        this.options.terminal.line(`internal error on ${method} ${url.pathname}: ${e instanceof Error ? e.message : String(e)}`);
        this.send(res, 500, { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  /** `POST /bridge/session`: the printed code, spent, for a session token (the one reply that carries a secret). */
  private async exchange(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const code = optionalString(object(await readBody(req)), 'code') ?? '';
    const ua = req.headers['user-agent'] ?? '';
    const got = this.options.sessions.exchange(code, Array.isArray(ua) ? (ua[0] ?? '') : ua);
    if (!got) throw new HttpError(403, 'that code is spent or wrong: each address opens one page session; press Enter in the terminal running tool-workbench serve for a new address');
    this.options.masker.register(got.token);
    this.options.terminal.line(`session ${got.session.n} opened with the address's code (User-Agent ${JSON.stringify(got.session.userAgent)}); the code is spent. Press Enter here for a new address.`);
    const body: Replies['session'] = { token: got.token };
    reply(res, 200, JSON.stringify(body));
  }

  /**
   * `GET /bridge/oauth/callback?code&state`: the authorization server's redirect, in the user's browser.
   * No bridge token (a redirect carries none): only a state the bridge issued does anything, once. The
   * answer is a plain page (no script, nothing loaded); the workbench's page sees the server connect.
   */
  private async oauthCallback(url: URL, res: ServerResponse): Promise<void> {
    const outcome = await this.oauthStates.answer(url.searchParams).catch((e: unknown) => ({ status: 500, title: 'The bridge failed', text: e instanceof Error ? e.message : String(e) }));
    if (outcome.status === 403) this.options.terminal.line(`refused ${OAUTH_CALLBACK_PATH}: a state the bridge did not issue, or one spent or expired`);
    res.setHeader('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    if (!res.headersSent) res.writeHead(outcome.status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(callbackPage(outcome, this.options.masker));
  }

  private entry(name: string): Entry {
    const e = this.servers.get(name);
    if (!e) throw new HttpError(404, `no server ${JSON.stringify(name)} in this bridge`);
    return e;
  }

  private async route(method: string, url: URL, req: IncomingMessage, res: ServerResponse, session: Session | undefined): Promise<void> {
    const send = (status: number, value: Reply) => this.send(res, status, value);
    const parts = url.pathname.split('/').slice(2).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        throw new HttpError(400, `the path ${JSON.stringify(url.pathname)} has a malformed percent-escape`);
      }
    });
    const [a, b, c] = parts;
    const is = (m: string, n: number) => method === m && parts.length === n;
    if (a === 'info' && is('GET', 1)) {
      const info: BridgeInfo = { app: 'tool-catalogue-workbench', version: this.options.version, protocolVersions: SUPPORTED_PROTOCOL_VERSIONS, latestProtocolVersion: LATEST_PROTOCOL_VERSION, idleStopSecs: this.options.idleStopMs / 1000 };
      send(200, info);
      return;
    }
    if (a === 'servers') {
      if (b === undefined && method === 'GET') return send(200, { servers: [...this.servers.values()].map((e) => e.upstream.view()) });
      if (b === undefined && method === 'POST') return send(200, { server: await this.connectHttp(object(await readBody(req))) });
      if (b !== undefined && c === 'mcp' && parts.length === 3) {
        const body = method === 'POST' ? await readBody(req) : undefined;
        await this.entry(b).facade.handle(req, res, body);
        return;
      }
      if (b !== undefined && c === 'log' && is('GET', 3)) {
        const after = Number(url.searchParams.get('after') ?? '0');
        return send(200, { entries: this.entry(b).upstream.logSince(Number.isFinite(after) ? after : 0) });
      }
      if (b !== undefined && c === 'stop' && is('POST', 3)) {
        const e = this.entry(b);
        await e.upstream.stop();
        return send(200, { server: e.upstream.view() });
      }
      if (b !== undefined && c === 'start' && is('POST', 3)) {
        const e = this.entry(b);
        // Only what the bridge already holds: a confirmed workspace's command, or a URL the user connected.
        if (e.upstream.source.kind === 'stdio') {
          const how = requestText(method, url.pathname, session);
          const hidden = e.upstream.source.kind === 'stdio' ? hiddenInSpecs([e.upstream.source.spec], e.upstream.source.cwd) : [];
          await this.askTerminal([`Restart ${e.upstream.name} (${e.upstream.view().commandLine ?? ''}), asked by ${how}?`, ...hiddenWarning(hidden)]);
          e.upstream.startedBy = `restarted by ${how}`;
        }
        await e.upstream.start();
        return send(200, { server: e.upstream.view() });
      }
      if (b !== undefined && c === 'forwarding' && is('POST', 3)) {
        // A per-server choice (issue 34.3): declare sampling, elicitation and roots and hand them to the
        // page, or declare what JP's client does. Either reconnects the server (a stdio one restarts).
        const { forward } = object(await readBody(req)) as Partial<ForwardingRequest>;
        if (typeof forward !== 'boolean') throw new HttpError(400, 'forward must be true or false');
        const e = this.entry(b);
        if (e.upstream.source.kind === 'stdio') {
          const how = requestText(method, url.pathname, session);
          await this.askTerminal([`Restart ${e.upstream.name} (${e.upstream.view().commandLine ?? ''}) ${forward ? 'forwarding sampling, elicitation and roots to the page' : "with JP's client capabilities"}, asked by ${how}?`]);
          e.upstream.startedBy = `restarted by ${how}`;
        }
        await e.upstream.setForwarding(forward);
        return send(200, { server: e.upstream.view() });
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
    if (a === 'models') {
      // The user's real model (issue 26): modelRoutes.ts.
      if (b === undefined && is('GET', 1)) return send(200, { providers: this.models.providers() });
      if (b === 'key' && is('POST', 2)) return send(200, { providers: this.models.setKey(await readBody(req)) });
      if (b === 'ask' && is('POST', 2)) return send(200, await this.models.ask(await readBody(req), requestText(method, url.pathname, session)));
    }
    if (a === 'workspaces') {
      // What the bridge opened by path: a reloaded page re-attaches to the servers it runs for its folder.
      if (b === undefined && is('GET', 1)) return send(200, { workspaces: this.workspaces.list() });
      if (b === undefined && method === 'POST') {
        const path = optionalString(object(await readBody(req)), 'path');
        if (path === undefined) throw new HttpError(400, 'give the path of a JP project or its .jp folder');
        const w = this.workspaces.open(path);
        return send(200, { workspace: w, files: Object.fromEntries(this.workspaces.files(w.id)) });
      }
      if (b !== undefined && c === 'plan' && is('POST', 3)) {
        const persona = optionalString(object(await readBody(req)), 'persona');
        const { specs: _specs, ...plan } = this.workspaces.plan(b, persona);
        return send(200, { plan });
      }
      if (b !== undefined && c === 'start' && is('POST', 3)) {
        const request = object(await readBody(req));
        const planId = optionalString(request, 'plan');
        if (planId === undefined) throw new HttpError(400, 'name the plan the user confirmed');
        return send(200, await this.startPlan(b, planId, request.hiddenConfirmed === true, requestText(method, url.pathname, session)));
      }
      if (b !== undefined && c === 'stop' && is('POST', 3)) {
        const mine = [...this.servers.values()].filter((e) => e.workspace === b);
        await Promise.all(mine.map((e) => e.upstream.stop()));
        return send(200, { servers: mine.map((e) => e.upstream.view()) });
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
    const e: Entry = { upstream, facade: new Facade(upstream, this.options.masker), ...(workspace !== undefined ? { workspace } : {}) };
    this.servers.set(name, e);
    return e;
  }

  /** `--confirm-in-terminal`: the terminal's y/N, before any process starts; a no refuses the request. */
  private async askTerminal(question: readonly string[]): Promise<void> {
    const ask = this.options.askInTerminal;
    if (ask && !(await ask(question))) throw new HttpError(403, 'refused on the bridge terminal (serve --confirm-in-terminal): nothing was started');
  }

  /**
   * The workspace's server declared as `spec.name` that runs (or is starting) with exactly this
   * command, folder and variables, if any: a second Start leaves it be (issue 34.5).
   */
  private running(workspace: string, spec: McpLaunchSpec, cwd: string): Entry | undefined {
    const same = (s: McpLaunchSpec) => s.command === spec.command && JSON.stringify([s.arguments, s.variables]) === JSON.stringify([spec.arguments, spec.variables]);
    return [...this.servers.values()].find((e) => {
      const src = e.upstream.source;
      return e.workspace === workspace && src.kind === 'stdio' && src.spec.name === spec.name && src.cwd === cwd && same(src.spec) && (e.upstream.status === 'running' || e.upstream.status === 'starting');
    });
  }

  /**
   * Starts the servers of a plan the user confirmed, in parallel, each under its config name; `how`:
   * the request that confirmed it. A server that already runs for the workspace with the same command
   * is not started again (the bridge is the truth for what runs: a page that lost track of it, after a
   * reload or from another document, starts nothing twice); the reply names those.
   */
  private async startPlan(workspace: string, planId: string, hiddenConfirmed: boolean, how: string): Promise<Replies['started']> {
    const plan = this.workspaces.confirm(planId, hiddenConfirmed);
    if (plan.workspace !== workspace) throw new HttpError(400, 'that plan belongs to another workspace');
    const w = this.workspaces.get(workspace);
    const already = new Map(plan.specs.flatMap((spec) => {
      const e = this.running(workspace, spec, plan.cwd);
      return e ? [[spec.name, e] as const] : [];
    }));
    const specs = plan.specs.filter((spec) => !already.has(spec.name));
    const what = `${specs.length} server${specs.length === 1 ? '' : 's'} of ${w.jpDir}${plan.persona !== undefined ? ` (persona ${plan.persona})` : ''}`;
    // What the bridge knows, and no more: a request carrying a session's token confirmed the plan.
    this.options.terminal.line(`plan ${plan.id} (${what}) confirmed by ${how}${plan.hidden.length > 0 ? ', its hidden characters confirmed too' : ''}`);
    for (const [name, e] of already) this.options.terminal.line(`${name} already runs${e.upstream.view().pid !== undefined ? ` (pid ${e.upstream.view().pid})` : ''}: not started again`);
    if (specs.length > 0) await this.askTerminal([`Start ${what}?`, ...plan.servers.filter((s) => !already.has(s.name)).map((s) => `  ${s.name}: ${s.commandLine}  [in ${s.cwd}]`), ...hiddenWarning(plan.hidden)]);
    const started = specs.map((spec) => {
      const name = this.uniqueName(spec.name, (e) => e.workspace === workspace);
      const src: UpstreamSource = { kind: 'stdio', spec, cwd: plan.cwd, from: `workspace ${w.jpDir}` };
      const up = new Upstream(name, src, this.context, spec.optional, plan.servers.find((s) => s.name === spec.name)?.jpStarts ?? true);
      up.startedBy = `plan ${plan.id}, confirmed by ${how}`;
      return this.add(name, up, workspace);
    });
    await Promise.all(started.map((e) => e.upstream.start()));
    const byName = new Map([...already, ...started.map((e) => [e.upstream.source.kind === 'stdio' ? e.upstream.source.spec.name : e.upstream.name, e] as const)]);
    // In the plan's order, as before.
    const views = plan.specs.flatMap((spec) => {
      const e = byName.get(spec.name);
      return e ? [e.upstream.view()] : [];
    });
    return { servers: views, alreadyRunning: [...already.keys()] };
  }

  /** Connects an HTTP server from the bridge side (no process starts), named from its serverInfo unless named. */
  private async connectHttp(body: Record<string, unknown>): Promise<ServerView> {
    const { url, name: named, headers = {}, transport = 'auto' } = readConnect(body);
    const same = (e: Entry) => e.upstream.source.kind === 'http' && e.upstream.source.url === url;
    // Unnamed until it answers: named after its address meanwhile, so connecting to the same URL
    // again replaces the earlier failure instead of piling up connecting-N entries (each expires too).
    const provisional = this.uniqueName(named !== undefined ? serverSlug(named) : `connecting-${serverSlug(hostOf(url))}`, same);
    const up = new Upstream(provisional, { kind: 'http', url, headers, transport }, this.context);
    await up.start();
    // Named after the server itself, before any page session exists.
    if (named === undefined && up.status === 'running') up.name = this.uniqueName(serverSlug(up.serverInfo?.name ?? 'server'), same);
    this.add(up.name, up);
    // Waiting for the user's authorization: named once it connects (no page session can exist before).
    if (named === undefined && up.status === 'starting' && up.authorization !== undefined) {
      const off = up.onChange(() => {
        if (up.status === 'starting') return;
        off();
        if (up.status === 'running') this.rename(up, this.uniqueName(serverSlug(up.serverInfo?.name ?? 'server'), (e) => e.upstream === up || same(e)));
      });
    }
    return up.view();
  }

  /** A server held under a provisional name, renamed (one whose URL it shares, held under that name, is let go). */
  private rename(up: Upstream, name: string): void {
    const e = this.servers.get(up.name);
    if (!e || e.upstream !== up || up.name === name) return;
    const other = this.servers.get(name);
    if (other) {
      other.facade.dispose();
      void other.upstream.stop();
    }
    this.servers.delete(up.name);
    up.name = name;
    this.servers.set(name, e);
  }
}

/** The question's warning line when what it asks about hides characters (each shown escaped). */
function hiddenWarning(hidden: readonly HiddenInPlan[]): string[] {
  if (hidden.length === 0) return [];
  return [`  WARNING: hidden characters, shown escaped: ${hidden.map((h) => `${h.server} ${h.where}: ${describeHidden(h.chars)}`).join('; ')}`];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'server';
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
