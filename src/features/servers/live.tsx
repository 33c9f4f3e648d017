// Live servers kept in step with the document. Each scenario server with a `url`
// is connected (when wanted, and only once the user confirmed that exact URL: a
// document never reaches the network by itself) through the live queries; every fresh tool list is
// written into the server (one document change, only when it differs), and a
// failure sets the server offline, so its tools leave the permitted set exactly
// as the core's offline status says. What changed between two lists, and what
// that does to the prompt cache, is recorded for the servers panel.
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { diffToolLists, isEmptyDiff, parseToolsList, prefixCacheImpact, readCatalogueValue } from '../../core';
import type { McpToolEntry, Plain, ServerDoc } from '../../core';
import { timelineQuery, useDeriveClient } from '../../derive/queries';
import type { DeriveClient } from '../../derive/client';
import { connectionQuery, liveStatus, releaseLive, toolsQuery, useConfirmed } from '../../live/queries';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import type { WorkbenchStore } from '../../state/store';
import { workspaceInput } from '../../state/workspaceSlice';

/** The queries and status of one live server (shared by the sync and the panel). */
export function useLiveServer(server: ServerDoc) {
  const queryClient = useQueryClient();
  const wanted = useWorkbench((s) => s.liveWanted.get(server.name)) ?? server.status === 'running';
  // A server reached through the local bridge is connected at its bridge endpoint, which starting it
  // there confirmed (bridgeSession.ts); any other URL waits for the user's Connect.
  const url = useWorkbench((s) => s.bridgeLinks.get(server.name)) ?? server.url ?? '';
  const confirmed = useConfirmed(url);
  const connection = useQuery({ ...connectionQuery(queryClient, url), enabled: wanted && confirmed });
  const tools = useQuery({ ...toolsQuery(queryClient, url, connection.data?.session), enabled: wanted && confirmed && connection.isSuccess });
  return { wanted, url, confirmed, connection, tools, status: liveStatus(wanted, connection, tools, confirmed) };
}

function entries(tools: readonly unknown[]): McpToolEntry[] {
  return parseToolsList({ tools }).tools;
}

const plain = (t: McpToolEntry): { [key: string]: Plain } => JSON.parse(JSON.stringify(t)) as { [key: string]: Plain };

/** What a tool-list change does to the next request's cache, judged on the timeline before it. */
async function impactOf(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient, server: string, diff: ReturnType<typeof diffToolLists>) {
  const s = store.getState();
  const workspace = workspaceInput(s);
  const view = await queryClient.fetchQuery(timelineQuery(client, s.doc, s.revision, workspace));
  if (view.scenarioErrors.length > 0) return undefined;
  const servers = await client.call('serversView', { revision: view.revision, position: Math.max(0, view.positions.length - 1) });
  return prefixCacheImpact(diff, servers.servers.find((x) => x.name === server)?.places ?? []);
}

function LiveServerSync({ server }: { readonly server: ServerDoc }) {
  const store = useWorkbenchStore();
  const client = useDeriveClient();
  const queryClient = useQueryClient();
  const { status, tools } = useLiveServer(server);
  const fetchedAt = tools.data?.fetchedAt;
  const seen = useRef<number | undefined>(undefined);

  // The wish to be connected is decided once, from the status the scenario gives, so that a
  // failure (which sets the server offline) does not also stop the reconnecting.
  useEffect(() => {
    const s = store.getState();
    if (!s.liveWanted.has(server.name)) s.setLiveWanted(server.name, server.status === 'running');
  }, [server.name, server.status, store]);

  useEffect(() => {
    const data = tools.data;
    if (!data || seen.current === data.fetchedAt) return;
    seen.current = data.fetchedAt;
    const name = server.name;
    const doc = store.getState().doc.servers.find((x) => x.name === name);
    if (!doc) return;
    const read = readCatalogueValue({ tools: data.tools }, data.bytes, server.url ?? name);
    if (!read.ok) {
      store.getState().showBanner('error', `${name}: ${read.errors.join(' ')} The server's tools stay as they were.`);
      if (doc.status !== 'offline') store.getState().updateServer(name, { status: 'offline' });
      return;
    }
    const fresh = read.catalogue.servers[0]?.tools ?? [];
    const before = entries(doc.tools);
    const diff = diffToolLists(before, fresh);
    if (isEmptyDiff(diff)) {
      if (doc.status !== 'running') store.getState().updateServer(name, { status: 'running' });
      return;
    }
    const write = () => store.getState().updateServer(name, { status: 'running', tools: fresh.map(plain) });
    if (before.length === 0) {
      write();
      return;
    }
    void impactOf(store, client, queryClient, name, diff)
      .catch(() => undefined)
      .then((impact) => {
        store.getState().recordServerChange(name, { diff, ...(impact ? { impact } : {}), at: Date.now() });
        write();
      });
  }, [fetchedAt, tools.data, server.name, server.url, store, client, queryClient]);

  // A server removed from the scenario (undo, another file) closes its session.
  const url = useWorkbench((s) => s.bridgeLinks.get(server.name)) ?? server.url ?? '';
  useEffect(
    () => () =>
      releaseLive(queryClient, url, () => {
        const s = store.getState();
        return s.doc.servers.some((x) => x.url === url || s.bridgeLinks.get(x.name) === url) || s.importDialog !== undefined;
      }),
    [queryClient, store, url],
  );

  // Failed, or not wanted: the server is offline in the document, and its tools leave.
  const down = status.kind === 'failed' || status.kind === 'offline';
  useEffect(() => {
    if (!down) return;
    const doc = store.getState().doc.servers.find((x) => x.name === server.name);
    if (doc && doc.status !== 'offline') store.getState().updateServer(server.name, { status: 'offline' });
  }, [down, server.name, store]);
  return null;
}

/** Mounted once by the app: keeps every live server of the scenario in step. */
export function LiveServers() {
  const servers = useWorkbench((s) => s.doc.servers);
  const links = useWorkbench((s) => s.bridgeLinks);
  return (
    <>
      {servers
        .filter((s) => s.url !== undefined || links.has(s.name))
        .map((s) => (
          <LiveServerSync key={`${s.name}\u0000${links.get(s.name) ?? s.url ?? ''}`} server={s} />
        ))}
    </>
  );
}
