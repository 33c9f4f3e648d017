// Reading the timeline's spine (TimelineView.spine): each row's kind, position, step, cycle and request
// without its words, for the selection, the keys and the simulator. Pure; the words come in windows.
import { KIND_LETTERS } from './protocol';
import type { EntryView, TimelineView } from './protocol';

const KIND_OF = new Map<string, EntryView['kind']>(Object.entries(KIND_LETTERS).map(([k, l]) => [l, k as EntryView['kind']]));

/** What the spine knows of a row: an EntryView without its words. */
export interface SpineEntry {
  readonly index: number;
  readonly kind: EntryView['kind'];
  readonly position: number;
  readonly step?: number;
  readonly cycle?: number;
  readonly request?: number;
}

const requestOfRow = new WeakMap<TimelineView, Map<number, number>>();

function requestsByRow(view: TimelineView): Map<number, number> {
  let m = requestOfRow.get(view);
  if (!m) {
    m = new Map(view.requestEntries.map((row, id) => [row, id]));
    requestOfRow.set(view, m);
  }
  return m;
}

export function spineEntry(view: TimelineView | undefined, index: number | undefined): SpineEntry | undefined {
  if (!view || index === undefined || index < 0 || index >= view.entryCount) return undefined;
  const kind = KIND_OF.get(view.spine.kinds[index] ?? '');
  if (!kind) return undefined;
  const step = view.spine.steps[index] ?? 0;
  const cycle = view.spine.cycles[index] ?? 0;
  const request = kind === 'request' ? requestsByRow(view).get(index) : undefined;
  return { index, kind, position: view.spine.positions[index] ?? 0, ...(step > 0 ? { step } : {}), ...(cycle > 0 ? { cycle } : {}), ...(request !== undefined ? { request } : {}) };
}

/** The rows of a step (1-based) lie in [from, to); undefined when it has none. */
export function stepRange(view: TimelineView, stepNo: number): { from: number; to: number } | undefined {
  const from = view.spine.steps.indexOf(stepNo);
  if (from < 0) return undefined;
  return { from, to: view.spine.steps.lastIndexOf(stepNo) + 1 };
}

/** The request a row stands on: its own, else the nearest one before it. */
export function requestAtEntry(view: TimelineView | undefined, entry: number | undefined): number | undefined {
  if (!view || entry === undefined) return undefined;
  const rows = view.requestEntries;
  // Rows of requests ascend with their ids: the last one at or before the row.
  let lo = 0;
  let hi = rows.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((rows[mid] ?? Infinity) <= entry) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
