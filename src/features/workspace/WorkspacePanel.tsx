// The Workspace dock tab: open a JP workspace (folder, drop or .zip), pick a persona, see what
// loaded and every problem naming its file, and "make discoverable" with its saving on every
// request. Counts, problems, the ranking and the costs all come from the derive worker.
import { useEffect, useId, useRef } from 'react';
import type { ChangeEvent } from 'react';
import { AvailabilityBadge } from '../../components/Availability';
import { countOf, formatCount } from '../../components/Measures';
import { useCommands } from '../../commands/context';
import { useTimeline } from '../../derive/hooks';
import { useDiscoverable } from '../../derive/workspaceHooks';
import type { DiscoverableView, WorkspaceView } from '../../derive/workspaceProtocol';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { useQuery } from '@tanstack/react-query';
import { bridgeInfoQuery, isBridgeInfo, sessionlessWhy } from '../../live/bridge';
import { BridgeServers, OpenByPath } from './BridgeServers';
import { Saving } from './Saving';
import { openWorkspaceFrom, readZipFile } from './open';
import { readFileList } from './read';
import './workspace.css';

const bytes = (n: number): string => `${formatCount(n)} B`;

export function WorkspacePanel() {
  const folder = useWorkbench((s) => s.workspace);
  const docWorkspace = useWorkbench((s) => s.doc.workspace);
  const { data: view } = useTimeline();
  const ws = view?.workspace;
  return (
    <div className="ws" data-testid="workspace-panel">
      <FolderSection ws={ws} />
      {folder && docWorkspace && ws?.loaded ? <DiscoverableSection ws={ws} /> : <Help />}
    </div>
  );
}

function Help() {
  return (
    <section className="ws-col ws-help" aria-label="About workspaces">
      <h3>Open your own catalogue</h3>
      <p>
        A JP workspace is the <code>.jp</code> folder of a project: <code>config.toml</code> extends tool files (with <code>**</code> globs),
        and personas under <code>config_load_paths</code> switch sets of tools on. Open the folder (or the project that holds it), drop it
        anywhere on this page, or open a .zip of it. Only its <code>*.toml</code> files are read, and nothing leaves this browser.
      </p>
      <p>Then pick a persona and try <strong>Make discoverable</strong>: it shows what RFD 108 would save on every request.</p>
    </section>
  );
}

