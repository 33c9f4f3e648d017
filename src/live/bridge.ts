// The page's side of the local bridge (`tool-workbench serve`, src/bridge): the
// token it was handed in the URL fragment (kept for this origin, so a second tab, a
// reload or a share link opened here still works, and taken out of the address
// bar), the bridge's JSON API, and the headers the page's MCP client adds on the
// bridge's endpoints. Served from anywhere else (a static host, `vite preview`),
// there is no bridge, and the page says that stdio servers need `npm start`.
import { queryOptions } from '@tanstack/react-query';
import type { BridgeInfo, ConnectHttpRequest, LogEntry, OpenedWorkspace, PlanView, Replies, ServerView } from '../bridge-protocol';

const TOKEN_KEY = 'tool-workbench.bridge-token';

/** Reads `#token=...` (the address `tool-workbench serve` prints), keeps it, and cleans the address bar. */
export function adoptBridgeToken(): void {
  const m = /^#token=([A-Za-z0-9_-]{16,})$/u.exec(location.hash);
  if (!m) return;
  try {
    localStorage.setItem(TOKEN_KEY, m[1] as string);
  } catch {
    // Storage refused (private mode): the token lives until the tab closes.
    memoryToken = m[1];
  }
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}

let memoryToken: string | undefined;

export function bridgeToken(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? memoryToken;
  } catch {
    return memoryToken;
  }
}

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
  const token = bridgeToken();
  if (token === undefined) throw new BridgeError(401, 'no bridge token: open the address `npm start` printed (it ends in #token=...)');
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

export type { BridgeInfo, ConnectHttpRequest, PlannedServer } from '../bridge-protocol';
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
  connectHttp: (body: ConnectHttpRequest) => call<Replies['server']>('POST', 'servers', body).then((r) => r.server),
  openWorkspace: (path: string) => call<Replies['workspace']>('POST', 'workspaces', { path }),
  plan: (workspace: string, persona: string | undefined) =>
    call<Replies['plan']>('POST', `workspaces/${encodeURIComponent(workspace)}/plan`, persona !== undefined ? { persona } : {}).then((r) => r.plan),
  startPlan: (workspace: string, plan: string) => call<Replies['servers']>('POST', `workspaces/${encodeURIComponent(workspace)}/start`, { plan }).then((r) => r.servers),
  stopWorkspace: (workspace: string) => call<Replies['servers']>('POST', `workspaces/${encodeURIComponent(workspace)}/stop`).then((r) => r.servers),
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

/** Is there a bridge? `null` when the page is served from anywhere else. */
export const bridgeInfoQuery = queryOptions({
  queryKey: bridgeKeys.info(),
  queryFn: async (): Promise<BridgeInfo | { readonly missing: string }> => {
    if (bridgeToken() === undefined) return { missing: 'no bridge: the page was not opened from `npm start`' };
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

export function isBridgeInfo(v: BridgeInfo | { readonly missing: string } | undefined): v is BridgeInfo {
  return v !== undefined && 'protocolVersions' in v;
}
