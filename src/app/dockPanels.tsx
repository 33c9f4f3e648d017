// What each dock tab shows. Each feature owns its panel; this only wires them.
import type { ReactNode } from 'react';
import type { DockTab } from '../state/store';

export const dockPanels: Partial<Record<DockTab, () => ReactNode>> = {};
