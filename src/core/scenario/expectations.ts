// The checker: a scenario's expectations against the timeline its run produced. Pure, and it never
// re-runs anything: every actual value is read from the timeline (a request's sets, a call's search
// outcome, where a step left the conversation). `tool-workbench check`, the UI's expectation marks and
// "Record expectations" all read its results. One rule per key of the format's table
// (design/scenario-format.md "Expectations").
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { Span } from '../config/toml-ast';
import type { Sets } from '../stream/sets';
import type { CallRecord, RequestRecord, StepRecord, Timeline } from '../turn/timeline';
import type { PromotionStatus } from '../turn/fold';
import { availabilityMatches, containsAll, excludesAll, findingsMatch, includesAll, listEquals, recordEquals, scalarEquals, setEquals } from './check';
import type { Comparison } from './check';
import type { Expectations, Scenario, ScenarioStep } from './types';
import { COST_RULES, costSubjects } from './cost-expectations';
import type { CostCheckOptions, CostSubject } from './cost-expectations';

export interface ExpectationResult {
  readonly where: { readonly load?: true; readonly step?: number; readonly cycle?: number; readonly call?: number };
  readonly label: string;
  readonly key: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly pass: boolean;
  readonly span: Span;
  /** The timeline row the expectation stands on. */
  readonly entry: number;
}

type Where = ExpectationResult['where'];

/** What the set keys read: the sets, registration and availability at one position. */
interface SetsSubject {
  readonly sets: Sets;
  readonly registered: boolean;
  readonly availability: (name: string) => string;
}

/**
 * One key's rule: what it reads of its subject (the actual value), and how the expected value is
 * compared with it. Checking compares; recording (`recordableExpectations`) writes what it reads.
 */
interface Rule<T> {
  readonly read: (subject: T) => unknown;
  readonly check: (expected: unknown, subject: T) => Comparison;
}

function rule<T, A>(read: (subject: T) => A, compare: (expected: unknown, actual: A) => Comparison): Rule<T> {
  return { read, check: (expected, subject) => compare(expected, read(subject)) };
}

const contains = (expected: unknown, text: string | undefined): Comparison => ({ pass: containsAll(expected, text), actual: text ?? null });

// Keys of a step and of a cycle: the sets of that moment.
const SET_RULES: ReadonlyMap<string, Rule<SetsSubject>> = new Map([
  ['offered', rule((s: SetsSubject) => s.sets.offered, setEquals)],
  ['permitted', rule((s: SetsSubject) => s.sets.permitted, setEquals)],
  ['searchable', rule((s: SetsSubject) => s.sets.searchable, setEquals)],
  ['servers', rule((s: SetsSubject) => s.sets.servers, setEquals)],
  ['offered_includes', rule((s: SetsSubject) => s.sets.offered, includesAll)],
  ['offered_excludes', rule((s: SetsSubject) => s.sets.offered, excludesAll)],
  ['permitted_includes', rule((s: SetsSubject) => s.sets.permitted, includesAll)],
  ['permitted_excludes', rule((s: SetsSubject) => s.sets.permitted, excludesAll)],
  ['availability', rule((s: SetsSubject) => s.availability, availabilityMatches)],
  ['search_tools', rule((s: SetsSubject) => s.registered, scalarEquals)],
]);

// Keys of a cycle only: its request.
const REQUEST_RULES: ReadonlyMap<string, Rule<RequestRecord>> = new Map([
  ['offered_order', rule((r: RequestRecord) => r.array, listEquals)],
  ['tool_choice', rule((r: RequestRecord) => (r.toolChoice.kind === 'function' ? r.toolChoice.name : r.toolChoice.kind), scalarEquals)],
  ['cache', rule((r: RequestRecord) => r.cache().status, scalarEquals)],
  ['overhead_chars', rule((r: RequestRecord) => ({ offered: r.cost.offered, permitted: r.cost.permitted }), recordEquals)],
  ['provider_warnings', rule((r: RequestRecord) => r.findings().map((d) => `${d.severity}: ${d.message}`), findingsMatch)],
]);

const returnedNames = (c: CallRecord): string[] => c.search?.returned.map((r) => r.name) ?? [];
const withStatus = (c: CallRecord, status: PromotionStatus): string[] => c.search?.returned.filter((r) => r.status === status).map((r) => r.name) ?? [];

// Keys of a call: its result.
const CALL_RULES: ReadonlyMap<string, Rule<CallRecord>> = new Map([
  ['returned', rule(returnedNames, listEquals)],
  ['returned_includes', rule(returnedNames, includesAll)],
  ['usable', rule((c: CallRecord) => withStatus(c, 'usable'), setEquals)],
  ['unavailable', rule((c: CallRecord) => withStatus(c, 'unavailable'), setEquals)],
  ['total', rule((c: CallRecord) => c.search?.total, scalarEquals)],
  ['status', rule((c: CallRecord) => c.status, scalarEquals)],
  ['result_contains', rule((c: CallRecord) => c.result, contains)],
  ['error', rule((c: CallRecord) => c.error, contains)],
]);

