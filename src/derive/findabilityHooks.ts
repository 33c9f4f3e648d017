// The findability report as a react-query query: keyed by the revision (once typing pauses), the
// task set and the pinned baseline. The layer editor, the servers panel and the findability panel
// share one query, so the worker computes the report once per revision.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useWorkbench } from '../state/context';
import { useTimeline } from './hooks';
import { deriveKey } from './methods';
import { useDeriveClient } from './queries';
import { SETTLE_MS, useSettled } from './settled';
import type { FindabilityView } from './findabilityProtocol';

/**
 * Up to this many discoverable tools the report follows every edit by itself (about a second of
 * worker time at 500 tools, measured with bench/findability.ts's catalogues); past it, only once
 * the user asks (`findabilityLarge`), so typing in a 10,000-tool layer never waits behind it.
 */
export const FINDABILITY_AUTO_LIMIT = 500;

/** A short stand-in for a task set in a query key (a set may be megabytes): its length and an FNV-1a hash. */
export function textKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${(h >>> 0).toString(36)}`;
}


/** The newest report the worker answered, for commands (pin it as "before") that have no hook. */
let latest: FindabilityView | undefined;
export function latestFindability(): FindabilityView | undefined {
  return latest;
}

export function useFindability() {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  // A revision whose derivation has answered (the worker holds its timeline), once typing pauses.
  const revision = useSettled(view && view.scenarioErrors.length === 0 ? view.revision : undefined, SETTLE_MS);
  const discoverable = view?.baseCounts.discoverable ?? 0;
  const large = useWorkbench((s) => s.findabilityLarge);
  const useTasks = useWorkbench((s) => s.findabilityUseTasks);
  const querySet = useWorkbench((s) => s.labQuerySet);
  const baseline = useWorkbench((s) => s.findabilityBaseline);
  const tasks = useTasks ? querySet : '';
  const tasksKey = useMemo(() => textKey(tasks), [tasks]);
  const allowed = discoverable <= FINDABILITY_AUTO_LIMIT || large;
  const query = useQuery({
    // The task set's hash and the baseline's label stand for those params in the key.
    queryKey: deriveKey('findability', { revision: revision ?? -1 }, tasksKey, baseline?.label ?? ''),
    queryFn: async ({ signal }) => {
      const view = await client.call('findability', { revision: revision ?? 0, ...(tasks.trim() !== '' ? { tasks } : {}), ...(baseline ? { baseline: baseline.report } : {}) }, { signal });
      latest = view;
      return view;
    },
    enabled: revision !== undefined && allowed,
    staleTime: Infinity,
    gcTime: 10_000,
    placeholderData: keepPreviousData,
  });
  /** `waiting`: the catalogue is past FINDABILITY_AUTO_LIMIT and the user has not asked for the report. */
  return { ...query, waiting: !allowed, discoverable };
}
