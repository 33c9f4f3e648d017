// The cost chart's data: one point per request of the conversation, offered
// against permitted definition cost (or the prompt cache's tokens, or money),
// and the deltas that landed before each request as markers. Read from the
// derived timeline; pure. The series and its SVG are the core's (core/report/chart),
// shared with the HTML report.
import type { ChartRows } from '../../derive/protocol';
import type { TokensView } from '../../derive/labProtocol';
import { axisNumber as axisNumberOf, buildCostSeries, markerKindOf } from '../../core/report/chart';
import type { ChartUnit, CostSeries, SeriesRow } from '../../core/report/chart';

export { MARKER_WORDS, SERIES_NAMES, axisNumber, niceTicks, shortNumber } from '../../core/report/chart';
export type { ChartUnit, CostSeries, Marker, MarkerKind } from '../../core/report/chart';

/**
 * The y axis's labels: bytes and tokens are whole numbers, so a fractional tick (an empty chart's 0 to 1
 * in fifths) is left unlabelled rather than rounded (it read "0 0 0 1 1 1"); dollars keep their cents.
 */
export function yAxisLabels(unit: ChartUnit, ticks: readonly number[]): string[] {
  return ticks.map((v) => (unit !== 'usd' && !Number.isInteger(v) ? '' : axisNumberOf(unit, v)));
}

/** Per request id: the prompt-cache figures the cache and money units read. */
export interface RequestCosts {
  readonly requests: readonly { readonly cacheRead: number; readonly input: number; readonly usd: number }[];
}

type ChartRequest = Extract<ChartRows['rows'][number], { kind: 'request' }>;

function valuesOf(unit: ChartUnit, r: ChartRequest, t: TokensView['requests'][number] | undefined, c: RequestCosts['requests'][number] | undefined, sum: number): [number, number] {
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

export function costSeries(chart: ChartRows, unit: ChartUnit = 'bytes', tokens?: TokensView, costs?: RequestCosts): CostSeries {
  const rows: SeriesRow[] = [];
  // The money unit's second series is the running total of the first.
  let sum = 0;
  for (const e of chart.rows) {
    if (e.kind === 'marker') {
      const marker = markerKindOf(e.sources, e.entryKind);
      if (marker) rows.push({ kind: 'marker', marker, label: e.label });
    } else {
      const [offered, permitted] = valuesOf(unit, e, tokens?.requests[e.id], costs?.requests[e.id], sum);
      sum = permitted;
      rows.push({ kind: 'request', entry: e.entry, step: e.step, cycle: e.cycle, offered, permitted });
    }
  }
  return buildCostSeries(rows, unit);
}
