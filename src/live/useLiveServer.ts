// One live server's queries and status, shared by the servers feature's sync and panel and by the
// "stopped now" badge shown beside recorded results (LiveNow.tsx). The queries are
// react-query's, keyed by URL: every component using them shares one connection.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServerDoc } from '../core';
import { useWorkbench } from '../state/context';
import { connectionQuery, liveStatus, toolsQuery, useConfirmed } from './queries';
import { bridgeServersQuery, endpointUrl } from './bridge';
import { bridgeStartFailure } from './serverWord';

/** The queries and status of one live server (shared by the sync and the panel). */
export function useLiveServer(server: ServerDoc) {
  const queryClient = useQueryClient();
  const wanted = useWorkbench((s) => s.liveWanted.get(server.name)) ?? server.status === 'running';
  // A server reached through the local bridge is connected at its bridge endpoint, which starting it
  // there confirmed (bridgeSession.ts); any other URL waits for the user's Connect.
  const link = useWorkbench((s) => s.bridgeLinks.get(server.name));
  const url = link ?? server.url ?? '';
  const confirmed = useConfirmed(url);
  const connection = useQuery({ ...connectionQuery(queryClient, url), enabled: wanted && confirmed });
  const tools = useQuery({ ...toolsQuery(queryClient, url, connection.data?.session), enabled: wanted && confirmed && connection.isSuccess });
  // A bridge server that is not wanted running may have failed to start: the bridge says so (polled
  // only then), and its status is failed rather than offline.
  const bridged = useQuery({ ...bridgeServersQuery(link !== undefined && !wanted), select: (list) => list.find((v) => endpointUrl(v) === link) });
  const status = bridgeStartFailure(wanted, bridged.data) ?? liveStatus(wanted, connection, tools, confirmed);
  return { wanted, url, confirmed, connection, tools, status };
}
