// BM25 ranking over MiniSearch, with the options of minisearch-options.ts. The
// index is built once over the whole catalogue; each search keeps only the hits
// the filter admits (the searchable set of the moment).
//
// On top of MiniSearch's scoring:
// - each query term is weighted by its catalogue-wide IDF (see minisearch-options.ts);
// - MiniSearch multiplies a score by the number of query terms matched; that is
//   softened to the square root, so one rare, precise term can beat several common ones;
// - in a large catalogue, a term held by more than COMMON_TERM_SHARE of the tools
//   (and at least COMMON_TERM_MIN_TOOLS) acts as a stop word when the query has a
//   rarer term, like Lucene's common-terms cutoff: it would add little to the
//   ranking and most of the work (and of the total);
// - equal scores keep config order.
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import type { Ranker, RankerIndex, SearchDocument, SearchField, SearchHit, SearchOptions } from './types';
import { SEARCH_FIELDS } from './types';
import type { BuiltIndex, MiniSearchDocument } from './minisearch-options';
import { buildIndex, loadBuiltIndex, processTerm, summaryIsIndexed, toMiniSearchDocument, tokenize } from './minisearch-options';

export const COMMON_TERM_SHARE = 0.25;
export const COMMON_TERM_MIN_TOOLS = 250;

/** At most this many distinct query tokens are searched; it bounds the work of a long query. */
export const MAX_QUERY_TERMS = 64;

const FIELD_RANK = new Map<string, number>(SEARCH_FIELDS.map((field, i) => [field, i]));
const SUMMARY_RANK = FIELD_RANK.get('summary') ?? 2;
const DESCRIPTION = 'description';

/** Distinct tokens in query order, at most MAX_QUERY_TERMS. */
function queryTokens(query: string): string[] {
  const seen = new Set<string>();
  for (const token of tokenize(query)) {
    if (seen.size >= MAX_QUERY_TERMS) break;
    seen.add(token.toLowerCase());
  }
  return [...seen];
}

/** The processed terms of a text, for telling which matched terms a summary holds. */
function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term !== null) terms.add(term);
  }
  return terms;
}

/** Best first: score, then config order, then catalogue position (a total order). */
function byRank(a: { readonly score: number; readonly doc: SearchDocument; readonly id: number }, b: { readonly score: number; readonly doc: SearchDocument; readonly id: number }): number {
  return b.score - a.score || a.doc.order - b.doc.order || a.id - b.id;
}

export class Bm25Index implements RankerIndex {
  readonly #mini: MiniSearch<MiniSearchDocument>;
  readonly #docs: readonly SearchDocument[];
  readonly #idf: (term: string) => number;
  readonly #isCommon: (term: string) => boolean;
  /**
   * For docs whose summary is indexed only as part of the description: the summary's terms,
   * worked out when a hit on that doc first reports its fields (null: not such a doc).
   */
  readonly #summaryTerms: (ReadonlySet<string> | null | undefined)[];

