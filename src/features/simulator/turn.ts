// The simulator's view of the document: which turn is open (awaiting the
// model), and the edits that acting as the model makes to it. Every edit is an
// ordinary scenario step (saved, replayed, checked). Pure functions.
//
// A turn is open when its step is a `jp q` and it has no cycle yet, or its last
// cycle has neither calls nor a reply: that cycle's request has been sent and
// waits for the model's response. (Run as a file, an open cycle ends the turn
// with an empty reply, so an unfinished session is still a valid scenario.)
import { parseCommand } from '../../core';
import type { CallDoc, CycleDoc, Plain, RecordedKeys, RecordedStep, ScenarioDoc, StepDoc } from '../../core';
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
