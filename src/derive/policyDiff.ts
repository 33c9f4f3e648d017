// What flipping one policy switch changes, position by position: the two
// timelines of the same scenario (current policy, flipped) compared request by
// request, call by call and step by step. Only what the core computed is
// compared; nothing is re-derived here.
import { cacheStatus } from '../core';
import type { ExpectationResult, Timeline } from '../core';

export interface DiffChange {
  readonly what: string;
  readonly before: string;
  readonly after: string;
}

export interface DiffRow {
  readonly kind: 'step' | 'request' | 'call' | 'expectation';
  /** "step 2 cycle 1", "step 2 cycle 1 call 1". */
  readonly where: string;
  readonly step: number;
  readonly cycle?: number;
  /** The timeline row (in the flipped run) this row stands on, to select it. */
  readonly entry?: number;
  readonly changes: readonly DiffChange[];
}

export interface TimelineDiff {
  readonly rows: readonly DiffRow[];
  readonly requests: { readonly before: number; readonly after: number; readonly changed: number };
  readonly calls: { readonly before: number; readonly after: number; readonly changed: number };
  readonly expectations: { readonly before: { passed: number; failed: number }; readonly after: { passed: number; failed: number } };
  /** Requests whose bytes begin with the previous request's (the cache word's "prefix reused", issue 24.6), of all requests. */
  readonly cache: { readonly before: { reused: number; requests: number }; readonly after: { reused: number; requests: number } };
  readonly cost: { readonly before: number; readonly after: number };
}

const LIST_LIMIT = 12;

function names(list: readonly string[]): string {
  if (list.length === 0) return '—';
  const shown = list.slice(0, LIST_LIMIT).join(', ');
  return list.length > LIST_LIMIT ? `${shown} and ${list.length - LIST_LIMIT} more` : shown;
}

function setChange(what: string, a: readonly string[], b: readonly string[]): DiffChange | undefined {
  const sa = new Set(a);
  const sb = new Set(b);
  const removed = a.filter((n) => !sb.has(n));
  const added = b.filter((n) => !sa.has(n));
  if (removed.length === 0 && added.length === 0) return undefined;
  return { what, before: `${a.length} tools${removed.length > 0 ? `; only here: ${names(removed)}` : ''}`, after: `${b.length} tools${added.length > 0 ? `; only here: ${names(added)}` : ''}` };
}

