// The model drives the turn (issue 26): each cycle's request is the body JP renders for it, sent to the
// user's real model by the shell (`ask`: the bridge, a replay file, a fake server in tests); the reply's
// tool calls become the cycle's calls, and the ordinary turn loop (runScenario) plays them, so a real
// model's turn is one more scenario step, saved, replayed and checked like a typed one.
//
// A reply's calls:
//   - search_tools (and describe_tools) run in the workbench: the fold promotes as for any call;
//   - a connected server's tool runs only when the shell's `resolveCall` runs it (the page asks the same
//     confirmation as "Run on server"); its result is the server's;
//   - any other call gets a simulated result (the scenario's simulated server, or the shell's), marked
//     simulated, which the user can see and edit.
// The loop stops at a reply without calls, at the cycle cap, at the budget cap (`stopBefore`, checked
// before each request is sent) or at an error (the exchange is kept: nothing sent is lost).
// Pure: nothing here sends anything; the shell passes `ask` and `resolveCall`.
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { Span } from '../config/toml-ast';
import type { AutoAction } from '../model/auto';
import { quoteShellWord } from '../cli/shell';
import type { ModelReply, ReplyCall } from '../providers/reply';
import type { ProviderId } from '../providers/types';
import type { Plain } from '../scenario/doc';
import type { Scenario, ScenarioCall, ScenarioCycle, ScenarioStep } from '../scenario/types';
import type { Timeline } from '../turn/timeline';

const NO_SPAN: Span = { start: 0, end: 0 };

/** One request of a model-driven turn, as the shell sends it. */
export interface ModelRequest {
  readonly provider: ProviderId;
  /** 1-based step and cycle of the request in the run. */
  readonly step: number;
  readonly cycle: number;
  /** JP's rendered body, exactly (the shell adds only the envelope: model, max_tokens, stream). */
  readonly body: unknown;
}

export type ModelAnswer = { readonly ok: true; readonly reply: ModelReply } | { readonly ok: false; readonly error: string };

export type AskModel = (request: ModelRequest) => Promise<ModelAnswer>;

/** How a call of the reply was answered. */
export type CallKind = 'workbench' | 'server' | 'simulated';

export interface CallAnswer {
  readonly kind: CallKind;
  /** The result text; undefined: the simulated server's (or the turn loop's default) result. */
  readonly result?: string;
  /** The call failed, with this message. */
  readonly fail?: string;
}

/** Answers a call the workbench does not run itself (any tool but search_tools and describe_tools). */
export type ResolveCall = (call: ReplyCall, at: { readonly step: number; readonly cycle: number }) => Promise<CallAnswer>;

export interface PlayedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly kind: CallKind;
  readonly result?: string;
  readonly fail?: string;
}

export interface ModelCycle {
  /** 1-based. */
  readonly cycle: number;
  readonly reply: ModelReply;
  readonly calls: readonly PlayedCall[];
}

export type StopReason = 'reply' | 'cycles' | 'budget' | 'error' | 'no-request';

export interface ModelTurn {
  readonly scenario: Scenario;
  readonly timeline: Timeline;
  readonly cycles: readonly ModelCycle[];
  readonly stopped: StopReason;
  /** Why, in words (the error's message, the cap reached). */
  readonly why: string;
}

export interface ModelPlayOptions {
  readonly ask: AskModel;
  /** Default: every call simulated (the scenario's simulated server answers). */
  readonly resolveCall?: ResolveCall;
  /** Requests per turn before the loop stops (default 8). */
  readonly maxCycles?: number;
  /** Checked before each request: a reason to stop sending (the budget cap), or undefined. */
  readonly stopBefore?: () => string | undefined;
}

export const MODEL_MAX_CYCLES = 8;

const WORKBENCH_TOOLS: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOLS]);

export const simulateEveryCall: ResolveCall = () => Promise.resolve({ kind: 'simulated' });

/** A model's arguments as the scenario keeps them (JSON values). */
const plainArgs = (args: Readonly<Record<string, unknown>>): { [key: string]: Plain } => JSON.parse(JSON.stringify(args)) as { [key: string]: Plain };

function scenarioCall(c: PlayedCall): ScenarioCall {
  return { tool: c.name, args: plainArgs(c.args), ...(c.result !== undefined ? { result: c.result } : {}), ...(c.fail !== undefined ? { fail: c.fail } : {}), span: NO_SPAN };
}

