// Derivations as react-query queries: keyed by the document's revision, so a
// panel asks for "the sets at position 5 of revision 42" and gets the cached
// answer, and a stale revision's answer is kept on screen until the next one
// arrives (no flicker while typing).
import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { ScenarioDoc } from '../core';
import type { DeriveClient } from './client';
import type { SetsView } from './protocol';
import type { WorkspaceInput } from './workspaceProtocol';

export const DeriveContext = createContext<DeriveClient | null>(null);

export function useDeriveClient(): DeriveClient {
  const c = useContext(DeriveContext);
  if (!c) throw new Error('no DeriveClient in context');
  return c;
}

export const deriveKeys = {
  all: ['derive'] as const,
  timeline: (revision: number) => [...deriveKeys.all, 'timeline', revision] as const,
  sets: (revision: number, position: number) => [...deriveKeys.all, 'sets', revision, position] as const,
  request: (revision: number, id: number) => [...deriveKeys.all, 'request', revision, id] as const,
  provenance: (revision: number, position: number, name: string) => [...deriveKeys.all, 'provenance', revision, position, name] as const,
};

/** `entry`: read when the derivation starts, the selected row whose sets the answer should carry (null: the last row). */
export function timelineQuery(client: DeriveClient, doc: ScenarioDoc, revision: number, workspace?: WorkspaceInput, entry?: () => number | null) {
  return queryOptions({
    queryKey: deriveKeys.timeline(revision),
    // `doc` is the store's document by reference: the client sends the worker only what changed.
    queryFn: () => client.derive({ doc, revision, ...(workspace ? { workspace } : {}), ...(entry ? { entry: entry() } : {}) }),
    staleTime: Infinity,
    gcTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/** `inline`: the same sets, already at hand (the derivation carried them), so no round trip is made. */
export function setsQuery(client: DeriveClient, revision: number, position: number, enabled: boolean, inline?: SetsView) {
  return queryOptions({
    queryKey: deriveKeys.sets(revision, position),
    queryFn: () => client.call('sets', { revision, position }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled,
    placeholderData: keepPreviousData,
    ...(inline ? { initialData: inline } : {}),
  });
}

export function requestQuery(client: DeriveClient, revision: number, id: number, enabled: boolean) {
  return queryOptions({
    queryKey: deriveKeys.request(revision, id),
    queryFn: () => client.call('request', { revision, id }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled,
  });
}

export function provenanceQuery(client: DeriveClient, revision: number, position: number, name: string, enabled: boolean) {
  return queryOptions({
    queryKey: deriveKeys.provenance(revision, position, name),
    queryFn: () => client.call('provenance', { revision, position, name }),
    staleTime: Infinity,
    enabled,
  });
}

export { useQuery };
