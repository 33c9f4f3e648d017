// Each provider's prompt cache, as data: where the tools array sits in the cached prefix, what can be
// cached and how, the minimum cacheable length, the step cached lengths come in, the time-to-live, and
// the read and write price factors. Every rule carries the public document it comes from (read through
// stored copies of the pages on 2026-12-01); a rule a provider does not document says so in
// `undocumented`, and the simulation's stand-in for it is named there too, never silently guessed.
// Model-specific numbers (Anthropic's and Google's minimums, each model's read price) live in the
// dated price table (prices.ts); the numbers in each provider's module are its defaults. This module
// holds their shape.
import type { ProviderId } from './types';

export type CacheSection = 'tools' | 'system' | 'messages';

/**
 * How a provider caches:
 * - `breakpoints`: only prefixes ending at a `cache_control` breakpoint are written; a later request
 *   reads the longest written prefix it repeats (Anthropic);
 * - `prefix`: every request's prefix is kept automatically and a later request reads the longest
 *   prefix it shares with one of them (OpenAI, Google, Cerebras);
 * - `local-kv`: a local runtime keeps the KV cache of the previous request in its slot and skips the
 *   prefill of the prefix the next request shares with it: tokens saved, not money;
 * - `none`: nothing is cached.
 */
export type CacheKind = 'breakpoints' | 'prefix' | 'local-kv' | 'none';

export interface Citation {
  /** The rule this citation backs, in a few words. */
  readonly rule: string;
  readonly document: string;
  readonly url: string;
  /** When the document was read (ISO date). */
  readonly read: string;
}

export interface CacheRules {
  readonly provider: ProviderId;
  readonly kind: CacheKind;
  /** The order of the request's sections in the cached prefix (the tools array first). */
  readonly prefixOrder: readonly CacheSection[];
  /** `breakpoints` only: the sections after which the simulated JP puts a breakpoint. */
  readonly breakpointsAfter: readonly CacheSection[];
  /** `breakpoints` only: how many block boundaries before a breakpoint are checked for a hit. */
  readonly lookbackBlocks?: number;
  /** Minimum cacheable length in tokens (a model's own minimum in the price table wins). */
  readonly minTokens?: number;
  /** Cached lengths come in multiples of this many tokens. */
  readonly step?: number;
  /** Seconds an entry lives without use; undefined: not documented (see `undocumented`). */
  readonly ttlSeconds?: number;
  /** Whether a hit restarts the time-to-live. */
  readonly refreshOnHit: boolean;
  /** Price of a cache write as a factor of the input price (1: writes cost nothing extra). */
  readonly writeFactor: number;
  /** Default price of a cache read as a factor of the input price (the price table has each model's). */
  readonly readFactor: number;
  /** Whether the provider bills (false for local runtimes: prefill tokens saved, no money). */
  readonly money: boolean;
  /** One sentence on how the simulated JP meets this cache. */
  readonly summary: string;
  /** Rules the provider does not document, each with the stand-in the simulation uses. */
  readonly undocumented: readonly string[];
  readonly citations: readonly Citation[];
}

// Each provider's rules live in its module (anthropic.ts, openai.ts, ...) as its descriptor's `cache`;
// the registry gathers them.
export { CACHE_RULES, cacheRulesFor } from './registry';
