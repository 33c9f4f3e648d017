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
import type { DocumentChanges, Ranker, RankerIndex, SearchDocument, SearchField, SearchHit, SearchOptions } from './types';
import { SEARCH_FIELDS } from './types';
import type { BuiltIndex, MiniSearchDocument } from './minisearch-options';
import { queryReaches, scoreQuery } from './bm25-score';
import { buildCatalogueIndex, loadBuiltIndex, processTerm, reindexCatalogue, summaryIsIndexed, tokenize } from './minisearch-options';

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

/** The hits of a query before ranking: catalogue positions and final scores, by hit. */
interface Results {
  readonly ids: readonly number[];
  readonly scores: readonly number[];
  /** MiniSearch's `match` of a hit (matched index term -> fields), worked out on demand. */
  readonly match: (id: number) => SearchResult['match'];
  /** Whether the hits are already best first (the order #compare gives). */
  readonly ranked?: boolean;
}

const NO_RESULTS: Results = { ids: [], scores: [], match: () => ({}) };

/**
 * The hits of a query over the whole index, before any filter: a document's score does not depend on
 * which others are admitted, so a search is these filtered. The same queries are asked again and again
 * (a derivation replays a conversation's searches after each keystroke, over a searchable set that
 * differs by a tool or two), and walking the postings was most of a replayed step.
 */
interface Unfiltered {
  /** Once `ranked`, best first (score, then config order, then catalogue position), so a filtered subsequence is too. */
  ids: readonly number[];
  scores: readonly number[];
  readonly match: (id: number) => SearchResult['match'];
  /**
   * The best few hits, best first (indices into ids), before the whole list is ranked: a replayed
   * search takes its hits from them and only counts the rest, so the first keystroke after an open
   * does not sort every hit of every search (~0.5 s at 100,000 tools).
   */
  head?: readonly number[];
  /**
   * Ranked at the query's second search: an index made for one keystroke (a definition edited) answers
   * each query once, and ranking every hit would cost it more than the partial selection of the top.
   */
  ranked: boolean;
}

/** How many hits the kept unfiltered results may hold in all (ids and scores: ~16 bytes a hit). */
const UNFILTERED_BUDGET = 2_000_000;
/** How many best hits a query's head holds at least (a filter may pass over some: search_tools asks 50 at most). */
const HEAD_MIN = 256;
const admitAll = (): boolean => true;

export class Bm25Index implements RankerIndex {
  #mini!: MiniSearch<MiniSearchDocument>;
  readonly #docs: readonly SearchDocument[];
  /** Each document's `order`, by catalogue position (for SearchOptions.filterOrder). */
  readonly #orders: Int32Array;
  #idf!: (term: string) => number;
  #isCommon!: (term: string) => boolean;
  /**
   * For docs whose summary is indexed only as part of the description: the summary's terms,
   * worked out when a hit on that doc first reports its fields (null: not such a doc).
   */
  readonly #summaryTerms: (ReadonlySet<string> | null | undefined)[];
  /** Whether scoreQuery may read MiniSearch's state (see minisearch-internals.ts). */
  #fast!: boolean;
  /**
   * Whether a newer index took this one's MiniSearch (reindexed: see `reindex`), which now indexes
   * other documents: this one builds its own again when it is next searched.
   */
  #taken = false;
  /** Unfiltered results by query tokens, oldest first (see Unfiltered), and how many hits they hold. */
  readonly #unfiltered = new Map<string, Unfiltered>();
  #unfilteredHits = 0;

  /** The size of a query's head (see Unfiltered.head): a parameter only so tests can make it small. */
  readonly #headMin: number;

  constructor(built: BuiltIndex, docs: readonly SearchDocument[], headMin = HEAD_MIN) {
    this.#headMin = headMin;
    this.#docs = docs;
    // A loop, not Int32Array.from(docs, mapper): that went through an iterator and an array of its own (~60 ms at 100,000 tools).
    const orders = new Int32Array(docs.length);
    for (let i = 0; i < docs.length; i++) orders[i] = (docs[i] as SearchDocument).order;
    this.#orders = orders;
    this.#summaryTerms = new Array<ReadonlySet<string> | null | undefined>(docs.length);
    this.#use(built);
  }