function FolderSection({ ws }: { readonly ws: WorkspaceView | undefined }) {
  const store = useWorkbenchStore();
  const registry = useCommands();
  const folder = useWorkbench((s) => s.workspace);
  const docWorkspace = useWorkbench((s) => s.doc.workspace);
  const setPersona = useWorkbench((s) => s.setPersona);
  const openFile = useWorkbench((s) => s.openWorkspaceFile);
  const personaId = useId();
  const folderInput = useRef<HTMLInputElement>(null);
  const zipInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);
  const run = (id: string) => void registry.run(id, { store });
  const onFolder = (e: ChangeEvent<HTMLInputElement>) => {
    const files = e.target.files;
    if (files && files.length > 0) void openWorkspaceFrom(store, readFileList(files));
    e.target.value = '';
  };
  const onZip = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    if (f) void openWorkspaceFrom(store, readZipFile(f));
    e.target.value = '';
  };
  // Served by the bridge, a folder is opened by its path first: only then can its MCP servers start.
  const { data: info } = useQuery(bridgeInfoQuery);
  const bridged = isBridgeInfo(info);
  const sessionless = sessionlessWhy(info) !== undefined;
  const personas = ws?.personas ?? [];
  const persona = docWorkspace?.persona;
  const errors = ws?.diagnostics.filter((d) => d.severity === 'error').length ?? 0;
  return (
    <section className="ws-col" aria-labelledby={`${personaId}-h`}>
      <div className="ws-head">
        <h3 id={`${personaId}-h`}>Workspace</h3>
        {folder && (
          <button type="button" onClick={() => run('workspace.close')} aria-label="Close the workspace folder">
            Close
          </button>
        )}
      </div>
      {bridged && (
        <div className="ws-route ws-route-path">
          <OpenByPath />
          <p className="muted" data-testid="workspace-path-why">
            By its path, the bridge reads the folder from this machine&apos;s disk, so it can start its MCP servers (after you confirm their command lines).
          </p>
        </div>
      )}
      <div className="ws-route">
        <button type="button" onClick={() => run('workspace.openFolder')}>Open folder…</button>
        <button type="button" onClick={() => zipInput.current?.click()}>Open .zip…</button>
        <input ref={folderInput} type="file" hidden onChange={onFolder} data-testid="workspace-folder-input" aria-label="Workspace folder" />
        <input ref={zipInput} type="file" hidden accept=".zip,application/zip" onChange={onZip} data-testid="workspace-zip-input" aria-label="Workspace zip" />
        <p className="muted" data-testid="workspace-picker-limits">
          {bridged ? (
            <>The browser&apos;s picker reads only the folder&apos;s <code>.toml</code> files, in this browser: it cannot start the workspace&apos;s MCP servers.</>
          ) : sessionless ? (
            // A bridge serves this tab, which has no session of it: another `npm start` is not the way in.
            <>
              The browser&apos;s picker reads only the folder&apos;s <code>.toml</code> files, in this browser: it cannot start the workspace&apos;s MCP servers. To
              start them, press Enter in the terminal running the bridge for a new address, open it, and open the folder by its path there.
            </>
          ) : (
            <>
              The browser&apos;s picker (the only way in Firefox) reads only the folder&apos;s <code>.toml</code> files, in this browser: it cannot start the
              workspace&apos;s MCP servers, so their tools show as offline. To start them, run <code>npm start</code> and open the folder by its path on the page it
              opens.
            </>
          )}
        </p>
      </div>
      {!folder && docWorkspace && (
        <p className="ws-note" role="note">
          This scenario names the workspace <code>{docWorkspace.path}</code>
          {persona !== undefined && (
            <>
              {' '}with persona <code>{persona}</code>
            </>
          )}
          . Open that folder to load it; until then the scenario runs without it.
        </p>
      )}
      {!folder && !docWorkspace && <p className="ws-note">No workspace open. Open a <code>.jp</code> folder, drop one on the page, or open a .zip.</p>}
      {folder && !docWorkspace && (
        <p className="ws-note">
          <code>{folder.source}</code> is open, but the current scenario has no <code>[workspace]</code>.{' '}
          <button type="button" onClick={() => setPersona(undefined)}>Use it in this scenario</button>
        </p>
      )}
      {folder && docWorkspace && ws?.loaded && (
        <>
          <p className="ws-source">
            <code title={folder.source}>{folder.source}</code> · {formatCount(ws.fileCount)} files · {formatCount(ws.layers.length)} loaded as layers
            {Object.keys(folder.edited).length > 0 && <> · <strong>{Object.keys(folder.edited).length} edited</strong></>}
          </p>
          <div className="ws-persona">
            <label htmlFor={personaId}>Persona</label>
            <select id={personaId} value={persona ?? ''} onChange={(e) => setPersona(e.target.value === '' ? undefined : e.target.value)} data-testid="workspace-persona">
              <option value="">(none)</option>
              {persona !== undefined && !personas.includes(persona) && <option value={persona}>{persona} (not found)</option>}
              {personas.map((p) => (
                <option key={p} value={p}>{p}</option>
              ))}
            </select>
            {ws.personaFile && (
              <button type="button" className="ws-link" onClick={() => openFile(ws.personaFile)} title="Open the persona's file">
                {ws.personaFile}
              </button>
            )}
          </div>
          <p className="ws-counts" data-testid="workspace-counts" aria-label="Tools at the base position">
            <span><strong data-count="on">{ws.counts.on}</strong> on <span className="muted" data-testid="workspace-on-builtins">({ws.counts.builtins.join(' and ')} included)</span></span>
            <span><strong data-count="offered">{ws.counts.offered}</strong> offered</span>
            <span><strong data-count="permitted">{ws.counts.permitted}</strong> permitted</span>
            <span><strong data-count="discoverable">{ws.counts.discoverable}</strong> discoverable</span>
          </p>
          {ws.counts.on > ws.counts.offered && (
            <p className="ws-note muted">
              {ws.counts.on - ws.counts.offered} on but not offered: their MCP server is not running in this scenario (add a <code>[servers.NAME]</code> to simulate it).
            </p>
          )}
          <Problems ws={ws} errors={errors} onOpen={openFile} />
        </>
      )}
      <BridgeServers />
    </section>
  );
}

