// The import dialog: a catalogue from a file (picker or drop), pasted JSON, or a
// live MCP server; a starting policy; a preview of what the import makes (every
// tool with its availability and MCP annotations) and of what discovery saves.
// Importing adds the servers and the generated layer as ONE document change; a
// refused catalogue changes nothing.
//
// Its state is one ImportForm changed by named actions (importForm.ts); the parts are in
// ImportSource.tsx (file, paste, live server) and ImportPreview.tsx (policy, servers, tools).
import { useEffect, useId, useMemo, useReducer, useRef } from 'react';
import type { Dispatch } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { applyImport } from '../../core';
import { countOf, formatCount } from '../../components/Measures';
import { useImportPreview } from '../../derive/serversHooks';
import type { ImportPreview } from '../../derive/serversProtocol';
import { useTimeline } from '../../derive/hooks';
import { connectionQuery, liveStatus, releaseLive, toolsQuery } from '../../live/queries';
import { confirmUrl } from '../../live/confirmed';
import { isBridgeUrl } from '../../live/bridge';
import { readCatalogueFile } from '../../state/importSlice';
import type { ImportSource } from '../../state/importSlice';
import type { WorkbenchStore } from '../../state/store';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { importForm, initialForm, policyOf, previewRequest, problemsOf, serverNamesOf, timeoutMsOf } from './importForm';
import type { ImportAction, ImportForm, Tab } from './importForm';
import { FileSource, LiveSource, PasteSource } from './ImportSource';
import { PolicySection, ServersTable, ToolPreview } from './ImportPreview';
import { BridgeRouteFields, useBridgeRoute } from './BridgeRoute';
import type { BridgeRoute } from './BridgeRoute';
import './import.css';

const TABS: { id: Tab; label: string }[] = [
  { id: 'file', label: 'File' },
  { id: 'paste', label: 'Paste JSON' },
  { id: 'url', label: 'Live server' },
];

type Ready = Extract<ImportPreview, { ok: true }>;

export function ImportDialog() {
  const dialog = useWorkbench((s) => s.importDialog);
  if (!dialog) return null;
  // Remount on every open so the dialog starts from its source.
  return <ImportDialogBody key={dialog.seq} source={dialog.source} />;
}

/** Reads a picked file into the form: its text, or why it is refused. */
async function pickFile(f: File | undefined, dispatch: Dispatch<ImportAction>): Promise<void> {
  if (!f) return;
  dispatch({ type: 'file-picked' });
  const s = await readCatalogueFile(f);
  if (s.kind === 'refused') dispatch({ type: 'file-refused', error: s.error });
  else if (s.kind === 'file') dispatch({ type: 'file-read', name: s.fileName, text: s.text });
}

/** Adds the previewed import to the document as one change, and says what it did. */
function commit(store: WorkbenchStore, ok: Ready, linkBridged: (server: string) => void): void {
  const s = store.getState();
  const { result } = ok;
  const first = result.servers[0]?.name;
  // Linked before the import lands, so its live session starts at the bridge's endpoint.
  if (first !== undefined) linkBridged(first);
  const n = result.tools.length;
  const servers = result.servers.map((x) => x.name);
  const renamed = ok.servers.filter((x) => x.taken !== undefined).map((x) => `${x.taken ?? ''} was renamed ${x.name} (a server of that name is already in the scenario)`);
  const summary = `Imported ${formatCount(n)} tool${n === 1 ? '' : 's'} of ${servers.join(', ')} into layer ${result.layer.name}: ${result.counts.on} on, ${result.counts.discoverable} discoverable, ${result.counts.off} off.${renamed.length > 0 ? ` ${renamed.join('; ')}.` : ''}`;
  s.commitImport(applyImport(s.doc, result), { layer: result.layer.name, servers }, summary);
  s.setDockTab('servers');
  s.showBanner('info', `${summary} Undo it from the Servers tab.`);
}

/** A live server tried from the dialog: the same connection and tool-list queries the servers panel uses. */
function useLiveServer(form: ImportForm) {
  const store = useWorkbenchStore();
  const queryClient = useQueryClient();
  const { liveUrl } = form;
  const timeoutMs = timeoutMsOf(form);
  const wanted = form.tab === 'url' && liveUrl !== undefined;
  const connection = useQuery({ ...connectionQuery(queryClient, liveUrl ?? '', timeoutMs), enabled: wanted });
  const tools = useQuery({ ...toolsQuery(queryClient, liveUrl ?? '', connection.data?.session, timeoutMs), enabled: wanted && connection.isSuccess });
  // A server tried here and not imported: its session closes with the dialog (or when another URL is
  // tried); one reached through the bridge is let go by the bridge route, session and all.
  useEffect(() => {
    if (liveUrl === undefined || isBridgeUrl(liveUrl)) return;
    return () => releaseLive(queryClient, liveUrl, () => store.getState().doc.servers.some((x) => x.url === liveUrl));
  }, [liveUrl, queryClient, store]);
  return { connection, tools, status: liveStatus(liveUrl !== undefined, connection, tools), timeoutMs };
}

