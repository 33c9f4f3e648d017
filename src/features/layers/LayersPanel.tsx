// One editor tab per config layer, lowest precedence first: add, rename,
// reorder and remove layers; each tab counts its layer's problems. The editor
// (Monaco) arrives lazily; until it does, the panel shows the layer's text, and
// the sets and the timeline paint without waiting for it.
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import { useCommands } from '../../commands/context';
import { useTimeline } from '../../derive/hooks';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import type { WorkbenchStore } from '../../state/store';
import type { LayerDoc } from '../../core';
import { layerIdsFor } from '../../editor/layer-ids';
import { installLayersHook } from './hook';
import { useShownWorkspaceFile, WorkspaceFileView, WorkspaceTabs, workspaceTabId } from './WorkspaceTabs';
import './layers.css';

const LayerEditor = lazy(() => import('../../editor/LayerEditor'));

const PREVIEW_LINES = 400;

function Icon({ d }: { readonly d: string }) {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

const ICONS = {
  add: 'M8 3v10M3 8h10',
  left: 'M10 3 5 8l5 5',
  right: 'M6 3l5 5-5 5',
  rename: 'M3 13h3l7-7-3-3-7 7v3zM9 4l3 3',
  remove: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5',
};

function ToolButton({ label, shortcut, onClick, disabled, icon }: { readonly label: string; readonly shortcut?: string; readonly onClick: () => void; readonly disabled?: boolean; readonly icon: string }) {
  return (
    <button type="button" className="ly-icon-button" onClick={onClick} disabled={disabled} aria-label={label} title={shortcut ? `${label} (${shortcut})` : label}>
      <Icon d={icon} />
    </button>
  );
}

interface Counts {
  readonly errors: number;
  readonly warnings: number;
}

function countLabel(c: Counts): string {
  const parts: string[] = [];
  if (c.errors) parts.push(`${c.errors} error${c.errors === 1 ? '' : 's'}`);
  if (c.warnings) parts.push(`${c.warnings} warning${c.warnings === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** Per layer name: its errors and warnings in the newest derivation. */
function useProblemCounts(): ReadonlyMap<string, Counts> {
  const { data } = useTimeline();
  const diagnostics = data?.diagnostics;
  return useMemo(() => {
    const m = new Map<string, { errors: number; warnings: number }>();
    for (const d of diagnostics ?? []) {
      if (d.layer === undefined) continue;
      const c = m.get(d.layer) ?? { errors: 0, warnings: 0 };
      if (d.severity === 'error') c.errors++;
      else if (d.severity === 'warning') c.warnings++;
      m.set(d.layer, c);
    }
    return m;
  }, [diagnostics]);
}

/** A read-only view of the text while Monaco loads (the first lines only). */
function TextPreview({ layer }: { readonly layer: LayerDoc }) {
  // Read here, not where the fallback element is made: a typed layer's text is read from the
  // editor's model (state/liveLayer.ts), which the panel's render per keystroke must not do.
  const text = layer.text;
  const shown = useMemo(() => {
    let end = 0;
    for (let n = 0; n < PREVIEW_LINES; n++) {
      const i = text.indexOf('\n', end);
      if (i < 0) return text;
      end = i + 1;
    }
    return text.slice(0, end);
  }, [text]);
  return (
    <div className="ly-preview" aria-busy="true">
      <div className="ly-loading" role="status">
        Loading the editor…
      </div>
      <pre className="mono">{shown}</pre>
    </div>
  );
}

function validName(name: string, others: readonly string[]): string | undefined {
  const n = name.trim();
  if (n === '') return 'A layer needs a name.';
  if (others.includes(n)) return `There is already a layer named ${n}.`;
  return undefined;
}

function RenameField({ initial, others, onDone }: { readonly initial: string; readonly others: readonly string[]; readonly onDone: (name: string | undefined) => void }) {
  const [value, setValue] = useState(initial);
  const error = validName(value, others);
  const done = useRef(false);
  const finish = (name: string | undefined) => {
    if (done.current) return;
    done.current = true;
    onDone(name);
  };
  return (
    <span className="ly-rename">
      <input
        aria-label="Layer name"
        autoFocus
        value={value}
        size={Math.max(6, value.length + 1)}
        aria-invalid={error !== undefined}
        aria-describedby={error ? 'ly-rename-error' : undefined}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => finish(error ? undefined : value.trim())}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') finish(error ? undefined : value.trim());
          if (e.key === 'Escape') finish(undefined);
        }}
      />
      {error && (
        <span id="ly-rename-error" className="ly-rename-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

function tabId(i: number): string {
  return `layer-tab-${i}`;
}

function focusTab(i: number): void {
  requestAnimationFrame(() => document.getElementById(tabId(i))?.focus());
}

function confirmRemove(store: WorkbenchStore, index: number): void {
  const s = store.getState();
  const layer = s.doc.layers[index];
  if (!layer || s.doc.layers.length <= 1) return;
  if (window.confirm(`Remove layer ${layer.name}? Its text is not kept.`)) s.removeLayer(index);
}

function useLayerCommands(startRename: () => void): void {
  const registry = useCommands();
  const rename = useRef(startRename);
  rename.current = startRename;
  useEffect(() => {
    const selected = (store: WorkbenchStore) => {
      const s = store.getState();
      return Math.min(s.selectedLayer, s.doc.layers.length - 1);
    };
    const setAt = (availability: 'on' | 'off' | 'discoverable') => (ctx: { store: WorkbenchStore }) => {
      const s = ctx.store.getState();
      const at = s.layerEditor?.toolAtCursor();
      if (!at) {
        s.showBanner('info', 'Put the cursor in a tool\'s [conversation.tools.NAME] table in the layer editor first.');
        return;
      }
      s.setToolAvailability(at.tool, availability);
    };
    registry.register(
      { id: 'layer.rename', title: 'Layers: rename the selected layer', group: 'Layers', run: () => rename.current() },
      { id: 'layer.moveLeft', title: 'Layers: move the selected layer down in precedence', group: 'Layers', run: ({ store }) => store.getState().moveLayer(selected(store), -1) },
      { id: 'layer.moveRight', title: 'Layers: move the selected layer up in precedence', group: 'Layers', run: ({ store }) => store.getState().moveLayer(selected(store), 1) },
      { id: 'layer.remove', title: 'Layers: remove the selected layer…', group: 'Layers', run: ({ store }) => confirmRemove(store, selected(store)) },
      {
        id: 'layer.next',
        title: 'Layers: next layer tab',
        group: 'Layers',
        run: ({ store }) => {
          const s = store.getState();
          if (s.doc.layers.length > 0) s.selectLayer((selected(store) + 1) % s.doc.layers.length);
        },
      },
      {
        id: 'layer.previous',
        title: 'Layers: previous layer tab',
        group: 'Layers',
        run: ({ store }) => {
          const s = store.getState();
          const n = s.doc.layers.length;
          if (n > 0) s.selectLayer((selected(store) - 1 + n) % n);
        },
      },
      { id: 'layer.setAvailability.on', title: 'Layers: set the availability of the tool at the cursor to on', group: 'Layers', run: setAt('on') },
      { id: 'layer.setAvailability.discoverable', title: 'Layers: set the availability of the tool at the cursor to discoverable', group: 'Layers', run: setAt('discoverable') },
      { id: 'layer.setAvailability.off', title: 'Layers: set the availability of the tool at the cursor to off', group: 'Layers', run: setAt('off') },
    );
  }, [registry]);
}

export function LayersPanel() {
  const store = useWorkbenchStore();
  const layers = useWorkbench((s) => s.doc.layers);
  const selected = useWorkbench((s) => s.selectedLayer);
  const select = useWorkbench((s) => s.selectLayer);
  const addLayer = useWorkbench((s) => s.addLayer);
  const rename = useWorkbench((s) => s.renameLayer);
  const move = useWorkbench((s) => s.moveLayer);
  const counts = useProblemCounts();
  const [renaming, setRenaming] = useState<number | undefined>(undefined);
  const index = Math.max(0, Math.min(selected, layers.length - 1));
  const layer = layers[index];
  // A workspace file (issue 7) shows in the editor's place when its tab is selected.
  const workspaceFile = useShownWorkspaceFile();
  const openWorkspaceFile = useWorkbench((s) => s.openWorkspaceFile);
  const ids = layerIdsFor(store);

  useEffect(() => installLayersHook(store), [store]);
  useLayerCommands(() => {
    if (layers.length > 0) setRenaming(index);
  });

  const moveAndFocus = (i: number, delta: -1 | 1) => {
    const to = i + delta;
    if (to < 0 || to >= layers.length) return;
    move(i, delta);
    focusTab(to);
  };

  const onTabKey = (e: ReactKeyboardEvent<HTMLButtonElement>, i: number) => {
    const n = layers.length;
    let handled = true;
    if (e.altKey && e.key === 'ArrowLeft') moveAndFocus(i, -1);
    else if (e.altKey && e.key === 'ArrowRight') moveAndFocus(i, 1);
    else if (e.altKey || e.ctrlKey || e.metaKey) handled = false;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'Home' || e.key === 'End') {
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : (i + (e.key === 'ArrowLeft' ? -1 : 1) + n) % n;
      select(to);
      focusTab(to);
    } else if (e.key === 'F2') setRenaming(i);
    else if (e.key === 'Delete') confirmRemove(store, i);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  let body: ReactNode;
  if (!layer) {
    body = (
      <div className="empty ly-empty">
        <p>No config layers yet.</p>
        <p>A layer is one JP config file; layers merge lowest first. A new layer shows a commented example to start from.</p>
        <button type="button" onClick={() => addLayer()}>
          Add a layer
        </button>
      </div>
    );
  } else {
    body = (
      <Suspense fallback={<TextPreview layer={layer} />}>
        <LayerEditor index={index} labelledBy={tabId(index)} />
      </Suspense>
    );
  }

  return (
    <section className="panel layers" aria-label="Layers">
      <div className="panel-head">
        <h2 id="layers-heading">Layers</h2>
        <span className="ly-hint" title="Layers merge in this order: a later layer overrides an earlier one">
          lowest → highest precedence
        </span>
        <span className="spacer" />
        <ToolButton label="Add a layer" icon={ICONS.add} onClick={() => {
          addLayer();
          focusTab(layers.length);
        }} />
        {layer && (
          <>
            <ToolButton label="Move the layer down in precedence" shortcut="Alt+←" icon={ICONS.left} onClick={() => moveAndFocus(index, -1)} disabled={index === 0} />
            <ToolButton label="Move the layer up in precedence" shortcut="Alt+→" icon={ICONS.right} onClick={() => moveAndFocus(index, 1)} disabled={index === layers.length - 1} />
            <ToolButton label="Rename the layer" shortcut="F2" icon={ICONS.rename} onClick={() => setRenaming(index)} />
            <ToolButton label="Remove the layer" shortcut="Delete" icon={ICONS.remove} onClick={() => confirmRemove(store, index)} disabled={layers.length <= 1} />
          </>
        )}
      </div>
      <WorkspaceTabs />
      {layers.length > 0 && (
        <div className="ly-tabs" role="tablist" aria-label="Config layers, lowest precedence first" aria-orientation="horizontal">
          {layers.map((l, i) => {
            const c = counts.get(l.name) ?? { errors: 0, warnings: 0 };
            const problems = countLabel(c);
            const key = ids.idAt(i) ?? `i${i}`;
            if (renaming === i) {
              return (
                <RenameField
                  key={key}
                  initial={l.name}
                  others={layers.filter((_, j) => j !== i).map((x) => x.name)}
                  onDone={(name) => {
                    if (name !== undefined && name !== l.name) rename(i, name);
                    setRenaming(undefined);
                    focusTab(i);
                  }}
                />
              );
            }
            return (
              <button
                key={key}
                id={tabId(i)}
                type="button"
                role="tab"
                className="ly-tab"
                aria-selected={workspaceFile === undefined && i === index}
                aria-controls="layer-tabpanel"
                aria-label={`${l.name}${problems ? `, ${problems}` : ''}`}
                tabIndex={i === index ? 0 : -1}
                data-layer={l.name}
                onClick={() => {
                  select(i);
                  openWorkspaceFile(undefined);
                }}
                onDoubleClick={() => setRenaming(i)}
                onKeyDown={(e) => onTabKey(e, i)}
                title={`Layer ${i + 1} of ${layers.length}${i === layers.length - 1 ? ' (highest precedence)' : ''}. F2 renames, Alt+←/→ reorders, Delete removes.`}
              >
                <span className="ly-tab-name">{l.name}</span>
                {c.errors > 0 && (
                  <span className="ly-count error" aria-hidden="true" data-testid="layer-error-count">
                    {c.errors}
                  </span>
                )}
                {c.errors === 0 && c.warnings > 0 && (
                  <span className="ly-count warning" aria-hidden="true" data-testid="layer-warning-count">
                    {c.warnings}
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
      <div
        className="panel-body ly-body"
        id="layer-tabpanel"
        role={layer || workspaceFile ? 'tabpanel' : undefined}
        aria-labelledby={workspaceFile !== undefined ? workspaceTabId(workspaceFile) : layer ? tabId(index) : undefined}
      >
        {workspaceFile !== undefined ? <WorkspaceFileView path={workspaceFile} /> : body}
      </div>
    </section>
  );
}