// Keys of a step on its layer texts, `{ LAYER = ... }`: one result per layer named.
const LAYER_RULES: ReadonlyMap<string, (expected: unknown, text: string | undefined) => Comparison> = new Map([
  ['layer_text', (v: unknown, text: string | undefined) => ({ pass: text === v, actual: text ?? null })],
  ['layer_contains', contains],
  [
    'layer_excludes',
    (v: unknown, text: string | undefined) => ({ pass: text !== undefined && (Array.isArray(v) ? v : [v]).every((s) => !text.includes(String(s))), actual: text ?? null }),
  ],
]);

export function labelOf(where: Where): string {
  if (where.load) return 'load';
  const parts: string[] = [];
  if (where.step !== undefined) parts.push(`step ${where.step}`);
  if (where.cycle !== undefined) parts.push(`cycle ${where.cycle}`);
  if (where.call !== undefined) parts.push(`call ${where.call}`);
  return parts.join(' ');
}

/** Results in the order the expectations were met: load, then each step's cycles (request, then calls), then the step's own. */
class Results {
  readonly list: ExpectationResult[] = [];
  add(where: Where, entry: number, key: string, expected: unknown, cmp: Comparison, span: Span): void {
    this.list.push({ where, label: labelOf(where), key, expected, actual: cmp.actual, pass: cmp.pass, span, entry });
  }
  /** Every key of `exp` that `rules` knows, in file order. */
  apply<T>(exp: Expectations, rules: ReadonlyMap<string, Rule<T>>, subject: T, where: Where, entry: number): void {
    for (const [key, { value, span }] of exp) {
      const r = rules.get(key);
      if (r) this.add(where, entry, key, value, r.check(value, subject), span);
    }
  }
}

/** Availability as the keys read it: builtins are on (search_tools once registered), unknown names "not configured". */
function availabilityAt(timeline: Timeline, position: number, registered: boolean): (name: string) => string {
  return (name) => {
    if (name === DESCRIBE_TOOLS) return 'on';
    if (name === SEARCH_TOOLS) return registered ? 'on' : 'not configured';
    return timeline.statesAt(position).get(name)?.enable.availability.value ?? 'not configured';
  };
}

function checkLoad(load: Expectations | undefined, timeline: Timeline, out: Results): void {
  const expected = load?.get('error');
  if (!expected) return;
  const errors = timeline.diagnostics.filter((d) => d.severity === 'error');
  const hit = errors.find((d) => containsAll(expected.value, d.message));
  out.add({ load: true }, timeline.loadEntry, 'error', expected.value, { pass: hit !== undefined, actual: errors.map((d) => d.message) }, expected.span);
}

/** A step's cycles (each request's expectations, then its calls'), in the order they ran. */
function checkCycles(step: ScenarioStep, stepNo: number, index: TimelineIndex, timeline: Timeline, out: Results, costs: (request: number) => CostSubject): void {
  step.cycles.forEach((cycle, c) => {
    const cycleNo = c + 1;
    const req = index.requests.get(`${stepNo}:${cycleNo}`);
    if (!req) return; // the cycle never ran (the turn failed, or ended before it)
    if (cycle.expect) {
      const where = { step: stepNo, cycle: cycleNo };
      const entry = index.requestEntry.get(req.id) ?? 0;
      const subject: SetsSubject = { sets: req.sets, registered: req.registered, availability: availabilityAt(timeline, req.position, req.registered) };
      out.apply(cycle.expect, SET_RULES, subject, where, entry);
      out.apply(cycle.expect, REQUEST_RULES, req, where, entry);
      out.apply(cycle.expect, COST_RULES, costs(req.id), where, entry);
    }
    cycle.calls.forEach((call, k) => {
      const record = index.calls.get(`${stepNo}:${cycleNo}:${k}`);
      if (!call.expect || !record) return;
      out.apply(call.expect, CALL_RULES, record.call, { step: stepNo, cycle: cycleNo, call: k + 1 }, record.entry);
    });
  });
}

/** A step's own expectations, at its end: its error, its sets, its layers. A failed command nobody expected fails. */
function checkStepEnd(step: ScenarioStep, record: StepRecord, timeline: Timeline, out: Results): void {
  const where = { step: record.step };
  const entry = record.lastEntry;
  const exp = step.expect;
  const expectsError = exp?.get('error');
  if (record.error !== undefined && !expectsError) out.add(where, entry, 'error', null, { pass: false, actual: record.error }, step.commandSpan);
  if (!exp) return;
  if (expectsError) out.add(where, entry, 'error', expectsError.value, { pass: containsAll(expectsError.value, record.error), actual: record.error ?? null }, expectsError.span);
  const subject: SetsSubject = {
    get sets() {
      return record.sets;
    },
    registered: record.registered,
    availability: availabilityAt(timeline, record.position, record.registered),
  };
  out.apply(exp, SET_RULES, subject, where, entry);
  for (const [key, { value, span }] of exp) {
    const compare = LAYER_RULES.get(key);
    if (!compare) continue;
    const wanted = (value ?? {}) as Record<string, unknown>;
    for (const layerName of Object.keys(wanted)) {
      const text = record.layers.find((l) => l.name === layerName)?.text;
      out.add(where, entry, `${key}.${layerName}`, wanted[layerName], compare(wanted[layerName], text), span);
    }
  }
}