function Problems({ ws, errors, onOpen }: { readonly ws: WorkspaceView; readonly errors: number; readonly onOpen: (path: string) => void }) {
  const files = useWorkbench((s) => s.workspace?.files);
  if (ws.diagnostics.length === 0) {
    return (
      <p className="ws-ok" data-testid="workspace-diagnostics" data-count={0}>
        No problems: every extended file was found and read.
      </p>
    );
  }
  return (
    <div className="ws-problems" role="region" aria-label="Workspace problems">
      <h4>
        Problems <span className={errors > 0 ? 'fail' : 'muted'}>{errors} error{errors === 1 ? '' : 's'}, {ws.diagnostics.length - errors} warning{ws.diagnostics.length - errors === 1 ? '' : 's'}</span>
        <span className="muted"> · the rest of the workspace still loads</span>
      </h4>
      <ul data-testid="workspace-diagnostics" data-count={ws.diagnostics.length}>
        {ws.diagnostics.map((d, i) => (
          <li key={i} className={d.severity} data-layer={d.layer}>
            <span className={`word sev-${d.severity}`}>{d.severity}</span>{' '}
            {d.layer && files && Object.hasOwn(files, d.layer) ? (
              <button type="button" className="ws-link" onClick={() => onOpen(d.layer as string)}>
                {d.layer}:{d.line ?? 1}:{d.column ?? 1}
              </button>
            ) : (
              <code>{d.layer ?? 'workspace'}</code>
            )}{' '}
            <span className="ws-msg">{d.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function DiscoverableSection({ ws }: { readonly ws: WorkspaceView }) {
  const keep = useWorkbench((s) => s.discoverableKeep);
  const setKeep = useWorkbench((s) => s.setDiscoverableKeep);
  const pending = useWorkbench((s) => s.discoverablePending);
  const setPending = useWorkbench((s) => s.setDiscoverablePending);
  const putLayer = useWorkbench((s) => s.putGeneratedLayer);
  const layers = useWorkbench((s) => s.doc.layers);
  const selectLayer = useWorkbench((s) => s.selectLayer);
  const removeLayer = useWorkbench((s) => s.removeLayer);
  const { data: plan, isPlaceholderData, isFetching, error } = useDiscoverable(keep, true);
  const keepId = useId();
  const fresh = plan && !isPlaceholderData ? plan : undefined;
  const apply = (p: DiscoverableView) => {
    if (!p.error) putLayer(p.layerName, p.layerText);
  };
  // The make-discoverable command asks; the plan for the current revision answers.
  useEffect(() => {
    if (!pending || !fresh) return;
    setPending(false);
    if (!fresh.applied) apply(fresh);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, fresh]);
  const generated = layers.findIndex((l) => l.name === plan?.layerName);
  return (
    <section className="ws-col ws-disc" aria-labelledby={`${keepId}-h`} data-testid="discoverable">
      <div className="ws-head">
        <h3 id={`${keepId}-h`}>Make discoverable</h3>
        <label htmlFor={keepId}>keep on</label>
        <input id={keepId} type="number" min={0} max={999} value={keep} onChange={(e) => setKeep(Number(e.target.value))} className="ws-keep" aria-label="Tools to keep on" />
        <button
          type="button"
          className="primary"
          disabled={!fresh || fresh.applied || fresh.error !== undefined || fresh.discoverable === 0}
          onClick={() => fresh && apply(fresh)}
          data-testid="make-discoverable"
        >
          {generated >= 0 && !fresh?.applied ? 'Update the generated layer' : 'Make discoverable'}
        </button>
        {fresh?.applied && (
          <span className="word applied" data-testid="discoverable-applied">
            applied
          </span>
        )}
        {isFetching && <span className="muted">measuring…</span>}
      </div>
      {error && <p className="fail">{error instanceof Error ? error.message : String(error)}</p>}
      {plan?.error && <p className="fail">{plan.error}</p>}
      {!plan && !error && <p className="ws-explain">Keeps the tools {ws.persona ?? 'the workspace'} uses most on, and makes the rest discoverable in a layer of its own.</p>}
      {plan && !plan.error && (
        <>
          <p className="ws-summary" data-testid="discoverable-summary">
            {ws.persona !== undefined ? <code>{ws.persona}</code> : 'The workspace'} has {countOf(plan.ranked.length, 'tool')} at <AvailabilityBadge value="on" />: the{' '}
            <strong>{plan.kept}</strong> it uses most stay on, <strong>{plan.discoverable}</strong> become <AvailabilityBadge value="discoverable" /> in a layer of its
            own, <code>{plan.layerName}</code>.
            {fresh?.applied && generated >= 0 && (
              <>
                {' '}
                <button type="button" className="ws-link" onClick={() => selectLayer(generated)}>Show the layer</button>{' '}
                <button type="button" className="ws-link" onClick={() => removeLayer(generated)}>Remove it</button>
              </>
            )}
          </p>
          <Saving plan={plan} />
          <Ranking plan={plan} />
        </>
      )}
    </section>
  );
}

function Ranking({ plan }: { readonly plan: DiscoverableView }) {
  return (
    <details className="ws-ranking">
      <summary>
        The ranking of {countOf(plan.ranked.length, 'tool')}: calls in this scenario's turns, then how often the persona's own files name the tool, then catalogue order
        (a tool whose server is offline takes no place)
      </summary>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">tool</th>
            <th scope="col">calls</th>
            <th scope="col">mentions</th>
            <th scope="col">cost</th>
            <th scope="col">becomes</th>
          </tr>
        </thead>
        <tbody>
          {plan.ranked.map((t) => (
            <tr key={t.name} data-tool={t.name}>
              <td>{t.rank}</td>
              <td><code>{t.name}</code></td>
              <td>{t.calls}</td>
              <td title={`in ${t.files} of the persona's files`}>{t.mentions}</td>
              <td>{bytes(t.cost)}</td>
              <td>
                <AvailabilityBadge value={t.kept ? 'on' : 'discoverable'} />
                {!t.permitted && <span className="muted"> server offline</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
