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

function matchedFields(result: SearchResult): SearchField[] {
  const ranks = new Set<number>();
  for (const term of Object.keys(result.match)) {
    for (const field of result.match[term] ?? []) {
      const rank = FIELD_RANK.get(field);
      if (rank !== undefined) ranks.add(rank);
    }
  }
  return [...ranks].sort((a, b) => a - b).map((rank) => SEARCH_FIELDS[rank] as SearchField);
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
    const hits: { hit: SearchHit; doc: SearchDocument; id: number }[] = [];
    for (const result of results) {
      const id = result.id as number;
      const doc = docs[id];
      if (doc) hits.push({ hit: { name: doc.name, score: result.score, fields: matchedFields(result) }, doc, id });
    }
    // MiniSearch sorts by score; equal scores keep config order.
    hits.sort((a, b) => b.hit.score - a.hit.score || a.doc.order - b.doc.order || a.id - b.id);
    return hits.map(({ hit }) => hit);
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
