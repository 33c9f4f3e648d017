// THE one options module for MiniSearch. Building an index and loading a serialized
// one (MiniSearch.loadJSON) must use exactly the same options, so both go through
// this file: never construct MiniSearch or call loadJSON anywhere else.
//
// Tokens: split on anything that is not a letter, digit or mark; then on
// camelCase, ACRONYMBoundaries and letter/digit boundaries (snake_case and
// kebab-case fall out of the first split). A compound identifier also keeps its
// whole form ("getWeather" gives "getweather", "get", "weather"), so typing a
// tool's exact name still matches it best. Runs of CJK characters, which have no
// spaces, become overlapping bigrams. Terms are lowercased, English stop words
// dropped, and ASCII words stemmed by Snowball's English stemmer (english-stem.ts:
// Porter's 1980 stemmer conflated "generate" with "general" and "news" with "new").
//
// Scoring (see bm25.ts for the parts applied to MiniSearch's results): BM25 per
// field with boosts; each query term is weighted by its catalogue-wide IDF, which
// corrects MiniSearch's per-field IDF (a common verb that occurs in one tool's name
// otherwise outweighs everything); prefix matching ("crypto" finds "cryptocurrency")
// for terms of 5+ letters at a lower weight; no fuzzy matching (it cost time and
// found nothing the stemmer missed).
import MiniSearch from 'minisearch';
import type { AsPlainObject, Options, SearchOptions } from 'minisearch';
import type { DocumentChanges, SearchDocument, SearchField } from './types';
import { SEARCH_FIELDS } from './types';
import { englishStem } from './english-stem';
import { ToolMiniSearch } from './index-build';
import type { ReplacedTexts } from './index-build';
import { fastPathProblem, INSTALLED_MINISEARCH } from './minisearch-internals';
import { HASH_SEED, hashStep } from './token-table';

/** What MiniSearch indexes for one tool: `id` is the document's position in the catalogue array. */
export interface MiniSearchDocument {
  readonly id: number;
  readonly name: string;
  readonly parameter_name: string;
  readonly summary: string;
  readonly description: string;
  readonly parameter_description: string;
}

/**
 * A summary that is part of the description (an MCP tool's first sentence) is not
 * indexed twice: it would double the weight of the first sentence and the work of
 * every search. bm25.ts still reports `summary` for terms the summary holds.
 */
export function summaryIsIndexed(doc: SearchDocument): boolean {
  // Most such summaries open the description: startsWith answers them without a substring search.
  return doc.summary !== '' && !doc.description.startsWith(doc.summary) && !doc.description.includes(doc.summary);
}

export function toMiniSearchDocument(doc: SearchDocument, id: number): MiniSearchDocument {
  return {
    id,
    name: doc.name,
    parameter_name: doc.parameterNames.join(' '),
    summary: summaryIsIndexed(doc) ? doc.summary : '',
    description: doc.description,
    parameter_description: doc.parameterDescriptions.join('\n'),
  };
}

/** Relative weight of a match in each field. */
export const FIELD_BOOSTS: Readonly<Record<SearchField, number>> = {
  name: 2,
  parameter_name: 1.5,
  summary: 1.5,
  description: 1,
  parameter_description: 0.5,
};

const SEPARATOR = /[^\p{L}\p{N}\p{M}]+/u;
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const PART = new RegExp(
  `[${CJK}]+|\\p{Lu}+(?=\\p{Lu}\\p{Ll})|\\p{Lu}?\\p{Ll}+|\\p{Lu}+|\\p{N}+|[^${CJK}\\p{Lu}\\p{Ll}\\p{N}]+`,
  'gu',
);
const CJK_RUN = new RegExp(`^[${CJK}]`, 'u');

/** Longer tokens are cut: nothing real is that long, and it bounds the work on hostile input. */
export const MAX_TOKEN_LENGTH = 64;

