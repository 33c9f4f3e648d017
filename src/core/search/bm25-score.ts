// MiniSearch's search, specialised to the options of minisearch-options.ts: the
// same index, the same query terms, the same BM25 formula and boosts, summed in
// the same order, so every score is bit for bit the one MiniSearch.search gives
// (bm25-score.test.ts holds the two equal on random catalogues and queries).
//
// What it leaves out is MiniSearch's bookkeeping per hit: a result object, a terms
// array and a match object for every document a term touches, merged across
// terms through Maps. A broad query at 10,000 tools touches tens of thousands of
// postings, and that bookkeeping was most of the time of a search. Scores
// accumulate in typed arrays instead, and the `match` of a hit (which fields
// matched which terms) is worked out only for the hits someone reads.
import type MiniSearch from 'minisearch';
import { fastPathProblem, scoringState } from './minisearch-internals';
import type { FieldTermData, ScoringState } from './minisearch-internals';
import { ToolMiniSearch } from './index-build';
import { PostingList } from './postings';
import type { MiniSearchDocument } from './minisearch-options';
import { processTerm, SEARCH_OPTIONS } from './minisearch-options';
import type { SearchField } from './types';
import { SEARCH_FIELDS } from './types';

interface Spec {
  /** The processed query term (MiniSearch's sourceTerm). */
  readonly term: string;
  /** Its index among the distinct query terms. */
  readonly source: number;
  /** The terms it matched and their weights: itself at 1, then its prefix extensions. */
  readonly derived: readonly Derived[];
}

/** Per index: what every search reads, derived once (and again if documents are added or removed). */
interface Prepared {
  readonly documentCount: number;
  /** ToolMiniSearch.edits when prepared: documents replaced in place since then make it stale. */
  readonly edits: number;
  readonly nextId: number;
  /** The external id (catalogue position) of each short id. */
  readonly externalIds: readonly unknown[];
  /** MiniSearch's field id of each of FIELDS. */
  readonly fieldIds: readonly number[];
  /** k * (1 - b + b * fieldLength / averageFieldLength) per short id and field, as calcBM25Score has it. */
  readonly norms: Float64Array;
  /** Scratch for one search, left zeroed. */
  readonly termScore: Float64Array;
  readonly total: Float64Array;
  readonly quality: Int32Array;
  readonly termStamp: Int32Array;
  readonly totalStamp: Int32Array;
  stamp: number;
  /** The terms each query term matches (itself, then its prefix extensions), as searches find them. */
  readonly derived: Map<string, readonly Derived[]>;
}

interface Derived {
  readonly term: string;
  readonly weight: number;
  readonly data: FieldTermData;
}

const prepared = new WeakMap<MiniSearch<MiniSearchDocument>, Prepared>();

const FIELDS: readonly SearchField[] = SEARCH_FIELDS;
const FIELD_COUNT = FIELDS.length;

const { k, b, d } = SEARCH_OPTIONS.bm25 ?? { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = SEARCH_OPTIONS.weights?.prefix ?? 0.375;
const isPrefix = SEARCH_OPTIONS.prefix;

function boostOf(field: SearchField): number {
  const boost = SEARCH_OPTIONS.boost ?? {};
  return (Object.prototype.hasOwnProperty.call(boost, field) ? boost[field] : undefined) || 1;
}
const BOOSTS: readonly number[] = FIELDS.map(boostOf);

function prepare(index: MiniSearch<MiniSearchDocument>, mini: ScoringState): Prepared {
  const known = prepared.get(index);
  const edits = index instanceof ToolMiniSearch ? index.edits : 0;
  if (known && known.documentCount === mini.documentCount && known.nextId === mini.nextId && known.edits === edits) return known;
  const n = mini.nextId;
  // Documents replaced in place (as many as before): the arrays are this index's and no search is under
  // way, so they are filled again rather than made anew (some 8 MB a keystroke at 100,000 tools).
  const reuse = known !== undefined && known.nextId === n;
  const externalIds = reuse ? (known.externalIds as unknown[]) : new Array<unknown>(n);
  for (const [shortId, id] of mini.documentIds) externalIds[shortId] = id;
  const norms = reuse ? known.norms : new Float64Array(n * FIELD_COUNT);
  const fieldIds = FIELDS.map((field) => mini.fieldIds[field] ?? -1);
  for (const [shortId, lengths] of mini.fieldLength) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const fieldId = fieldIds[f] as number;
      const fieldLength = lengths[fieldId] as number;
      const averageFieldLength = mini.avgFieldLength[fieldId] as number;
      norms[shortId * FIELD_COUNT + f] = k * (1 - b + (b * fieldLength) / averageFieldLength);
    }
  }
  const p: Prepared = {
    documentCount: mini.documentCount,
    edits,
    nextId: n,
    externalIds,
    fieldIds,
    norms,
    // Scratch read only where stamped: the stamps go on from the old ones.
    termScore: reuse ? known.termScore : new Float64Array(n),
    total: reuse ? known.total : new Float64Array(n),
    quality: reuse ? known.quality : new Int32Array(n),
    termStamp: reuse ? known.termStamp : new Int32Array(n),
    totalStamp: reuse ? known.totalStamp : new Int32Array(n),
    stamp: reuse ? known.stamp : 0,
    derived: new Map(),
  };
  prepared.set(index, p);
  return p;
}

