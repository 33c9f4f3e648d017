// Live servers kept in step with the document. Each scenario server with a `url`
// is connected (when wanted, and only once the user confirmed that exact URL: a
// document never reaches the network by itself) through the live queries; every fresh tool list is
// written into the server (one document change, only when it differs). A server
// that stops or fails never rewrites the document (issue 24.2): its recorded status
// and tool list, and the steps' recorded searches and calls, replay as recorded, and
// the live state shows beside them (src/live/LiveNow.tsx). Only the user's own
// edit (the config, "Take offline") changes the recorded status. What changed between
// two lists, and what that does to the prompt cache, is recorded for the servers panel.
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { diffToolLists, isEmptyDiff, parseToolsList, prefixCacheImpact, readCatalogueValue } from '../../core';
import type { McpToolEntry, Plain, ServerDoc } from '../../core';
import { timelineQuery, useDeriveClient } from '../../derive/queries';
import type { DeriveClient } from '../../derive/client';
import { releaseLive } from '../../live/queries';
import { useLiveServer } from '../../live/useLiveServer';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import type { WorkbenchStore } from '../../state/store';
import { workspaceInput } from '../../state/workspaceSlice';

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
  const { tools } = useLiveServer(server);
  const fetchedAt = tools.data?.fetchedAt;
  const seen = useRef<number | undefined>(undefined);

  // The wish to be connected is decided once, from the status the scenario gives, so that the
  // user's own edit of that status does not connect or disconnect behind their back.
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
      return;
    }
    const fresh = read.catalogue.servers[0]?.tools ?? [];
    const before = entries(doc.tools);
    const diff = diffToolLists(before, fresh);
    // The same list as recorded: nothing to record (a recorded "offline" is the user's, and stays).
    if (isEmptyDiff(diff)) return;
    // The first list is the recording of a running server; a later change records the new list and
    // keeps the recorded status (which only the user edits).
    const write = () => store.getState().updateServer(name, { tools: fresh.map(plain) });
    if (before.length === 0) {
      store.getState().updateServer(name, { status: 'running', tools: fresh.map(plain) });
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
