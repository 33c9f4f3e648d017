// The search surface of one tool, and the interface every ranker implements.
// A ranker indexes the whole catalogue once; each search_tools call filters the
// hits to the searchable set of that moment, so availability changes never
// rebuild an index.

/** Fields in the order substring ranking prefers them (best first). */
export type SearchField = 'name' | 'parameter_name' | 'summary' | 'description' | 'parameter_description';
export const SEARCH_FIELDS: readonly SearchField[] = ['name', 'parameter_name', 'summary', 'description', 'parameter_description'];

export interface SearchDocument {
  readonly name: string;
  /** Position in config order; substring ties break on it. */
  readonly order: number;
  /** From the resolved schema (ToolDefinition.parameters), not from the docs. */
  readonly parameterNames: readonly string[];
  readonly summary: string;
  readonly description: string;
  /** Each documented parameter's summary and description. */
  readonly parameterDescriptions: readonly string[];
}

export interface SearchHit {
  readonly name: string;
  readonly score: number;
  /** The fields that matched, best first. */
  readonly fields: readonly SearchField[];
}

export type SubstringMatch = 'all_terms' | 'whole_query';

export interface SearchOptions {
  /** Only names for which this holds are hits (the searchable set of the moment). */
  readonly filter: (name: string) => boolean;
  /**
   * The same predicate by a document's `order`, when the caller can answer it without a name: a
   * ranker then asks it instead of `filter`. At 100,000 tools a broad query admits tens of thousands
   * of documents, and a hash lookup of each name was most of the time of a search (issue 16).
   */
  readonly filterOrder?: (order: number) => boolean;
  readonly substringMatch?: SubstringMatch;
}

export interface RankerIndex {
  /** Every hit passing the filter, best first. */
  search(query: string, options: SearchOptions): SearchHit[];
}

export interface Ranker {
  readonly id: string;
  readonly label: string;
  build(docs: readonly SearchDocument[]): RankerIndex;
  /**
   * The index of `docs` made from `previous` (an index this ranker built or reindexed), whose
   * documents differ from `docs` as `changes` says; it searches exactly as build(docs) would.
   * `previous` may be spent by it (see Bm25Index.reindex). Undefined: build.
   */
  reindex?(previous: RankerIndex, docs: readonly SearchDocument[], changes: DocumentChanges): RankerIndex | undefined;
}

/** A run of documents taken out at `start` and `added` others put in its place (every later one moves). */
export interface Splice {
  readonly start: number;
  readonly removed: number;
  readonly added: number;
}

/**
 * How a catalogue's documents differ from an indexed one's: the documents at some positions replaced
 * (as many documents), or one run spliced (a tool added or removed by an edit).
 */
export type DocumentChanges = { readonly replaced: readonly number[] } | { readonly spliced: Splice };
