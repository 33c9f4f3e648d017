// Executing a call (RFD 108 "executing a call"): every call of a cycle sees the cycle-start config (the
// request's position). A call that changes config does not change it now: it leaves an entry in the
// cycle's commit buffer (an approved write, or search_tools' promotion), folded at cycle end (fold.ts).
import { assignmentToDelta, parseAssignment } from '../config/assign';
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG } from '../config/read';
import type { Origin, PartialConfig } from '../config/types';
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { ScenarioCall, ScenarioCycle } from '../scenario/types';
import { searchTools } from '../search/contract';
import type { SearchField } from '../search/types';
import { isPermitted, searchableUnlessForced } from '../stream/sets';
import { nextDeltaNumber } from './conversation';
import type { Conversation } from './conversation';
import { describeTools } from './describe';
import type { BufferEntry, FoldResult, PromotionStatus } from './fold';
import type { CallRecord, RequestRecord, SearchOutcome } from './timeline';

export const NOT_AVAILABLE = (name: string): string =>
  `Tool '${name}' is not available. It may have been available earlier in this conversation but is no longer enabled.`;

/** A search_tools call before the fold: its hits, whose statuses the fold decides. */
interface PendingSearch {
  readonly query: string;
  readonly limit: number;
  readonly hits: readonly { readonly name: string; readonly score: number; readonly fields: readonly SearchField[] }[];
  readonly total?: number;
}

/** A call as executed, before the cycle's fold. */
export type ExecutedCall = CallRecord & { readonly pendingSearch?: PendingSearch };

type CallBase = Pick<CallRecord, 'step' | 'cycle' | 'index' | 'tool' | 'args' | 'replayed'>;

/** What the calls of one cycle may reach: its request's permitted and searchable sets. */
interface Membership {
  readonly permitted: (name: string) => boolean;
  readonly searchable: (name: string) => boolean;
  /** `searchable` of the tool at an order in config order (what a search document carries). */
  readonly searchableOrder: (order: number) => boolean;
}

// Answered from the states of the request's position (the engine's newest while its cycle runs) by the
// predicates computeSets uses, instead of building sets of every tool name per cycle.
function membership(conv: Conversation, req: RequestRecord): Membership {
  const { engine } = conv;
  const forced = req.forced;
  const forcedOrder = forced === undefined ? undefined : engine.state(forced)?.order;
  return {
    permitted: (name) => {
      if (name === DESCRIBE_TOOLS || (name === SEARCH_TOOLS && req.registered)) return true;
      const s = engine.state(name);
      return s !== undefined && isPermitted(s, forced);
    },
    searchable: (name) => searchableUnlessForced(name, engine.searchableNow(name), forced),
    searchableOrder: (order) => searchableUnlessForced(order, engine.searchableOrderNow(order), forcedOrder),
  };
}

function callSearchTools(conv: Conversation, base: CallBase, args: unknown, reach: Membership, buffer: BufferEntry[]): ExecutedCall {
  const { policy, engine } = conv;
  const r = searchTools(conv.catalogue.searchIndex(policy.ranking), args, {
    filter: reach.searchable,
    filterOrder: reach.searchableOrder,
    substringMatch: policy.substring_match,
    reportMatchCount: policy.report_match_count,
    ...(policy.hide_unapproved
      ? { exclude: (name: string) => engine.state(name)?.run === 'ask', excludeOrder: (order: number) => engine.state(engine.toolOrder[order] ?? '')?.run === 'ask' }
      : {}),
  });
  if (!r.ok) return { ...base, status: 'error', result: r.error, error: r.error };
  const query = String((args as { query?: unknown }).query ?? '');
  buffer.push({ kind: 'promotion', index: base.index, names: r.hits.map((h) => h.name), query });
  return {
    ...base,
    status: 'ok',
    result: '',
    pendingSearch: {
      query,
      limit: r.limit,
      hits: r.hits.map((h) => ({ name: h.name, score: h.score, fields: h.fields })),
      ...(r.total !== undefined ? { total: r.total } : {}),
    },
  };
}

