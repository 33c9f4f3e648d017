// The prompt-cache model: a request as a run of segments (each tool definition, the system prompt, each
// message) with their token counts, and a cache state carried from request to request. `cacheStep`
// applies one provider's rules (cache-rules.ts) to one request and says how many of its input tokens
// were read from the cache, written to it, and left uncached; `priceRequest` prices them at a model's
// rates. Comparison is per segment: a prefix is shared up to the last segment both requests hold
// byte-identical (a partly shared segment counts as not shared), which is how a tokenized prefix
// behaves when one definition in it changes.
import type { CacheKind, CacheRules, CacheSection } from './cache-rules';
import type { ModelPrice } from './prices';

export interface Segment {
  /** What is compared: the segment's text (for Anthropic's last tool, without its cache_control marker). */
  readonly key: string;
  readonly tokens: number;
  readonly section: CacheSection;
}

export interface PromptShape {
  readonly segments: readonly Segment[];
  /** Seconds since the conversation started, when the request is sent. */
  readonly at: number;
}

/** The rules as they apply to one model. */
export interface EffectiveRules {
  readonly kind: CacheKind;
  readonly minTokens: number;
  readonly step: number;
  readonly ttlSeconds?: number;
  readonly refreshOnHit: boolean;
  readonly lookbackBlocks: number;
  /** `breakpoints`: the sections a breakpoint follows. */
  readonly breakpointsAfter: readonly CacheSection[];
  readonly money: boolean;
}

interface Entry {
  readonly keys: readonly string[];
  /** Token count at each prefix length: prefix[i] = tokens of keys[0..i). */
  readonly prefix: readonly number[];
  readonly written: number;
  readonly lastUsed: number;
}

/** What the provider holds between requests. Immutable: each step returns a new state. */
export interface CacheState {
  readonly entries: readonly Entry[];
}

export const EMPTY_CACHE: CacheState = { entries: [] };

export interface CacheFigures {
  /** Every input token of the request. */
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** input - cacheRead - cacheWrite. */
  readonly uncached: number;
  /** Tokens at the start of the request shared with a live cache entry, before the minimum and the step. */
  readonly sharedPrefix: number;
  /** Entries the time-to-live removed before this request. */
  readonly expired: number;
  /** One sentence on what happened. */
  readonly reason: string;
}

/** Resolves a provider's rules for one model (its own minimum; OpenRouter's upstream). */
export function effectiveRules(rules: CacheRules, model?: Pick<ModelPrice, 'minCacheTokens' | 'upstream'>, upstreamRules?: CacheRules): EffectiveRules {
  const base = upstreamRules ?? rules;
  // JP's OpenRouter request carries no cache_control, so an upstream that needs breakpoints caches nothing.
  const kind: CacheKind = upstreamRules && upstreamRules.kind === 'breakpoints' ? 'none' : base.kind;
  return {
    kind,
    minTokens: model?.minCacheTokens ?? base.minTokens ?? 0,
    step: base.step ?? 1,
    ...(base.ttlSeconds !== undefined ? { ttlSeconds: base.ttlSeconds } : {}),
    refreshOnHit: base.refreshOnHit,
    lookbackBlocks: base.lookbackBlocks ?? 0,
    breakpointsAfter: base.breakpointsAfter,
    money: rules.money,
  };
}

function prefixSums(segments: readonly Segment[]): number[] {
  const out = [0];
  let total = 0;
  for (const s of segments) {
    total += s.tokens;
    out.push(total);
  }
  return out;
}

/** How many leading segments two key lists share. */
function commonSegments(a: readonly string[], b: readonly Segment[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]?.key) i++;
  return i;
}

function live(state: CacheState, at: number, ttl: number | undefined): { entries: Entry[]; expired: number } {
  if (ttl === undefined) return { entries: [...state.entries], expired: 0 };
  const entries = state.entries.filter((e) => at - e.lastUsed <= ttl);
  return { entries, expired: state.entries.length - entries.length };
}

/** Rounds a shared length down to what the provider counts: nothing below the minimum, then whole steps. */
export function cachedLength(shared: number, minTokens: number, step: number): number {
  if (shared < minTokens || shared <= 0) return 0;
  return Math.floor(shared / step) * step;
}

/** The index just past the last segment of the sections a breakpoint follows (JP: the last tool). */
function breakpointEnd(segments: readonly Segment[], after: readonly CacheSection[]): number {
  let end = 0;
  segments.forEach((s, i) => {
    if (after.includes(s.section)) end = i + 1;
  });
  return end;
}

const MAX_ENTRIES = 32;

function keep(entries: readonly Entry[], added: Entry): Entry[] {
  // An entry the new one extends is superseded by it (its prefix is a prefix of the new one).
  const rest = entries.filter((e) => !(e.keys.length <= added.keys.length && e.keys.every((k, i) => added.keys[i] === k)));
  return [...rest, added].slice(-MAX_ENTRIES);
}

function touch(entries: readonly Entry[], hit: Entry | undefined, at: number, refresh: boolean): Entry[] {
  if (!hit || !refresh) return [...entries];
  return entries.map((e) => (e === hit ? { ...e, lastUsed: at } : e));
}

