// Small SearchDocument builders for the search tests (not shipped anywhere else).
import type { SearchDocument } from './types';

export function doc(name: string, order: number, parts: Partial<Omit<SearchDocument, 'name' | 'order'>> = {}): SearchDocument {
  return {
    name,
    order,
    parameterNames: parts.parameterNames ?? [],
    summary: parts.summary ?? '',
    description: parts.description ?? parts.summary ?? '',
    parameterDescriptions: parts.parameterDescriptions ?? [],
  };
}

export const all = (): boolean => true;
