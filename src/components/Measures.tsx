// Numbers with units and outcome words, the same in every panel: definition
// costs in bytes (and tokens), cache hit or miss as a word, a search result's
// status as a word.
import { cacheStatus } from '../core';
import type { CacheStatus } from '../core';
import './measures.css';

const nf = new Intl.NumberFormat('en-US');

/** "2,357 B" below 10 KB, else "12.3 KB" (1 KB = 1,000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 10_000) return `${nf.format(bytes)} B`;
  if (bytes < 10_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export function formatCount(n: number): string {
  return nf.format(n);
}

/** "1 tool", "2 tools", "1,024 tools": a count and its noun, agreeing (issue 24: no "1 tools"). */
export function countOf(n: number, noun: string, nouns = `${noun}s`): string {
  return `${nf.format(n)} ${n === 1 ? noun : nouns}`;
}

export function formatPercent(part: number, whole: number): string {
  if (whole === 0) return '0%';
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** The cache word of a prediction (a tool list that changed): the prefix words of cacheStatus, never a bare hit or miss (issue 24.6). */
export function CacheWord({ status, reason }: { readonly status: 'hit' | 'miss'; readonly reason?: string }) {
  return (
    <span className={`word cache-${status}`} title={reason} data-cache={status}>
      {status === 'hit' ? 'prefix reused' : 'prefix changed'}
    </span>
  );
}

/**
 * A request's one cache status (issue 24.6): the core's words, "prefix reused · below the 1,024-token
 * minimum: 0 cached", the same in the timeline, the inspector, the simulator and the report. Before the
 * cost model has run, only the prefix comparison is stated.
 */
export function CacheStatusWord({ cmp, said }: { readonly cmp: { readonly status: 'hit' | 'miss'; readonly reason: string }; readonly said: CacheStatus | undefined }) {
  const s = said ?? cacheStatus(cmp);
  return (
    <span className={`word cache-${s.tone}`} title={`prefix comparison: ${cmp.reason}`} data-cache={cmp.status} data-testid="cache-status">
      {s.text}
    </span>
  );
}

export function SearchStatus({ status }: { readonly status: 'usable' | 'unavailable' }) {
  return (
    <span className={`word status-${status}`} data-status={status}>
      {status === 'usable' ? 'usable' : 'found, unavailable'}
    </span>
  );
}

/** A tool that joined the offered set, with why (promotion, directive). */
export function JoinedChip({ name, why }: { readonly name: string; readonly why: string }) {
  return (
    <span className="joined" title={`${name} joined the offered set (${why})`} data-joined={name}>
      <span aria-hidden="true">+</span>
      <code>{name}</code>
    </span>
  );
}
