// The import dialog: a catalogue from a file (picker or drop), pasted JSON, or a
// live MCP server; a starting policy; a preview of what the import makes (every
// tool with its availability and MCP annotations) and of what discovery saves.
// Importing adds the servers and the generated layer as ONE document change; a
// refused catalogue changes nothing.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { applyImport, DEFAULT_KEEP } from '../../core';
import type { GeneratedTool } from '../../core';
import { AvailabilityBadge } from '../../components/Availability';
import { ToolHintBadges } from '../../components/ToolHints';
import { SavingsSummary } from '../../components/Savings';
import { formatBytes, formatCount } from '../../components/Measures';
import { useImportPreview } from '../../derive/serversHooks';
import type { ImportPolicyInput, ImportPreviewParams } from '../../derive/serversProtocol';
import { useTimeline } from '../../derive/hooks';
import { cancelLive, connectionQuery, DEFAULT_TIMEOUT_MS, liveStatus, releaseLive, toolsQuery } from '../../live/queries';
import { confirmUrl } from '../../live/confirmed';
import { LiveStatusLine } from '../../components/LiveStatus';
import { readCatalogueFile } from '../../state/importSlice';
import type { ImportSource } from '../../state/importSlice';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import './import.css';

type Tab = 'file' | 'paste' | 'url';

const TABS: { id: Tab; label: string }[] = [
  { id: 'file', label: 'File' },
  { id: 'paste', label: 'Paste JSON' },
  { id: 'url', label: 'Live server' },
];

function tabOf(source: ImportSource): Tab {
  return source.kind === 'url' ? 'url' : source.kind === 'paste' ? 'paste' : 'file';
}

export function ImportDialog() {
  const dialog = useWorkbench((s) => s.importDialog);
  if (!dialog) return null;
  // Remount on every open so the dialog starts from its source.
  return <ImportDialogBody key={dialog.seq} source={dialog.source} />;
}