/** Requests by step and cycle, calls by step, cycle and index, with their rows. */
interface TimelineIndex {
  readonly requests: ReadonlyMap<string, RequestRecord>;
  readonly requestEntry: ReadonlyMap<number, number>;
  readonly calls: ReadonlyMap<string, { readonly call: CallRecord; readonly entry: number }>;
}

function indexTimeline(timeline: Timeline): TimelineIndex {
  const requests = new Map<string, RequestRecord>();
  for (const r of timeline.requests) requests.set(`${r.step}:${r.cycle}`, r);
  const requestEntry = new Map<number, number>();
  const calls = new Map<string, { call: CallRecord; entry: number }>();
  timeline.entries.forEach((e, i) => {
    if (e.kind === 'request') requestEntry.set(e.request, i);
    else if (e.kind === 'call') calls.set(`${e.step}:${e.cycle}:${e.call.index}`, { call: e.call, entry: i });
  });
  return { requests, requestEntry, calls };
}

/** Every expectation of the scenario, checked against the timeline of its run. */
export function checkExpectations(scenario: Scenario, timeline: Timeline, options: CostCheckOptions = {}): ExpectationResult[] {
  const out = new Results();
  const costs = costSubjects(timeline, options);
  checkLoad(scenario.load, timeline, out);
  const index = indexTimeline(timeline);
  scenario.steps.forEach((step, i) => {
    const record = timeline.steps[i];
    if (!record) return;
    checkCycles(step, i + 1, index, timeline, out, costs);
    checkStepEnd(step, record, timeline, out);
  });
  return out.list;
}

/** Expectation keys and values to write, as plain data. */
export type RecordedKeys = Readonly<Record<string, unknown>>;

/** What "Record expectations" writes on one step: per cycle (and per call of it), and on the step. */
export interface RecordedStep {
  readonly cycles: readonly { readonly expect: RecordedKeys; readonly calls: readonly RecordedKeys[] }[];
  readonly expect: RecordedKeys;
}

const copy = (v: unknown): unknown => (Array.isArray(v) ? [...(v as unknown[])] : v);

function read<T>(rules: ReadonlyMap<string, Rule<T>>, key: string, subject: T): unknown {
  const r = rules.get(key);
  if (!r) throw new Error(`no rule for ${key}`);
  return copy(r.read(subject));
}

/** A call's keys: its status and error, and a search's results with the statuses the fold gave them. */
function recordCall(call: CallRecord): RecordedKeys {
  const out: Record<string, unknown> = { status: read(CALL_RULES, 'status', call) };
  if (call.status === 'error' && call.error) out.error = read(CALL_RULES, 'error', call);
  if (call.search) {
    out.returned = read(CALL_RULES, 'returned', call);
    out.usable = read(CALL_RULES, 'usable', call);
    const unavailable = read(CALL_RULES, 'unavailable', call) as string[];
    if (unavailable.length > 0) out.unavailable = unavailable;
    if (call.search.total !== undefined) out.total = read(CALL_RULES, 'total', call);
  }
  return out;
}

/**
 * The expectations that hold for a step of a run, as the checker reads them: each cycle's cache
 * status and the tools that joined its offered set since the previous request, each call's status
 * (and error) and search results, and on the step the availability of the tools its searches made
 * usable. Recorded, they pass until the design changes what they check.
 */
export function recordableExpectations(timeline: Timeline, stepNo: number): RecordedStep {
  const index = indexTimeline(timeline);
  const record = timeline.steps[stepNo - 1];
  const usable: string[] = [];
  const cycles = timeline.requests
    .filter((r) => r.step === stepNo)
    .map((req) => {
      const expect: Record<string, unknown> = { cache: read(REQUEST_RULES, 'cache', req) };
      const before = timeline.requests[req.id - 1];
      if (before) {
        const had = new Set(before.sets.offered);
        const added = req.sets.offered.filter((n) => !had.has(n));
        if (added.length > 0) expect.offered_includes = added;
      }
      const calls: RecordedKeys[] = [];
      for (let k = 0; index.calls.has(`${stepNo}:${req.cycle}:${k}`); k++) {
        const call = index.calls.get(`${stepNo}:${req.cycle}:${k}`)?.call as CallRecord;
        calls.push(recordCall(call));
        for (const n of withStatus(call, 'usable')) if (!usable.includes(n)) usable.push(n);
      }
      return { expect, calls };
    });
  const expect: Record<string, unknown> = {};
  if (record && usable.length > 0) {
    const availability = availabilityAt(timeline, record.position, record.registered);
    expect.availability = Object.fromEntries(usable.map((n) => [n, availability(n)]));
  }
  return { cycles, expect };
}
