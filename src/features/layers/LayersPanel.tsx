// One editor tab per config layer, lowest precedence first: add, rename,
// reorder and remove layers. The editor arrives lazily; the sets and the
// timeline paint before it.
import { lazy, Suspense, useState } from 'react';
import { useWorkbench } from '../../state/context';

const LayerEditor = lazy(() => import('../../editor/LayerEditor'));

export function LayersPanel() {
  const layers = useWorkbench((s) => s.doc.layers);
  const selected = useWorkbench((s) => s.selectedLayer);
  const select = useWorkbench((s) => s.selectLayer);
  const setText = useWorkbench((s) => s.setLayerText);
  const addLayer = useWorkbench((s) => s.addLayer);
  const rename = useWorkbench((s) => s.renameLayer);
  const move = useWorkbench((s) => s.moveLayer);
  const remove = useWorkbench((s) => s.removeLayer);
  const [renaming, setRenaming] = useState<number | undefined>(undefined);
  const index = Math.min(selected, layers.length - 1);
  const layer = layers[index];
  return (
    <section className="panel" aria-label="Layers">
      <div className="panel-head">
        <h2>Layers</h2>
        <div className="tabs" role="tablist" aria-label="Config layers, lowest precedence first">
          {layers.map((l, i) =>
            renaming === i ? (
              <input
                key={`r${i}`}
                aria-label="Layer name"
                autoFocus
                defaultValue={l.name}
                onBlur={(e) => {
                  if (e.target.value.trim()) rename(i, e.target.value.trim());
                  setRenaming(undefined);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
                  if (e.key === 'Escape') setRenaming(undefined);
                }}
              />
            ) : (
              <button
                key={`t${i}`}
                type="button"
                role="tab"
                className="tab"
                aria-selected={i === index}
                onClick={() => select(i)}
                onDoubleClick={() => setRenaming(i)}
                onKeyDown={(e) => {
                  if (e.altKey && e.key === 'ArrowLeft') move(i, -1);
                  if (e.altKey && e.key === 'ArrowRight') move(i, 1);
                  if (e.key === 'F2') setRenaming(i);
                }}
                title="Double-click or F2 to rename; Alt+←/→ to reorder"
              >
                {l.name}
              </button>
            ),
          )}
        </div>
        <span style={{ flex: 1 }} />
        <button type="button" onClick={() => addLayer()} aria-label="Add a layer">+</button>
        {layer && (
          <>
            <button type="button" onClick={() => move(index, -1)} disabled={index === 0} aria-label="Move layer down in precedence">◀</button>
            <button type="button" onClick={() => move(index, 1)} disabled={index === layers.length - 1} aria-label="Move layer up in precedence">▶</button>
            <button type="button" onClick={() => setRenaming(index)} aria-label="Rename layer">Rename</button>
            <button
              type="button"
              onClick={() => {
                if (layers.length > 1 && window.confirm(`Remove layer ${layer.name}?`)) remove(index);
              }}
              disabled={layers.length <= 1}
              aria-label="Remove layer"
            >
              ✕
            </button>
          </>
        )}
      </div>
      <div className="panel-body">
        {layer ? (
          <Suspense fallback={<div className="empty">Loading the editor…</div>}>
            <LayerEditor layerKey={`${index}:${layer.name}`} text={layer.text} onChange={(t) => setText(index, t)} />
          </Suspense>
        ) : (
          <div className="empty">No layers. Add one with +.</div>
        )}
      </div>
    </section>
  );
}