function breakpointStep(rules: EffectiveRules, entries: Entry[], expired: number, req: PromptShape, sums: number[], input: number): { figures: CacheFigures; state: CacheState } {
  const { segments, at } = req;
  const end = breakpointEnd(segments, rules.breakpointsAfter);
  const prefixTokens = sums[end] ?? 0;
  const base = { input, expired };
  if (end === 0) return { figures: { ...base, cacheRead: 0, cacheWrite: 0, uncached: input, sharedPrefix: 0, reason: 'no breakpoint: the request has no tools' }, state: { entries } };
  // The longest written prefix this request repeats, at a block boundary up to `lookbackBlocks` before the breakpoint.
  let hit: Entry | undefined;
  let hitLength = 0;
  let shared = 0;
  for (const e of entries) {
    const common = commonSegments(e.keys, segments);
    shared = Math.max(shared, sums[Math.min(common, end)] ?? 0);
    if (common >= e.keys.length && e.keys.length <= end && e.keys.length >= end - rules.lookbackBlocks && e.keys.length > hitLength) {
      hit = e;
      hitLength = e.keys.length;
    }
  }
  if (prefixTokens < rules.minTokens) {
    return {
      figures: { ...base, cacheRead: 0, cacheWrite: 0, uncached: input, sharedPrefix: shared, reason: `the cached prefix (tools, ${prefixTokens} tokens) is below the model's minimum of ${rules.minTokens}: nothing is cached` },
      state: { entries },
    };
  }
  const read = sums[hitLength] ?? 0;
  const write = prefixTokens - read;
  let next = touch(entries, hit, at, rules.refreshOnHit);
  if (write > 0) next = keep(next, { keys: segments.slice(0, end).map((s) => s.key), prefix: sums.slice(0, end + 1), written: at, lastUsed: at });
  const reason =
    write === 0
      ? `read: the tools array (${read} tokens) is read from the cache`
      : read > 0
        ? `partly read: ${read} tokens read at an earlier block boundary, ${write} written up to the breakpoint`
        : `nothing read: the tools array (${write} tokens) is written to the cache${expired > 0 ? ' (the previous entry expired)' : ''}`;
  return { figures: { ...base, cacheRead: read, cacheWrite: write, uncached: input - read - write, sharedPrefix: shared, reason }, state: { entries: next } };
}

function prefixStep(rules: EffectiveRules, entries: Entry[], expired: number, req: PromptShape, sums: number[], input: number): { figures: CacheFigures; state: CacheState } {
  const { segments, at } = req;
  const candidates = rules.kind === 'local-kv' ? entries.slice(-1) : entries;
  let hit: Entry | undefined;
  let common = 0;
  for (const e of candidates) {
    const c = commonSegments(e.keys, segments);
    if (c > common) {
      common = c;
      hit = e;
    }
  }
  const shared = sums[common] ?? 0;
  const read = rules.kind === 'none' ? 0 : cachedLength(shared, rules.minTokens, rules.step);
  const added: Entry = { keys: segments.map((s) => s.key), prefix: sums, written: at, lastUsed: at };
  const next = rules.kind === 'none' ? [] : rules.kind === 'local-kv' ? [added] : keep(touch(entries, read > 0 ? hit : undefined, at, rules.refreshOnHit), added);
  const what = rules.kind === 'local-kv' ? 'prefill skipped for' : 'read from the cache:';
  const reason =
    rules.kind === 'none'
      ? 'nothing is cached for this model'
      : read > 0
        ? `${what} ${read} of ${input} tokens (${shared} shared with an earlier request${read < shared ? `, counted in steps of ${rules.step}` : ''})`
        : shared > 0 && shared < rules.minTokens
          ? `${shared} tokens shared, below the minimum of ${rules.minTokens}: nothing read`
          : expired > 0
            ? 'nothing read: the earlier requests\' cache expired'
            : 'nothing read: no earlier request shares a prefix';
  return { figures: { input, expired, cacheRead: read, cacheWrite: 0, uncached: input - read, sharedPrefix: shared, reason }, state: { entries: next } };
}

/** One request against the cache: what it reads, writes and leaves uncached, and the state after it. */
export function cacheStep(rules: EffectiveRules, state: CacheState, req: PromptShape): { figures: CacheFigures; state: CacheState } {
  const { entries, expired } = live(state, req.at, rules.ttlSeconds);
  const sums = prefixSums(req.segments);
  const input = sums[sums.length - 1] ?? 0;
  if (rules.kind === 'breakpoints') return breakpointStep(rules, entries, expired, req, sums, input);
  return prefixStep(rules, entries, expired, req, sums, input);
}

export interface RequestMoney {
  readonly uncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly total: number;
}

/** USD for one request's tokens at a model's per-million rates. */
export function priceRequest(figures: Pick<CacheFigures, 'uncached' | 'cacheRead' | 'cacheWrite'>, outputTokens: number, model: Pick<ModelPrice, 'input' | 'cacheRead' | 'cacheWrite' | 'output'>): RequestMoney {
  const uncached = (figures.uncached * model.input) / 1e6;
  const cacheRead = (figures.cacheRead * model.cacheRead) / 1e6;
  const cacheWrite = (figures.cacheWrite * model.cacheWrite) / 1e6;
  const output = (outputTokens * model.output) / 1e6;
  return { uncached, cacheRead, cacheWrite, output, total: uncached + cacheRead + cacheWrite + output };
}
