// The servers tab: every MCP server of the scenario with its status (a live
// server: connecting, running, failed with the reason, or offline), what changed
// in its tool list and what that does to the prompt cache; and what discovery
// saves at the selected position, per server and in total.
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { sameDiff } from '../../core';
import type { ServerDoc, ServerSavings } from '../../core';
import { useCommands } from '../../commands/context';
import { SavingsSummary } from '../../components/Savings';
import { LiveStatusLine } from '../../components/LiveStatus';
import { CacheWord, countOf, formatBytes, formatCount } from '../../components/Measures';
import { useServersView } from '../../derive/serversHooks';
import { useFindability } from '../../derive/findabilityHooks';
import type { ServerFindabilityNote } from '../../derive/findabilityProtocol';
import { FindabilityBadge } from '../../components/Findability';
import type { ServerView } from '../../derive/serversProtocol';
import { cancelLive, disconnectLive } from '../../live/queries';
import { confirmUrl, forgetUrl } from '../../live/confirmed';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { useLiveServer } from '../../live/useLiveServer';
import { LiveListNow, LiveNow, useLiveListDifference } from '../../live/LiveNow';
import { liveToolListUndo } from '../../state/importSlice';
import { BridgeBar, BridgeControls, useNotOfferedToJp } from './BridgeControls';
import { namesMarked, NOT_OFFERED } from './forwarding';
import './servers.css';

function tokens(n: number | undefined): string {
  return n === undefined ? '' : ` · ~${formatCount(n)} tokens (estimate)`;
}

/**
 * The server's live list where it differs from the recorded one (issue 24.2): what differs, what taking
 * it would do to the prompt cache, and the one way it enters the document (undoable). The recording
 * stays until then.
 */
function Change({ server }: { readonly server: ServerDoc }) {
  const name = server.name;
  const differs = useLiveListDifference(server);
  const record = useWorkbench((s) => s.recordServerChange);
  const take = useWorkbench((s) => s.takeLiveList);
  const undo = useWorkbench((s) => s.undoTakeLiveList);
  const taken = useWorkbench((s) => liveToolListUndo(s));
  // Tools the server lists only because the bridge forwards to the page: taking them would record tools JP never sees.
  const notOffered = useNotOfferedToJp(name);
  const list = (xs: readonly string[]) => namesMarked(xs, notOffered);
  if (!differs) {
    if (taken?.server !== name) return null;
    return (
      <div className="server-change taken" data-testid="live-list-taken" role="status">
        <span>
          The live list is in the document now ({countOf(server.tools.length, 'tool')}; it was {formatCount(taken.tools.length)}).
        </span>
        <button type="button" className="link" onClick={undo} data-testid="undo-take-live-list">
          Undo
        </button>
      </div>
    );
  }
  const { diff, change } = differs;
  // The cache effect was judged on the difference as it was when the list arrived; shown while it still holds.
  const impact = change.impact && sameDiff(change.diff, diff) ? change.impact : undefined;
  return (
    <div className="server-change" data-testid="server-change" role="status">
      <div>
        <strong>Tool list changed</strong> on the server (listed at {new Date(change.at).toLocaleTimeString()}): <span data-testid="change-words">live list differs now: {differs.words}</span> ·{' '}
        {diff.added.length > 0 && <span className="added" data-testid="change-added">+{diff.added.length} added ({list(diff.added)}) </span>}
        {diff.removed.length > 0 && <span className="removed" data-testid="change-removed">−{diff.removed.length} removed ({list(diff.removed)}) </span>}
        {diff.changed.length > 0 && (
          <span className="changed" data-testid="change-changed">
            ~{diff.changed.length} changed ({list(diff.changed.map((c) => `${c.name}: ${c.fields.join(', ')}`))})
          </span>
        )}
        <button type="button" className="link" onClick={() => record(name, undefined)} aria-label={`Dismiss the live list of ${name}`}>
          dismiss
        </button>
      </div>
      <div className="change-recorded">
        <span className="muted">The document keeps the recorded list ({countOf(server.tools.length, 'tool')}) until you take this one.</span>
        <button type="button" onClick={() => take(name)} data-testid="take-live-list" title="Write the server's live list into the document as one edit (undoable)">
          Take the live list into the document
        </button>
      </div>
      {impact && (
        <div className="impact" data-testid="change-impact">
          Taking it: <CacheWord status={impact.status} reason={impact.sentence} /> {impact.sentence}
          {impact.unconfigured.length > 0 && <span className="muted"> New tools no layer names yet: {list(impact.unconfigured)}.</span>}
        </div>
      )}
    </div>
  );
}

