// A live server's state now, shown beside what the document recorded of it when the two differ
// ("server stopped now"). The recording (its status, tool list, search results, call results) is the
// document's and replays as recorded; a live event only ever shows here, never rewrites it. Kept in
// src/live rather than src/components because it reads the store and the live queries.
import { useMemo } from 'react';
import { diffToolLists, diffWords, parseToolsList } from '../core';
import type { ServerDoc, ToolListDiff } from '../core';
import type { ServerChange } from '../state/importSlice';
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

/**
 * How the server's live list differs from the recorded one now: only while the server runs (a stopped
 * server's last list is not "now"), diffed against the document as it is (after a take, an undo or
 * another document), undefined when the two agree.
 */
export function useLiveListDifference(server: ServerDoc): { readonly diff: ToolListDiff; readonly words: string; readonly change: ServerChange } | undefined {
  const change = useWorkbench((s) => s.serverChanges.get(server.name));
  const { status } = useLiveServer(server);
  const running = status.kind === 'running';
  return useMemo(() => {
    if (!change || !running) return undefined;
    const diff = diffToolLists(parseToolsList({ tools: server.tools }).tools, parseToolsList({ tools: change.live }).tools);
    const words = diffWords(diff);
    return words === '' ? undefined : { diff, words, change };
  }, [change, running, server.tools]);
}

/** Beside one server's recorded tool count: its live list, where it differs ("live list differs now: +2 / −1"). */
export function LiveListNow({ server }: { readonly server: ServerDoc }) {
  const differs = useLiveListDifference(server);
  if (!differs) return null;
  const { diff } = differs;
  const names = [
    ...diff.added.map((n) => `+ ${n}`),
    ...diff.removed.map((n) => `\u2212 ${n}`),
    ...diff.changed.map((c) => `~ ${c.name} (${c.fields.join(', ')})`),
  ];
  return (
    <span className="live-now" data-testid="live-list-now" data-server={server.name} title={`Live now; the document keeps the recorded list (${server.tools.length} tools) until you take the live one.\n${names.join('\n')}`}>
      live list differs now: {differs.words}
    </span>
  );
}

/** Beside one server's recorded status. */
export function LiveNow({ server }: { readonly server: ServerDoc }) {
  return <Badge server={server} prefix={false} />;
}

/**
 * Beside a tool of the sets panel: its server's live state, in the same words, where it differs from the
 * status the document recorded (which is what the sets are derived from). Nothing for a simulated server.
 */
export function LiveNowOfServer({ name }: { readonly name: string | undefined }) {
  const server = useWorkbench((s) => (name === undefined ? undefined : s.doc.servers.find((x) => x.name === name)));
  const linked = useWorkbench((s) => name !== undefined && s.bridgeLinks.has(name));
  if (!server || (server.url === undefined && !linked)) return null;
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