function ImportDialogBody({ source }: { readonly source: ImportSource }) {
  const store = useWorkbenchStore();
  const close = useWorkbench((s) => s.closeImport);
  const titleId = useId();
  const [form, dispatch] = useReducer(importForm, source, initialForm);
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;

  // Pasted text is previewed once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => dispatch({ type: 'paste-settled' }), 250);
    return () => clearTimeout(t);
  }, [form.paste]);

  const live = useLiveServer(form);
  // Served by `npm start`: a live server is reached from the bridge (no CORS; headers stay there).
  const route = useBridgeRoute();
  const { kind, keep, offDestructive, modes, names } = form;
  const policy = useMemo(() => policyOf({ kind, keep, offDestructive, modes }), [kind, keep, offDestructive, modes]);
  const serverNames = useMemo(() => serverNamesOf(names), [names]);
  const { sourceId, params } = previewRequest(form, { policy, serverNames, revision }, live.tools.data, route.upstreamOf(form.liveUrl));
  const preview = useImportPreview(sourceId, params);
  // While a new preview is computed the previous one stays on screen, but only for the same source
  // (a policy change): another file's preview is never shown, nor imported, for this one.
  const shownSource = useRef<string | undefined>(undefined);
  if (preview.data && !preview.isPlaceholderData) shownSource.current = sourceId;
  const sameSource = !preview.isPlaceholderData || shownSource.current === sourceId;
  const current = params && preview.data && sameSource ? preview.data : undefined;
  const ok = current?.ok ? current : undefined;
  const errors = problemsOf(form, current, preview.error, params !== undefined);

  const tryUrl = (url: string): void => {
    if (url === form.liveUrl) void live.connection.refetch();
    else dispatch({ type: 'server-tried', url });
  };
  const connect = (url: string): void => {
    // The user typed this URL and pressed Connect: that confirms it (through the bridge, the endpoint
    // the bridge made for it).
    if (!route.active) {
      confirmUrl(url);
      tryUrl(url);
      return;
    }
    void route.connect(url).then((reached) => {
      if (reached === undefined) return;
      confirmUrl(reached.endpoint);
      // Named from the server's serverInfo, as the bridge named it, unless the user named it.
      if (form.names[0] === undefined) dispatch({ type: 'server-renamed', index: 0, name: reached.name });
      tryUrl(reached.endpoint);
    });
  };

  return (
    <div className="import-backdrop" onMouseDown={close}>
      <div
        className="import-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="import-dialog"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
        }}
      >
        <header className="import-head">
          <h2 id={titleId}>Import MCP tools</h2>
          <div className="tabs" role="tablist" aria-label="Where the tools come from">
            {TABS.map((t) => (
              <button key={t.id} type="button" role="tab" className="tab" aria-selected={form.tab === t.id} onClick={() => dispatch({ type: 'tab-chosen', tab: t.id })} data-testid={`import-tab-${t.id}`}>
                {t.label}
              </button>
            ))}
          </div>
          <span className="spacer" />
          <button type="button" onClick={close} aria-label="Close the import dialog">
            Close
          </button>
        </header>

        <div className="import-body">
          <section className="import-source" aria-label="Source">
            {form.tab === 'file' && <FileSource file={form.file} onPick={(f) => void pickFile(f, dispatch)} />}
            {form.tab === 'paste' && <PasteSource text={form.paste} dispatch={dispatch} />}
            {form.tab === 'url' && (
              <LiveSource
                form={form}
                dispatch={dispatch}
                status={live.status}
                info={live.connection.data?.info}
                tools={live.tools.data ? { count: live.tools.data.tools.length, pages: live.tools.data.pages } : undefined}
                timeoutMs={live.timeoutMs}
                onConnect={connect}
                busy={routeBusy(route)}
              >
                <BridgeRouteFields route={route} />
              </LiveSource>
            )}
          </section>

          {form.tab === 'url' && live.tools.data?.tools.length === 0 && (
            <p className="import-renamed" role="status" data-testid="import-no-tools">
              The server answered but lists no tools: there is nothing to import. Check that the URL is its MCP endpoint (often ending in <code>/mcp</code>), and whether it
              needs a header (an API key) to show its tools.
            </p>
          )}
          {errors.length > 0 && (
            <div className="import-errors" role="alert" data-testid="import-errors">
              <strong>Refused: nothing was imported, and your scenario is unchanged.</strong>
              <ul>
                {errors.map((e, i) => (
                  <li key={i}>{e}</li>
                ))}
              </ul>
            </div>
          )}

          {ok && (
            <>
              <PolicySection form={form} dispatch={dispatch} />
              <ServersTable ok={ok} form={form} dispatch={dispatch} />
              <ToolPreview ok={ok} filter={form.filter} dispatch={dispatch} />
            </>
          )}
          {!ok && errors.length === 0 && params && preview.isFetching && <p className="muted">Reading the catalogue…</p>}
        </div>

        <footer className="import-foot">
          <span className="muted">{ok ? 'Adds the servers and one generated layer as one change; undo it from the Servers tab.' : 'Nothing is added until you import.'}</span>
          <span className="spacer" />
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={!ok || preview.isFetching} onClick={() => ok && commit(store, ok, (server) => {
                if (form.tab === 'url') route.imported(form.liveUrl, server);
              })} data-testid="import-confirm">
            {ok ? `Import ${countOf(ok.result.tools.length, 'tool')}` : 'Import'}
          </button>
        </footer>
      </div>
    </div>
  );
}

/** The bridge is still reaching the server, or the headers typed for it do not read. */
function routeBusy(route: BridgeRoute): boolean {
  return route.phase.kind === 'connecting' || (route.active && route.headerError !== undefined);
}