function LiveControls({ server }: { readonly server: ServerDoc }) {
  const store = useWorkbenchStore();
  const queryClient = useQueryClient();
  // A server reached through the bridge has its session at the bridge's endpoint, not at its own URL.
  const { status, connection, tools, url } = useLiveServer(server);
  const setWanted = (w: boolean) => store.getState().setLiveWanted(server.name, w);
  // Pressing Connect is the user's confirmation of this exact URL (kept in this browser, not in the document).
  const connect = () => {
    confirmUrl(url);
    setWanted(true);
  };
  return (
    <>
    {status.kind === 'unconfirmed' && (
      <p className="unconfirmed-note" data-testid="server-unconfirmed">
        This document names a live server at <code>{url}</code>. Nothing is sent there until you press Connect.
      </p>
    )}
    <div className="live-controls">
      <LiveStatusLine status={status} info={connection.data?.info} tools={tools.data ? { count: tools.data.tools.length, pages: tools.data.pages } : undefined} />
      <span className="spacer" />
      {status.kind === 'connecting' && (
        <button type="button" onClick={() => cancelLive(url)} data-testid="server-cancel">
          Cancel connecting
        </button>
      )}
      {status.kind === 'running' && (
        <button type="button" onClick={() => void tools.refetch()} disabled={tools.isFetching} data-testid="server-refetch" title="List the server's tools again">
          Refetch
        </button>
      )}
      {(status.kind === 'running' || status.kind === 'failed') && (
        <button type="button" onClick={() => void connection.refetch()} data-testid="server-reconnect" title="Open a new session and list again">
          Reconnect
        </button>
      )}
      {status.kind === 'offline' || status.kind === 'unconfirmed' ? (
        <button type="button" onClick={connect} aria-label={`Connect to ${url}`} title={`Connect to ${url}`} data-testid="server-connect">
          Connect
        </button>
      ) : (
        <button
          type="button"
          onClick={() => {
            setWanted(false);
            forgetUrl(url);
            void disconnectLive(queryClient, url);
          }}
          data-testid="server-disconnect"
        >
          Disconnect
        </button>
      )}
    </div>
    </>
  );
}

/**
 * The server's discoverable tools as the findability tab words them (issue 24.8): the core's count and
 * words ("2 thinly described", "none at risk"), then the tools at risk.
 */
function FindabilityNote({ server, note }: { readonly server: string; readonly note: ServerFindabilityNote }) {
  const setTab = useWorkbench((s) => s.setDockTab);
  const notOffered = useNotOfferedToJp(server);
  const n = note.tools.length;
  const open = (
    <button type="button" className="link" onClick={() => setTab('findability')}>
      Open the findability report
    </button>
  );
  const summary = (
    <>
      {/* The Findability tab asks the base config; the counts above are at the selected position, so no count of discoverable tools here to disagree with them. */}
      <span title={`The Findability tab's words for the ${countOf(note.discoverable, 'tool')} of this server that search_tools can return in the base config`}>Findability in the base config</span>:{' '}
      <span data-testid="server-findability-words">{note.words}</span>
    </>
  );
  if (n === 0) {
    return (
      <div className="server-findability" data-testid="server-findability">
        {summary} {open}
      </div>
    );
  }
  return (
    <details className="server-findability" data-testid="server-findability">
      <summary>{summary}</summary>
      <ul>
        {note.tools.slice(0, 20).map((t) => (
          <li key={t.name} data-tool={t.name}>
            <code>{t.name}</code>
            {notOffered.has(t.name) && <span className="not-offered-mark">{NOT_OFFERED}</span>} <FindabilityBadge status={t.status} word={t.word} /> {t.reason}
            {t.beatenBy.length > 0 && <span className="muted"> — beaten by {t.beatenBy.slice(0, 3).join(', ')}</span>}
          </li>
        ))}
        {n > 20 && <li className="muted">… and {n - 20} more</li>}
      </ul>
      {open}
    </details>
  );
}

