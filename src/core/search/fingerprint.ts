// The text a catalogue's search documents are compared by: every field, in order.
// Two catalogues with the same fingerprint index identically.
//
// The fields are a table keyed by SearchDocument's own keys, so a field added to the document and not
// to the fingerprint fails to compile (a search would otherwise keep the old words after an edit of
// it). Arrays are written as JSON, so no separator inside a text can make two lists look alike.
import type { DocumentChanges, SearchDocument } from './types';

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

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Whether two documents index alike, field by field: what FINGERPRINT_FIELDS compares, without writing
 * any text (a keystroke compared every document's fingerprint, ~13 % of it at 10,000 tools). Keyed by
 * SearchDocument's keys, so a new field without a comparison here fails to compile.
 */
export const SAME_FIELD: { readonly [K in keyof SearchDocument]-?: (a: SearchDocument, b: SearchDocument) => boolean } = {
  name: (a, b) => a.name === b.name,
  order: (a, b) => a.order === b.order,
  parameterNames: (a, b) => sameList(a.parameterNames, b.parameterNames),
  summary: (a, b) => a.summary === b.summary,
  description: (a, b) => a.description === b.description,
  parameterDescriptions: (a, b) => sameList(a.parameterDescriptions, b.parameterDescriptions),
};

const sameFields = Object.values(SAME_FIELD);

/**
 * The positions at which two catalogues' documents differ (in any field FINGERPRINT_FIELDS covers), or
 * undefined when they are not of the same length or differ at more than `limit` positions. No
 * positions: the two have the same fingerprint.
 */
export function changedDocuments(before: readonly SearchDocument[], after: readonly SearchDocument[], limit = Infinity): number[] | undefined {
  if (before.length !== after.length) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < after.length; i++) {
    const a = before[i] as SearchDocument;
    const b = after[i] as SearchDocument;
    if (a === b || sameFields.every((same) => same(a, b))) continue;
    if (changed.length === limit) return undefined;
    changed.push(i);
  }
  return changed;
}

/**
 * How `after` differs from `before`: the positions replaced when they are as long (changedDocuments),
 * else the run between their common head and tail, spliced; undefined past `limit` documents changed
 * (replaced, or removed plus added). `{ replaced: [] }`: the two have the same fingerprint.
 */
export function documentChanges(before: readonly SearchDocument[], after: readonly SearchDocument[], limit = Infinity): DocumentChanges | undefined {
  if (before.length === after.length) {
    const replaced = changedDocuments(before, after, limit);
    return replaced && { replaced };
  }
  const same = (a: SearchDocument, b: SearchDocument): boolean => a === b || sameFields.every((f) => f(a, b));
  let start = 0;
  while (start < before.length && start < after.length && same(before[start] as SearchDocument, after[start] as SearchDocument)) start++;
  let tail = 0;
  while (tail < before.length - start && tail < after.length - start && same(before[before.length - 1 - tail] as SearchDocument, after[after.length - 1 - tail] as SearchDocument)) tail++;
  const removed = before.length - start - tail;
  const added = after.length - start - tail;
  return removed + added > limit ? undefined : { spliced: { start, removed, added } };
}
