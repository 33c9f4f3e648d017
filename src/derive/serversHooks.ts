// Hooks for the import dialog and the servers panel: react-query queries over the
// servers methods (serversProtocol.ts), keyed by what they depend on.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeriveClient } from './client';
import { useSelectedPosition } from './hooks';
import { deriveKeys, useDeriveClient } from './queries';
import type { ImportPreviewParams } from './serversProtocol';

export const serversKeys = {
  /** `sourceId` names the catalogue text (it is not put in the key itself: it may be megabytes). */
  preview: (sourceId: string, params: Omit<ImportPreviewParams, 'source'>) => [...deriveKeys.all, 'servers', 'preview', sourceId, params] as const,
  view: (revision: number, position: number) => [...deriveKeys.all, 'servers', 'view', revision, position] as const,
};

export function importPreviewQuery(client: DeriveClient, sourceId: string, params: ImportPreviewParams | undefined) {
  const { source: _source, ...rest } = params ?? ({ origin: '', policy: { kind: 'on', keep: 0, offDestructive: false }, revision: 0 } as unknown as ImportPreviewParams);
  return queryOptions({
    queryKey: serversKeys.preview(sourceId, rest),
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
    queryKey: serversKeys.view(revision, position),
    queryFn: () => client.call('serversView', { revision, position }),
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
