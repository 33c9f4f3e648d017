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
// dropped, and ASCII words Porter-stemmed.
import MiniSearch from 'minisearch';
import type { Options, SearchOptions } from 'minisearch';
import type { SearchDocument, SearchField } from './types';
import { SEARCH_FIELDS } from './types';
import { porterStem } from './stemmer';

/** What MiniSearch indexes for one tool: `id` is the document's position in the catalogue array. */
export interface MiniSearchDocument {
  readonly id: number;
  readonly name: string;
  readonly parameter_name: string;
  readonly summary: string;
  readonly description: string;
  readonly parameter_description: string;
}

export function toMiniSearchDocument(doc: SearchDocument, id: number): MiniSearchDocument {
  return {
    id,
    name: doc.name,
    parameter_name: doc.parameterNames.join(' '),
    summary: doc.summary,
    description: doc.description,
    parameter_description: doc.parameterDescriptions.join('\n'),
  };
}

/** Relative weight of a match in each field. */
export const FIELD_BOOSTS: Readonly<Record<SearchField, number>> = {
  name: 3,
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

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(SEPARATOR)) {
    if (raw === '') continue;
    const chunk = raw.length > MAX_TOKEN_LENGTH ? raw.slice(0, MAX_TOKEN_LENGTH) : raw;
    const parts = chunk.match(PART) ?? [];
    if (parts.length > 1 && !CJK_RUN.test(chunk)) out.push(chunk);
    for (const part of parts) {
      if (CJK_RUN.test(part)) pushCjk(part, out);
      else out.push(part);
    }
  }
  return out;
}

// A general English list (close to Lucene's and NLTK's), plus the filler of
// requests ("can you please help me ..."), which says nothing about a tool.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by could did do does doing down during each few for from further had has have having he her here hers ' +
    'herself him himself his how i if in into is it its itself just me more most my myself no nor not of off on once ' +
    'only or other our ours ourselves out over own same she should so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom why will with would you your yours yourself yourselves ' +
    'can please help want wants need needs like let lets also may might must shall im ive id youre'
  ).split(' '),
);

export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length === 1 && !/\p{N}|[\p{Script=Han}]/u.test(lower)) return null;
  if (STOP_WORDS.has(lower)) return null;
  return porterStem(lower);
}

/** Search-time options; boosts, OR, and where prefix and fuzzy matching are worth their cost. */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { ...FIELD_BOOSTS },
  combineWith: 'OR',
  prefix: (term) => term.length >= 4 && term.length <= 24,
  fuzzy: false,
  weights: { prefix: 0.3, fuzzy: 0.3 },
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

export function createIndex(): MiniSearch<MiniSearchDocument> {
  return new MiniSearch<MiniSearchDocument>(MINISEARCH_OPTIONS);
}

/** Loads a serialized index (JSON.stringify of a MiniSearch) with the options it was built with. */
export function loadIndex(json: string): MiniSearch<MiniSearchDocument> {
  return MiniSearch.loadJSON<MiniSearchDocument>(json, MINISEARCH_OPTIONS);
}
