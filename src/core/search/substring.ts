// The RFD's starting point: case-insensitive substring matching over the search
// fields. A hit's rank is the best field matched (name, parameter name, summary,
// description, parameter description); ties keep config order.
//
// `all_terms` (default) splits the query on whitespace; a tool matches when every
// term matches some field, and ranks by the best field any term matched.
// `whole_query` matches the query exactly as given (no trimming) as one substring.
//
// Speed: all lowercased texts sit in one string, so the most selective term (the
// longest) is found with the engine's native indexOf in one pass over the
// catalogue; only the tools it occurs in are checked field by field.
import type { Ranker, RankerIndex, SearchDocument, SearchField, SearchHit, SearchOptions, SubstringMatch } from './types';
import { SEARCH_FIELDS } from './types';

/** Separates texts in the joined strings; a term containing it takes the slow path. */
const SEP = '\u0000';
const FIELD_COUNT = SEARCH_FIELDS.length;

interface Prepared {
  readonly name: string;
  readonly order: number;
  readonly index: number;
  /** Per field (SEARCH_FIELDS order): its lowercased texts joined with SEP. */
  readonly fields: readonly string[];
  /** The raw lowercased texts per field, for terms that contain SEP. */
  readonly texts: readonly (readonly string[])[];
}

function lowerTexts(texts: readonly string[]): string[] {
  return texts.filter((t) => t !== '').map((t) => t.toLowerCase());
}

function prepare(doc: SearchDocument, index: number): Prepared {
  const texts = [
    lowerTexts([doc.name]),
    lowerTexts(doc.parameterNames),
    lowerTexts([doc.summary]),
    lowerTexts([doc.description]),
    lowerTexts(doc.parameterDescriptions),
  ];
  return { name: doc.name, order: doc.order, index, texts, fields: texts.map((t) => t.join(SEP)) };
}

/** The query's terms, lowercased and deduplicated, longest (most selective) first. */
export function substringTerms(query: string, mode: SubstringMatch): string[] {
  if (mode === 'whole_query') return query === '' ? [] : [query.toLowerCase()];
  const terms = new Set<string>();
  for (const term of query.split(/\s+/u)) if (term !== '') terms.add(term.toLowerCase());
  return [...terms].sort((a, b) => b.length - a.length);
}

/** Bit f is set when field f contains the term. */
function fieldMask(doc: Prepared, term: string): number {
  let mask = 0;
  if (term.includes(SEP)) {
    for (let f = 0; f < FIELD_COUNT; f++) if ((doc.texts[f] ?? []).some((t) => t.includes(term))) mask |= 1 << f;
  } else {
    for (let f = 0; f < FIELD_COUNT; f++) if ((doc.fields[f] ?? '').includes(term)) mask |= 1 << f;
  }
  return mask;
}

/** The union of the fields the terms matched, or 0 when some term matched nothing. */
function matchMask(doc: Prepared, terms: readonly string[]): number {
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
  /** Every doc's fields, each followed by SEP; doc i starts at #starts[i]. */
  readonly #corpus: string;
  readonly #starts: readonly number[];

  constructor(docs: readonly SearchDocument[]) {
    this.#docs = docs.map(prepare);
    const parts: string[] = [];
    const starts: number[] = [];
    let at = 0;
    for (const doc of this.#docs) {
      starts.push(at);
      for (const field of doc.fields) {
        parts.push(field, SEP);
        at += field.length + 1;
      }
    }
    this.#corpus = parts.join('');
    this.#starts = starts;
  }

  /** Docs containing the term somewhere, in catalogue order. */
  #candidates(term: string): Prepared[] {
    if (term.includes(SEP)) return [...this.#docs];
    const found: Prepared[] = [];
    const starts = this.#starts;
    let from = 0;
    let lo = 0;
    for (;;) {
      const at = this.#corpus.indexOf(term, from);
      if (at < 0) break;
      // The doc whose span holds `at`: the last start <= at (starts ascend, and so do hits).
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] ?? 0) <= at) lo = mid;
        else hi = mid - 1;
      }
      const doc = this.#docs[lo];
      if (doc) found.push(doc);
      from = starts[lo + 1] ?? this.#corpus.length;
      lo += 1;
      if (lo >= starts.length) break;
    }
    return found;
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const terms = substringTerms(query, options.substringMatch ?? 'all_terms');
    const first = terms[0];
    if (first === undefined) return [];
    const found: { doc: Prepared; rank: number; fields: SearchField[] }[] = [];
    for (const doc of this.#candidates(first)) {
      const mask = matchMask(doc, terms);
      if (mask === 0 || !options.filter(doc.name)) continue;
      const fields = SEARCH_FIELDS.filter((_, f) => (mask & (1 << f)) !== 0);
      found.push({ doc, rank: 31 - Math.clz32(mask & -mask), fields });
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
