// Derivations as react-query queries: keyed by the document's revision, so a
// panel asks for "the sets at position 5 of revision 42" and gets the cached
// answer, and a stale revision's answer is kept on screen until the next one
// arrives (no flicker while typing).
import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { ScenarioDoc } from '../core';
import type { DeriveClient } from './client';
import type { SetsQuery } from './protocol';
import type { WorkspaceInput } from './workspaceProtocol';
import { deriveKey } from './methods';
import type { KeyParams, MethodName, Params } from './methods';

export const DeriveContext = createContext<DeriveClient | null>(null);

export function useDeriveClient(): DeriveClient {
  const c = useContext(DeriveContext);
  if (!c) throw new Error('no DeriveClient in context');
  return c;
}

/**
 * A method's query key (the table's `deriveKey`) and the call that answers it: what every derive query
 * spreads into its options. `extra`: what stands in the key for params the row leaves out of it. The
 * query's signal goes with the call: a query nobody watches any more is dropped from the worker's queue,
 * and a call a newer revision superseded is no answer (the query keeps showing what it showed), never an
 * error (client.ts).
 */
export function deriveQuery<M extends MethodName>(client: DeriveClient, method: M, params: Params<M>, ...extra: readonly unknown[]) {
  return { queryKey: deriveKey(method, params as KeyParams<M>, ...extra), queryFn: ({ signal }: { signal: AbortSignal }) => client.call(method, params, { signal }) };
}

/** `entry`: read when the derivation starts, the selected row whose sets the answer should carry (null: the last row). */
export function timelineQuery(client: DeriveClient, doc: ScenarioDoc, revision: number, workspace?: WorkspaceInput, entry?: () => number | null) {
  return queryOptions({
    // `entry` is read when the derivation starts, so it is no part of the key (see the table's row).
    queryKey: deriveKey('derive', { revision }),
    // `doc` is the store's document by reference: the client sends the worker only what changed.
    queryFn: () => client.derive({ doc, revision, ...(workspace ? { workspace } : {}), ...(entry ? { entry: entry() } : {}) }),
    staleTime: Infinity,
    gcTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * A window of the sets rows at a position, filtered in the worker. `inline`: the counts already at hand
 * (the derivation carried them), shown while the rows come.
 */
export function setsWindowQuery(client: DeriveClient, revision: number, position: number, offset: number, limit: number, filter: SetsQuery, enabled: boolean) {
  return queryOptions({
    ...deriveQuery(client, 'setsWindow', { revision, position, offset, limit, ...filter }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function timelineWindowQuery(client: DeriveClient, revision: number, offset: number, limit: number, brief: boolean, enabled: boolean) {
  return queryOptions({
    ...deriveQuery(client, 'timelineWindow', { revision, offset, limit, brief }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function requestQuery(client: DeriveClient, revision: number, id: number, enabled: boolean) {
  return queryOptions({
    ...deriveQuery(client, 'request', { revision, id }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled,
  });
}

export function provenanceQuery(client: DeriveClient, revision: number, position: number, name: string, enabled: boolean) {
  return queryOptions({
    ...deriveQuery(client, 'provenance', { revision, position, name }),
    staleTime: Infinity,
    enabled,
  });
}

export { useQuery };
