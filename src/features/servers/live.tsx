// Live servers kept in step with the document. Each scenario server with a `url`
// is connected (when wanted, and only once the user confirmed that exact URL: a
// document never reaches the network by itself) through the live queries. A recording replays
// as recorded (issue 24.2): a server that stops or fails never rewrites the document, and neither
// does a tool list that differs from the recorded one (a notifications/tools/list_changed, a
// re-list after a restart): it is kept beside the recording (`serverChanges`, with what it would
// do to the prompt cache) for the servers panel and the card's "live list differs now", and
// enters the document only when the user takes it (`takeLiveList`, undoable). The one list written
// by itself is a server's first: a server with no recorded list is being recorded. Only the
// user's own edit (the config, "Take offline") changes the recorded status.
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
  const servers = await client.call('serversView', { revision: view.revision, position: Math.max(0, view.positionCount - 1) });
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
    // No recorded list yet: this first list is the recording of a running server.
    if (before.length === 0) {
      store.getState().updateServer(name, { status: 'running', tools: fresh.map(plain) });
      store.getState().recordServerChange(name, undefined);
      return;
    }
    // The live list is kept even when it agrees with the recording: a document loaded later, or the
    // user's undo, compares against the server's newest list (the panel diffs the two as they are).
    const diff = diffToolLists(before, fresh);
    const at = data.fetchedAt;
    store.getState().recordServerChange(name, { live: fresh.map(plain), diff, at });
    if (isEmptyDiff(diff)) return;
    void impactOf(store, client, queryClient, name, diff)
      .catch(() => undefined)
      .then((impact) => {
        const s = store.getState();
        const now = s.serverChanges.get(name);
        // A newer list arrived meanwhile, or the difference was dismissed: that one stands.
        if (impact && now?.at === at) s.recordServerChange(name, { ...now, impact });
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
