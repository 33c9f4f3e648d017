// BM25 ranking over MiniSearch, with the options of minisearch-options.ts. The
// index is built once over the whole catalogue; each search keeps only the hits
// the filter admits (the searchable set of the moment).
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import type { Ranker, RankerIndex, SearchDocument, SearchField, SearchHit, SearchOptions } from './types';
import { SEARCH_FIELDS } from './types';
import type { MiniSearchDocument } from './minisearch-options';
import { createIndex, loadIndex, toMiniSearchDocument, tokenize } from './minisearch-options';

/** At most this many distinct query tokens are searched (a whole request rarely has more). */
export const MAX_QUERY_TERMS = 32;

const FIELD_RANK = new Map<string, number>(SEARCH_FIELDS.map((field, i) => [field, i]));

/** Distinct tokens, first occurrences first, at most MAX_QUERY_TERMS. */
function queryTokens(query: string): string[] {
  const seen = new Set<string>();
  for (const token of tokenize(query)) {
    const key = token.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size >= MAX_QUERY_TERMS) break;
  }
  return [...seen];
}

/** A hit whose matched fields are worked out only when read (most hits are never returned). */
class Bm25Hit implements SearchHit {
  readonly name: string;
  readonly score: number;
  readonly order: number;
  readonly id: number;
  #match: SearchResult['match'] | undefined;
  #fields: SearchField[] | undefined;

  constructor(doc: SearchDocument, id: number, result: SearchResult) {
    this.name = doc.name;
    this.order = doc.order;
    this.id = id;
    this.score = result.score;
    this.#match = result.match;
  }

  get fields(): readonly SearchField[] {
    if (this.#fields === undefined) {
      const ranks = new Set<number>();
      const match = this.#match ?? {};
      for (const term of Object.keys(match)) {
        for (const field of match[term] ?? []) {
          const rank = FIELD_RANK.get(field);
          if (rank !== undefined) ranks.add(rank);
        }
      }
      this.#fields = [...ranks].sort((a, b) => a - b).map((rank) => SEARCH_FIELDS[rank] as SearchField);
      this.#match = undefined;
    }
    return this.#fields;
  }

  toJSON(): SearchHit {
    return { name: this.name, score: this.score, fields: this.fields };
  }
}

export class Bm25Index implements RankerIndex {
  readonly #mini: MiniSearch<MiniSearchDocument>;
  readonly #docs: readonly SearchDocument[];

  constructor(mini: MiniSearch<MiniSearchDocument>, docs: readonly SearchDocument[]) {
    this.#mini = mini;
    this.#docs = docs;
  }

  /** The MiniSearch index, e.g. to serialize it with JSON.stringify. */
  get miniSearch(): MiniSearch<MiniSearchDocument> {
    return this.#mini;
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const tokens = queryTokens(query);
    if (tokens.length === 0) return [];
    const docs = this.#docs;
    const results = this.#mini.search(query, {
      tokenize: () => tokens,
      filter: (result) => {
        const doc = docs[result.id as number];
        return doc !== undefined && options.filter(doc.name);
      },
    });
    const hits: Bm25Hit[] = [];
    for (const result of results) {
      const id = result.id as number;
      const doc = docs[id];
      if (doc) hits.push(new Bm25Hit(doc, id, result));
    }
    // MiniSearch sorts by score; equal scores keep config order.
    for (let i = 0; i < hits.length; ) {
      let j = i + 1;
      while (j < hits.length && hits[j]?.score === hits[i]?.score) j++;
      if (j - i > 1) {
        const run = hits.slice(i, j).sort((a, b) => a.order - b.order || a.id - b.id);
        hits.splice(i, run.length, ...run);
      }
      i = j;
    }
    return hits;
  }
}

export function buildBm25Index(docs: readonly SearchDocument[]): Bm25Index {
  const mini = createIndex();
  mini.addAll(docs.map(toMiniSearchDocument));
  return new Bm25Index(mini, docs);
}

/** An index from a serialized MiniSearch (JSON.stringify of Bm25Index.miniSearch) over the same docs. */
export function bm25IndexFromJSON(json: string, docs: readonly SearchDocument[]): Bm25Index {
  return new Bm25Index(loadIndex(json), docs);
}

export const bm25: Ranker = {
  id: 'bm25',
  label: 'BM25 (MiniSearch)',
  build: buildBm25Index,
};
