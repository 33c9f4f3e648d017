// The RFD's starting point: case-insensitive substring matching over the search
// fields. A hit's rank is the best field matched (name, parameter name, summary,
// description, parameter description); ties keep config order.
//
// `all_terms` (default) splits the query on whitespace; a tool matches when every
// term matches some field, and ranks by the best field any term matched.
// `whole_query` matches the query exactly as given (no trimming) as one substring.
//
// Speed: each tool carries a 2,048-bit Bloom filter of the character trigrams of
// its lowercased texts. A search hashes the trigrams of its terms once and skips
// every tool missing one of those bits; only the rest are checked field by field.
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

const BLOOM_WORDS = 64;
const BLOOM_BITS = BLOOM_WORDS * 32;
/** At most this many trigram bits are tested per search; a subset of them is still a valid test. */
const MAX_PROBE_BITS = 48;

function trigramBit(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) + Math.imul(b, 0x85ebca77) + Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) % BLOOM_BITS;
}

/** The trigram bits every doc matching all the terms must have. */
function probeBits(terms: readonly string[]): number[] {
  const bits = new Set<number>();
  for (const term of terms) {
    if (term.includes(SEP)) continue;
    for (let i = 0; i + 2 < term.length && bits.size < MAX_PROBE_BITS; i++) {
      bits.add(trigramBit(term.charCodeAt(i), term.charCodeAt(i + 1), term.charCodeAt(i + 2)));
    }
  }
  return [...bits];
}

class SubstringIndex implements RankerIndex {
  readonly #docs: readonly Prepared[];
  /** BLOOM_WORDS words per doc. */
  readonly #bloom: Uint32Array;

  constructor(docs: readonly SearchDocument[]) {
    this.#docs = docs.map(prepare);
    this.#bloom = new Uint32Array(this.#docs.length * BLOOM_WORDS);
    this.#docs.forEach((doc, d) => {
      const base = d * BLOOM_WORDS;
      for (const text of doc.fields) {
        for (let i = 0; i + 2 < text.length; i++) {
          const bit = trigramBit(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2));
          const word = base + (bit >>> 5);
          this.#bloom[word] = (this.#bloom[word] ?? 0) | (1 << (bit & 31));
        }
      }
    });
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const terms = substringTerms(query, options.substringMatch ?? 'all_terms');
    if (terms.length === 0) return [];
    const probes = probeBits(terms).map((bit) => [bit >>> 5, 1 << (bit & 31)] as const);
    const bloom = this.#bloom;
    const found: { doc: Prepared; rank: number; fields: SearchField[] }[] = [];
    this.#docs.forEach((doc, d) => {
      const base = d * BLOOM_WORDS;
      for (const [word, mask] of probes) if (((bloom[base + word] ?? 0) & mask) === 0) return;
      const matched = matchMask(doc, terms);
      if (matched === 0 || !(options.filterOrder ? options.filterOrder(doc.order) : options.filter(doc.name))) return;
      const fields = SEARCH_FIELDS.filter((_, f) => (matched & (1 << f)) !== 0);
      found.push({ doc, rank: 31 - Math.clz32(matched & -matched), fields });
    });
    found.sort((a, b) => a.rank - b.rank || a.doc.order - b.doc.order || a.doc.index - b.doc.index);
    return found.map(({ doc, rank, fields }) => ({ name: doc.name, score: FIELD_COUNT - rank, fields }));
  }
}

export const substring: Ranker = {
  id: 'substring',
  label: 'Substring (RFD 108)',
  build: (docs) => new SubstringIndex(docs),
};
