// The cost chart's data: one point per request of the conversation, offered
// against permitted definition cost, and the deltas that landed before each
// request as markers. Read from the derived timeline; pure.
import type { TimelineView } from '../../derive/protocol';
import type { TokensView } from '../../derive/labProtocol';
import type { CostSeries, Marker, MarkerKind } from '../../core/report/chart';

export { MARKER_WORDS, niceTicks, shortNumber } from '../../core/report/chart';
export type { CostSeries, Marker, MarkerKind } from '../../core/report/chart';

function kindOf(sources: readonly string[] | undefined, entryKind: string): MarkerKind | undefined {
  if (entryKind === 'layer-edit') return 'config';
  if (!sources || sources.length === 0) return undefined;
  if (sources.includes('promotion')) return 'promotion';
  if (sources.includes('directive') || sources.includes('cfg')) return 'directive';
  return 'config';
}

export function costSeries(view: TimelineView, unit: 'bytes' | 'tokens' = 'bytes', tokens?: TokensView): CostSeries {
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
    const t = tokens?.requests[e.request];
    x.push(i + 1);
    offered.push(unit === 'tokens' ? (t?.offered ?? 0) : r.cost.offered);
    permitted.push(unit === 'tokens' ? (t?.permitted ?? 0) : r.cost.permitted);
    labels.push(`step ${r.step} · cycle ${r.cycle}`);
    entries.push(e.index);
    for (const m of pending) markers.push({ request: i, ...m });
    pending = [];
  }
  return { unit, x, offered, permitted, labels, markers, entries };
}
