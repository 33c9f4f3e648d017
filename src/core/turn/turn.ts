// A `jp q` turn, in RFD 108's words: the start of the turn (the invocation's delta), then cycle by
// cycle a request, the execution of its calls, and the fold of the commit buffer into one delta at
// cycle end, so the next request of the same turn carries the promoted tools; a cycle without calls
// is the model's reply, the end of the turn.
import type { QueryCommand } from '../cli/parse';
import type { ToolChoice } from '../providers/types';
import type { ScenarioCycle, ScenarioStep } from '../scenario/types';
import { executeCalls, finishCall } from './call';
import { nextDeltaNumber, warnUnresolvable } from './conversation';
import type { Conversation } from './conversation';
import { foldCommitBuffer } from './fold';
import { prepareInvocation } from './invocation';
import { sendRequest } from './request';
import type { RequestRecord } from './timeline';

interface TurnStart {
  readonly toolChoice: ToolChoice;
  readonly forced?: string;
}

/** Start of turn: the invocation's --cfg, directives and -u become one delta; the user's query is the first message. */
function startTurn(conv: Conversation, stepNo: number, step: ScenarioStep, cmd: QueryCommand): TurnStart | { error: string } {
  const { engine, entries } = conv;
  const prepared = prepareInvocation(engine, cmd, conv.policy, step.command);
  if (!prepared.ok) return { error: prepared.error };
  const pos = engine.applyDelta(prepared.delta, { sources: prepared.sources, detail: step.command, step: stepNo });
  if (pos) entries.push({ kind: 'delta', step: stepNo, position: pos.index });
  warnUnresolvable(conv, stepNo, prepared.forced);
  entries.push({ kind: 'turn', step: stepNo, query: cmd.query, position: engine.current.index });
  conv.messages.push({ kind: 'user', text: cmd.query });
  return { toolChoice: prepared.toolChoice, ...(prepared.forced !== undefined ? { forced: prepared.forced } : {}) };
}

/** End of turn: the model replies without calls. */
function endTurn(conv: Conversation, stepNo: number, cycleNo: number, text: string): void {
  conv.messages.push({ kind: 'assistant', text });
  conv.entries.push({ kind: 'reply', step: stepNo, cycle: cycleNo, text, position: conv.engine.current.index });
}

/** One cycle with calls: execute them (twice on a restart), fold the commit buffer, commit its delta. */
function runCycle(conv: Conversation, cycle: ScenarioCycle, req: RequestRecord): void {
  const { engine, entries, policy } = conv;
  const { step: stepNo, cycle: cycleNo } = req;
  let run = executeCalls(conv, req, cycle, false);
  if (cycle.restart) {
    // Restart discards this cycle's buffer and executes its calls once more; no new request is sent.
    entries.push({ kind: 'restart', step: stepNo, cycle: cycleNo, position: engine.current.index });
    run = executeCalls(conv, req, cycle, true);
  }
  const folded = foldCommitBuffer(engine, run.buffer, policy, nextDeltaNumber(engine));
  const finished = run.executed.map((e) => finishCall(conv, e, folded));
  const callId = (index: number): string => `call_${stepNo}_${cycleNo}_${index}`;
  conv.messages.push({
    kind: 'assistant',
    ...(cycle.reply !== undefined ? { text: cycle.reply } : {}),
    toolCalls: finished.map((r) => ({ id: callId(r.index), name: r.tool, arguments: (r.args ?? {}) as Record<string, unknown> })),
  });
  for (const r of finished) {
    conv.calls.push(r);
    conv.messages.push({ kind: 'tool-result', callId: callId(r.index), name: r.tool, content: r.result, isError: r.status === 'error' });
    entries.push({ kind: 'call', step: stepNo, cycle: cycleNo, call: r, position: engine.current.index });
  }
  const detail = folded.sources.includes('promotion') ? `promotion: ${folded.promoted.join(', ')}` : 'tool write';
  // Appended promotions are part of the position the delta makes (ConfigPosition.appended).
  const committed = engine.applyDelta(folded.delta, { sources: folded.sources, detail, step: stepNo, cycle: cycleNo }, policy.promoted_position === 'append' ? folded.promoted : []);
  if (!committed) return;
  entries.push({ kind: 'delta', step: stepNo, cycle: cycleNo, position: committed.index });
}

/** A `jp q` step's turn; returns why it could not start, if it could not. */
export function runTurn(conv: Conversation, stepNo: number, step: ScenarioStep, cmd: QueryCommand): string | undefined {
  const start = startTurn(conv, stepNo, step, cmd);
  if ('error' in start) return start.error;
  // A turn with no scripted cycles still sends its request, answered by an empty reply.
  const cycles: readonly ScenarioCycle[] = step.cycles.length > 0 ? step.cycles : [{ calls: [], reply: '', restart: false, span: step.span }];
  let toolChoice = start.toolChoice;
  for (const [c, cycle] of cycles.entries()) {
    const req = sendRequest(conv, stepNo, c + 1, toolChoice, start.forced);
    // A forced choice holds for the turn's first request only; the forced tool stays permitted for the turn.
    if (toolChoice.kind === 'function' || toolChoice.kind === 'required') toolChoice = { kind: 'auto' };
    if (cycle.calls.length === 0) {
      endTurn(conv, stepNo, c + 1, cycle.reply ?? '');
      break;
    }
    runCycle(conv, cycle, req);
  }
  return undefined;
}
