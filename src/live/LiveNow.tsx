// A live server's state now, shown beside what the document recorded of it when the two differ
// ("server stopped now"). The recording (its status, tool list, search results, call results) is the
// document's and replays as recorded; a live event only ever shows here, never rewrites it. Kept in
// src/live rather than src/components because it reads the store and the live queries.
import type { ServerDoc } from '../core';
import { useLiveServer } from './useLiveServer';
import type { LiveStatus } from './queries';
import { useWorkbench } from '../state/context';
import './live-now.css';

/** The words for a live state that disagrees with the recorded status, or undefined when they agree (or nothing is known yet). */
export function liveNowWords(recorded: ServerDoc['status'], live: LiveStatus): string | undefined {
  if (recorded === 'running' && live.kind === 'offline') return 'server stopped now';
  // The reason is the status line's (and the badge's tooltip): a badge stays one short phrase.
  if (recorded === 'running' && live.kind === 'failed') return 'server failed now';
  if (recorded === 'offline' && live.kind === 'running') return 'server running now';
  return undefined;
}

function Badge({ server, prefix }: { readonly server: ServerDoc; readonly prefix: boolean }) {
  const { status } = useLiveServer(server);
  const words = liveNowWords(server.status, status);
  if (words === undefined) return null;
  return (
    <span
      className="live-now"
      data-testid="live-now"
      data-server={server.name}
      title={`${status.kind === 'failed' ? `${status.message} ` : ''}Live now; the document keeps what was recorded (${server.status}).`}
    >
      {prefix ? `${server.name}: ` : ''}
      {words}
    </span>
  );
}

/** Beside one server's recorded status. */
export function LiveNow({ server }: { readonly server: ServerDoc }) {
  return <Badge server={server} prefix={false} />;
}

/** Beside a recorded call or search: the live state of each live server whose tools it names. */
export function LiveNowOfTools({ tools }: { readonly tools: readonly string[] }) {
  const servers = useWorkbench((s) => s.doc.servers);
  const links = useWorkbench((s) => s.bridgeLinks);
  const names = new Set(tools);
  const live = servers.filter((s) => (s.url !== undefined || links.has(s.name)) && s.tools.some((t) => names.has(toolName(t))));
  if (live.length === 0) return null;
  return (
    <>
      {live.map((s) => (
        <Badge key={s.name} server={s} prefix />
      ))}
    </>
  );
}

function toolName(t: ServerDoc['tools'][number]): string {
  const name = t['name'];
  return typeof name === 'string' ? name : '';
}
