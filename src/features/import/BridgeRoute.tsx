// The import dialog's way to a live server through the local bridge. Served by
// `npm start`, the dialog connects from the bridge by default: the server needs no
// CORS headers and can be given headers (an API key) that stay in the bridge; the
// dialog's session then runs at the bridge's endpoint for that server, and the
// server imported is linked to it. Served from anywhere else, the dialog says
// what `npm start` would add. A server reached here and not imported is let go
// (its page session, then the bridge's) when the dialog closes or another is tried.
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HeaderLines } from '../../components/HeaderLines';
import { bridgeInfoQuery, bridgeKeys, bridgeApi, endpointUrl, isBridgeInfo, sessionlessWhy } from '../../live/bridge';
import type { BridgeServer } from '../../live/bridge';
import { linkImported, parseHeaderLines, releaseBridged } from '../../live/bridgeSession';
import { useWorkbenchStore } from '../../state/context';

type Via = 'bridge' | 'page';

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'connecting'; readonly url: string }
  | { readonly kind: 'failed'; readonly url: string; readonly message: string }
  | { readonly kind: 'connected'; readonly url: string; readonly view: BridgeServer };

export interface BridgeRoute {
  /** Whether the page is served by the bridge. */
  readonly available: boolean;
  /** Whether a Connect goes through the bridge. */
  readonly active: boolean;
  readonly via: Via;
  setVia(via: Via): void;
  readonly headers: string;
  setHeaders(text: string): void;
  readonly headerError: string | undefined;
  readonly phase: Phase;
  /** The server's own URL behind `endpoint` (what the scenario records), when connected through the bridge. */
  upstreamOf(endpoint: string | undefined): string | undefined;
  /**
   * Has the bridge reach `url`; resolves to the endpoint the dialog's session uses and the bridge's
   * name for the server, or to undefined (the phase says why).
   */
  connect(url: string): Promise<{ readonly endpoint: string; readonly name: string } | undefined>;
  /** The dialog imported the server reached at `endpoint` as `server`. */
  imported(endpoint: string | undefined, server: string): void;
}

export function useBridgeRoute(): BridgeRoute {
  const store = useWorkbenchStore();
  const queryClient = useQueryClient();
  const { data: info } = useQuery(bridgeInfoQuery);
  const available = isBridgeInfo(info);
  const [via, setVia] = useState<Via>('bridge');
  const [headers, setHeaders] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const held = useRef<BridgeServer | undefined>(undefined);
  const parsed = parseHeaderLines(headers);

  // The dialog closes: what it reached and did not import is let go (after the import, if any, linked it).
  useEffect(
    () => () => {
      const view = held.current;
      if (view) setTimeout(() => void releaseBridged(store, queryClient, view), 0);
    },
    [store, queryClient],
  );

  const connected = phase.kind === 'connected' ? phase : undefined;
  return {
    available,
    active: available && via === 'bridge',
    via,
    setVia,
    headers,
    setHeaders,
    headerError: 'error' in parsed ? parsed.error : undefined,
    phase,
    upstreamOf: (endpoint) => (connected && endpoint === endpointUrl(connected.view) ? connected.url : undefined),
    connect: async (url) => {
      if ('error' in parsed) return undefined;
      // Asked again for the server it holds: the same endpoint, a new session (the caller refetches).
      if (connected && connected.url === url) return { endpoint: endpointUrl(connected.view), name: connected.view.name };
      const old = held.current;
      held.current = undefined;
      if (old) await releaseBridged(store, queryClient, old);
      setPhase({ kind: 'connecting', url });
      try {
        const view = await bridgeApi.connectHttp({ url, headers: parsed.headers });
        void queryClient.invalidateQueries({ queryKey: bridgeKeys.servers() });
        if (view.status !== 'running') {
          // The bridge keeps a failed server for its log; the dialog does not need it.
          await bridgeApi.remove(view.name).catch(() => undefined);
          setPhase({ kind: 'failed', url, message: view.error ?? `the server is ${view.status}` });
          return undefined;
        }
        held.current = view;
        setPhase({ kind: 'connected', url, view });
        return { endpoint: endpointUrl(view), name: view.name };
      } catch (e) {
        setPhase({ kind: 'failed', url, message: e instanceof Error ? e.message : String(e) });
        return undefined;
      }
    },
    imported: (endpoint, server) => {
      const view = held.current;
      if (!view || endpoint !== endpointUrl(view)) return;
      linkImported(store, server, view);
    },
  };
}

/** The choice of route, the headers, and what the bridge answered; or, without a bridge, what `npm start` adds. */
export function BridgeRouteFields({ route }: { readonly route: BridgeRoute }) {
  const { data: info } = useQuery(bridgeInfoQuery);
  const sessionless = sessionlessWhy(info);
  if (!route.available && sessionless !== undefined) {
    // A bridge serves this tab, which has no session of it: a new address, not another `npm start`.
    return (
      <p className="muted bridge-route-absent" data-testid="import-bridge-absent">
        A server that sends no CORS headers, or one that needs an API key, is reached through the local bridge. It serves this page, but {sessionless}.
      </p>
    );
  }
  if (!route.available) {
    return (
      <p className="muted bridge-route-absent" data-testid="import-bridge-absent">
        A server that sends no CORS headers, or one that needs an API key, is reached through the local bridge: run <code>npm start</code> and open the address it
        prints.
      </p>
    );
  }
  const { phase } = route;
  return (
    <div className="bridge-route" data-testid="import-bridge-route">
      <fieldset>
        <legend>Connect from</legend>
        <label>
          <input type="radio" name="live-via" checked={route.via === 'bridge'} onChange={() => route.setVia('bridge')} data-testid="import-via-bridge" />
          the local bridge <span className="muted">(no CORS needed; headers stay in the bridge)</span>
        </label>
        <label>
          <input type="radio" name="live-via" checked={route.via === 'page'} onChange={() => route.setVia('page')} data-testid="import-via-page" />
          this page <span className="muted">(the server must allow this origin)</span>
        </label>
      </fieldset>
      {route.via === 'bridge' && <HeaderLines value={route.headers} onChange={route.setHeaders} {...(route.headerError !== undefined ? { error: route.headerError } : {})} testId="import-headers" />}
      {route.via === 'bridge' && phase.kind === 'connecting' && (
        <span className="muted" role="status" data-testid="import-bridge-status">
          the bridge is connecting to {phase.url}…
        </span>
      )}
      {route.via === 'bridge' && phase.kind === 'failed' && (
        <p className="bridge-route-error" role="alert" data-testid="import-bridge-error">
          The bridge could not reach {phase.url}: {phase.message}
        </p>
      )}
      {route.via === 'bridge' && phase.kind === 'connected' && (
        <span className="muted" data-testid="import-bridge-status">
          through the bridge as <code>{phase.view.name}</code> ({phase.view.transport ?? 'http'}
          {phase.view.headerNames && phase.view.headerNames.length > 0 ? `, with ${phase.view.headerNames.join(', ')}` : ''})
        </span>
      )}
    </div>
  );
}
