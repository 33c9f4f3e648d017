// The cost chart's data: one point per request of the conversation, offered
// against permitted definition cost, and the deltas that landed before each
// request as markers. Read from the derived timeline; pure.
import type { TimelineView } from '../../derive/protocol';
import type { TokensView } from '../../derive/labProtocol';
import { buildCostSeries, markerKindOf } from '../../core/report/chart';
import type { CostSeries, SeriesRow } from '../../core/report/chart';

export { MARKER_WORDS, niceTicks, shortNumber } from '../../core/report/chart';
export type { CostSeries, Marker, MarkerKind } from '../../core/report/chart';

export function costSeries(view: TimelineView, unit: 'bytes' | 'tokens' = 'bytes', tokens?: TokensView): CostSeries {
  const rows: SeriesRow[] = [];
  for (const e of view.entries) {
    if (e.kind === 'delta' || e.kind === 'layer-edit') {
      const marker = markerKindOf(e.sources, e.kind);
      if (marker) rows.push({ kind: 'marker', marker, label: e.words ?? e.label });
    } else if (e.kind === 'request' && e.request !== undefined) {
      const r = view.requests[e.request];
      const t = tokens?.requests[e.request];
      if (!r) continue;
      const cost = unit === 'tokens' ? { offered: t?.offered ?? 0, permitted: t?.permitted ?? 0 } : r.cost;
      rows.push({ kind: 'request', entry: e.index, step: r.step, cycle: r.cycle, ...cost });
    }
  }
  return buildCostSeries(rows, unit);
}
