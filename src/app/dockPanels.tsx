// What each dock tab shows. Each feature owns its panel; this only wires them.
import type { ReactNode } from 'react';
import type { DockTab } from '../state/store';
import { SimulatorPanel } from '../features/simulator/SimulatorPanel';
import { RequestInspector } from '../features/requests/RequestInspector';
import { CostChart } from '../features/chart/CostChart';
import { SearchLab } from '../features/searchlab/SearchLab';
import { QuestionsPanel } from '../features/questions/QuestionsPanel';
import { WorkspacePanel } from '../features/workspace/WorkspacePanel';
import { ServersPanel } from '../features/servers/ServersPanel';
import { useTimeline } from '../derive/hooks';
import { useTokens } from '../derive/labHooks';
import { selectionThreshold } from '../derive/serversHooks';
import { useWorkbench } from '../state/context';

/** The cost chart with the RFD's 30–50-tool selection threshold drawn on it (issue 6). */
function CostChartWithThreshold() {
  const unit = useWorkbench((s) => s.chartUnit);
  const { data: view } = useTimeline();
  const { data: tokens } = useTokens(unit === 'tokens');
  const threshold = view ? selectionThreshold(view.requests, unit, tokens?.requests) : undefined;
  return <CostChart {...(threshold ? { threshold } : {})} />;
}

export const dockPanels: Partial<Record<DockTab, () => ReactNode>> = {
  simulator: () => <SimulatorPanel />,
  requests: () => <RequestInspector />,
  chart: () => <CostChartWithThreshold />,
  search: () => <SearchLab />,
  questions: () => <QuestionsPanel />,
  workspace: () => <WorkspacePanel />,
  servers: () => <ServersPanel />,
};
