// The conversation as the core's positions, top to bottom. Selecting a row
// drives the sets panel, the request inspector and the chart cursor; ↑/↓ move.
import { useSelectedEntry, useTimeline } from '../../derive/hooks';
import { useWorkbench } from '../../state/context';

export function TimelinePanel() {
  const { data: view } = useTimeline();
  const selected = useSelectedEntry(view);
  const select = useWorkbench((s) => s.selectEntry);
  if (!view) return <section className="panel" aria-label="Timeline"><div className="empty">Deriving…</div></section>;
  return (
    <section className="panel" aria-label="Timeline">
      <div className="panel-head"><h2>Timeline</h2></div>
      <div
        className="panel-body"
        role="listbox"
        aria-label="Positions"
        tabIndex={0}
        onKeyDown={(e) => {
          const cur = selected ?? 0;
          if (e.key === 'ArrowDown') select(Math.min(view.entries.length - 1, cur + 1));
          else if (e.key === 'ArrowUp') select(Math.max(0, cur - 1));
          else return;
          e.preventDefault();
        }}
      >
        {view.entries.map((e) => (
          <div key={e.index} role="option" aria-selected={e.index === selected} onClick={() => select(e.index)} style={{ paddingLeft: 8 + e.depth * 14 }}>
            {e.label}
          </div>
        ))}
      </div>
    </section>
  );
}
