// The text a catalogue's search documents are compared by: every field, in order.
// Two catalogues with the same fingerprint index identically.
//
// The fields are a table keyed by SearchDocument's own keys, so a field added to the document and not
// to the fingerprint fails to compile (a search would otherwise keep the old words after an edit of
// it). Arrays are written as JSON, so no separator inside a text can make two lists look alike.
import type { SearchDocument } from './types';

export const FINGERPRINT_FIELDS: { readonly [K in keyof SearchDocument]-?: (d: SearchDocument) => string } = {
  name: (d) => d.name,
  order: (d) => String(d.order),
  parameterNames: (d) => JSON.stringify(d.parameterNames),
  summary: (d) => d.summary,
  description: (d) => d.description,
  parameterDescriptions: (d) => JSON.stringify(d.parameterDescriptions),
};

const fields = Object.values(FINGERPRINT_FIELDS);

export function catalogueFingerprint(docs: readonly SearchDocument[]): string {
  const parts: string[] = [];
  for (const d of docs) for (const f of fields) parts.push(f(d));
  return `${docs.length}\u0002${parts.join('\u0000')}`;
}