  #use(built: BuiltIndex): void {
    this.#mini = built.mini;
    this.#fast = built.fast;
    const n = this.#docs.length;
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
    this.#own();
    return this.#mini;
  }

  /** Builds this index's MiniSearch again if a newer index took it. */
  #own(): void {
    if (!this.#taken) return;
    this.#taken = false;
    this.#use(buildCatalogueIndex(this.#docs));
  }

  /**
   * The index of `docs`, which differ from this index's documents as `changes` says (a few replaced,
   * or a run spliced): this index's MiniSearch is edited into it (those documents' postings removed
   * and added, later ones moved on a splice) instead of
   * indexing every document, and searches on it rank exactly as on buildBm25Index(docs). The
   * MiniSearch moves to the new index: copying what an edit touches would copy the term index's tree,
   * and only the newest revision of a catalogue is searched while typing, so this one rebuilds its
   * own if it is ever searched again (an older revision's view asked late). Undefined where that
   * cannot be done (another MiniSearch release): build then.
   */
  reindex(docs: readonly SearchDocument[], changes: DocumentChanges): Bm25Index | undefined {
    if (this.#taken || !this.#fast) return undefined;
    const made = reindexCatalogue({ mini: this.#mini, documentFrequency: () => 0, fast: this.#fast }, this.#docs, docs, changes);
    if (made === undefined) return undefined;
    this.#taken = true;
    const next = new Bm25Index(made.built, docs, this.#headMin);
    // A query none of whose terms the changed documents held, before or after, scores every document
    // as before (the changed ones are hits neither before nor after), unless a field's average length
    // moved: its kept hits move to the new index, and a replayed search walks them instead of scoring
    // the catalogue again. The others read postings that are now the new documents'.
    if (!made.replaced.averagesChanged) {
      for (const [key, every] of this.#unfiltered) {
        if (queryReaches(key.split('\u0000'), made.replaced.touched)) continue;
        next.#unfiltered.set(key, every);
        next.#unfilteredHits += every.ids.length;
      }
    }
    this.#unfiltered.clear();
    this.#unfilteredHits = 0;
    return next;
  }

  /** The hits of a query that pass the filter, each with its final score: scoreQuery computes what MiniSearch.search would. */
  #results(query: string, options: SearchOptions): Results {
    this.#own();
    const tokens = this.#tokens(query);
    if (tokens.length === 0) return NO_RESULTS;
    const admit = this.#admit(options);
    const every = this.#fast ? this.#unfilteredResults(tokens) : undefined;
    if (every === undefined) return this.#resultsByMiniSearch(query, tokens, admit);
    const ids: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < every.ids.length; i++) {
      const id = every.ids[i] as number;
      if (!admit(id)) continue;
      ids.push(id);
      scores.push(every.scores[i] as number);
    }
    return { ids, scores, match: every.match, ranked: every.ranked };
  }

  /** The query's tokens that are scored: its rare ones, or all when none is rare. */
  #tokens(query: string): readonly string[] {
    const all = queryTokens(query);
    const rare = all.filter((token) => !this.#isCommon(token));
    return rare.length > 0 ? rare : all;
  }

  /** SearchOptions' filter by catalogue position (by order when it has one: a byte read, not a name). */
  #admit(options: SearchOptions): (id: number) => boolean {
    const docs = this.#docs;
    const { filter, filterOrder } = options;
    const orders = this.#orders;
    return filterOrder
      ? (id: number): boolean => id < orders.length && filterOrder(orders[id] as number)
      : (id: number): boolean => {
          const doc = docs[id];
          return doc !== undefined && filter(doc.name);
        };
  }

  /** Every document's hit on `tokens`, scored once per query and kept within UNFILTERED_BUDGET. */
  #unfilteredResults(tokens: readonly string[]): Unfiltered | undefined {
    const key = tokens.join('\u0000');
    const known = this.#unfiltered.get(key);
    if (known) {
      // Most recently used last: the oldest are dropped first.
      this.#unfiltered.delete(key);
      this.#unfiltered.set(key, known);
      if (!known.ranked) {
        const order = known.ids.map((_, i) => i);
        order.sort((i, j) => this.#compare(known, i, j));
        const { ids, scores } = known;
        known.ids = order.map((i) => ids[i] as number);
        known.scores = order.map((i) => scores[i] as number);
        known.ranked = true;
        // Its indices were into the unranked lists.
        delete known.head;
      }
      return known;
    }
    const scored = scoreQuery(this.#mini, tokens, { boostTerm: this.#idf, admit: admitAll });
    if (scored === undefined) return undefined;
    const { ids, scores: raw, termCounts } = scored;
    const scores = raw.map((score, i) => score / Math.sqrt(termCounts[i] || 1));
    const out: Unfiltered = { ids, scores, match: (id) => scored.matchOf(id), ranked: false };
    this.#unfilteredHits += ids.length;
    this.#unfiltered.set(key, out);
    for (const [k, v] of this.#unfiltered) {
      if (this.#unfilteredHits <= UNFILTERED_BUDGET || k === key) break;
      this.#unfiltered.delete(k);
      this.#unfilteredHits -= v.ids.length;
    }
    return out;
  }

  /** The same results through MiniSearch.search (its public API), for an index scoreQuery leaves to it. */
  #resultsByMiniSearch(query: string, tokens: readonly string[], admit: (id: number) => boolean): Results {
    const ids: number[] = [];
    const scores: number[] = [];
    const matches = new Map<number, SearchResult['match']>();
    // A document the filter refuses gets a boost of 0, so MiniSearch drops it before scoring it (the
    // filter is asked once per document: 1 admitted, -1 refused). The hits are collected by MiniSearch's
    // own filter, which then declines them all: MiniSearch would otherwise copy them into an array and
    // sort it by score, work the ranking does again in its own order.
    const admitted = new Int8Array(this.#docs.length);
    this.#mini.search(query, {
      tokenize: () => [...tokens],
      boostTerm: this.#idf,
      boostDocument: (id: number) => {
        let a = admitted[id];
        if (a === 0) {
          a = admit(id) ? 1 : -1;
          admitted[id] = a;
        }
        return a === 1 ? 1 : 0;
      },
      filter: (result) => {
        const id = result.id as number;
        ids.push(id);
        scores.push(result.score / Math.sqrt(result.queryTerms.length || 1));
        matches.set(id, result.match);
        return false;
      },
    });
    return { ids, scores, match: (id) => matches.get(id) ?? {} };
  }

  /** Best first: score, then config order, then catalogue position (a total order). Hits by index in `results`. */
  #compare(results: Results, i: number, j: number): number {
    const a = results.ids[i] as number;
    const b = results.ids[j] as number;
    return (results.scores[j] as number) - (results.scores[i] as number) || (this.#docs[a] as SearchDocument).order - (this.#docs[b] as SearchDocument).order || a - b;
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const results = this.#results(query, options);
    const order = results.ids.map((_, i) => i);
    if (!results.ranked) order.sort((i, j) => this.#compare(results, i, j));
    // The matched fields are worked out only for the hits someone reads (most are only counted).
    return order.map((i) => {
      const id = results.ids[i] as number;
      let fields: SearchField[] | undefined;
      const fieldsOf = (): SearchField[] => (fields ??= this.#fields(results.match(id), id));
      return {
        name: (this.#docs[id] as SearchDocument).name,
        score: results.scores[i] as number,
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
  searchTop(query: string, options: SearchOptions, limit: number, count = true): { hits: SearchHit[]; total: number } {
    const ranked = this.#rankedTop(query, options, limit, count);
    if (ranked) return ranked;
    const results = this.#results(query, options);
    const n = results.ids.length;
    const k = Math.max(0, Math.min(limit, n));
    // Partial selection: keep the k best in a sorted buffer (k is at most 50); ranked hits are the first k.
    const top: number[] = [];
    if (results.ranked) for (let i = 0; i < k; i++) top.push(i);
    for (let i = 0; i < n && k > 0 && !results.ranked; i++) {
      if (top.length === k) {
        if (this.#compare(results, i, top[k - 1] as number) >= 0) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && this.#compare(results, i, top[at - 1] as number) < 0) at--;
      top.splice(at, 0, i);
    }
    const hits = top.map((i) => {
      const id = results.ids[i] as number;
      return { name: (this.#docs[id] as SearchDocument).name, score: results.scores[i] as number, fields: this.#fields(results.match(id), id) };
    });
    return { hits, total: n };
  }

  /**
   * searchTop over a query's kept ranked hits (a replayed search: every search after a keystroke is),
   * as one walk that admits: the first `limit` admitted are the hits, and the rest are only counted
   * (or, without `count`, not walked), instead of copying every admitted hit (tens of thousands at
   * 100,000 tools) to rank and count them. Undefined when the query has no ranked hits kept.
   */
  #rankedTop(query: string, options: SearchOptions, limit: number, count: boolean): { hits: SearchHit[]; total: number } | undefined {
    this.#own();
    if (!this.#fast) return undefined;
    const tokens = this.#tokens(query);
    if (tokens.length === 0) return undefined;
    const every = this.#unfiltered.get(tokens.join('\u0000'));
    if (!every) return undefined;
    const admit = this.#admit(options);
    const { ids, scores } = every;
    const hits: SearchHit[] = [];
    let total = 0;
    if (every.ranked) {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        if (!admit(id)) continue;
        total++;
        if (hits.length < limit) hits.push({ name: (this.#docs[id] as SearchDocument).name, score: scores[i] as number, fields: this.#fields(every.match(id), id) });
        else if (!count) break;
      }
    } else {
      // Not ranked yet: the hits come from the head when it holds `limit` admitted ones (else the
      // whole list is ranked, below in #unfilteredResults), and the admitted are counted in any order.
      const head = (every.head ??= this.#head(every, Math.max(this.#headMin, 4 * limit)));
      for (const i of head) {
        const id = ids[i] as number;
        if (hits.length === limit) break;
        if (admit(id)) hits.push({ name: (this.#docs[id] as SearchDocument).name, score: scores[i] as number, fields: this.#fields(every.match(id), id) });
      }
      if (hits.length < limit && head.length < ids.length) return undefined;
      // As the ranked walk counts: every admitted hit, or without `count` up to one past the hits.
      const enough = count ? Infinity : limit + 1;
      for (let i = 0; i < ids.length && total < enough; i++) if (admit(ids[i] as number)) total++;
    }
    // Most recently used last, as #unfilteredResults keeps them.
    const key = tokens.join('\u0000');
    this.#unfiltered.delete(key);
    this.#unfiltered.set(key, every);
    return { hits, total };
  }

  /** The best `size` hits of `every`, best first (indices into it), by one pass that keeps a sorted buffer. */
  #head(every: Unfiltered, size: number): number[] {
    const top: number[] = [];
    for (let i = 0; i < every.ids.length; i++) {
      if (top.length === size) {
        if (this.#compare(every, i, top[size - 1] as number) >= 0) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && this.#compare(every, i, top[at - 1] as number) < 0) at--;
      top.splice(at, 0, i);
    }
    return top;
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

/** `version`: the MiniSearch release to build for (the installed one; tests pass another to try the public-API path). */
export function buildBm25Index(docs: readonly SearchDocument[], version?: string, headMin?: number): Bm25Index {
  return new Bm25Index(buildCatalogueIndex(docs, version), docs, headMin);
}

/** An index from a serialized MiniSearch (JSON.stringify of Bm25Index.miniSearch) over the same docs. */
export function bm25IndexFromJSON(json: string, docs: readonly SearchDocument[]): Bm25Index {
  return new Bm25Index(loadBuiltIndex(json), docs);
}

export const bm25: Ranker = {
  id: 'bm25',
  label: 'BM25 (MiniSearch)',
  build: (docs) => buildBm25Index(docs),
  reindex: (previous, docs, changes) => (previous instanceof Bm25Index ? previous.reindex(docs, changes) : undefined),
};
