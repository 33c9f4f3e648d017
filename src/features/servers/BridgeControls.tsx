// Servers reached through the local bridge: the bridge's own view of each (its
// status within seconds, serverInfo, the protocol version it negotiated, the
// command or URL, Stop and Start), its log of stderr, requests and responses, and
// the bar that reaches an HTTP server through the bridge (the import dialog's live tab) or saves a snapshot.
import { Visible } from '../../components/Visible';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCommands } from '../../commands/context';
import { bridgeApi, bridgeInfoQuery, bridgeKeys, bridgeServersQuery, endpointUrl, isBridgeInfo } from '../../live/bridge';
import { startBridged, stopBridged } from '../../live/bridgeSession';
import { useWorkbenchStore } from '../../state/context';

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
  const v = servers?.find((s) => endpointUrl(s) === endpoint);
  const fail = (e: unknown) => store.getState().showBanner('error', `The bridge: ${e instanceof Error ? e.message : String(e)}`);
  if (!v) return <div className="live-controls muted">not in the bridge (it restarted?): start the workspace’s servers or connect it again</div>;
  const pair = { server: name, bridged: v.name };
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

/** The bridge's line in the servers panel: which protocol versions it speaks, and its actions. */
export function BridgeBar() {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const { data: info } = useQuery(bridgeInfoQuery);
  if (!isBridgeInfo(info)) {
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