/** The query terms, as MiniSearch's executeQuery makes them: processed, empty ones dropped. */
function queryTerms(tokens: readonly string[]): string[] {
  const terms: string[] = [];
  for (const token of tokens) {
    const term = processTerm(token);
    if (term) terms.push(term);
  }
  return terms;
}

/** Whether the `i`th query term is matched as a prefix too (SEARCH_OPTIONS.prefix). */
function matchesPrefix(term: string, i: number, terms: string[]): boolean {
  return typeof isPrefix === 'function' ? isPrefix(term, i, terms) : isPrefix === true;
}

/**
 * Whether scoreQuery's answer for `tokens` may change when the terms `touched` change (their postings,
 * or where a document holding them meets them) and nothing else does (document count, field-length
 * averages): when one of its processed terms is touched, or, for a term matched as a prefix, a touched
 * term extends it. Otherwise every score it gives is the same, bit for bit.
 */
export function queryReaches(tokens: readonly string[], touched: ReadonlySet<string>): boolean {
  const terms = queryTerms(tokens);
  return terms.some((term, i) => {
    if (touched.has(term)) return true;
    if (!matchesPrefix(term, i, terms)) return false;
    for (const t of touched) if (t.startsWith(term)) return true;
    return false;
  });
}

/** Hits of one query: admitted documents with any match. */
export interface ScoredQuery {
  /** External ids (catalogue positions) of the hits, in no particular order. */
  readonly ids: readonly number[];
  /**
   * Each hit's score as MiniSearch.search reports it (its summed score times the number of query
   * terms it matched), and that number, by position in `ids`.
   */
  readonly scores: readonly number[];
  readonly termCounts: readonly number[];
  /** MiniSearch's `match` of a hit: each matched index term and the fields it matched in. */
  matchOf(id: number): Record<string, SearchField[]>;
}

export interface ScoreOptions {
  /** Weight of each processed query term (MiniSearch's boostTerm). */
  readonly boostTerm: (term: string) => number;
  /** Whether a document (by external id) may be a hit: MiniSearch's boostDocument of 1 or 0. */
  readonly admit: (id: number) => boolean;
}

/** Whether scoreQuery may read MiniSearch's state: the release it was written against is installed. */
const FAST_PATH = fastPathProblem() === undefined;

/**
 * What `mini.search('', { tokenize: () => tokens, boostTerm, boostDocument: admit ? 1 : 0 })` computes
 * with SEARCH_OPTIONS, or undefined where that is not this function's to answer (another MiniSearch
 * release than the one it was written against; an index with discarded documents, whose postings
 * MiniSearch cleans up as it searches): ask MiniSearch then.
 */
export function scoreQuery(index: MiniSearch<MiniSearchDocument>, tokens: readonly string[], options: ScoreOptions): ScoredQuery | undefined {
  if (!FAST_PATH) return undefined;
  const mini = scoringState(index);
  if (mini.documentCount !== mini.nextId || SEARCH_OPTIONS.fuzzy || SEARCH_OPTIONS.combineWith !== 'OR') return undefined;
  const p = prepare(index, mini);
  const specs = querySpecs(index, mini, p, queryTerms(tokens));
  const hits = scoreSpecs(p, specs, options, mini.documentCount);
  const ids = hits.map((shortId) => p.externalIds[shortId] as number);
  const termCounts = hits.map((shortId) => p.quality[shortId] as number);
  const scores = hits.map((shortId, i) => (p.total[shortId] as number) * ((termCounts[i] as number) || 1));
  return { ids, scores, termCounts, matchOf: (id) => matchOf(mini, p, specs, id) };
}

/** Each query term with the index terms it matches: itself at weight 1, then its prefix extensions (memoized per index). */
function querySpecs(index: MiniSearch<MiniSearchDocument>, mini: ScoringState, p: Prepared, terms: string[]): Spec[] {
  const sourceOf = new Map<string, number>();
  return terms.map((term, i) => {
    let source = sourceOf.get(term);
    if (source === undefined) sourceOf.set(term, (source = sourceOf.size));
    const prefix = matchesPrefix(term, i, terms);
    const key = prefix ? `+${term}` : term;
    let derived = p.derived.get(key);
    if (derived === undefined) {
      const found: Derived[] = [];
      const data = mini.index.get(term);
      if (data !== undefined) found.push({ term, weight: 1, data });
      if (prefix) {
        const extensions = index instanceof ToolMiniSearch ? index.prefixExtensions(term) : mini.index.atPrefix(term);
        for (const [extension, extensionData] of extensions) {
          const distance = extension.length - term.length;
          if (!distance) continue;
          found.push({ term: extension, weight: (PREFIX_WEIGHT * extension.length) / (extension.length + 0.3 * distance), data: extensionData });
        }
      }
      p.derived.set(key, (derived = found));
    }
    return { term, source, derived };
  });
}

