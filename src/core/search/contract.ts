// The search_tools argument contract (RFD 108; semantics §5, §8 items 5, 6, 20):
//
//   search_tools(query: string, limit?: integer = 10)
//
// - arguments must be an object; `query` must be a string;
// - an empty or blank query is an error ("query must not be empty"), never "list everything";
// - a query longer than MAX_QUERY_LENGTH characters is an error (it bounds the work);
// - `limit` defaults to 10 (also when null); it must be an integer ("limit must be an
//   integer"), and is clamped to 1..50, not rejected;
// - hits are the ranker's, restricted to the filter minus `exclude` (already-offered
//   tools); `total` counts them all, `hits` keeps the first `limit`.
//
// Nothing here throws on hostile arguments: every problem is an error result. The
// query is never compiled as a regular expression.
import { formatFloat, isJsonFloat } from '../json/serde';
import type { RankerIndex, SearchHit, SearchOptions, SubstringMatch } from './types';

export const DEFAULT_LIMIT = 10;
export const MIN_LIMIT = 1;
export const MAX_LIMIT = 50;
export const MAX_QUERY_LENGTH = 1000;

export interface SearchToolsContext {
  /** The searchable set of the moment. */
  readonly filter: (name: string) => boolean;
  readonly substringMatch?: SubstringMatch;
  /** Policy report_match_count: when false the result carries no total. */
  readonly reportMatchCount: boolean;
  /** Names never returned nor counted, e.g. tools offered in this cycle's request. */
  readonly exclude?: (name: string) => boolean;
  /** `filter` by a document's order (SearchOptions.filterOrder); used only with `excludeOrder` when `exclude` is given. */
  readonly filterOrder?: (order: number) => boolean;
  /** `exclude` by a document's order. */
  readonly excludeOrder?: (order: number) => boolean;
}

export type SearchToolsResult =
  | {
      readonly ok: true;
      /** The returned hits, best first: at most `limit`. */
      readonly hits: SearchHit[];
      /** Every hit before the limit; absent when reportMatchCount is false. */
      readonly total?: number;
      /** The limit applied, after defaulting and clamping. */
      readonly limit: number;
    }
  | { readonly ok: false; readonly error: string };

function kind(value: unknown): string {
  if (value === null) return 'null';
  // A whole float (`5.0`): serde reads it as f64, and an integer parameter refuses it.
  if (isJsonFloat(value)) return `the float ${formatFloat(value.value)}`;
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The clamped limit, or an error text. */
export function resolveLimit(value: unknown): number | string {
  if (value === undefined || value === null) return DEFAULT_LIMIT;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    const shown = typeof value === 'number' ? String(value) : kind(value);
    // (A JsonFloat lands here: `limit = 5.0` is a float, as JP's serde would read it.)
    return `limit must be an integer between ${MIN_LIMIT} and ${MAX_LIMIT}, got ${shown}`;
  }
  return Math.min(MAX_LIMIT, Math.max(MIN_LIMIT, value));
}

export function searchTools(index: RankerIndex, args: unknown, ctx: SearchToolsContext): SearchToolsResult {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, error: `search_tools arguments must be an object with a "query" string, got ${kind(args)}` };
  }
  const record = args as Record<string, unknown>;
  const query = Object.hasOwn(record, 'query') ? record.query : undefined;
  if (query === undefined) return { ok: false, error: 'query must be a string, and it is missing' };
  if (typeof query !== 'string') return { ok: false, error: `query must be a string, got ${kind(query)}` };
  if (query.trim() === '') return { ok: false, error: 'query must not be empty' };
  if (query.length > MAX_QUERY_LENGTH) {
    return { ok: false, error: `query is too long: ${query.length} characters (at most ${MAX_QUERY_LENGTH})` };
  }
  const limit = resolveLimit(Object.hasOwn(record, 'limit') ? record.limit : undefined);
  if (typeof limit === 'string') return { ok: false, error: limit };

  const { filter, exclude, filterOrder, excludeOrder } = ctx;
  const byOrder = filterOrder && (!exclude ? filterOrder : excludeOrder ? (order: number) => filterOrder(order) && !excludeOrder(order) : undefined);
  const options = {
    filter: exclude ? (name: string) => filter(name) && !exclude(name) : filter,
    ...(byOrder ? { filterOrder: byOrder } : {}),
    ...(ctx.substringMatch ? { substringMatch: ctx.substringMatch } : {}),
  };
  // A ranker that can return just the best `limit` hits and the count does less work per call.
  if (isTopIndex(index)) {
    const { hits, total } = index.searchTop(query, options, limit, ctx.reportMatchCount);
    return ctx.reportMatchCount ? { ok: true, hits, total, limit } : { ok: true, hits, limit };
  }
  const all = index.search(query, options);
  const hits = all.slice(0, limit);
  return ctx.reportMatchCount ? { ok: true, hits, total: all.length, limit } : { ok: true, hits, limit };
}

/** An optional ranker capability: the first `limit` hits of `search`, and how many it has in all. */
export interface TopRankerIndex extends RankerIndex {
  /** `total` is exact unless `count` is false (then no caller reads it, and the ranker may stop at `limit`). */
  searchTop(query: string, options: SearchOptions, limit: number, count?: boolean): { hits: SearchHit[]; total: number };
}

function isTopIndex(index: RankerIndex): index is TopRankerIndex {
  return typeof (index as Partial<TopRankerIndex>).searchTop === 'function';
}
