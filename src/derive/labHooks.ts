// Hooks for the simulator, request inspector, cost chart, search lab and open
// questions: react-query queries over the lab methods, keyed by revision.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Policy, PolicyKey, ScenarioDoc } from '../core';
import type { DeriveClient } from './client';
import { useSelectedPosition, useTimeline } from './hooks';
import type { TimelineView } from './protocol';
import { deriveKey } from './methods';
import { deriveQuery, useDeriveClient } from './queries';
import { requestAtEntry } from './spine';
import { usePrices } from '../state/prices';

export function toolsQuery(client: DeriveClient, revision: number, id: number, enabled: boolean) {
  return queryOptions({ ...deriveQuery(client, 'tools', { revision, id }), staleTime: Infinity, gcTime: 10_000, enabled });
}

export function tokensQuery(client: DeriveClient, revision: number, enabled: boolean) {
  return queryOptions({ ...deriveQuery(client, 'tokens', { revision }), staleTime: Infinity, gcTime: 30_000, enabled, placeholderData: keepPreviousData });
}

export { requestAtEntry } from './spine';

/** The selected row's request (or the nearest one before it). */
export function useSelectedRequest(): { view: TimelineView | undefined; entry: number | undefined; position: number; request: number | undefined } {
  const sel = useSelectedPosition();
  return { ...sel, request: requestAtEntry(sel.view, sel.entry) };
}

export function useRequestTools(id: number | undefined) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery(toolsQuery(client, revision, id ?? 0, view !== undefined && id !== undefined && id < view.requestCount));
}

export function useTokens(enabled = true) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery(tokensQuery(client, revision, enabled && view !== undefined && view.requestCount > 0));
}

export function useLabSearch(position: number, query: string, limit: number) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery({
    ...deriveQuery(client, 'search', { revision, position, query, limit }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled: view !== undefined && view.scenarioErrors.length === 0 && query !== '',
    placeholderData: keepPreviousData,
  });
}

export function useEvalQueries(position: number, text: string) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery({
    ...deriveQuery(client, 'evalQueries', { revision, position, text }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled: view !== undefined && view.scenarioErrors.length === 0 && text.trim() !== '',
    placeholderData: keepPreviousData,
  });
}

/** The scenario with one switch at `value` against the same with it at `doc`'s value; keyed by a flip id and the revision. */
export function usePolicyDiff(flip: { id: number; revision: number; doc: ScenarioDoc; key: PolicyKey; value: Policy[PolicyKey] } | undefined) {
  const client = useDeriveClient();
  return useQuery({
    // The flip's id and revision stand for its document (the row keys none of its params).
    queryKey: deriveKey('policyDiff', {}, flip?.id ?? -1, flip?.revision ?? -1),
    queryFn: () => (flip ? client.call('policyDiff', { doc: flip.doc, key: flip.key, value: flip.value, table: usePrices.getState().table }) : Promise.reject(new Error('no flip'))),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled: flip !== undefined,
    placeholderData: keepPreviousData,
  });
}
