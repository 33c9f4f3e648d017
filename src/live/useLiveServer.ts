// One live server's queries and status, shared by the servers feature's sync and panel and by the
// "stopped now" badge shown beside recorded results (LiveNow.tsx). The queries are
// react-query's, keyed by URL: every component using them shares one connection.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServerDoc } from '../core';
import { useWorkbench } from '../state/context';
import { connectionQuery, liveStatus, toolsQuery, useConfirmed } from './queries';

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