/** The two orders around the first place they part, when they hold the same names in another order (or differ). */
function orderChange(a: readonly string[], b: readonly string[]): DiffChange | undefined {
  const n = Math.max(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  if (i === n) return undefined;
  const from = Math.max(0, i - 1);
  const window = (list: readonly string[]) => `${from > 0 ? '… ' : ''}${list.slice(from, from + 6).map((name, k) => `${from + k + 1}. ${name}`).join(', ')}${from + 6 < list.length ? ' …' : ''}`;
  return { what: `tools array order (first differs at #${i + 1})`, before: window(a), after: window(b) };
}

function entryOf(t: Timeline, match: (e: Timeline['entries'][number]) => boolean): number | undefined {
  const i = t.entries.findIndex(match);
  return i < 0 ? undefined : i;
}

function cacheCounts(t: Timeline): { reused: number; requests: number } {
  let reused = 0;
  for (const r of t.requests) if (cacheStatus(r.cache()).prefix === 'reused') reused++;
  return { reused, requests: t.requests.length };
}

function searchText(c: Timeline['calls'][number]): string {
  if (!c.search) return '';
  const returned = c.search.returned.map((r) => `${r.name}${r.status === 'usable' ? '' : ' (found, unavailable)'}`);
  return `${names(returned)}${c.search.total !== undefined ? ` · total ${c.search.total}` : ''}`;
}

/** `expectations`: the checker's results over each timeline. */
export function diffTimelines(a: Timeline, b: Timeline, expectations: { readonly before: readonly ExpectationResult[]; readonly after: readonly ExpectationResult[] }): TimelineDiff {
  const rows: DiffRow[] = [];

  // Steps: an invocation may fail under one policy and not the other.
  const stepErrors = (t: Timeline) => new Map(t.entries.flatMap((e) => (e.kind === 'step' ? [[e.step, e.error ?? ''] as const] : [])));
  const ea = stepErrors(a);
  const eb = stepErrors(b);
  for (const [step, err] of eb) {
    const before = ea.get(step) ?? '';
    if (before === err) continue;
    rows.push({
      kind: 'step', where: `step ${step}`, step, entry: entryOf(b, (e) => e.kind === 'step' && e.step === step),
      changes: [{ what: 'invocation', before: before || 'ran', after: err || 'ran' }],
    });
  }

  // Requests, matched by step and cycle.
  const key = (step: number, cycle: number) => `${step}:${cycle}`;
  const ra = new Map(a.requests.map((r) => [key(r.step, r.cycle), r]));
  const rb = new Map(b.requests.map((r) => [key(r.step, r.cycle), r]));
  let changedRequests = 0;
  const requestKeys = [...new Set([...a.requests.map((r) => key(r.step, r.cycle)), ...b.requests.map((r) => key(r.step, r.cycle))])];
  for (const k of requestKeys) {
    const x = ra.get(k);
    const y = rb.get(k);
    const [step, cycle] = k.split(':').map(Number) as [number, number];
    const where = `step ${step} cycle ${cycle}`;
    const entry = y ? entryOf(b, (e) => e.kind === 'request' && e.request === y.id) : undefined;
    if (!x || !y) {
      changedRequests++;
      rows.push({ kind: 'request', where, step, cycle, ...(entry !== undefined ? { entry } : {}), changes: [{ what: 'request', before: x ? 'sent' : 'not sent', after: y ? 'sent' : 'not sent' }] });
      continue;
    }
    const changes: DiffChange[] = [];
    const offered = setChange('offered set', x.sets.offered, y.sets.offered);
    if (offered) changes.push(offered);
    const permitted = setChange('permitted set', x.sets.permitted, y.sets.permitted);
    if (permitted) changes.push(permitted);
    const searchable = setChange('searchable set', x.sets.searchable, y.sets.searchable);
    if (searchable) changes.push(searchable);
    const order = orderChange(x.array, y.array);
    if (order) changes.push(order);
    const cx = x.cache();
    const cy = y.cache();
    // The cache word every panel uses (issue 24.6): a bare "hit" here read as tokens cached.
    if (cx.status !== cy.status) changes.push({ what: 'cache prefix', before: `${cacheStatus(cx).text} (${cx.reason})`, after: `${cacheStatus(cy).text} (${cy.reason})` });
    if (x.cost.offered !== y.cost.offered) changes.push({ what: 'offered definition cost', before: `${x.cost.offered} bytes`, after: `${y.cost.offered} bytes` });
    const tx = x.toolChoice.kind === 'function' ? x.toolChoice.name : x.toolChoice.kind;
    const ty = y.toolChoice.kind === 'function' ? y.toolChoice.name : y.toolChoice.kind;
    if (tx !== ty) changes.push({ what: 'tool_choice', before: tx, after: ty });
    const bx = x.rendered().bytes;
    const by = y.rendered().bytes;
    if (changes.length === 0 && bx !== by) changes.push({ what: 'request bytes', before: `${bx.length} characters`, after: `${by.length} characters (provider shape differs)` });
    if (changes.length > 0) {
      changedRequests++;
      rows.push({ kind: 'request', where, step, cycle, ...(entry !== undefined ? { entry } : {}), changes });
    }
  }

  // Calls, matched by step, cycle and index (the replay's record when a cycle restarted).
  const callKey = (c: Timeline['calls'][number]) => `${c.step}:${c.cycle}:${c.index}`;
  const ca = new Map(a.calls.map((c) => [callKey(c), c]));
  const cb = new Map(b.calls.map((c) => [callKey(c), c]));
  let changedCalls = 0;
  for (const k of [...new Set([...ca.keys(), ...cb.keys()])]) {
    const x = ca.get(k);
    const y = cb.get(k);
    const [step, cycle, index] = k.split(':').map(Number) as [number, number, number];
    const where = `step ${step} cycle ${cycle} call ${index + 1}`;
    const entry = y ? entryOf(b, (e) => e.kind === 'call' && e.call === y) : undefined;
    const changes: DiffChange[] = [];
    if (!x || !y) changes.push({ what: 'call', before: x ? `${x.tool}: ${x.status}` : 'not made', after: y ? `${y.tool}: ${y.status}` : 'not made' });
    else {
      if (x.status !== y.status || (x.error ?? '') !== (y.error ?? '')) changes.push({ what: `${y.tool} status`, before: x.error ? `${x.status}: ${x.error}` : x.status, after: y.error ? `${y.status}: ${y.error}` : y.status });
      const sx = searchText(x);
      const sy = searchText(y);
      if (sx !== sy) changes.push({ what: `search_tools(${JSON.stringify(y.search?.query ?? x.search?.query ?? '')}) results`, before: sx || '—', after: sy || '—' });
    }
    if (changes.length > 0) {
      changedCalls++;
      rows.push({ kind: 'call', where, step, cycle, ...(entry !== undefined ? { entry } : {}), changes });
    }
  }

  // Expectations whose verdict flips.
  const verdict = new Map(expectations.before.map((e) => [`${e.label}|${e.key}`, e.pass]));
  for (const e of expectations.after) {
    const before = verdict.get(`${e.label}|${e.key}`);
    if (before === undefined || before === e.pass) continue;
    rows.push({
      kind: 'expectation', where: `${e.label || 'load'}: ${e.key}`, step: e.where.step ?? 0, entry: e.entry,
      changes: [{ what: `expectation ${e.key}`, before: before ? 'pass' : 'fail', after: `${e.pass ? 'pass' : 'fail'} (actual ${JSON.stringify(e.actual)?.slice(0, 120) ?? 'none'})` }],
    });
  }

  rows.sort((p, q) => p.step - q.step || (p.cycle ?? 0) - (q.cycle ?? 0) || kindRank(p.kind) - kindRank(q.kind) || p.where.localeCompare(q.where));
  const count = (list: readonly ExpectationResult[]) => ({ passed: list.filter((e) => e.pass).length, failed: list.filter((e) => !e.pass).length });
  const cost = (t: Timeline) => t.requests.reduce((s, r) => s + r.cost.offered, 0);
  return {
    rows,
    requests: { before: a.requests.length, after: b.requests.length, changed: changedRequests },
    calls: { before: a.calls.length, after: b.calls.length, changed: changedCalls },
    expectations: { before: count(expectations.before), after: count(expectations.after) },
    cache: { before: cacheCounts(a), after: cacheCounts(b) },
    cost: { before: cost(a), after: cost(b) },
  };
}

function kindRank(k: DiffRow['kind']): number {
  return k === 'step' ? 0 : k === 'request' ? 1 : k === 'call' ? 2 : 3;
}
