// The text a catalogue's search documents are compared by: every field, in order.
// Two catalogues with the same fingerprint index identically.
import type { SearchDocument } from './types';

export function catalogueFingerprint(docs: readonly SearchDocument[]): string {
  const parts: string[] = [];
  for (const d of docs) {
    parts.push(d.name, String(d.order), d.parameterNames.join('\u0001'), d.summary, d.description, d.parameterDescriptions.join('\u0001'));
  }
  return `${docs.length}\u0002${parts.join('\u0000')}`;
}
