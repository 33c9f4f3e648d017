// The page's side of the local bridge (`tool-workbench serve`, src/bridge): the
// one-time code it was handed in the URL fragment, traded at once for a session
// token (`POST /bridge/session`) that this tab keeps (sessionStorage: a reload keeps
// it, another tab or page never sees it); the bridge's JSON API; and the headers the
// page's MCP client adds on the bridge's endpoints. The code leaves the address bar
// before anything else runs, and an address opened again (history, another page's
// window.open) is spent: it never replaces the session this tab has. Served from
// anywhere else (a static host, `vite preview`), there is no bridge, and the page
// says that stdio servers need `npm start`; served by a bridge in a tab with no
// session of it (a second tab at the plain address), it says how to get one: Enter
// in the bridge's terminal prints a new address.
import { queryOptions } from '@tanstack/react-query';
import type { BridgeInfo, ConnectHttpRequest, ForwardingRequest, LogEntry, ModelAskRequest, ModelKeyRequest, OpenedWorkspace, PlanView, Replies, ServerView, SessionRequest, StartPlanRequest } from '../bridge-protocol';

const TOKEN_KEY = 'tool-workbench.bridge-session';
/** Where an earlier version kept a token for the whole origin; removed on sight. */
const LEGACY_KEY = 'tool-workbench.bridge-token';

let memoryToken: string | undefined;
let adopting: Promise<void> = Promise.resolve();
/** Why the address's code opened no session, when it did not. */
let codeRefused: string | undefined;
/** The code was refused by a bridge (so one serves this page), not lost on the way. */
let refusedByBridge = false;

function keep(token: string): void {
  memoryToken = token;
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused (private mode): the token lives in memory until the tab closes.
  }
}

/**
 * Reads `#code=...` (the address `tool-workbench serve` prints), takes it out of the address bar at
 * once, and trades it for a session token. Only a token the bridge gave replaces the one this tab
 * has: a spent or forged code leaves it as it was.
 */
export function adoptBridgeCode(): Promise<void> {
  try {
    localStorage.removeItem(LEGACY_KEY);
  } catch {
    // No storage: nothing was kept there either.
  }
  const m = /^#code=([A-Za-z0-9_-]{16,})$/u.exec(location.hash);
  if (!m) return adopting;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  const body: SessionRequest = { code: m[1] as string };
  adopting = (async () => {
    try {
      const res = await fetch('/bridge/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cache: 'no-store' });
      const value = (await res.json().catch(() => ({}))) as Partial<Replies['session'] & Replies['error']>;
      if (res.ok && typeof value.token === 'string') {
        keep(value.token);
        codeRefused = undefined;
      } else {
        codeRefused = typeof value.error === 'string' ? value.error : `the bridge answered HTTP ${res.status}`;
        refusedByBridge = res.status === 403;
      }
    } catch {
      codeRefused = 'the bridge does not answer: is `npm start` still running?';
      refusedByBridge = false;
    }
  })();
  return adopting;
}

export function bridgeToken(): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? memoryToken;
  } catch {
    return memoryToken;
  }
}

/**
 * A bridge serves this tab, but the tab has no session of it: the address it printed opens one tab,
 * once, so the way in is a new address (Enter in its terminal), not another `npm start`.
 */
const NO_SESSION = 'this tab has no session of the bridge (each address it prints opens one tab, once): press Enter in the terminal running the bridge for a new address, and open it';

/** Whether a URL is one of this origin's bridge endpoints (so it gets the token). */
export function isBridgeUrl(url: string): boolean {
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin && u.pathname.startsWith('/bridge/');
  } catch {
    return false;
  }
}

/** The Authorization header for a bridge URL; none for any other URL (the token never leaves the origin). */
export function bridgeHeaders(url: string): Record<string, string> | undefined {
  const token = bridgeToken();
  return token !== undefined && isBridgeUrl(url) ? { Authorization: `Bearer ${token}` } : undefined;
}

