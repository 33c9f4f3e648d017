// Live MCP servers as react-query queries (TanStack's pattern: a key factory, and
// queryOptions kept with their query functions). A connection is one query (the
// MCP handshake; its session lives in a small pool, since a client object is not
// data); the tool list is another, keyed by the session it was listed on, so a
// reconnect lists again by itself. A cancel button aborts whichever is running.
// Only a URL the user confirmed (confirmed.ts) is ever connected: the connection's
// query function is the one door to `connect`, and it checks.
import { useSyncExternalStore } from 'react';
import { queryOptions } from '@tanstack/react-query';
import type { QueryClient, UseQueryResult } from '@tanstack/react-query';
import { closeSession, connect, LiveServerError, listAllTools } from './mcp';
import type { FailureReason, ListedTools, LiveSession, ServerInfo } from './mcp';
import { confirmedVersion, isConfirmed, subscribeConfirmed } from './confirmed';
import { liveKeys } from './keys';

export { liveKeys };

/** Whether the user confirmed this URL, kept current as they do (in this tab or another). */
export function useConfirmed(url: string): boolean {
  useSyncExternalStore(subscribeConfirmed, confirmedVersion);
  return url !== '' && isConfirmed(url);
}

export const DEFAULT_TIMEOUT_MS = 10_000;


interface PoolEntry {
  session?: LiveSession;
  /** The connect or list in flight, for the cancel button. */
  controller?: AbortController;
}

const pool = new Map<string, PoolEntry>();

function entry(url: string): PoolEntry {
  let e = pool.get(url);
  if (!e) {
    e = {};
    pool.set(url, e);
  }
  return e;
}

/** A controller that also follows react-query's own signal (unmount, cancelQueries). */
function controllerFor(url: string, signal: AbortSignal): AbortController {
  const c = new AbortController();
  if (signal.aborted) c.abort(signal.reason);
  else signal.addEventListener('abort', () => c.abort(signal.reason), { once: true });
  entry(url).controller = c;
  return c;
}

/** Cancels a connection or listing in flight (the cancel button). */
export function cancelLive(url: string): void {
  entry(url).controller?.abort(new LiveServerError('cancelled', 'cancelled: you stopped waiting for the server'));
}

/** Closes the session and forgets the server's queries. */
export async function disconnectLive(queryClient: QueryClient, url: string): Promise<void> {
  cancelLive(url);
  const e = pool.get(url);
  pool.delete(url);
  await queryClient.cancelQueries({ queryKey: liveKeys.server(url) });
  queryClient.removeQueries({ queryKey: liveKeys.server(url) });
  if (e?.session) await closeSession(e.session);
}

/** Closes a session nobody uses any more (checked after the current update settles). */
export function releaseLive(queryClient: QueryClient, url: string, stillUsed: () => boolean): void {
  setTimeout(() => {
    if (!stillUsed()) void disconnectLive(queryClient, url);
  }, 0);
}

export interface ConnectionData {
  readonly session: string;
  readonly info: ServerInfo;
  readonly connectedAt: number;
}

export interface ToolsData extends ListedTools {
  readonly session: string;
  readonly fetchedAt: number;
}

export function connectionQuery(queryClient: QueryClient, url: string, timeoutMs = DEFAULT_TIMEOUT_MS) {
  return queryOptions({
    queryKey: liveKeys.connection(url),
    queryFn: async ({ signal }): Promise<ConnectionData> => {
      if (!isConfirmed(url)) throw new LiveServerError('unconfirmed', `not connected: ${url} was never confirmed; press Connect to reach it`);
      const e = entry(url);
      const old = e.session;
      e.session = undefined;
      if (old) await closeSession(old);
      const c = controllerFor(url, signal);
      const session = await connect(url, {
        timeoutMs,
        signal: c.signal,
        // The event stream broke: connect again, which says whether the server is gone.
        onLost: () => void queryClient.invalidateQueries({ queryKey: liveKeys.connection(url) }),
        onToolsChanged: () => void queryClient.invalidateQueries({ queryKey: liveKeys.toolsOf(url) }),
      });
      if (c.signal.aborted) {
        await closeSession(session);
        throw new LiveServerError('cancelled', 'cancelled');
      }
      e.session = session;
      e.controller = undefined;
      return { session: session.key, info: session.info, connectedAt: Date.now() };
    },
    retry: false,
    staleTime: Infinity,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function toolsQuery(queryClient: QueryClient, url: string, session: string | undefined, timeoutMs = DEFAULT_TIMEOUT_MS) {
  return queryOptions({
    queryKey: liveKeys.tools(url, session ?? ''),
    queryFn: async ({ signal }): Promise<ToolsData> => {
      const s = pool.get(url)?.session;
      if (!s || s.key !== session) throw new LiveServerError('protocol', 'the session ended; reconnect');
      const c = controllerFor(url, signal);
      try {
        const listed = await listAllTools(s, { timeoutMs, signal: c.signal });
        return { ...listed, session: s.key, fetchedAt: Date.now() };
      } catch (e) {
        // A server that stopped answering mid-session: find out by connecting again.
        if (e instanceof LiveServerError && (e.reason === 'refused' || e.reason === 'unreachable' || e.reason === 'protocol')) {
          void queryClient.invalidateQueries({ queryKey: liveKeys.connection(url) });
        }
        throw e;
      } finally {
        if (entry(url).controller === c) entry(url).controller = undefined;
      }
    },
    enabled: session !== undefined,
    retry: false,
    staleTime: Infinity,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export type LiveStatus =
  | { readonly kind: 'offline' }
  /** Named by the document, wanted running, but never confirmed by the user: nothing is sent. */
  | { readonly kind: 'unconfirmed' }
  | { readonly kind: 'connecting'; readonly phase: 'connecting' | 'listing tools' }
  | { readonly kind: 'running'; readonly refreshing: boolean }
  | { readonly kind: 'failed'; readonly reason: FailureReason; readonly message: string };

function failure(error: unknown): LiveStatus {
  if (error instanceof LiveServerError) return { kind: 'failed', reason: error.reason, message: error.message };
  return { kind: 'failed', reason: 'protocol', message: error instanceof Error ? error.message : String(error) };
}

/** The one status a server shows: connecting, running, failed (with the reason), offline, or waiting for the user's Connect. */
export function liveStatus(wanted: boolean, connection: UseQueryResult<ConnectionData>, tools: UseQueryResult<ToolsData>, confirmed = true): LiveStatus {
  if (!wanted) return { kind: 'offline' };
  if (!confirmed) return { kind: 'unconfirmed' };
  if (connection.fetchStatus === 'fetching') return { kind: 'connecting', phase: 'connecting' };
  if (connection.isError) return failure(connection.error);
  if (!connection.isSuccess) return { kind: 'connecting', phase: 'connecting' };
  if (tools.isError && tools.fetchStatus !== 'fetching') return failure(tools.error);
  if (!tools.isSuccess) return { kind: 'connecting', phase: 'listing tools' };
  return { kind: 'running', refreshing: tools.fetchStatus === 'fetching' };
}

export { REASON_WORDS } from './mcp';
export type { FailureReason, ServerInfo } from './mcp';

/** The SDK client of a live session, when one is open (the simulator runs a real tool call on it). */
export function liveClient(url: string): LiveSession['client'] | undefined {
  return pool.get(url)?.session?.client;
}
