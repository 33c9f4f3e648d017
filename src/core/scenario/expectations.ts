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
import { availabilityMatches, containsAll, excludesAll, includesAll, listEquals, recordEquals, scalarEquals, setEquals } from './check';
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

type Rule<T> = (expected: unknown, subject: T) => Comparison;

// Keys of a step and of a cycle: the sets of that moment.
const SET_RULES: ReadonlyMap<string, Rule<SetsSubject>> = new Map<string, Rule<SetsSubject>>([
  ['offered', (v, s) => setEquals(v, s.sets.offered)],
  ['permitted', (v, s) => setEquals(v, s.sets.permitted)],
  ['searchable', (v, s) => setEquals(v, s.sets.searchable)],
  ['servers', (v, s) => setEquals(v, s.sets.servers)],
  ['offered_includes', (v, s) => includesAll(v, s.sets.offered)],
  ['offered_excludes', (v, s) => excludesAll(v, s.sets.offered)],
  ['permitted_includes', (v, s) => includesAll(v, s.sets.permitted)],
  ['permitted_excludes', (v, s) => excludesAll(v, s.sets.permitted)],
  ['availability', (v, s) => availabilityMatches(v, s.availability)],
  ['search_tools', (v, s) => scalarEquals(v, s.registered)],
]);

// Keys of a cycle only: its request.
const REQUEST_RULES: ReadonlyMap<string, Rule<RequestRecord>> = new Map<string, Rule<RequestRecord>>([
  ['offered_order', (v, r) => listEquals(v, r.array)],
  ['tool_choice', (v, r) => scalarEquals(v, r.toolChoice.kind === 'function' ? r.toolChoice.name : r.toolChoice.kind)],
  ['cache', (v, r) => scalarEquals(v, r.cache().status)],
  ['overhead_chars', (v, r) => recordEquals(v, { offered: r.cost.offered, permitted: r.cost.permitted })],
]);

const returnedNames = (c: CallRecord): string[] => c.search?.returned.map((r) => r.name) ?? [];
const withStatus = (c: CallRecord, status: PromotionStatus): string[] => c.search?.returned.filter((r) => r.status === status).map((r) => r.name) ?? [];

// Keys of a call: its result.
const CALL_RULES: ReadonlyMap<string, Rule<CallRecord>> = new Map<string, Rule<CallRecord>>([
  ['returned', (v, c) => listEquals(v, returnedNames(c))],
  ['returned_includes', (v, c) => includesAll(v, returnedNames(c))],
  ['usable', (v, c) => setEquals(v, withStatus(c, 'usable'))],
  ['unavailable', (v, c) => setEquals(v, withStatus(c, 'unavailable'))],
  ['total', (v, c) => scalarEquals(v, c.search?.total)],
  ['status', (v, c) => scalarEquals(v, c.status)],
  ['result_contains', (v, c) => ({ pass: containsAll(v, c.result), actual: c.result })],
  ['error', (v, c) => ({ pass: containsAll(v, c.error), actual: c.error ?? null })],
]);

// Keys of a step on its layer texts, `{ LAYER = ... }`: one result per layer named.
const LAYER_RULES: ReadonlyMap<string, (expected: unknown, text: string | undefined) => Comparison> = new Map([
  ['layer_text', (v: unknown, text: string | undefined) => ({ pass: text === v, actual: text ?? null })],
  ['layer_contains', (v: unknown, text: string | undefined) => ({ pass: containsAll(v, text), actual: text ?? null })],
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
      const rule = rules.get(key);
      if (rule) this.add(where, entry, key, value, rule(value, subject), span);
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
    const rule = LAYER_RULES.get(key);
    if (!rule) continue;
    const wanted = (value ?? {}) as Record<string, unknown>;
    for (const layerName of Object.keys(wanted)) {
      const text = record.layers.find((l) => l.name === layerName)?.text;
      out.add(where, entry, `${key}.${layerName}`, wanted[layerName], rule(wanted[layerName], text), span);
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