export class BridgeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  await adopting;
  const token = bridgeToken();
  if (token === undefined) throw new BridgeError(401, codeRefused ?? NO_SESSION);
  let res: Response;
  try {
    res = await fetch(`/bridge/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      cache: 'no-store',
    });
  } catch {
    throw new BridgeError(0, 'the bridge does not answer: is `npm start` still running?');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BridgeError(res.status, res.status === 404 ? 'no bridge here' : `the bridge answered HTTP ${res.status}`);
  }
  if (!res.ok) {
    const error = (value as Partial<Replies['error']> | null)?.error;
    throw new BridgeError(res.status, typeof error === 'string' ? error : `HTTP ${res.status}`);
  }
  return value as T;
}

export type { BridgeInfo, ConnectHttpRequest, HiddenInPlan, PlannedServer } from '../bridge-protocol';
/** A server the bridge holds, as the page sees it. */
export type BridgeServer = ServerView;
export type BridgeLogEntry = LogEntry;
export type BridgePlan = PlanView;
export type BridgeWorkspace = OpenedWorkspace;

export const bridgeApi = {
  info: () => call<BridgeInfo>('GET', 'info'),
  servers: () => call<Replies['servers']>('GET', 'servers').then((r) => r.servers),
  log: (name: string, after: number) => call<Replies['log']>('GET', `servers/${encodeURIComponent(name)}/log?after=${after}`).then((r) => r.entries),
  stop: (name: string) => call<Replies['server']>('POST', `servers/${encodeURIComponent(name)}/stop`).then((r) => r.server),
  start: (name: string) => call<Replies['server']>('POST', `servers/${encodeURIComponent(name)}/start`).then((r) => r.server),
  remove: (name: string) => call<undefined>('DELETE', `servers/${encodeURIComponent(name)}`),
  /** Forward the server's sampling, elicitation and roots to the page, or declare what JP's client does; it reconnects. */
  setForwarding: (name: string, request: ForwardingRequest) => call<Replies['server']>('POST', `servers/${encodeURIComponent(name)}/forwarding`, request).then((r) => r.server),
  connectHttp: (body: ConnectHttpRequest) => call<Replies['server']>('POST', 'servers', body).then((r) => r.server),
  openWorkspace: (path: string) => call<Replies['workspace']>('POST', 'workspaces', { path }),
  plan: (workspace: string, persona: string | undefined) =>
    call<Replies['plan']>('POST', `workspaces/${encodeURIComponent(workspace)}/plan`, persona !== undefined ? { persona } : {}).then((r) => r.plan),
  /** The workspaces the bridge opened by path (a reloaded page finds its folder among them). */
  workspaces: () => call<Replies['workspaces']>('GET', 'workspaces').then((r) => r.workspaces),
  startPlan: (workspace: string, request: StartPlanRequest) => call<Replies['started']>('POST', `workspaces/${encodeURIComponent(workspace)}/start`, request),
  stopWorkspace: (workspace: string) => call<Replies['servers']>('POST', `workspaces/${encodeURIComponent(workspace)}/stop`).then((r) => r.servers),
  // The user's real model (issue 26): the bridge sends, the page never reaches a provider itself.
  models: () => call<Replies['models']>('GET', 'models').then((r) => r.providers),
  setModelKey: (request: ModelKeyRequest) => call<Replies['models']>('POST', 'models/key', request).then((r) => r.providers),
  askModel: (request: ModelAskRequest) => call<Replies['modelAnswer']>('POST', 'models/ask', request),
};

/** The absolute URL of a server's endpoint on this origin (what the page's MCP client connects to). */
export function endpointUrl(server: Pick<BridgeServer, 'endpoint'>): string {
  return new URL(server.endpoint, location.origin).href;
}

export const bridgeKeys = {
  all: ['bridge'] as const,
  info: () => [...bridgeKeys.all, 'info'] as const,
  servers: () => [...bridgeKeys.all, 'servers'] as const,
  log: (name: string) => [...bridgeKeys.all, 'log', name] as const,
};

/**
 * Why the page has no bridge. `sessionless`: a bridge serves the page, but this tab has no session of
 * it (the panels then say to press Enter in its terminal, not to run `npm start`).
 */
export interface BridgeMissing {
  readonly missing: string;
  readonly sessionless?: true;
}

/** Is there a bridge? Its info, or why not. */
export const bridgeInfoQuery = queryOptions({
  queryKey: bridgeKeys.info(),
  queryFn: async (): Promise<BridgeInfo | BridgeMissing> => {
    await adopting;
    if (bridgeToken() === undefined) {
      if (codeRefused !== undefined) return refusedByBridge ? { missing: codeRefused, sessionless: true } : { missing: codeRefused };
      // A bridge answers 401 without a session; anything else serving the page has no /bridge/ at all.
      const here = await fetch('/bridge/info', { cache: 'no-store' }).then((r) => r.status, () => 0);
      return here === 401 ? { missing: NO_SESSION, sessionless: true } : { missing: 'no bridge: the page was not opened from `npm start`' };
    }
    try {
      return await bridgeApi.info();
    } catch (e) {
      return { missing: e instanceof Error ? e.message : String(e) };
    }
  },
  staleTime: Infinity,
  retry: false,
});

/** The bridge's servers, polled so a server that stops is seen within seconds. */
export function bridgeServersQuery(enabled: boolean) {
  return queryOptions({
    queryKey: bridgeKeys.servers(),
    queryFn: bridgeApi.servers,
    enabled,
    refetchInterval: 1500,
    retry: false,
  });
}

/**
 * The page's heartbeat (issue 24.3): the bridge stops its servers when no page has been seen for its
 * idle time, and a page showing another document (or a dock tab that polls nothing) sent no request,
 * so the servers stopped under an open page. Every tab with a session now asks `/bridge/info` four
 * times per idle period, whatever it shows; a closed tab stops beating, and the idle stop still frees
 * the servers of a page that went away. Returns the stop function.
 */
export function startBridgeHeartbeat(): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  void (async () => {
    await adopting;
    if (bridgeToken() === undefined) return;
    const info = await bridgeApi.info().catch(() => undefined);
    const idle = info?.idleStopSecs ?? 120;
    if (stopped || idle <= 0) return;
    const every = Math.min(30_000, Math.max(500, (idle * 1000) / 4));
    timer = setInterval(() => void bridgeApi.info().catch(() => undefined), every);
  })();
  return () => {
    stopped = true;
    if (timer !== undefined) clearInterval(timer);
  };
}

export function isBridgeInfo(v: BridgeInfo | BridgeMissing | undefined): v is BridgeInfo {
  return v !== undefined && 'protocolVersions' in v;
}

/** A bridge serves this page, and this tab has no session of it: why (the way in is Enter in its terminal). */
export function sessionlessWhy(v: BridgeInfo | BridgeMissing | undefined): string | undefined {
  return v !== undefined && 'sessionless' in v && v.sessionless === true ? v.missing : undefined;
}
