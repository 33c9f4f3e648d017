// The bottom dock: the simulator prompt, the request inspector, the cost
// chart, the search lab and the open questions, as tabs.
import type { DockTab } from '../../state/store';
import { useWorkbench } from '../../state/context';

const TABS: { id: DockTab; label: string }[] = [
  { id: 'simulator', label: 'Simulator' },
  { id: 'requests', label: 'Request inspector' },
  { id: 'chart', label: 'Cost chart' },
  { id: 'search', label: 'Search lab' },
  { id: 'questions', label: 'Open questions' },
  { id: 'workspace', label: 'Workspace' },
  { id: 'servers', label: 'Servers' },
  { id: 'findability', label: 'Findability' },
  { id: 'cost', label: 'Cost' },
  { id: 'tasks', label: 'Tasks' },
];

export function Dock({ panels }: { readonly panels: Partial<Record<DockTab, () => React.ReactNode>> }) {
  const tab = useWorkbench((s) => s.dockTab);
  const setTab = useWorkbench((s) => s.setDockTab);
  const render = panels[tab];
  return (
    <section className="panel" aria-label="Dock">
      <div className="panel-head">
        <div className="tabs" role="tablist" aria-label="Dock tabs">
          {TABS.map((t) => (
            <button key={t.id} type="button" role="tab" className="tab" aria-selected={tab === t.id} onClick={() => setTab(t.id)}>
              {t.label}
            </button>
          ))}
        </div>
      </div>
      <div className="panel-body" role="tabpanel" aria-label={TABS.find((t) => t.id === tab)?.label}>
        {render ? render() : <div className="empty">Nothing here yet.</div>}
      </div>
    </section>
  );
}
