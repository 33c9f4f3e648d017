// Hooks for the cost views: react-query queries over the cost methods, keyed by revision, the price
// table and the chosen model, so an edited price re-prices without re-deriving the timeline.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CacheStatus } from '../core';
import { chosenModel, usePrices } from '../state/prices';
import { useTimeline } from './hooks';
import { deriveQuery, useDeriveClient } from './queries';
import { useSettled } from './settled';

function usePricing() {
  const table = usePrices((s) => s.table);
  const chosen = usePrices((s) => s.chosen);
  const { data: view } = useTimeline();
  const model = view ? chosenModel(chosen, view.policy.provider) : undefined;
  return { view, table, model };
}

/** `compare`: also run the all-on counterfactual and the variants (the cost panel, the chart's money view). */
export function useCosts(enabled = true, compare = true) {
  const client = useDeriveClient();
  const { view, table, model } = usePricing();
  // Whole-conversation work (and, to compare, three more runs of the scenario): asked for the revision
  // typing has paused on, the previous answer shown meanwhile.
  const revision = useSettled(view?.revision ?? 0);
  return useQuery({
    ...deriveQuery(client, 'costs', { revision, table, compare, ...(model !== undefined ? { model } : {}) }),
    enabled: enabled && view !== undefined && view.requestCount > 0,
    staleTime: Infinity,
    gcTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * The cache statuses of requests [from, to) (by request id; the others undefined) at the chosen model:
 * the timeline's window, the inspector and the simulator show these, so they agree with the Cost tab's
 * figures. Undefined until the cost model ran; only the range asked crosses from the worker.
 */
export function useCacheStatuses(from: number, to: number): readonly (CacheStatus | undefined)[] | undefined {
  const client = useDeriveClient();
  const { view, table, model } = usePricing();
  // The cost model prices the whole conversation (the prompt cache is a sequence): asked once typing
  // pauses, with the statuses of the revision before shown meanwhile (the rows' structural cache words
  // stand in until the first answer).
  const revision = useSettled(view?.revision ?? 0);
  const { data } = useQuery({
    ...deriveQuery(client, 'cacheStatuses', { revision, table, from, to, ...(model !== undefined ? { model } : {}) }),
    enabled: view !== undefined && view.requestCount > 0 && to > from,
    staleTime: Infinity,
    gcTime: 30_000,
    placeholderData: keepPreviousData,
  });
  return useMemo(() => {
    if (!data) return undefined;
    const out: (CacheStatus | undefined)[] = [];
    data.statuses.forEach((s, i) => {
      out[data.from + i] = s;
    });
    return out;
  }, [data]);
}

export function useBreakEven(discoveries: number, enabled = true) {
  const client = useDeriveClient();
  const { view, table, model } = usePricing();
  const revision = useSettled(view?.revision ?? 0);
  return useQuery({
    ...deriveQuery(client, 'breakEven', { revision, table, discoveries, ...(model !== undefined ? { model } : {}) }),
    enabled: enabled && view !== undefined,
    staleTime: Infinity,
    gcTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
