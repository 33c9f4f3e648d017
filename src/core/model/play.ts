// The auto model, played: the open turn of a scenario document, and the loop that answers it cycle by
// cycle. Each move is an ordinary edit of the document (a call or a reply as the open cycle's
// response), so a played turn saves, replays and checks like one typed by hand. Pure: the caller
// passes the function that runs a document (the CLI and the browser's worker each have theirs).
import { parseCommand } from '../cli/parse';
import type { CallDoc, CycleDoc, ScenarioDoc, StepDoc } from '../scenario/doc';
import type { Timeline } from '../turn/timeline';
import { nextAutoAction } from './auto';
import type { AutoAction, AutoInput } from './auto';

export interface OpenTurn {
  /** 0-based index of the step in the document. */
  readonly stepIndex: number;
  readonly step: StepDoc;
  readonly query: string;
  /** 1-based cycle awaiting the model. */
  readonly cycle: number;
}

/** A cycle whose request was sent and that has no response yet (no calls, no reply, no restart). */
export function isOpenCycle(c: CycleDoc | undefined): boolean {
  return c !== undefined && c.calls.length === 0 && c.reply === undefined && !c.restart;
}

/**
 * The turn of the step at `stepIndex` (default: the last step) when it awaits the model: its step is a
 * `jp q` and it has no cycle yet, or its last cycle has no response. (Run as a file, an open cycle ends
 * the turn with an empty reply, so an unfinished session is still a valid scenario.)
 */
export function openTurn(doc: Pick<ScenarioDoc, 'steps'>, stepIndex = doc.steps.length - 1): OpenTurn | undefined {
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

/** The step with the model's action as the open cycle's response. */
export function withAction(step: StepDoc, action: AutoAction): StepDoc {
  if (action.kind === 'reply') return withReply(step, action.text);
  if (action.kind === 'search') return withCall(step, { tool: 'search_tools', args: { query: action.query, limit: action.limit } });
  return withCall(step, { tool: action.tool, args: action.args });
}

/**
 * What the model sees at one cycle of a run: the request's permitted tools (offered ones marked) with
 * their definitions, and the calls of the turn's earlier cycles. Undefined when that cycle sent no
 * request (the step failed, or its turn ended earlier).
 */
export function autoInputAt(timeline: Timeline, step: number, cycle: number, query: string): AutoInput | undefined {
  const request = timeline.requests.find((r) => r.step === step && r.cycle === cycle);
  if (!request) return undefined;
  const offered = new Set(request.sets.offered);
  const tools = request.sets.permitted.map((name) => {
    const definition = request.definitions.get(name);
    return { name, offered: offered.has(name), ...(definition ? { definition } : {}) };
  });
  const calls = timeline.calls.filter((c) => c.step === step && c.cycle < cycle);
  return { query, tools, calls, cycles: cycle - 1 };
}

export interface PlayedTurn {
  readonly doc: ScenarioDoc;
  /** The moves made, in order, each with its reason. */
  readonly moves: readonly AutoAction[];
  /** Why the play stopped before a reply, if it did. */
  readonly stopped?: string;
}

/**
 * Plays the open turn of the step at `stepIndex` (default: the last) to its end, at most `maxMoves`
 * moves. `run` runs a document and returns its timeline (undefined when the document does not run).
 */
export function playAutoTurn(doc: ScenarioDoc, run: (doc: ScenarioDoc) => Timeline | undefined, stepIndex = doc.steps.length - 1, maxMoves = 8): PlayedTurn {
  let current = doc;
  const moves: AutoAction[] = [];
  for (let i = 0; i < maxMoves; i++) {
    const open = openTurn(current, stepIndex);
    if (!open) return { doc: current, moves, ...(moves.length === 0 ? { stopped: 'no turn awaits the model' } : {}) };
    const timeline = run(current);
    const input = timeline ? autoInputAt(timeline, stepIndex + 1, open.cycle, open.query) : undefined;
    if (!input) return { doc: current, moves, stopped: 'the open turn sent no request (see the step\'s error)' };
    const action = nextAutoAction(input);
    moves.push(action);
    const steps = current.steps.map((s, k) => (k === stepIndex ? withAction(open.step, action) : s));
    current = { ...current, steps };
    if (action.kind === 'reply') return { doc: current, moves };
  }
  return { doc: current, moves, stopped: `${maxMoves} moves reached` };
}
