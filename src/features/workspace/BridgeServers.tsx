// The workspace's own MCP servers. Under `npm start` (the bridge): open a `.jp`
// folder on this machine by its path, see every `[providers.mcp.*]` with its exact
// command line (as the bridge read it from disk, for the persona picked), start
// them after one confirmation, see each one's status, stop them. Served from
// anywhere else, the page says plainly that starting a process needs `npm start`;
// served by the bridge in a tab with no session of it, how to get one (Enter in
// its terminal). After a reload the page re-attaches (src/live/bridgeSession.ts)
// and says the folder was opened by its path.
import { CommandWords } from '../../components/Visible';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useCommands } from '../../commands/context';
import { bridgeApi, bridgeInfoQuery, bridgeServersQuery, isBridgeInfo, sessionlessWhy } from '../../live/bridge';
import type { BridgeServer } from '../../live/bridge';
import { openWorkspaceByPath } from '../../live/bridgeSession';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import '../../components/live-status.css';

function declaresServers(files: Readonly<Record<string, string>> | undefined): number {
  if (!files) return 0;
  let n = 0;
  for (const text of Object.values(files)) n += text.match(/^\s*\[providers\.mcp\.[^\]]+\]/gmu)?.length ?? 0;
  return n;
}

export function StatusWord({ server }: { readonly server: BridgeServer | undefined }) {
  const status = server?.status ?? 'not started';
  return (
    <span className={`status-word ${status === 'running' ? 'running' : status === 'failed' ? 'failed' : 'offline'}`} data-testid="bridge-status">
      {status}
    </span>
  );
}

/** The path field: the route to a folder that can start its servers (the Workspace panel puts it first). */
export function OpenByPath() {
  const store = useWorkbenchStore();
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const open = () => {
    setError(undefined);
    void openWorkspaceByPath(store, path.trim()).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <form
      className="ws-bridge-open"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim() !== '') open();
      }}
    >
      <label htmlFor="ws-bridge-path">Open a folder on this machine</label>
      <input id="ws-bridge-path" className="mono" data-testid="workspace-path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/home/me/project (or its .jp folder)" spellCheck={false} />
      <button type="submit" disabled={path.trim() === ''} data-testid="workspace-path-open">
        Open
      </button>
      {error && (
        <p className="sim-error" role="alert" data-testid="workspace-path-error">
          {error}
        </p>
      )}
    </form>
  );
}

export function BridgeServers() {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const { data: info } = useQuery(bridgeInfoQuery);
  const bridged = useWorkbench((s) => s.bridgeWorkspace);
  const folder = useWorkbench((s) => s.workspace);
  const persona = useWorkbench((s) => s.doc.workspace?.persona);
  const here = isBridgeInfo(info);
  const ours = here && bridged !== undefined && folder?.source === bridged.jpDir;
  const plan = useQuery({
    queryKey: ['bridge', 'plan', bridged?.id, persona, folder?.version],
    queryFn: () => bridgeApi.plan(bridged?.id ?? '', persona),
    enabled: ours,
    retry: false,
  });
  const { data: servers } = useQuery(bridgeServersQuery(here));
  const declared = declaresServers(folder?.files);
  // A folder the bridge opened by its path is not the picker's, even while a reloaded page is still
  // re-attaching to it (src/live/bridgeSession.ts reattachBridge): the bridge says which it opened.
  const opened = useQuery({
    queryKey: ['bridge', 'workspaces', folder?.source],
    queryFn: bridgeApi.workspaces,
    enabled: here && !ours && declared > 0,
    retry: false,
  });
  const picked = opened.data !== undefined && !opened.data.some((w) => w.jpDir === folder?.source);
  const run = (id: string) => void registry.run(id, { store });
  if (!here) {
    if (declared === 0) return null;
    const sessionless = sessionlessWhy(info);
    if (sessionless !== undefined) {
      return (
        <p className="ws-note" role="note" data-testid="workspace-needs-bridge">
          This workspace declares {declared} stdio MCP server{declared === 1 ? '' : 's'}. The bridge serves this page, but {sessionless}; then open the folder by its
          path there to start {declared === 1 ? 'it' : 'them'}.
        </p>
      );
    }
    return (
      <p className="ws-note" role="note" data-testid="workspace-needs-bridge">
        This workspace declares {declared} stdio MCP server{declared === 1 ? '' : 's'}. A page cannot start a process, so their tools show as offline here: run{' '}
        <code>npm start</code> (or <code>npx tool-workbench serve</code>) and open the address it prints to start them.
      </p>
    );
  }
  return (
    <section className="ws-bridge" aria-label="The workspace's MCP servers" data-testid="workspace-bridge">
      {!ours && declared > 0 && (picked || opened.isError) && (
        <p className="ws-note" role="note" data-testid="workspace-picked-not-started">
          This folder was opened with the browser&apos;s picker, so its {declared} MCP server{declared === 1 ? '' : 's'} cannot start from here: open it by its path
          (above) to start {declared === 1 ? 'it' : 'them'}.
        </p>
      )}
      {ours && (
        <>
          <p className="muted" data-testid="workspace-opened-by-path">
            This folder was opened by its path: the bridge reads it from disk and runs its servers in <code>{bridged.root}</code>.
          </p>
          <div className="ws-head">
            <h3>MCP servers</h3>
            <button type="button" className="primary" onClick={() => run('bridge.startServers')} disabled={!plan.data || plan.data.servers.length === 0} data-testid="workspace-start-servers">
              Start servers…
            </button>
            <button type="button" onClick={() => run('bridge.stopServers')} disabled={!servers?.some((s) => s.status === 'running')} data-testid="workspace-stop-servers">
              Stop servers
            </button>
          </div>
          {plan.error && <p className="sim-error" role="alert">{plan.error instanceof Error ? plan.error.message : String(plan.error)}</p>}
          {plan.data && plan.data.servers.length === 0 && <p className="muted">This workspace{persona !== undefined ? ` with persona ${persona}` : ''} declares no MCP server.</p>}
          <ul className="ws-servers" aria-label="Declared MCP servers">
            {plan.data?.servers.map((p) => {
              const live = servers?.find((s) => s.name === p.name);
              return (
                <li key={p.name} data-server={p.name} data-testid="workspace-server">
                  <div className="ws-server-line">
                    <strong>{p.name}</strong> <StatusWord server={live} />
                    {p.optional && <span className="word optional">optional</span>}
                    {live?.serverInfo && (
                      <span className="muted">
                        {live.serverInfo.name} {live.serverInfo.version} · MCP {live.protocolVersion}
                      </span>
                    )}
                  </div>
                  <code className="ws-command" data-testid="workspace-server-command">
                    <CommandWords words={[p.command, ...p.arguments]} />
                  </code>
                  {live?.status === 'failed' && live.error && <pre className="ws-server-error">{live.error}</pre>}
                </li>
              );
            })}
          </ul>
          {plan.data?.problems.map((p) => (
            <p key={p.message} className="sim-error">{p.message}</p>
          ))}
        </>
      )}
    </section>
  );
}
