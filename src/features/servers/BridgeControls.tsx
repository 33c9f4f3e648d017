// Servers reached through the local bridge: the bridge's own view of each (its
// status within seconds, serverInfo, the protocol version it negotiated, the
// command or URL, Stop and Start), its log of stderr, requests and responses, and
// the bar that reaches an HTTP server through the bridge (the import dialog's live tab) or saves a snapshot.
import { Visible } from '../../components/Visible';
import { Fragment, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCommands } from '../../commands/context';
import { bridgeApi, bridgeInfoQuery, bridgeKeys, bridgeServersQuery, endpointUrl, isBridgeInfo, sessionlessWhy } from '../../live/bridge';
import type { BridgeServer as BridgeServerView } from '../../live/bridge';
import { forwardBridged, startBridged, stopBridged } from '../../live/bridgeSession';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { forwardingWords, NOT_OFFERED } from './forwarding';

function Log({ name }: { readonly name: string }) {
  const { data } = useQuery({ queryKey: bridgeKeys.log(name), queryFn: () => bridgeApi.log(name, 0), refetchInterval: 2000 });
  const entries = data ?? [];
  return (
    <ol className="bridge-log" aria-label={`Log of ${name}`} data-testid="bridge-log">
      {entries.length === 0 && <li className="muted">nothing yet</li>}
      {entries.slice(-200).map((e) => (
        <li key={e.seq} className={`log-${e.stream}`}>
          <span className="log-time">{new Date(e.at).toLocaleTimeString()}</span> <span className="log-stream">{e.stream}</span> <span className="log-text">{e.text}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * The scenario server `name`, reached at the bridge's `endpoint` (the bridge may know it by another
 * name, when it was renamed on import). `children` (the page's own session with it) show while it runs.
 */
export function BridgeControls({ name, endpoint, children }: { readonly name: string; readonly endpoint: string; readonly children?: ReactNode }) {
  const store = useWorkbenchStore();
  const queryClient = useQueryClient();
  const { data: servers } = useQuery(bridgeServersQuery(true));
  const [showLog, setShowLog] = useState(false);
  const [switching, setSwitching] = useState(false);
  const v = servers?.find((s) => endpointUrl(s) === endpoint);
  const fail = (e: unknown) => store.getState().showBanner('error', `The bridge: ${e instanceof Error ? e.message : String(e)}`);
  if (!v) return <div className="live-controls muted">not in the bridge (it restarted?): start the workspace’s servers or connect it again</div>;
  const pair = { server: name, bridged: v.name };
  const switchForwarding = () => {
    setSwitching(true);
    void forwardBridged(store, pair, v.forwardsToPage !== true, queryClient)
      .catch(fail)
      .finally(() => setSwitching(false));
  };
  return (
    <div className="bridge-controls" data-testid="bridge-controls">
      <div className="live-controls">
        <span className="muted bridge-session-label" title="The bridge’s own connection to the server">
          bridge
        </span>
        <span className={`status-word ${v.status === 'running' ? 'running' : v.status === 'failed' ? 'failed' : 'offline'}`} data-testid="bridge-status">
          {v.status}
        </span>
        <span className="muted">
          {v.transport === 'streamable' ? 'streamable HTTP' : (v.transport ?? v.kind)}{v.serverInfo ? ` · ${v.serverInfo.name} ${v.serverInfo.version}` : ''}
          {v.protocolVersion ? ` · MCP ${v.protocolVersion}` : ''}
          {v.pid !== undefined ? ` · pid ${v.pid}` : ''}
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => setShowLog((x) => !x)} aria-expanded={showLog} data-testid="bridge-log-toggle">
          {showLog ? 'Hide log' : 'Log'}
        </button>
        {v.status === 'running' || v.status === 'starting' ? (
          <button type="button" onClick={() => void stopBridged(store, pair, queryClient).catch(fail)} data-testid="bridge-stop">
            Stop
          </button>
        ) : (
          <button type="button" onClick={() => void startBridged(store, pair, queryClient).catch(fail)} data-testid="bridge-start">
            Start
          </button>
        )}
      </div>
      <Forwarding v={v} busy={switching} onSwitch={switchForwarding} />
      <code className="bridge-what">{v.commandLine !== undefined ? <Visible text={v.commandLine} /> : `${v.url ?? ''}${v.headerNames && v.headerNames.length > 0 ? `  (headers: ${v.headerNames.join(', ')})` : ''}`}</code>
      {v.status === 'failed' && v.error && <pre className="bridge-error" data-testid="bridge-error">{v.error}</pre>}
      {/* Two sessions, two status words: the bridge's with the server (above), this page's with the bridge (here). */}
      {v.status === 'running' && children !== undefined && (
        <div className="bridge-session" role="group" aria-label="This page’s session, through the bridge">
          <span className="muted bridge-session-label">page</span>
          {children}
        </div>
      )}
      {showLog && <Log name={v.name} />}
    </div>
  );
}

/**
 * Which capabilities the bridge declares to the server, the switch (a reconnect), and, while it forwards,
 * the tools that adds: JP's client, which declares none of them, is never offered those.
 */
function Forwarding({ v, busy, onSwitch }: { readonly v: BridgeServerView; readonly busy: boolean; readonly onSwitch: () => void }) {
  const words = forwardingWords(v);
  const added = v.forwardsToPage === true ? v.notOfferedToJp : undefined;
  return (
    <div className="bridge-forwarding" data-testid="bridge-forwarding" data-forwarding={v.forwardsToPage === true ? 'page' : 'jp'}>
      <div className="live-controls">
        <span className="muted bridge-session-label">declares</span>
        <span className={v.forwardsToPage === true ? 'forwarding-on' : ''} data-testid="bridge-forwarding-state">
          {words.state}
        </span>
        <span className="spacer" />
        <button type="button" onClick={onSwitch} disabled={busy || v.status === 'starting'} title={words.title} data-testid="bridge-forwarding-switch">
          {busy ? 'reconnecting…' : words.action}
        </button>
      </div>
      {v.forwardsToPage === true && v.status === 'running' && (
        <div className="not-offered" data-testid="bridge-not-offered">
          {added === undefined ? (
            <span className="muted">Which of its tools JP is not offered is unknown: the bridge could not list them under JP&apos;s capabilities.</span>
          ) : added.length === 0 ? (
            <span className="muted">Forwarding adds no tools: JP is offered every tool it lists.</span>
          ) : (
            <>
              Forwarding adds {added.length === 1 ? '1 tool' : `${added.length} tools`}:{' '}
              {added.map((t, i) => (
                <Fragment key={t}>
                  {i > 0 && ', '}
                  <span data-tool={t} data-testid="not-offered-tool">
                    <code>{t}</code> <span className="not-offered-mark">{NOT_OFFERED}</span>
                  </span>
                </Fragment>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** The tools a bridged server lists only because it forwards to the page (none when it does not). */
export function useNotOfferedToJp(server: string): ReadonlySet<string> {
  const link = useWorkbench((s) => s.bridgeLinks.get(server));
  const { data: servers } = useQuery(bridgeServersQuery(link !== undefined));
  const v = link === undefined ? undefined : servers?.find((x) => endpointUrl(x) === link);
  const names = v?.forwardsToPage === true ? v.notOfferedToJp : undefined;
  const key = names?.join('\u0000') ?? '';
  return useMemo(() => new Set(key === '' ? [] : key.split('\u0000')), [key]);
}

/** The bridge's line in the servers panel: which protocol versions it speaks, and its actions. */
export function BridgeBar() {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const { data: info } = useQuery(bridgeInfoQuery);
  if (!isBridgeInfo(info)) {
    const sessionless = sessionlessWhy(info);
    if (sessionless !== undefined) {
      // A second tab at the plain address: the bridge runs, and a new address (not another `npm start`) opens a session.
      return (
        <p className="muted bridge-absent" data-testid="bridge-absent">
          The local bridge serves this page, but {sessionless}.
        </p>
      );
    }
    return (
      <p className="muted bridge-absent" data-testid="bridge-absent">
        Stdio servers (a JP workspace’s own) and servers without CORS need the local bridge: run <code>npm start</code> and open the address it prints.
        {info && 'missing' in info && !info.missing.startsWith('no bridge:') && <> Here: {info.missing}.</>}
      </p>
    );
  }
  return (
    <div className="bridge-bar" data-testid="bridge-bar">
      <span>
        {/* The newest version, the rest on hover: the whole list pushed the bar's buttons onto a second line at 1024 px. */}
        <strong>Local bridge</strong>{' '}
        <span className="muted" title={`MCP protocol versions it speaks: ${info.protocolVersions.join(', ')}`} data-testid="bridge-versions">
          speaks MCP {info.protocolVersions[0] ?? '?'}
          {info.protocolVersions.length > 1 ? ` and ${info.protocolVersions.length - 1} earlier` : ''}
        </span>
      </span>
      {/* One flow, the import dialog's: the bridge connects, the server's tools are listed, then imported
          (a server reached and not imported had no tools in the catalogue, and a second connection to import it). */}
      <button
        type="button"
        onClick={() => void registry.run('import.live', { store })}
        title="Connect through the bridge (no CORS needed; headers stay in it), list the server's tools and import them"
        data-testid="bridge-http-open"
      >
        Reach an HTTP server through the bridge…
      </button>
      <button type="button" onClick={() => void registry.run('bridge.snapshot', { store })} data-testid="bridge-snapshot">
        Save snapshot (.json)
      </button>
    </div>
  );
}