/** A term the query repeats (two tokens processed alike) counts once toward the terms a hit matched: a mark per document for each. */
function repeatedSources(specs: readonly Spec[], n: number): Map<number, Uint8Array> {
  const repeated = new Map<number, Uint8Array>();
  const seen = new Set<number>();
  for (const spec of specs) {
    if (seen.has(spec.source)) repeated.set(spec.source, new Uint8Array(n));
    seen.add(spec.source);
  }
  return repeated;
}

/**
 * Scores every admitted document a query term reaches, term by term in MiniSearch's order, into p's
 * scratch arrays (`total` and `quality` by short id, read where stamped): the short ids hit.
 */
function scoreSpecs(p: Prepared, specs: readonly Spec[], options: ScoreOptions, n: number): number[] {
  const repeated = repeatedSources(specs, n);
  const admitted = new Int8Array(n);
  const { fieldIds, norms, termScore, total, quality, termStamp, totalStamp, externalIds } = p;
  const totalMark = ++p.stamp;
  const hits: number[] = [];
  const touched: number[] = [];
  for (let s = 0; s < specs.length; s++) {
    const spec = specs[s] as Spec;
    const termBoost = options.boostTerm(spec.term);
    const termMark = ++p.stamp;
    touched.length = 0;
    for (const { weight, data } of spec.derived) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        const postings = data.get(fieldIds[f] as number);
        if (postings === undefined) continue;
        const matching = postings.size;
        const invDocFreq = Math.log(1 + (n - matching + 0.5) / (matching + 0.5));
        // termWeight * termBoost * fieldBoost * docBoost * rawScore, with docBoost 1.
        const w = weight * termBoost * (BOOSTS[f] as number);
        // Postings in a Map (an index MiniSearch built or loaded itself) are read into arrays first.
        let ids: ArrayLike<number>;
        let freqs: ArrayLike<number>;
        let from = 0;
        let to: number;
        if (postings instanceof PostingList) {
          ({ ids, freqs } = postings);
          from = postings.start;
          to = from + postings.length;
        } else {
          ids = [...postings.keys()];
          freqs = [...postings.values()];
          to = ids.length;
        }
        for (let i = from; i < to; i++) {
          const shortId = ids[i] as number;
          let a = admitted[shortId] as number;
          if (a === 0) {
            a = options.admit(externalIds[shortId] as number) ? 1 : -1;
            admitted[shortId] = a;
          }
          if (a !== 1) continue;
          const termFreq = freqs[i] as number;
          const rawScore = invDocFreq * (d + (termFreq * (k + 1)) / (termFreq + (norms[shortId * FIELD_COUNT + f] as number)));
          const weighted = w * rawScore;
          if (termStamp[shortId] === termMark) termScore[shortId] = (termScore[shortId] as number) + weighted;
          else {
            termStamp[shortId] = termMark;
            termScore[shortId] = weighted;
            touched.push(shortId);
          }
        }
      }
    }
    const seenBefore = repeated.get(spec.source);
    for (const shortId of touched) {
      if (totalStamp[shortId] === totalMark) total[shortId] = (total[shortId] as number) + (termScore[shortId] as number);
      else {
        totalStamp[shortId] = totalMark;
        total[shortId] = termScore[shortId] as number;
        quality[shortId] = 0;
        hits.push(shortId);
      }
      if (seenBefore === undefined) quality[shortId] = (quality[shortId] as number) + 1;
      else if (seenBefore[shortId] === 0) {
        seenBefore[shortId] = 1;
        quality[shortId] = (quality[shortId] as number) + 1;
      }
    }
  }
  if (p.stamp > 0x3fffffff) {
    termStamp.fill(0);
    totalStamp.fill(0);
    p.stamp = 0;
  }
  return hits;
}

/** MiniSearch's `match` of one hit: each index term it matched and the fields it matched in. */
function matchOf(mini: ScoringState, p: Prepared, specs: readonly Spec[], id: number): Record<string, SearchField[]> {
  const shortId = mini.idToShortId.get(id);
  const match: Record<string, SearchField[]> = {};
  if (shortId === undefined) return match;
  for (const spec of specs) {
    for (const { term, data } of spec.derived) {
      const fields: SearchField[] = [];
      for (let f = 0; f < FIELD_COUNT; f++) if (data.get(p.fieldIds[f] as number)?.has(shortId)) fields.push(FIELDS[f] as SearchField);
      if (fields.length > 0) match[term] = fields;
    }
  }
  return match;
}