function ImportDialogBody({ source }: { readonly source: ImportSource }) {
  const store = useWorkbenchStore();
  const close = useWorkbench((s) => s.closeImport);
  const titleId = useId();
  const [tab, setTab] = useState<Tab>(tabOf(source));
  const [file, setFile] = useState<{ name: string; text: string; version: number } | undefined>(source.kind === 'file' && source.text !== '' ? { name: source.fileName, text: source.text, version: 1 } : undefined);
  const [refused, setRefused] = useState<string | undefined>(source.kind === 'refused' ? source.error : undefined);
  const [paste, setPaste] = useState('');
  const [pasted, setPasted] = useState({ text: '', version: 0 });
  const [url, setUrl] = useState(source.kind === 'url' ? (source.url ?? 'http://127.0.0.1:3001/mcp') : 'http://127.0.0.1:3001/mcp');
  const [timeoutSec, setTimeoutSec] = useState(DEFAULT_TIMEOUT_MS / 1000);
  const [liveUrl, setLiveUrl] = useState<string | undefined>(undefined);
  const [names, setNames] = useState<Record<number, string>>({});
  const [kind, setKind] = useState<ImportPolicyInput['kind']>('discoverable');
  const [keep, setKeep] = useState(DEFAULT_KEEP);
  const [offDestructive, setOffDestructive] = useState(true);
  const [modes, setModes] = useState<Record<string, 'on' | 'discoverable' | 'off'>>({});
  const [filter, setFilter] = useState('');
  const pickRef = useRef<HTMLInputElement>(null);
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;

  // Pasted text is previewed once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => setPasted((p) => (p.text === paste ? p : { text: paste, version: p.version + 1 })), 250);
    return () => clearTimeout(t);
  }, [paste]);

  // A live server: the same connection and tool-list queries the servers panel uses.
  const queryClient = useQueryClient();
  const timeoutMs = Math.max(1, timeoutSec) * 1000;
  const connection = useQuery({ ...connectionQuery(queryClient, liveUrl ?? '', timeoutMs), enabled: tab === 'url' && liveUrl !== undefined });
  const tools = useQuery({ ...toolsQuery(queryClient, liveUrl ?? '', connection.data?.session, timeoutMs), enabled: tab === 'url' && liveUrl !== undefined && connection.isSuccess });
  const status = liveStatus(liveUrl !== undefined, connection, tools);
  // A server tried here and not imported: its session closes with the dialog (or when another URL is tried).
  useEffect(() => {
    if (liveUrl === undefined) return;
    return () => releaseLive(queryClient, liveUrl, () => store.getState().doc.servers.some((x) => x.url === liveUrl));
  }, [liveUrl, queryClient, store]);

  const policy: ImportPolicyInput = useMemo(
    () => ({ kind, keep, offDestructive, ...(kind === 'per-server' ? { servers: Object.entries(modes) } : {}) }),
    [kind, keep, offDestructive, modes],
  );
  const serverNames = useMemo(() => {
    const max = Math.max(-1, ...Object.keys(names).map(Number));
    return Array.from({ length: max + 1 }, (_, i) => names[i] ?? '');
  }, [names]);

  let sourceId = 'none';
  let params: ImportPreviewParams | undefined;
  const common = { policy, serverNames, revision };
  if (tab === 'file' && file) {
    sourceId = `file:${file.name}:${file.version}`;
    params = { source: { kind: 'text', text: file.text }, origin: file.name, ...common };
  } else if (tab === 'paste' && pasted.text.trim() !== '') {
    sourceId = `paste:${pasted.version}`;
    params = { source: { kind: 'text', text: pasted.text }, origin: 'pasted JSON', ...common };
  } else if (tab === 'url' && liveUrl !== undefined && tools.data) {
    sourceId = `live:${liveUrl}:${tools.data.fetchedAt}`;
    params = { source: { kind: 'tools', tools: tools.data.tools, bytes: tools.data.bytes }, origin: liveUrl, url: liveUrl, ...common };
  }
  const preview = useImportPreview(sourceId, params);
  // While a new preview is computed the previous one stays on screen, but only for the same source
  // (a policy change): another file's preview is never shown, nor imported, for this one.
  const shownSource = useRef<string | undefined>(undefined);
  if (preview.data && !preview.isPlaceholderData) shownSource.current = sourceId;
  const current = params && preview.data && (!preview.isPlaceholderData || shownSource.current === sourceId) ? preview.data : undefined;
  const ok = current?.ok ? current : undefined;
  const errors = refused && tab === 'file' ? [refused] : current && !current.ok ? current.errors : preview.isError && params ? [`the catalogue could not be read: ${preview.error.message}`] : [];

  const pick = async (f: File | undefined) => {
    if (!f) return;
    setRefused(undefined);
    setNames({});
    const s = await readCatalogueFile(f);
    if (s.kind === 'refused') {
      setFile(undefined);
      setRefused(s.error);
    } else if (s.kind === 'file') setFile((old) => ({ name: s.fileName, text: s.text, version: (old?.version ?? 0) + 1 }));
  };

  const doImport = () => {
    if (!ok) return;
    const s = store.getState();
    const doc = applyImport(s.doc, ok.result);
    const n = ok.result.tools.length;
    const summary = `Imported ${formatCount(n)} tool${n === 1 ? '' : 's'} of ${ok.result.servers.map((x) => x.name).join(', ')} into layer ${ok.result.layer.name}: ${ok.result.counts.on} on, ${ok.result.counts.discoverable} discoverable, ${ok.result.counts.off} off.`;
    s.commitImport(doc, { layer: ok.result.layer.name, servers: ok.result.servers.map((x) => x.name) }, summary);
    s.setDockTab('servers');
    s.showBanner('info', `${summary} Undo it from the Servers tab.`);
  };

  const toolRows = useMemo(() => {
    const all: readonly GeneratedTool[] = ok?.result.tools ?? [];
    const q = filter.trim().toLowerCase();
    const rows = q === '' ? all : all.filter((t) => t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q) || (t.hints.title ?? '').toLowerCase().includes(q));
    return { rows: rows.slice(0, 300), total: rows.length };
  }, [ok, filter]);

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
              <button key={t.id} type="button" role="tab" className="tab" aria-selected={tab === t.id} onClick={() => setTab(t.id)} data-testid={`import-tab-${t.id}`}>
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
            {tab === 'file' && (
              <div className="row">
                <button type="button" onClick={() => pickRef.current?.click()} autoFocus data-testid="import-choose-file">
                  Choose a JSON file…
                </button>
                <input
                  ref={pickRef}
                  type="file"
                  accept=".json,application/json"
                  className="sr-only"
                  aria-label="Catalogue file"
                  data-testid="import-file-input"
                  tabIndex={-1}
                  onChange={(e) => {
                    void pick(e.target.files?.[0]);
                    e.target.value = '';
                  }}
                />
                {file ? (
                  <span data-testid="import-file-name">
                    <code>{file.name}</code> · {formatBytes(new TextEncoder().encode(file.text).length)}
                  </span>
                ) : (
                  <span className="muted">a tools/list reply ({'{"tools": [...]}'}) or a multi-server catalogue; or drop a .json file anywhere on the page</span>
                )}
              </div>
            )}
            {tab === 'paste' && (
              <textarea
                className="import-paste"
                aria-label="Paste a tools/list reply"
                placeholder='{"tools": [{"name": "list_issues", "description": "…", "inputSchema": {"type": "object", "properties": {}}}]}'
                value={paste}
                onChange={(e) => setPaste(e.target.value)}
                spellCheck={false}
                autoFocus
                data-testid="import-paste"
              />
            )}
            {tab === 'url' && (
              <form
                className="row live-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  const u = url.trim();
                  // The user typed this URL and pressed Connect: that confirms it.
                  confirmUrl(u);
                  if (u === liveUrl) void connection.refetch();
                  else setLiveUrl(u);
                }}
              >
                <label>
                  Streamable HTTP URL
                  <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} size={34} required autoFocus data-testid="import-url" spellCheck={false} />
                </label>
                <label>
                  timeout
                  <input type="number" min={1} max={300} value={timeoutSec} onChange={(e) => setTimeoutSec(Number(e.target.value) || 1)} style={{ width: '5em' }} aria-label="Timeout in seconds" data-testid="import-timeout" />s
                </label>
                <button type="submit" disabled={status.kind === 'connecting'} data-testid="import-connect">
                  {liveUrl !== undefined && liveUrl === url.trim() && status.kind !== 'connecting' ? 'Connect again' : 'Connect'}
                </button>
                {status.kind === 'connecting' && liveUrl !== undefined && (
                  <button type="button" onClick={() => cancelLive(liveUrl)} data-testid="import-cancel-connect">
                    Cancel connecting
                  </button>
                )}
                <LiveStatusLine status={status} info={connection.data?.info} tools={tools.data ? { count: tools.data.tools.length, pages: tools.data.pages } : undefined} timeoutMs={timeoutMs} />
              </form>
            )}
          </section>

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
              <section className="import-policy" aria-label="Starting policy">
                <fieldset>
                  <legend>Starting policy</legend>
                  <label>
                    <input type="radio" name="policy" checked={kind === 'discoverable'} onChange={() => setKind('discoverable')} data-testid="policy-discoverable" />
                    all discoverable, keep the
                    <input
                      type="number"
                      min={0}
                      max={500}
                      value={keep}
                      onChange={(e) => setKeep(Math.max(0, Math.floor(Number(e.target.value) || 0)))}
                      aria-label="How many of the most useful tools stay on"
                      style={{ width: '4.5em' }}
                      data-testid="policy-keep"
                    />
                    most useful on{kind === 'per-server' ? ' (per server)' : ''}
                  </label>
                  <label>
                    <input type="radio" name="policy" checked={kind === 'on'} onChange={() => setKind('on')} data-testid="policy-on" />
                    all on
                  </label>
                  <label>
                    <input type="radio" name="policy" checked={kind === 'per-server'} onChange={() => setKind('per-server')} data-testid="policy-per-server" />
                    per server
                  </label>
                  <label className="destructive-off">
                    <input type="checkbox" checked={offDestructive} onChange={(e) => setOffDestructive(e.target.checked)} data-testid="policy-off-destructive" />
                    destructive tools start off
                  </label>
                </fieldset>
                <p className="muted useful-note">
                  “Most useful”: tools named with a general verb (search, list, get, read…), then read-only ones, then those with fewer required parameters and shorter names. Destructive tools are never kept on by it.
                </p>
              </section>

              <section className="import-servers" aria-label="Servers">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">server name in the scenario</th>
                      <th scope="col">tools</th>
                      {kind === 'per-server' && <th scope="col">starts</th>}
                      <th scope="col">about</th>
                    </tr>
                  </thead>
                  <tbody>
                    {ok.servers.map((s, i) => (
                      <tr key={i}>
                        <td>
                          <input
                            value={names[i] ?? s.name}
                            onChange={(e) => setNames((n) => ({ ...n, [i]: e.target.value }))}
                            aria-label={`Name of server ${s.key ?? s.name}`}
                            spellCheck={false}
                            data-testid="import-server-name"
                          />
                        </td>
                        <td className="num">{formatCount(s.tools)}</td>
                        {kind === 'per-server' && (
                          <td>
                            <select value={modes[s.name] ?? 'discoverable'} onChange={(e) => setModes((m) => ({ ...m, [s.name]: e.target.value as 'on' | 'discoverable' | 'off' }))} aria-label={`How ${s.name}'s tools start`}>
                              <option value="discoverable">discoverable</option>
                              <option value="on">on</option>
                              <option value="off">off</option>
                            </select>
                          </td>
                        )}
                        <td className="about" title={s.description}>
                          {s.key !== undefined && s.key !== s.name ? <code>{s.key}</code> : null} {s.category ? `[${s.category}] ` : ''}
                          {s.description}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>

              <section className="import-preview" aria-label="Preview">
                <div className="preview-head">
                  <strong data-testid="import-counts">
                    {formatCount(ok.result.tools.length)} tools: {ok.result.counts.on} on · {ok.result.counts.discoverable} discoverable · {ok.result.counts.off} off
                  </strong>
                  <span className="muted">
                    layer <code>{ok.result.layer.name}</code> · {formatBytes(ok.bytes)} read in {ok.millis} ms
                  </span>
                  {ok.warnings.length > 0 && (
                    <span className="warn" title={ok.warnings.join('\n')}>
                      {ok.warnings.length} warning{ok.warnings.length === 1 ? '' : 's'} (nothing lost)
                    </span>
                  )}
                </div>
                <SavingsSummary savings={ok.savings} />
                <input type="search" placeholder="Filter tools…" value={filter} onChange={(e) => setFilter(e.target.value)} aria-label="Filter the tools" className="tool-filter" />
                <ul className="tool-list" aria-label="Tools to import" data-testid="import-tools" tabIndex={0}>
                  {toolRows.rows.map((t) => (
                    <li key={t.name} data-tool={t.name}>
                      <code className="name">{t.name}</code>
                      <AvailabilityBadge value={t.availability} />
                      <ToolHintBadges readOnly={t.hints.readOnly} destructive={t.hints.destructive} />
                      <span className="title">{t.hints.title ?? t.description.split('\n')[0]}</span>
                      {ok.servers.length > 1 && <span className="server muted">{t.server}</span>}
                    </li>
                  ))}
                  {toolRows.total > toolRows.rows.length && <li className="muted">…and {formatCount(toolRows.total - toolRows.rows.length)} more: filter to find them.</li>}
                </ul>
              </section>
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
          <button type="button" className="primary" disabled={!ok || preview.isFetching} onClick={doImport} data-testid="import-confirm">
            {ok ? `Import ${formatCount(ok.result.tools.length)} tools` : 'Import'}
          </button>
        </footer>
      </div>
    </div>
  );
}
