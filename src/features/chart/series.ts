// The cost chart's data: one point per request of the conversation, offered
// against permitted definition cost, and the deltas that landed before each
// request as markers. Read from the derived timeline; pure.
import type { TimelineView } from '../../derive/protocol';
import type { TokensView } from '../../derive/labProtocol';

export type MarkerKind = 'promotion' | 'directive' | 'config';

/** What the chart plots: definition cost (bytes, tokens), or the prompt cache's tokens, or money (issue 13). */
export type ChartUnit = 'bytes' | 'tokens' | 'cache' | 'usd';

/** The two series' names and the y axis' words per unit (the series keep the names offered/permitted in code). */
export const SERIES_NAMES: Readonly<Record<ChartUnit, { readonly a: string; readonly b: string; readonly axis: string; readonly short: string }>> = {
  bytes: { a: 'offered', b: 'permitted', axis: 'definition cost (bytes)', short: 'bytes' },
  tokens: { a: 'offered', b: 'permitted', axis: 'definition cost (tokens, estimated)', short: 'tokens, estimated' },
  cache: { a: 'read from the prompt cache', b: 'input tokens', axis: 'prompt tokens (estimated)', short: 'tokens, estimated' },
  usd: { a: 'this request', b: 'conversation so far', axis: 'USD', short: 'USD' },
};

/** Per request id: the prompt-cache figures the cache and money units read. */
export interface RequestCosts {
  readonly requests: readonly { readonly cacheRead: number; readonly input: number; readonly usd: number }[];
}

/** Axis numbers: dollars with enough decimals for a cent's fraction, else 950, 1.2k, 12k. */
export function axisNumber(unit: ChartUnit, v: number): string {
  if (unit !== 'usd') return shortNumber(v);
  if (v === 0) return '$0';
  return `$${Math.abs(v) < 0.01 ? v.toFixed(4) : v.toFixed(3)}`;
}

export interface Marker {
  /** 0-based request index the marker stands before. */
  readonly request: number;
  readonly kind: MarkerKind;
  readonly label: string;
}

export interface CostSeries {
  readonly unit: ChartUnit;
  /** 1-based request numbers. */
  readonly x: readonly number[];
  readonly offered: readonly number[];
  readonly permitted: readonly number[];
  /** "step 2 · cycle 1" per request. */
  readonly labels: readonly string[];
  readonly markers: readonly Marker[];
  /** The timeline row of each request, for click-to-select. */
  readonly entries: readonly number[];
}

export const MARKER_WORDS: Readonly<Record<MarkerKind, string>> = {
  promotion: 'promotion',
  directive: 'directive (-t/-T/--cfg)',
  config: 'config edit',
};

function kindOf(sources: readonly string[] | undefined, entryKind: string): MarkerKind | undefined {
  if (entryKind === 'layer-edit') return 'config';
  if (!sources || sources.length === 0) return undefined;
  if (sources.includes('promotion')) return 'promotion';
  if (sources.includes('directive') || sources.includes('cfg')) return 'directive';
  return 'config';
}

function valuesOf(unit: ChartUnit, r: TimelineView['requests'][number], t: TokensView['requests'][number] | undefined, c: RequestCosts['requests'][number] | undefined, sum: number): [number, number] {
  switch (unit) {
    case 'bytes':
      return [r.cost.offered, r.cost.permitted];
    case 'tokens':
      return [t?.offered ?? 0, t?.permitted ?? 0];
    case 'cache':
      return [c?.cacheRead ?? 0, c?.input ?? 0];
    case 'usd':
      return [c?.usd ?? 0, sum + (c?.usd ?? 0)];
  }
}

export function costSeries(view: TimelineView, unit: ChartUnit = 'bytes', tokens?: TokensView, costs?: RequestCosts): CostSeries {
  const x: number[] = [];
  const offered: number[] = [];
  const permitted: number[] = [];
  const labels: string[] = [];
  const entries: number[] = [];
  const markers: Marker[] = [];
  let pending: { kind: MarkerKind; label: string }[] = [];
  for (const e of view.entries) {
    if (e.kind === 'delta' || e.kind === 'layer-edit') {
      const kind = kindOf(e.sources, e.kind);
      if (kind) pending.push({ kind, label: e.words ?? e.label });
      continue;
    }
    if (e.kind !== 'request' || e.request === undefined) continue;
    const r = view.requests[e.request];
    if (!r) continue;
    const i = x.length;
    const [a, b] = valuesOf(unit, r, tokens?.requests[e.request], costs?.requests[e.request], permitted[permitted.length - 1] ?? 0);
    x.push(i + 1);
    offered.push(a);
    permitted.push(b);
    labels.push(`step ${r.step} · cycle ${r.cycle}`);
    entries.push(e.index);
    for (const m of pending) markers.push({ request: i, ...m });
    pending = [];
  }
  return { unit, x, offered, permitted, labels, markers, entries };
}

/** Round tick values covering [0, max] (about `count` of them). */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 0.5; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  if ((ticks[ticks.length - 1] ?? 0) < max) ticks.push((ticks[ticks.length - 1] ?? 0) + step);
  return ticks;
}

/** Short axis numbers: 950, 1.2k, 12k, 1.5M. */
export function shortNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${(v / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(a >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(v));
}
