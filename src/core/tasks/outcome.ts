// The outcome rules: what a task's turn did with the tools it needs, read from the timeline of the
// scratch copy after the turn was played. Simulate, then read: nothing here runs anything.
import { SEARCH_TOOLS } from '../catalogue/builtins';
import type { Timeline } from '../turn/timeline';
import type { NeededState, NeededTool, Outcome, Task } from './types';

export interface TaskOutcome {
  readonly outcome: Outcome;
  readonly reason: string;
  readonly needed: readonly NeededTool[];
  readonly searched: boolean;
  readonly queries: readonly string[];
  readonly error?: string;
}

const list = (names: readonly string[]): string => names.join(', ');

/** Each needed tool's state at the turn's first request (its invocation's delta applied). */
function stateAt(timeline: Timeline, requestId: number, name: string): NeededState {
  const req = timeline.requests[requestId];
  if (!req) return 'unknown';
  const s = timeline.statesAt(req.position).get(name);
  if (!s) return 'unknown';
  if (req.sets.offered.includes(name)) return 'offered';
  if (!s.resolution.ok) return 'down';
  // hide_unapproved takes tools that need approval out of every search (semantics §8.24): not findable.
  if (req.sets.searchable.includes(name) && !(timeline.policy.hide_unapproved && s.run === 'ask')) return 'discoverable';
  return 'off';
}

const queryArg = (args: unknown): string => {
  const q = typeof args === 'object' && args !== null && Object.hasOwn(args, 'query') ? (args as { query: unknown }).query : undefined;
  return typeof q === 'string' ? q : '';
};

function decide(needed: readonly NeededTool[], searched: boolean, failed: string | undefined): { outcome: Outcome; reason: string } {
  const named = (states: readonly NeededState[]): string[] => needed.filter((n) => states.includes(n.state)).map((n) => n.name);
  if (needed.length === 0) return { outcome: 'met-up-front', reason: 'the task names no tool it needs' };
  const unknown = named(['unknown']);
  if (unknown.length > 0) return { outcome: 'impossible', reason: `the catalogue has no ${list(unknown)}` };
  const off = named(['off']);
  if (off.length > 0) return { outcome: 'impossible', reason: `${list(off)} ${off.length === 1 ? 'is' : 'are'} off` };
  const down = named(['down']);
  if (down.length > 0) return { outcome: 'impossible', reason: `${list(down)} cannot be resolved (its server is down or missing)` };
  if (needed.every((n) => n.state === 'offered')) return { outcome: 'met-up-front', reason: 'every needed tool was offered when the turn started' };
  const missed = needed.filter((n) => !n.reached);
  if (missed.length === 0) return { outcome: 'met-by-search', reason: `search_tools promoted ${list(needed.filter((n) => n.state === 'discoverable').map((n) => n.name))}` };
  const why = missed.map((n) =>
    !searched ? `${n.name} was discoverable and the model never searched`
    : n.rank === undefined && failed ? `${n.name} was discoverable and search_tools answered with an error (${failed})`
    : n.rank === undefined ? `${n.name} was discoverable and no search returned it`
    : n.promoted ? `${n.name} was promoted (rank ${n.rank}) but never offered (a write in the same cycle folded over it, or the turn ended)`
    : `${n.name} came back at rank ${n.rank} but was not promoted (found, unavailable)`,
  );
  return { outcome: 'silent-miss', reason: why.join('; ') };
}

/**
 * The configured name of a tool a task names: itself, or the tool whose name on its MCP server it is
 * (an import renames `PDF&URLTool` to a name every provider accepts; a task set keeps the server's).
 */
function configuredName(timeline: Timeline, position: number): (name: string) => string {
  const states = timeline.statesAt(position);
  let byBackend: Map<string, string> | undefined;
  return (name) => {
    if (states.has(name)) return name;
    if (!byBackend) {
      byBackend = new Map();
      for (const s of states.values()) if (s.resolution.ok && s.resolution.definition.kind === 'mcp' && !byBackend.has(s.resolution.definition.backendName)) byBackend.set(s.resolution.definition.backendName, s.name);
    }
    return byBackend.get(name) ?? name;
  };
}

/** The outcome of the task played as step `stepNo` (1-based) of the timeline. */
export function taskOutcome(timeline: Timeline, stepNo: number, task: Task): TaskOutcome {
  const requests = timeline.requests.filter((r) => r.step === stepNo);
  const first = requests[0];
  const calls = timeline.calls.filter((c) => c.step === stepNo);
  // A search_tools call that failed (a query over the contract's length, say) is still a search.
  const searches = calls.filter((c) => c.tool === SEARCH_TOOLS);
  const queries = searches.map((c) => c.search?.query ?? queryArg(c.args));
  const names = [...new Set(task.relevant)];
  if (!first) {
    const error = timeline.steps[stepNo - 1]?.error ?? 'the turn sent no request';
    const needed = names.map((name): NeededTool => ({ name, state: 'unknown', promoted: false, reached: false, called: false }));
    return { outcome: 'impossible', reason: `the turn did not start: ${error}`, needed, searched: false, queries, error };
  }
  const resolve = configuredName(timeline, first.position);
  const needed = names.map((asked): NeededTool => {
    const name = resolve(asked);
    const state = stateAt(timeline, first.id, name);
    let rank: number | undefined;
    let foundBy: string | undefined;
    let promoted = false;
    for (const c of searches) {
      const at = c.search?.returned.findIndex((r) => r.name === name) ?? -1;
      if (at < 0) continue;
      if (rank === undefined) {
        rank = at + 1;
        foundBy = c.search?.query;
      }
      if (c.search?.returned[at]?.status === 'usable') promoted = true;
    }
    const reached = requests.some((r) => r.sets.offered.includes(name));
    const called = calls.some((c) => c.tool === name);
    return { name, ...(name !== asked ? { asked } : {}), state, ...(rank !== undefined ? { rank, foundBy: foundBy ?? '' } : {}), promoted, reached, called };
  });
  const searched = searches.length > 0;
  const failed = searches.find((c) => c.status === 'error')?.error;
  return { ...decide(needed, searched, failed), needed, searched, queries };
}
