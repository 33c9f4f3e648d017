// The workspace panel's derivations: "make discoverable" for the current revision, keyed by the
// number of tools kept.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useTimeline } from './hooks';
import { deriveQuery, useDeriveClient } from './queries';

export function useDiscoverable(keep: number, enabled: boolean) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery(
    queryOptions({
      ...deriveQuery(client, 'discoverable', { revision, keep }),
      staleTime: Infinity,
      gcTime: 10_000,
      enabled: enabled && view?.workspace?.loaded === true,
      placeholderData: keepPreviousData,
    }),
  );
}
