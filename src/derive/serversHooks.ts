// Hooks for the import dialog and the servers panel: react-query queries over the
// servers methods (serversProtocol.ts), keyed by what they depend on.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SELECTION_THRESHOLD } from '../core';
import type { DeriveClient } from './client';
import { useSelectedPosition } from './hooks';
import { deriveKey } from './methods';
import { deriveQuery, useDeriveClient } from './queries';
import type { ImportPreviewParams } from './serversProtocol';

export function importPreviewQuery(client: DeriveClient, sourceId: string, params: ImportPreviewParams | undefined) {
  const { source: _source, ...rest } = params ?? ({ origin: '', policy: { kind: 'on', keep: 0, offDestructive: false }, revision: 0 } as unknown as ImportPreviewParams);
  return queryOptions({
    // `sourceId` names the catalogue text (it is not put in the key itself: it may be megabytes).
    queryKey: deriveKey('importPreview', rest, sourceId),
    queryFn: () => {
      if (!params) throw new Error('nothing to import');
      return client.call('importPreview', params);
    },
    enabled: params !== undefined,
    staleTime: Infinity,
    gcTime: 30_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function serversViewQuery(client: DeriveClient, revision: number, position: number, enabled: boolean) {
  return queryOptions({
    ...deriveQuery(client, 'serversView', { revision, position }),
    enabled,
    staleTime: Infinity,
    gcTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

export function useImportPreview(sourceId: string, params: ImportPreviewParams | undefined) {
  return useQuery(importPreviewQuery(useDeriveClient(), sourceId, params));
}

/** The servers and what discovery saves, at the selected position. */
export function useServersView() {
  const client = useDeriveClient();
  const { view, position } = useSelectedPosition();
  return useQuery(serversViewQuery(client, view?.revision ?? 0, position, view !== undefined && view.scenarioErrors.length === 0));
}

/**
 * The RFD's 30–50-tool selection threshold, in the cost chart's unit: 30 tools at the scenario's
 * average definition cost per permitted tool (at the request that permits the most). Shown once
 * some request permits at least 30 tools, where the line means something.
 */
export function selectionThreshold(
  requests: readonly { readonly permittedCount: number; readonly cost: { readonly permitted: number } }[],
  unit: 'bytes' | 'tokens',
  tokens: readonly { readonly permitted: number }[] | undefined,
): { value: number; label: string } | undefined {
  let best = -1;
  requests.forEach((r, i) => {
    if (best < 0 || r.permittedCount > (requests[best]?.permittedCount ?? 0)) best = i;
  });
  const r = requests[best];
  if (!r || r.permittedCount < SELECTION_THRESHOLD.low) return undefined;
  const total = unit === 'bytes' ? r.cost.permitted : tokens?.[best]?.permitted;
  if (total === undefined) return undefined;
  const value = Math.round((total / r.permittedCount) * SELECTION_THRESHOLD.low);
  const shown = unit === 'bytes' ? `${value.toLocaleString('en-US')} B` : `~${value.toLocaleString('en-US')} tokens`;
  return { value, label: `${SELECTION_THRESHOLD.low}–${SELECTION_THRESHOLD.high} tools: selection degrades (${SELECTION_THRESHOLD.low} tools ≈ ${shown})` };
}
