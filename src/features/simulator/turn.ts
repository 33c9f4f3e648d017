// The simulator's view of the document: which turn is open (awaiting the
// model), and the edits that acting as the model makes to it. Every edit is an
// ordinary scenario step (saved, replayed, checked). Pure functions.
//
// A turn is open when its step is a `jp q` and it has no cycle yet, or its last
// cycle has neither calls nor a reply: that cycle's request has been sent and
// waits for the model's response. (Run as a file, an open cycle ends the turn
// with an empty reply, so an unfinished session is still a valid scenario.)
import { parseCommand } from '../../core';
import type { CallDoc, CycleDoc, Plain, ScenarioDoc, StepDoc } from '../../core';
import type { EntryView, TimelineView } from '../../derive/protocol';

export interface OpenTurn {
  /** 0-based index of the step in the document. */
  readonly stepIndex: number;
  readonly step: StepDoc;
  readonly query: string;
  /** 1-based cycle awaiting the model. */
  readonly cycle: number;
}

export function isOpenCycle(c: CycleDoc | undefined): boolean {
  return c !== undefined && c.calls.length === 0 && c.reply === undefined && !c.restart;
}

/** The last step's turn when it awaits the model, else undefined. */
export function openTurn(doc: ScenarioDoc): OpenTurn | undefined {
  const stepIndex = doc.steps.length - 1;
  const step = doc.steps[stepIndex];
  if (!step) return undefined;
  const parsed = parseCommand(step.command);
  if (!parsed.ok || parsed.command.kind !== 'query') return undefined;
  if (step.cycles.length === 0) return { stepIndex, step, query: parsed.command.query, cycle: 1 };
  if (!isOpenCycle(step.cycles[step.cycles.length - 1])) return undefined;
  return { stepIndex, step, query: parsed.command.query, cycle: step.cycles.length };
}

/** The step with a call as the open cycle's response; a new open cycle follows (the next request). */
export function withCall(step: StepDoc, call: CallDoc): StepDoc {
  const cycles = step.cycles.length === 0 ? [{ calls: [] } as CycleDoc] : step.cycles;
  const last = cycles[cycles.length - 1] as CycleDoc;
  return { ...step, cycles: [...cycles.slice(0, -1), { ...last, calls: [call] }, { calls: [] }] };
}

/** The step with a reply as the open cycle's response: the turn ends. */
export function withReply(step: StepDoc, text: string): StepDoc {
  const cycles = step.cycles.length === 0 ? [{ calls: [] } as CycleDoc] : step.cycles;
  const last = cycles[cycles.length - 1] as CycleDoc;
  return { ...step, cycles: [...cycles.slice(0, -1), { ...last, calls: [], reply: text }] };
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