function pushCjk(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i] ?? ''}${chars[i + 1] ?? ''}`);
}

/** The parts of one chunk (a run of letters, digits and marks), by the regular expressions above. */
function pushChunkByRegex(raw: string, out: string[]): void {
  const chunk = raw.length > MAX_TOKEN_LENGTH ? raw.slice(0, MAX_TOKEN_LENGTH) : raw;
  const parts = chunk.match(PART) ?? [];
  if (parts.length > 1 && !CJK_RUN.test(chunk)) out.push(chunk);
  for (const part of parts) {
    if (CJK_RUN.test(part)) pushCjk(part, out);
    else out.push(part);
  }
}

/** The reference tokenizer: `tokenize` gives the same tokens, faster for ASCII text. */
export function tokenizeByRegex(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(SEPARATOR)) if (raw !== '') pushChunkByRegex(raw, out);
  return out;
}

// Character classes of ASCII: 0 a separator, then upper case, lower case, digit.
const SEP = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = c >= 65 && c <= 90 ? UPPER : c >= 97 && c <= 122 ? LOWER : c >= 48 && c <= 57 ? DIGIT : SEP;
}
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

/** Where scanTokens delivers tokens: an ASCII token as a range of the text, any other as a string. */
export interface TokenSink {
  range(text: string, start: number, end: number): void;
  token(token: string): void;
  /** range, with hashRange(text, start, end) (token-table.ts), which the scan works out on the way. */
  hashedRange?(text: string, start: number, end: number, hash: number): void;
}

/** Part boundaries of the ASCII chunk being scanned (start, end pairs); a chunk has at most 64 parts. */
const PARTS = new Int32Array(2 * MAX_TOKEN_LENGTH + 2);

/**
 * The parts of an ASCII chunk (letters and digits only), as PART splits it: runs of digits, of
 * lower case, and of upper case; an upper-case letter before lower case starts a word, so an upper-case
 * run before lower case gives its last letter to the word ("HTTPServer" gives "HTTP", "Server").
 */
function scanAsciiChunk(text: string, start: number, end: number, sink: TokenSink): void {
  if (end - start > MAX_TOKEN_LENGTH) end = start + MAX_TOKEN_LENGTH;
  let parts = 0;
  let i = start;
  while (i < end) {
    const cls = ASCII_CLASS[text.charCodeAt(i)];
    let j = i + 1;
    while (j < end && ASCII_CLASS[text.charCodeAt(j)] === cls) j++;
    if (cls === UPPER && j < end && ASCII_CLASS[text.charCodeAt(j)] === LOWER) {
      if (j - i > 1) {
        PARTS[2 * parts] = i;
        PARTS[2 * parts++ + 1] = j - 1;
      }
      const word = j - 1;
      j++;
      while (j < end && ASCII_CLASS[text.charCodeAt(j)] === LOWER) j++;
      PARTS[2 * parts] = word;
      PARTS[2 * parts++ + 1] = j;
    } else {
      PARTS[2 * parts] = i;
      PARTS[2 * parts++ + 1] = j;
    }
    i = j;
  }
  // A chunk of several parts also gives its whole form, first.
  if (parts > 1) sink.range(text, start, end);
  for (let p = 0; p < parts; p++) sink.range(text, PARTS[2 * p] as number, PARTS[2 * p + 1] as number);
}

/**
 * Splits on anything that is not a letter, digit or mark, then splits each chunk into parts (see the
 * top of this file). ASCII chunks are scanned by character code and their tokens delivered as ranges,
 * so building an index makes no string per token; others go through the regular expressions, which
 * define the tokens (tokenizeByRegex; a property test holds the two equal).
 *
 * ASCII text takes a loop of its own: separators skipped in a loop that only looks up their class,
 * then a chunk's characters hashed in one that only checks whether the class changed. Indexing a
 * catalogue reads every character of it here (44 million at 100,000 tools), and the general loop's
 * checks per character (non-ASCII, a chunk's start, its ASCII-ness) were most of its time. From the
 * first non-ASCII character on, the rest of the text goes through the general loop.
 */
export function scanTokens(text: string, sink: TokenSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let code = text.charCodeAt(i);
    let cls = code < 128 ? (ASCII_CLASS[code] as number) : -1;
    while (cls === SEP) {
      if (++i === n) return;
      code = text.charCodeAt(i);
      cls = code < 128 ? (ASCII_CLASS[code] as number) : -1;
    }
    if (cls < 0) {
      scanFrom(text, i, sink);
      return;
    }
    // An ASCII chunk starts at i: see scanFrom for `single`.
    const start = i;
    let hash = hashStep(HASH_SEED, code);
    let single = true;
    let run = cls;
    while (++i < n) {
      code = text.charCodeAt(i);
      if (code >= 128) {
        scanFrom(text, start, sink);
        return;
      }
      const next = ASCII_CLASS[code] as number;
      if (next !== run) {
        if (next === SEP) break;
        if (!(i === start + 1 && run === UPPER && next === LOWER)) single = false;
        run = next;
      }
      hash = hashStep(hash, code);
    }
    emitChunk(text, start, i, true, single, hash, sink);
  }
}

/** scanTokens' general loop, from `from` (the start of the text, of a chunk or of a separator) to the end. */
function scanFrom(text: string, from: number, sink: TokenSink): void {
  const n = text.length;
  let start = -1; // the current chunk's start, or -1 between chunks
  let ascii = true;
  // Whether the ASCII chunk so far is one part: a run of one class, or an upper-case letter then
  // lower case ("Deploy"). Most words of a description are, and skip scanAsciiChunk; their hash for
  // the token table is worked out on the way.
  let single = true;
  let last = SEP;
  let hash = HASH_SEED;
  for (let i = from; i < n; ) {
    const code = text.charCodeAt(i);
    let width = 1;
    let word: boolean;
    let cls = SEP;
    if (code < 128) {
      cls = ASCII_CLASS[code] as number;
      word = cls !== SEP;
    } else {
      const point = text.codePointAt(i) ?? code;
      width = point > 0xffff ? 2 : 1;
      word = WORD_CHAR.test(String.fromCodePoint(point));
    }
    if (word) {
      if (start < 0) {
        start = i;
        ascii = true;
        single = true;
        hash = HASH_SEED;
      } else if (cls !== last && !(i === start + 1 && last === UPPER && cls === LOWER)) single = false;
      last = cls;
      hash = hashStep(hash, code);
      if (code >= 128) ascii = false;
    } else if (start >= 0) {
      emitChunk(text, start, i, ascii, single, hash, sink);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) emitChunk(text, start, n, ascii, single, hash, sink);
}

function emitChunk(text: string, start: number, end: number, ascii: boolean, single: boolean, hash: number, sink: TokenSink): void {
  if (!ascii) for (const token of tokenizeByRegex(text.slice(start, end))) sink.token(token);
  else if (!single) scanAsciiChunk(text, start, end, sink);
  else if (end - start > MAX_TOKEN_LENGTH) sink.range(text, start, start + MAX_TOKEN_LENGTH);
  else if (sink.hashedRange) sink.hashedRange(text, start, end, hash);
  else sink.range(text, start, end);
}

/** The tokens of a text (see scanTokens). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  scanTokens(text, {
    range: (t, start, end) => out.push(t.slice(start, end)),
    token: (token) => out.push(token),
  });
  return out;
}

// A general English list (NLTK's, less "now", which names tools), with the
// remains of contractions the tokenizer splits ("don't" gives "don" and "t").
// Request filler such as "help" or "need" is left to the IDF weighting: a
// stop list of it measured worse.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here hers ' +
    'herself him himself his how i if in into is it its itself just me more most my myself no nor not of off on once ' +
    'only or other our ours ourselves out over own same she should so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom why will with would you your yours yourself yourselves ' +
    'aren couldn didn doesn don hadn hasn haven isn ll mustn re shan shouldn ve wasn weren won wouldn'
  ).split(' '),
);

function processTermUncached(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length === 1 && !/\p{N}|[\p{Script=Han}]/u.test(lower)) return null;
  if (STOP_WORDS.has(lower)) return null;
  return englishStem(lower);
}

/** Distinct tokens a catalogue holds are few; remembered so each is stemmed once (a pure cache). */
const PROCESSED = new Map<string, string | null>();
const PROCESSED_LIMIT = 200_000;

export function processTerm(term: string): string | null {
  const hit = PROCESSED.get(term);
  if (hit !== undefined) return hit;
  const processed = processTermUncached(term);
  if (PROCESSED.size >= PROCESSED_LIMIT) PROCESSED.clear();
  PROCESSED.set(term, processed);
  return processed;
}

/** BM25 parameters: k1 as usual; b lowered, as tool descriptions are short and vary little in length. */
export const BM25_PARAMS = { k: 1.2, b: 0.4, d: 0.5 } as const;

/**
 * Prefix matching applies to query terms of this length and up (and at most 24). Not 4, though the
 * abbreviations people write ("repo", "info", "auth") are 4 letters: a 4-letter word is the head of
 * many camelCase parameter names, whose whole forms are indexed ("pull" reached "pullnumber"), and
 * on GitHub's server 2 tools fell from first (MetaTool moved by under 0.005).
 */
export const PREFIX_MIN_LENGTH = 5;

/** Search-time options; bm25.ts adds the IDF term weights, the tokens and the filter. */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { ...FIELD_BOOSTS },
  combineWith: 'OR',
  processTerm,
  prefix: (term) => term.length >= PREFIX_MIN_LENGTH && term.length <= 24,
  fuzzy: false,
  weights: { prefix: 0.3, fuzzy: 0.3 },
  bm25: { ...BM25_PARAMS },
};

export const MINISEARCH_OPTIONS: Options<MiniSearchDocument> = {
  idField: 'id',
  fields: [...SEARCH_FIELDS],
  storeFields: [],
  tokenize,
  processTerm,
  searchOptions: SEARCH_OPTIONS,
  logger: () => undefined,
};

/** An index and, per indexed term, the number of documents holding it in any field. */
export interface BuiltIndex {
  readonly mini: MiniSearch<MiniSearchDocument>;
  readonly documentFrequency: (term: string) => number;
  /** Whether searches may take the fast path (minisearch-internals.ts); else only MiniSearch's public API is used. */
  readonly fast: boolean;
}

/**
 * The same index through MiniSearch's public API only: for a MiniSearch release the fast path was not
 * written against. Document frequencies are counted from the same tokens MiniSearch indexes.
 */
function buildWithPublicApi(docs: readonly MiniSearchDocument[]): BuiltIndex {
  const mini = new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
  mini.addAll(docs);
  const frequency = new Map<string, number>();
  for (const doc of docs) {
    const terms = new Set<string>();
    for (const field of SEARCH_FIELDS) {
      for (const token of tokenize(doc[field])) {
        const term = processTerm(token);
        if (term) terms.add(term);
      }
    }
    for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  return { mini, documentFrequency: (term) => frequency.get(term) ?? 0, fast: false };
}

/**
 * Builds the index; document frequencies are counted from it when a query term first needs one.
 * `version`: the MiniSearch release to build for (the installed one; tests pass another).
 */
export function buildIndex(docs: readonly MiniSearchDocument[], version: string = INSTALLED_MINISEARCH): BuiltIndex {
  if (fastPathProblem(version) !== undefined) return buildWithPublicApi(docs);
  const mini = new ToolMiniSearch(MINISEARCH_OPTIONS, { scanTokens, processTerm });
  mini.addAll(docs);
  return { mini, documentFrequency: (term) => mini.documentFrequency(term), fast: true };
}

/**
 * buildIndex(docs.map(toMiniSearchDocument)), reading the catalogue's fields in place: a list field
 * (parameter names, parameter descriptions) is scanned part by part, which gives the tokens of its
 * joined text, since the joins are separators.
 */
export function buildCatalogueIndex(docs: readonly SearchDocument[], version: string = INSTALLED_MINISEARCH): BuiltIndex {
  if (fastPathProblem(version) !== undefined) return buildWithPublicApi(docs.map(toMiniSearchDocument));
  const mini = new ToolMiniSearch(MINISEARCH_OPTIONS, { scanTokens, processTerm });
  mini.addAllTexts(docs, catalogueTexts);
  return { mini, documentFrequency: (term) => mini.documentFrequency(term), fast: true };
}

/**
 * The index of `docs`, made by editing `built` (an index of `previous`) in place: the documents
 * `changes` names are re-indexed (or spliced in and out), every other one is taken as it is (the caller
 * vouches they hold the same words). What searches read comes out as buildCatalogueIndex(docs)'s
 * (index-build.ts, replaceTexts), with what the replacement touched. `built` is spent: it now indexes `docs`, not `previous`. Undefined
 * where this cannot be done (the fast path is off, or the index is not one buildCatalogueIndex made).
 */
export function reindexCatalogue(built: BuiltIndex, previous: readonly SearchDocument[], docs: readonly SearchDocument[], changes: DocumentChanges): { built: BuiltIndex; replaced: ReplacedTexts } | undefined {
  const mini = built.mini;
  if (!built.fast || !(mini instanceof ToolMiniSearch)) return undefined;
  const before = (id: number): SearchDocument => previous[id] as SearchDocument;
  let replaced: ReplacedTexts;
  if ('replaced' in changes) {
    if (previous.length !== docs.length) return undefined;
    replaced = mini.replaceTexts(docs, changes.replaced, before, catalogueTexts);
  } else {
    const { start, removed, added } = changes.spliced;
    if (previous.length - removed + added !== docs.length) return undefined;
    replaced = mini.spliceTexts(docs, start, removed, added, before, catalogueTexts);
  }
  return { built: { mini, documentFrequency: (term) => mini.documentFrequency(term), fast: true }, replaced };
}

const catalogueTexts = (doc: SearchDocument, fieldId: number): string | readonly string[] => {
  switch (SEARCH_FIELDS[fieldId]) {
    case 'name':
      return doc.name;
    case 'parameter_name':
      return doc.parameterNames;
    case 'summary':
      return summaryIsIndexed(doc) ? doc.summary : '';
    case 'description':
      return doc.description;
    default:
      return doc.parameterDescriptions;
  }
};

/** Document frequencies from a serialized index (MiniSearch's serialization version 2). */
function documentFrequencies(js: AsPlainObject): Map<string, number> {
  const frequency = new Map<string, number>();
  for (const [term, byField] of js.index) {
    const ids = new Set<string>();
    for (const fieldId of Object.keys(byField)) for (const id of Object.keys(byField[fieldId] ?? {})) ids.add(id);
    frequency.set(term, ids.size);
  }
  return frequency;
}

/** Loads a serialized index (JSON.stringify of a MiniSearch) with the options it was built with. */
export function loadIndex(json: string): MiniSearch<MiniSearchDocument> {
  return MiniSearch.loadJSON<MiniSearchDocument>(json, MINISEARCH_OPTIONS);
}

/** loadIndex, plus the document frequencies bm25 weights query terms with. */
export function loadBuiltIndex(json: string): BuiltIndex {
  const js = JSON.parse(json) as AsPlainObject;
  const frequency = documentFrequencies(js);
  return { mini: MiniSearch.loadJS<MiniSearchDocument>(js, MINISEARCH_OPTIONS), documentFrequency: (term) => frequency.get(term) ?? 0, fast: fastPathProblem() === undefined };
}
