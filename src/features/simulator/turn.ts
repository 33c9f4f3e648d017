// The simulator's view of the document: the rows of a step, its requests, and "Record expectations".
// Which turn is open and the edits that answer it live in the core (core/model/play.ts). Pure.
import type { CallDoc, CycleDoc, Plain, StepDoc } from '../../core';
import type { EntryView, TimelineView } from '../../derive/protocol';

// The open turn and the edits that answer it are the core's (the auto model plays them headless too).
export { isOpenCycle, openTurn, withCall, withReply } from '../../core';
export type { OpenTurn } from '../../core';

/** The 1-based step the simulator follows: the selected row's, else the last (0: no steps). */
export function followedStep(view: TimelineView | undefined, entry: number | undefined, steps: number): number {
  const step = view && entry !== undefined ? view.entries[entry]?.step : undefined;
  return step !== undefined && step <= steps ? step : steps;
}

/** The rows of one step in the timeline view. */
export function stepEntries(view: TimelineView, stepNo: number): EntryView[] {
  return view.entries.filter((e) => e.step === stepNo);
}

/** The request id of a step's cycle, when the derivation has it. */
export function requestOf(view: TimelineView, stepNo: number, cycle: number): number | undefined {
  return view.entries.find((e) => e.kind === 'request' && e.step === stepNo && e.cycle === cycle)?.request;
}

function plainList(list: readonly string[]): Plain[] {
  return [...list];
}

/**
 * The step with what the derivation showed written as expectations: each cycle's cache status and the
 * tools that joined its offered set, each call's status and search results, and the availability of
 * the tools its searches made usable. Existing expectations of other keys stay.
 */
export function recordExpectations(step: StepDoc, stepNo: number, view: TimelineView): { step: StepDoc; count: number } {
  let count = 0;
  const entries = stepEntries(view, stepNo);
  const promoted: string[] = [];
  const cycles = step.cycles.map((cycle, c): CycleDoc => {
    const cycleNo = c + 1;
    const reqId = requestOf(view, stepNo, cycleNo);
    const req = reqId !== undefined ? view.requests[reqId] : undefined;
    let expect: { [key: string]: Plain } = { ...(cycle.expect ?? {}) };
    if (req) {
      expect.cache = req.cache.status;
      count++;
      if (req.added.length > 0) {
        expect.offered_includes = plainList(req.added);
        count++;
      }
    }
    const callEntries = entries.filter((e) => e.kind === 'call' && e.cycle === cycleNo);
    const calls = cycle.calls.map((call, k): CallDoc => {
      const e = callEntries[k];
      if (!e) return call;
      const ce: { [key: string]: Plain } = { ...(call.expect ?? {}) };
      ce.status = e.callStatus ?? 'ok';
      count++;
      if (e.callStatus === 'error' && e.error) {
        ce.error = e.error;
        count++;
      }
      if (e.search) {
        const returned = e.search.returned.map((r) => r.name);
        const usable = e.search.returned.filter((r) => r.status === 'usable').map((r) => r.name);
        const unavailable = e.search.returned.filter((r) => r.status === 'unavailable').map((r) => r.name);
        ce.returned = plainList(returned);
        ce.usable = plainList(usable);
        count += 2;
        if (unavailable.length > 0) {
          ce.unavailable = plainList(unavailable);
          count++;
        }
        if (e.search.total !== undefined) {
          ce.total = e.search.total;
          count++;
        }
        for (const n of usable) if (!promoted.includes(n)) promoted.push(n);
      }
      return { ...call, expect: ce };
    });
    if (Object.keys(expect).length === 0) expect = {};
    return { ...cycle, calls, ...(Object.keys(expect).length > 0 ? { expect } : {}) };
  });
  const stepExpect: { [key: string]: Plain } = { ...(step.expect ?? {}) };
  if (promoted.length > 0) {
    const availability: { [key: string]: Plain } = {};
    for (const n of promoted) availability[n] = 'on';
    stepExpect.availability = availability;
    count++;
  }
  return { step: { ...step, cycles, ...(Object.keys(stepExpect).length > 0 ? { expect: stepExpect } : {}) }, count };
}