function ServerCard({ server, view, savings, findability }: { readonly server: ServerDoc; readonly view: ServerView | undefined; readonly savings: ServerSavings | undefined; readonly findability: ServerFindabilityNote | undefined }) {
  const updateServer = useWorkbench((s) => s.updateServer);
  const link = useWorkbench((s) => s.bridgeLinks.get(server.name));
  const bridged = link !== undefined;
  const places = view?.places ?? [];
  const on = places.filter((p) => p.availability === 'on').length;
  const disc = places.filter((p) => p.availability === 'discoverable').length;
  const off = places.length - on - disc;
  const kind = bridged ? 'live via the bridge' : server.url !== undefined ? 'live' : server.catalogue !== undefined ? 'catalogue file' : 'simulated';
  return (
    <li className="server-card" data-server={server.name} data-status={server.status} aria-label={`Server ${server.name}`}>
      <div className="server-line">
        <code className="server-name">{server.name}</code>
        <span className="kind">{kind}</span>
        {server.url !== undefined && <code className="url" title={server.url}>{server.url}</code>}
        {server.catalogue !== undefined && <code className="url">{server.catalogue}</code>}
        {(server.url !== undefined || bridged) && <LiveNow server={server} />}
        <span className="counts" data-testid="server-counts">
          recorded {server.status} · {countOf(server.tools.length, 'tool')} listed · configured {places.length}: {on} on, {disc} discoverable, {off} off
        </span>
        {(server.url !== undefined || bridged) && <LiveListNow server={server} />}
      </div>
      {link !== undefined ? (
        <BridgeControls name={server.name} endpoint={link}>
          <LiveControls server={server} />
        </BridgeControls>
      ) : server.url !== undefined ? (
        <LiveControls server={server} />
      ) : (
        <div className="live-controls">
          <span className={`status-word ${server.status === 'running' ? 'running' : 'offline'}`} data-testid="sim-status">
            {server.status}
          </span>
          <span className="muted">simulated from its tools/list</span>
          <span className="spacer" />
          <button type="button" onClick={() => updateServer(server.name, { status: server.status === 'running' ? 'offline' : 'running' })} title="Simulate the server failing to start (its tools leave the permitted set), or bring it back">
            {server.status === 'running' ? 'Take offline' : 'Bring online'}
          </button>
        </div>
      )}
      {server.status === 'offline' && places.length > 0 && (
        <div className="offline-effect" data-testid="server-offline-effect">
          Offline in the scenario: its {countOf(places.length, 'configured tool')} leave the permitted set (the tools stay listed for when it is back).
        </div>
      )}
      {savings && (
        <div className="server-savings muted" data-testid="server-savings">
          {/* The Servers tab's all-on row for this server: its tools that are not off (issue 24.5). */}
          <span title="Its tools that are not off, the discoverable ones turned on: the Cost tab's all-on run">all on (JP today)</span>: {countOf(savings.all.tools, 'tool')}, {formatBytes(savings.all.bytes)}
          {tokens(savings.all.tokens)} → offered now: {countOf(savings.offered.tools, 'tool')} on, {formatBytes(savings.offered.bytes)}
          {tokens(savings.offered.tokens)}; {savings.searchable} searchable
        </div>
      )}
      {findability && <FindabilityNote server={server.name} note={findability} />}
      {(server.url !== undefined || bridged) && <Change server={server} />}
    </li>
  );
}

export function ServersPanel() {
  const servers = useWorkbench((s) => s.doc.servers);
  const lastImport = useWorkbench((s) => s.lastImport);
  const layers = useWorkbench((s) => s.doc.layers);
  const undoImport = useWorkbench((s) => s.undoImport);
  const store = useWorkbenchStore();
  const registry = useCommands();
  const { data: view, isFetching } = useServersView();
  const { data: findability } = useFindability();
  const run = (id: string) => void registry.run(id, { store });
  // A fresh import is scrolled into view: it is added after the servers already there.
  const listRef = useRef<HTMLUListElement>(null);
  const justImported = lastImport?.servers[0];
  useEffect(() => {
    if (justImported === undefined) return;
    listRef.current?.querySelector(`[data-server="${CSS.escape(justImported)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [justImported]);
  return (
    <div className="servers-panel" data-testid="servers-panel">
      <div className="servers-bar">
        <button type="button" onClick={() => run('import.open')} data-testid="servers-import">
          Import MCP tools…
        </button>
        <button type="button" onClick={() => run('import.live')} data-testid="servers-connect-live">
          Connect a live server…
        </button>
        <button type="button" onClick={() => run('export.jp')} data-testid="servers-export">
          Export JP config (.zip)
        </button>
        {lastImport && layers.some((l) => l.name === lastImport.layer) && (
          <button type="button" onClick={undoImport} title={lastImport.summary} data-testid="servers-undo-import">
            Undo import
          </button>
        )}
        <span className="spacer" />
        {isFetching && <span className="muted">measuring…</span>}
      </div>
      <BridgeBar />
      {servers.length === 0 ? (
        <div className="empty">
          No MCP servers yet. Import a tools/list JSON (choose a file, paste it, or drop a .json file on the page), or connect a live server over Streamable HTTP. Each
          server&apos;s tools become <code>[conversation.tools.NAME]</code> tables with <code>source = &quot;mcp.SERVER.TOOL&quot;</code> in a generated layer.
        </div>
      ) : (
        <div className="servers-columns">
          <ul className="server-list" aria-label="MCP servers" ref={listRef}>
            {servers.map((s) => (
              <ServerCard
                key={s.name}
                server={s}
                view={view?.servers.find((v) => v.name === s.name)}
                savings={view?.savings.servers.find((x) => x.server === s.name)}
                findability={findability?.servers.find((x) => x.server === s.name)}
              />
            ))}
          </ul>
          {view && (
            <section className="discovery-saves" aria-label="What discovery saves">
              <h3>What discovery saves at the selected position</h3>
              <SavingsSummary savings={view.savings} />
            </section>
          )}
        </div>
      )}
    </div>
  );
}