  constructor(built: BuiltIndex, docs: readonly SearchDocument[]) {
    this.#mini = built.mini;
    this.#docs = docs;
    this.#summaryTerms = new Array<ReadonlySet<string> | null | undefined>(docs.length);
    const n = docs.length;
    const frequency = built.documentFrequency;
    this.#idf = (term) => {
      const df = frequency(term);
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    };
    const commonFrom = Math.max(COMMON_TERM_SHARE * n, COMMON_TERM_MIN_TOOLS);
    this.#isCommon = (token) => {
      const term = processTerm(token);
      return term === null || frequency(term) > commonFrom;
    };
  }

  /** The MiniSearch index, e.g. to serialize it with JSON.stringify. */
  get miniSearch(): MiniSearch<MiniSearchDocument> {
    return this.#mini;
  }

  /** MiniSearch's results for a query that pass the filter, each with its final score. */
  #results(query: string, options: SearchOptions): { readonly id: number; readonly doc: SearchDocument; readonly score: number; readonly match: SearchResult['match'] }[] {
    const all = queryTokens(query);
    const rare = all.filter((token) => !this.#isCommon(token));
    const tokens = rare.length > 0 ? rare : all;
    if (tokens.length === 0) return [];
    const docs = this.#docs;
    const filter = options.filter;
    const out: { id: number; doc: SearchDocument; score: number; match: SearchResult['match'] }[] = [];
    // A document the filter refuses gets a boost of 0, so MiniSearch drops it before scoring it (the
    // filter is asked once per document: 1 admitted, -1 refused). The hits are collected by MiniSearch's
    // own filter, which then declines them all: MiniSearch would otherwise copy them into an array and
    // sort it by score, work the ranking below does again in its own order.
    const admitted = new Int8Array(docs.length);
    this.#mini.search(query, {
      tokenize: () => tokens,
      boostTerm: this.#idf,
      boostDocument: (id: number) => {
        let a = admitted[id];
        if (a === 0) {
          const doc = docs[id];
          a = doc !== undefined && filter(doc.name) ? 1 : -1;
          admitted[id] = a;
        }
        return a === 1 ? 1 : 0;
      },
      filter: (result) => {
        const id = result.id as number;
        out.push({ id, doc: docs[id] as SearchDocument, score: result.score / Math.sqrt(result.queryTerms.length || 1), match: result.match });
        return false;
      },
    });
    return out;
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const ranked = this.#results(query, options);
    ranked.sort(byRank);
    // The matched fields are worked out only for the hits someone reads (most are only counted).
    return ranked.map(({ id, doc, score, match }) => {
      let fields: SearchField[] | undefined;
      const fieldsOf = (): SearchField[] => (fields ??= this.#fields(match, id));
      return {
        name: doc.name,
        score,
        get fields(): readonly SearchField[] {
          return fieldsOf();
        },
      };
    });
  }

  /**
   * The best `limit` hits, in the order `search` gives, and how many hits there are in all: what
   * search_tools returns, without ranking or describing the hits it only counts.
   */
  searchTop(query: string, options: SearchOptions, limit: number): { hits: SearchHit[]; total: number } {
    const ranked = this.#results(query, options);
    const k = Math.max(0, Math.min(limit, ranked.length));
    // Partial selection: keep the k best in a sorted buffer (k is at most 50).
    const top: (typeof ranked)[number][] = [];
    for (const r of ranked) {
      if (top.length === k) {
        const last = top[k - 1];
        if (k === 0 || (last !== undefined && byRank(r, last) >= 0)) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && byRank(r, top[at - 1] as (typeof ranked)[number]) < 0) at--;
      top.splice(at, 0, r);
    }
    return { hits: top.map(({ id, doc, score, match }) => ({ name: doc.name, score, fields: this.#fields(match, id) })), total: ranked.length };
  }

  /** The fields MiniSearch matched, best first; `summary` too for matched terms a non-indexed summary holds. */
  #fields(match: SearchResult['match'], id: number): SearchField[] {
    let mask = 0;
    let summaryTerms = this.#summaryTerms[id];
    if (summaryTerms === undefined) {
      const doc = this.#docs[id];
      summaryTerms = doc !== undefined && doc.summary !== '' && !summaryIsIndexed(doc) ? termsOf(doc.summary) : null;
      this.#summaryTerms[id] = summaryTerms;
    }
    for (const term of Object.keys(match)) {
      for (const field of match[term] ?? []) {
        const rank = FIELD_RANK.get(field);
        if (rank !== undefined) mask |= 1 << rank;
        if (field === DESCRIPTION && summaryTerms?.has(term)) mask |= 1 << SUMMARY_RANK;
      }
    }
    return SEARCH_FIELDS.filter((_, rank) => (mask & (1 << rank)) !== 0);
  }
}

export function buildBm25Index(docs: readonly SearchDocument[]): Bm25Index {
  return new Bm25Index(buildIndex(docs.map(toMiniSearchDocument)), docs);
}

/** An index from a serialized MiniSearch (JSON.stringify of Bm25Index.miniSearch) over the same docs. */
export function bm25IndexFromJSON(json: string, docs: readonly SearchDocument[]): Bm25Index {
  return new Bm25Index(loadBuiltIndex(json), docs);
}

export const bm25: Ranker = {
  id: 'bm25',
  label: 'BM25 (MiniSearch)',
  build: buildBm25Index,
};
