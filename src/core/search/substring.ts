// The RFD's starting point: case-insensitive substring matching over the search
// fields. A hit's rank is the best field matched (name, parameter name, summary,
// description, parameter description); ties keep config order.
//
// `all_terms` (default) splits the query on whitespace; a tool matches when every
// term matches some field, and ranks by the best field any term matched.
// `whole_query` matches the query exactly as given (no trimming) as one substring.
import type { Ranker, RankerIndex, SearchDocument, SearchField, SearchHit, SearchOptions } from './types';
import { SEARCH_FIELDS } from './types';

interface Prepared {
  readonly name: string;
  readonly order: number;
  readonly index: number;
  /** Lowercased texts per field, in SEARCH_FIELDS order. */
  readonly fields: readonly (readonly string[])[];
}

const FIELD_COUNT = SEARCH_FIELDS.length;

function prepare(doc: SearchDocument, index: number): Prepared {
  const lower = (texts: readonly string[]) => texts.filter((t) => t !== '').map((t) => t.toLowerCase());
  return {
    name: doc.name,
    order: doc.order,
    index,
    fields: [
      lower([doc.name]),
      lower(doc.parameterNames),
      lower([doc.summary]),
      lower([doc.description]),
      lower(doc.parameterDescriptions),
    ],
  };
}

/** Bit i set when field i contains the term. */
function fieldMask(doc: Prepared, term: string): number {
  let mask = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    const texts = doc.fields[f] ?? [];
    for (const text of texts) {
      if (text.includes(term)) {
        mask |= 1 << f;
        break;
      }
    }
  }
  return mask;
}

/** The query's terms, lowercased and deduplicated; longer terms first, as they fail fastest. */
export function substringTerms(query: string, mode: 'all_terms' | 'whole_query'): string[] {
  if (mode === 'whole_query') return query === '' ? [] : [query.toLowerCase()];
  const terms = new Set<string>();
  for (const term of query.split(/\s+/u)) if (term !== '') terms.add(term.toLowerCase());
  return [...terms].sort((a, b) => b.length - a.length);
}

function match(doc: Prepared, terms: readonly string[]): number {
  let union = 0;
  for (const term of terms) {
    const mask = fieldMask(doc, term);
    if (mask === 0) return 0;
    union |= mask;
  }
  return union;
}

class SubstringIndex implements RankerIndex {
  readonly #docs: readonly Prepared[];

  constructor(docs: readonly SearchDocument[]) {
    this.#docs = docs.map(prepare);
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const terms = substringTerms(query, options.substringMatch ?? 'all_terms');
    if (terms.length === 0) return [];
    const found: { doc: Prepared; rank: number; fields: SearchField[] }[] = [];
    for (const doc of this.#docs) {
      const mask = match(doc, terms);
      if (mask === 0 || !options.filter(doc.name)) continue;
      const fields = SEARCH_FIELDS.filter((_, f) => (mask & (1 << f)) !== 0);
      found.push({ doc, rank: SEARCH_FIELDS.indexOf(fields[0] ?? 'parameter_description'), fields });
    }
    found.sort((a, b) => a.rank - b.rank || a.doc.order - b.doc.order || a.doc.index - b.doc.index);
    return found.map(({ doc, rank, fields }) => ({ name: doc.name, score: FIELD_COUNT - rank, fields }));
  }
}

export const substring: Ranker = {
  id: 'substring',
  label: 'Substring (RFD 108)',
  build: (docs) => new SubstringIndex(docs),
};
