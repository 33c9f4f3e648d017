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

/** For every field, the document with that field alone changed. */
export const CHANGE_ONE: { readonly [K in keyof SearchDocument]-?: (d: SearchDocument) => SearchDocument } = {
  name: (d) => ({ ...d, name: `${d.name}x` }),
  order: (d) => ({ ...d, order: d.order + 1 }),
  parameterNames: (d) => ({ ...d, parameterNames: [...d.parameterNames, 'extra'] }),
  summary: (d) => ({ ...d, summary: `${d.summary} more` }),
  description: (d) => ({ ...d, description: `${d.description} more` }),
  parameterDescriptions: (d) => ({ ...d, parameterDescriptions: d.parameterDescriptions.map((p, i) => (i === 0 ? `${p} more` : p)) }),
};
