// One word for a request's prompt cache, everywhere it appears (issue 24.6). Two facts meet here:
// whether the previous request's bytes are a prefix of this one (the byte comparison, providers/
// cache.ts) and how many tokens the provider's cache model actually reads (cache-model.ts). "hit"
// beside "0 cached" contradicted itself when the reused prefix was below the provider's minimum;
// the status now says both, with the reason: "prefix reused · below the 1,024-token minimum: 0 cached".
import type { CacheComparison } from '../providers/cache';
import type { CacheFigures } from '../providers/cache-model';

export interface CacheStatus {
  /** The byte comparison with the previous request. */
  readonly prefix: 'reused' | 'changed' | 'first';
  /** Tokens read from the cache, when the cache model ran. */
  readonly cached?: number;
  /** "prefix reused · 4,054 cached", "prefix reused · below the 1,024-token minimum: 0 cached", ... */
  readonly text: string;
  /** Good news only when tokens were read (or, without the cache model, when the prefix was reused). */
  readonly tone: 'hit' | 'miss';
}

const n = (x: number): string => x.toLocaleString('en-US');

/**
 * The status of one request. `figures` and `minTokens` come from the cost model at the chosen
 * model (ConversationCost.requests[id].figures, ConversationCost.effective.minTokens); without them
 * only the prefix is stated.
 */
export function cacheStatus(cmp: Pick<CacheComparison, 'status' | 'reason'>, figures?: Pick<CacheFigures, 'cacheRead' | 'cacheWrite' | 'sharedPrefix'>, minTokens = 0): CacheStatus {
  const prefix = cmp.status === 'hit' ? 'reused' : cmp.reason === 'first request' ? 'first' : 'changed';
  const head = prefix === 'first' ? 'first request' : `prefix ${prefix}`;
  if (!figures) return { prefix, text: head, tone: prefix === 'reused' ? 'hit' : 'miss' };
  const read = figures.cacheRead;
  let tail: string;
  if (read > 0) tail = `${n(read)} cached`;
  else if (prefix === 'reused' && minTokens > 0 && figures.sharedPrefix < minTokens) tail = `below the ${n(minTokens)}-token minimum: 0 cached`;
  else if (figures.cacheWrite > 0) tail = `${n(figures.cacheWrite)} written: 0 cached`;
  else tail = '0 cached';
  return { prefix, cached: read, text: `${head} · ${tail}`, tone: read > 0 ? 'hit' : 'miss' };
}