/** The model's cycles as scenario cycles: calls, then the closing reply (an empty one while the turn is open). */
export function modelCycles(cycles: readonly ModelCycle[]): ScenarioCycle[] {
  const out: ScenarioCycle[] = cycles.map((c) => (c.calls.length === 0 ? { calls: [], reply: c.reply.text, restart: false, span: NO_SPAN } : { calls: c.calls.map(scenarioCall), restart: false, span: NO_SPAN }));
  const last = cycles[cycles.length - 1];
  // An open turn (calls answered, the next request not yet sent, or a cap reached) ends with an empty reply.
  if (!last || last.calls.length > 0) out.push({ calls: [], reply: '', restart: false, span: NO_SPAN });
  return out;
}

/** The task's turn as a scenario step. */
export function modelStep(query: string, cycles: readonly ModelCycle[]): ScenarioStep {
  return { command: `jp q ${quoteShellWord(query)}`, commandSpan: NO_SPAN, cycles: modelCycles(cycles), span: NO_SPAN };
}

/** The turn's calls and reply as the moves a task result lists (the model's, each with a plain reason). */
export function modelMoves(cycles: readonly ModelCycle[]): AutoAction[] {
  const moves: AutoAction[] = [];
  for (const c of cycles) {
    if (c.calls.length === 0) {
      moves.push({ kind: 'reply', text: c.reply.text, why: `the model replied (cycle ${c.cycle})` });
      continue;
    }
    for (const call of c.calls) {
      const q = call.args.query;
      const limit = call.args.limit;
      if (call.name === SEARCH_TOOLS && typeof q === 'string') moves.push({ kind: 'search', query: q, limit: typeof limit === 'number' ? limit : 0, why: `the model searched (cycle ${c.cycle})` });
      else moves.push({ kind: 'call', tool: call.name, args: plainArgs(call.args), why: `the model called it (cycle ${c.cycle}; ${call.kind === 'workbench' ? 'run in the workbench' : call.kind === 'server' ? 'run on its server' : 'result simulated'})` });
    }
  }
  return moves;
}

/**
 * Plays one turn with the model: `base` is the scenario the turn is appended to (its policy's provider
 * renders every request), `run` runs a scenario. The turn is step `base.steps.length + 1`.
 */
export async function playModelTurn(base: Scenario, run: (s: Scenario) => Timeline, query: string, options: ModelPlayOptions): Promise<ModelTurn> {
  const stepNo = base.steps.length + 1;
  const max = options.maxCycles ?? MODEL_MAX_CYCLES;
  const resolve = options.resolveCall ?? simulateEveryCall;
  const cycles: ModelCycle[] = [];
  const withTurn = (): Scenario => ({ ...base, steps: [...base.steps, modelStep(query, cycles)] });
  const done = (stopped: StopReason, why: string): ModelTurn => {
    const scenario = withTurn();
    return { scenario, timeline: run(scenario), cycles, stopped, why };
  };
  for (;;) {
    const last = cycles[cycles.length - 1];
    if (last && last.calls.length === 0) return done('reply', 'the model replied without a tool call');
    const scenario = withTurn();
    const timeline = run(scenario);
    const cycle = cycles.length + 1;
    const request = timeline.requests.find((r) => r.step === stepNo && r.cycle === cycle);
    if (!request) return { scenario, timeline, cycles, stopped: 'no-request', why: timeline.steps[stepNo - 1]?.error ?? 'the turn sent no request' };
    if (cycles.length >= max) return { scenario, timeline, cycles, stopped: 'cycles', why: `${max} requests reached (the cycle cap)` };
    const stop = options.stopBefore?.();
    if (stop !== undefined) return { scenario, timeline, cycles, stopped: 'budget', why: stop };
    const answer = await options.ask({ provider: timeline.policy.provider, step: stepNo, cycle, body: request.rendered().body });
    if (!answer.ok) return { scenario, timeline, cycles, stopped: 'error', why: answer.error };
    const calls: PlayedCall[] = [];
    for (const call of answer.reply.calls) {
      if (WORKBENCH_TOOLS.has(call.name)) {
        calls.push({ ...call, kind: 'workbench' });
        continue;
      }
      const a = await resolve(call, { step: stepNo, cycle });
      calls.push({ ...call, kind: a.kind, ...(a.result !== undefined ? { result: a.result } : {}), ...(a.fail !== undefined ? { fail: a.fail } : {}) });
    }
    cycles.push({ cycle, reply: answer.reply, calls });
  }
}
