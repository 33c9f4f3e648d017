// What each dock tab shows. Each feature owns its panel; this only wires them.
// Only the visible tab is rendered, so each panel (and what only it uses, such as
// uPlot) is its own chunk, loaded when its tab is first shown: none of them is in
// the JavaScript of the first paint.
import { lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import type { DockTab } from '../state/store';
import { useChartRows, useTimeline } from '../derive/hooks';
import { useTokens } from '../derive/labHooks';
import { selectionThreshold } from '../derive/serversHooks';
import { useWorkbench } from '../state/context';

const SimulatorPanel = lazy(() => import('../features/simulator/SimulatorPanel').then((m) => ({ default: m.SimulatorPanel })));
const RequestInspector = lazy(() => import('../features/requests/RequestInspector').then((m) => ({ default: m.RequestInspector })));
const CostChart = lazy(() => import('../features/chart/CostChart').then((m) => ({ default: m.CostChart })));
const SearchLab = lazy(() => import('../features/searchlab/SearchLab').then((m) => ({ default: m.SearchLab })));
const QuestionsPanel = lazy(() => import('../features/questions/QuestionsPanel').then((m) => ({ default: m.QuestionsPanel })));
const WorkspacePanel = lazy(() => import('../features/workspace/WorkspacePanel').then((m) => ({ default: m.WorkspacePanel })));
const FindabilityPanel = lazy(() => import('../features/findability/FindabilityPanel').then((m) => ({ default: m.FindabilityPanel })));
const CostPanel = lazy(() => import('../features/cost/CostPanel').then((m) => ({ default: m.CostPanel })));
const TasksPanel = lazy(() => import('../features/tasks/TasksPanel').then((m) => ({ default: m.TasksPanel })));
const ServersPanel = lazy(() => import('../features/servers/ServersPanel').then((m) => ({ default: m.ServersPanel })));

function Loading({ children }: { readonly children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="empty" role="status">
          Loading…
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/** The cost chart with the RFD's 30–50-tool selection threshold drawn on it (issue 6). */
function CostChartWithThreshold() {
  const unit = useWorkbench((s) => s.chartUnit);
  const { data: view } = useTimeline();
  const { data: tokens } = useTokens(unit === 'tokens');
  // The selection threshold is a definition cost: it has no meaning in cache tokens or dollars.
  const { data: chart } = useChartRows();
  const requests = chart?.rows.flatMap((r) => (r.kind === 'request' ? [r] : []));
  const threshold = view && requests && (unit === 'bytes' || unit === 'tokens') ? selectionThreshold(requests, unit, tokens?.requests) : undefined;
  return <CostChart {...(threshold ? { threshold } : {})} />;
}

export const dockPanels: Partial<Record<DockTab, () => ReactNode>> = {
  simulator: () => <Loading><SimulatorPanel /></Loading>,
  requests: () => <Loading><RequestInspector /></Loading>,
  chart: () => <Loading><CostChartWithThreshold /></Loading>,
  search: () => <Loading><SearchLab /></Loading>,
  questions: () => <Loading><QuestionsPanel /></Loading>,
  workspace: () => <Loading><WorkspacePanel /></Loading>,
  servers: () => <Loading><ServersPanel /></Loading>,
  findability: () => <Loading><FindabilityPanel /></Loading>,
  cost: () => <Loading><CostPanel /></Loading>,
  tasks: () => <Loading><TasksPanel /></Loading>,
};