/** An approved write's assignments as one delta, or why it cannot be applied. */
function writeDelta(conv: Conversation, tool: string, writes: readonly string[]): { delta: PartialConfig } | { problem: string } {
  const origin: Origin = { kind: 'delta', delta: nextDeltaNumber(conv.engine), source: 'tool-write', detail: `${tool}: ${writes.join(', ')}` };
  let delta: PartialConfig = EMPTY_CONFIG;
  for (const w of writes) {
    const a = parseAssignment(w);
    const r = a ? assignmentToDelta(a, origin) : { ok: false as const, error: `invalid write \`${w}\`, expected KEY=VALUE` };
    if (!r.ok) return { problem: r.error };
    delta = mergeConfigs(delta, r.delta);
  }
  return { delta };
}

/** An ordinary tool: its result, or its failure; a config write it proposes is buffered when approved (RFD 078). */
function callTool(conv: Conversation, base: CallBase, call: ScenarioCall, buffer: BufferEntry[]): ExecutedCall {
  if (call.fail !== undefined) {
    return { ...base, status: 'error', result: call.fail, error: call.fail, ...(call.writes ? { write: { proposed: call.writes, applied: false, reason: 'the call failed' } } : {}) };
  }
  let result = call.result ?? `${call.tool} ran with ${JSON.stringify(call.args)}.`;
  let write: CallRecord['write'];
  if (call.writes && call.writes.length > 0) {
    const proposed = call.writes;
    const outcome = call.approved !== true ? { problem: 'rejected by the user' } : writeDelta(conv, call.tool, proposed);
    if ('delta' in outcome) {
      // The write commits in this cycle's fold, as the next delta on the stream.
      buffer.push({ kind: 'write', index: base.index, delta: outcome.delta });
      write = { proposed, applied: true };
    } else {
      write = { proposed, applied: false, reason: outcome.problem };
      result += `\nThe config write was rejected: ${call.approved !== true ? proposed.join(', ') : outcome.problem}.`;
    }
  }
  return { ...base, status: 'ok', result, ...(write ? { write } : {}) };
}

function executeCall(conv: Conversation, base: CallBase, call: ScenarioCall, reach: Membership, buffer: BufferEntry[]): ExecutedCall {
  if (!reach.permitted(call.tool)) {
    const error = NOT_AVAILABLE(call.tool);
    return { ...base, status: 'error', result: error, error };
  }
  if (call.tool === SEARCH_TOOLS) return callSearchTools(conv, base, call.args, reach, buffer);
  if (call.tool === DESCRIBE_TOOLS) {
    const d = describeTools(call.args, (name) => (reach.permitted(name) ? conv.catalogue.definitionOf(name) : undefined));
    return d.ok ? { ...base, status: 'ok', result: d.text } : { ...base, status: 'error', result: d.error, error: d.error };
  }
  return callTool(conv, base, call, buffer);
}

/** Executes the calls of one cycle against its request; returns the records and the commit buffer. */
export function executeCalls(conv: Conversation, req: RequestRecord, cycle: ScenarioCycle, replayed: boolean): { buffer: BufferEntry[]; executed: ExecutedCall[] } {
  const buffer: BufferEntry[] = [];
  const reach = membership(conv, req);
  const executed = cycle.calls.map((call, index) =>
    executeCall(conv, { step: req.step, cycle: req.cycle, index, tool: call.tool, args: call.args, replayed }, call, reach, buffer),
  );
  return { buffer, executed };
}

function searchResultText(s: SearchOutcome): string {
  return JSON.stringify({
    tools: s.returned.map((r) => ({ name: r.name, summary: r.summary, status: r.status === 'usable' ? 'usable' : 'found, unavailable' })),
    ...(s.total !== undefined ? { total: s.total } : {}),
  });
}

/** A call as the model reads its result: a search's hits carry the statuses the fold gave them. */
export function finishCall(conv: Conversation, executed: ExecutedCall, folded: FoldResult): CallRecord {
  const { pendingSearch, ...rest } = executed;
  if (!pendingSearch) return rest;
  const statuses = folded.statuses.get(executed.index) ?? new Map<string, PromotionStatus>();
  const search: SearchOutcome = {
    query: pendingSearch.query,
    limit: pendingSearch.limit,
    returned: pendingSearch.hits.map((h) => ({ ...h, status: statuses.get(h.name) ?? 'unavailable', summary: conv.catalogue.definitionOf(h.name)?.docs.summary ?? '' })),
    ...(pendingSearch.total !== undefined ? { total: pendingSearch.total } : {}),
  };
  return { ...rest, search, result: searchResultText(search) };
}
