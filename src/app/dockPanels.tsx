// What each dock tab shows. Each feature owns its panel; this only wires them.
import type { ReactNode } from 'react';
import type { DockTab } from '../state/store';
import { SimulatorPanel } from '../features/simulator/SimulatorPanel';
import { RequestInspector } from '../features/requests/RequestInspector';
import { CostChart } from '../features/chart/CostChart';
import { SearchLab } from '../features/searchlab/SearchLab';
import { QuestionsPanel } from '../features/questions/QuestionsPanel';
import { WorkspacePanel } from '../features/workspace/WorkspacePanel';

export const dockPanels: Partial<Record<DockTab, () => ReactNode>> = {
  simulator: () => <SimulatorPanel />,
  requests: () => <RequestInspector />,
  chart: () => <CostChart />,
  search: () => <SearchLab />,
  questions: () => <QuestionsPanel />,
  workspace: () => <WorkspacePanel />,
};
