// The RFD view's tables and the review report: react-query over the worker's `rfd` and `report`.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PriceTable } from '../core';
import type { DeriveClient } from './client';
import { deriveQuery, useDeriveClient } from './queries';

/** The tables depend on nothing the user edits: computed once per page (in the worker). */
export function rfdQuery(client: DeriveClient) {
  return queryOptions({ ...deriveQuery(client, 'rfd', {}), staleTime: Infinity, gcTime: Infinity });
}

export function useRfdTables() {
  return useQuery(rfdQuery(useDeriveClient()));
}

/** The report of a derived revision, as `tool-workbench report` writes it (priced at `prices` when given: the cost panel's table). */
export function reportHtmlOf(client: DeriveClient, revision: number, now: Date, prices?: PriceTable): Promise<string> {
  return client.call('report', { revision, generatedAt: now.toISOString().replace(/\.\d+Z$/u, 'Z'), ...(prices ? { prices } : {}) });
}
