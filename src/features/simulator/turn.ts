// The simulator's view of the document: the step it follows, the rows of a step, its requests, and
// "Record expectations". Which turn is open and the edits that answer it live in the core
// (core/model/play.ts), where the auto model plays them headless too. Pure.
import type { CallDoc, CycleDoc, Plain, RecordedKeys, RecordedStep, StepDoc } from '../../core';
import type { TimelineRow, TimelineView } from '../../derive/protocol';
import { spineEntry } from '../../derive/spine';

export { isOpenCycle, openTurn, withCall, withReply } from '../../core';
export type { OpenTurn } from '../../core';

/** The 1-based step the simulator follows: the selected row's, else the last (0: no steps). */
export function followedStep(view: TimelineView | undefined, entry: number | undefined, steps: number): number {
  const step = view && entry !== undefined ? spineEntry(view, entry)?.step : undefined;
  return step !== undefined && step <= steps ? step : steps;
}

/** The rows of one step, from a window of rows that holds them (see stepRange). */
export function stepEntries(rows: readonly TimelineRow[], stepNo: number): TimelineRow[] {
  return rows.filter((r) => r.entry.step === stepNo);
}

/** The request id of a step's cycle, when the derivation has it. */
export function requestOf(view: TimelineView, stepNo: number, cycle: number): number | undefined {
  const { kinds, steps, cycles } = view.spine;
  for (let i = 0; i < kinds.length; i++) if (kinds[i] === 'r' && steps[i] === stepNo && cycles[i] === cycle) return spineEntry(view, i)?.request;
  return undefined;
}

/** Writes recorded keys over an expect table; existing expectations of other keys stay. */
function withKeys(expect: { [key: string]: Plain } | undefined, keys: RecordedKeys): { expect: { [key: string]: Plain } | undefined; count: number } {
  const entries = Object.entries(keys);
  if (entries.length === 0) return { expect, count: 0 };
  const out: { [key: string]: Plain } = { ...(expect ?? {}) };
  for (const [key, value] of entries) out[key] = value as Plain;
  return { expect: out, count: entries.length };
}

/**
 * The step with what the checker reads of its run written as expectations (see the core's
 * recordableExpectations): each cycle's cache status and the tools that joined its offered set, each
 * call's status and search results, and the availability of the tools its searches made usable.
 */
export function recordExpectations(step: StepDoc, recorded: RecordedStep): { step: StepDoc; count: number } {
  let count = 0;
  const cycles = step.cycles.map((cycle, c): CycleDoc => {
    const r = recorded.cycles[c];
    if (!r) return cycle;
    const calls = cycle.calls.map((call, k): CallDoc => {
      const keys = r.calls[k];
      if (!keys) return call;
      const w = withKeys(call.expect, keys);
      count += w.count;
      return { ...call, ...(w.expect ? { expect: w.expect } : {}) };
    });
    const w = withKeys(cycle.expect, r.expect);
    count += w.count;
    return { ...cycle, calls, ...(w.expect ? { expect: w.expect } : {}) };
  });
  const w = withKeys(step.expect, recorded.expect);
  count += w.count;
  return { step: { ...step, cycles, ...(w.expect ? { expect: w.expect } : {}) }, count };
}
