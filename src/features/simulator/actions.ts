// What the simulator's buttons do to the store, shared by the panel, the
// commands and the auto model. Each action is an ordinary edit of the
// scenario document.
import type { QueryClient } from '@tanstack/react-query';
import { parseCommand } from '../../core';
import type { CallDoc, Plain, StepDoc } from '../../core';
import type { DeriveClient } from '../../derive/client';
import { toolsQuery } from '../../derive/labHooks';
import type { TimelineView } from '../../derive/protocol';
import { timelineQuery } from '../../derive/queries';
import type { WorkbenchStore } from '../../state/store';
import type { AutoAction, TurnCall } from './autoModel';
import { nextAutoAction } from './autoModel';
import { openTurn, recordExpectations, requestOf, stepEntries, withCall, withReply } from './turn';

/** Appends a step for a jp command; false (with the reason) when it does not parse. */
export function addStep(store: WorkbenchStore, command: string): { ok: true } | { ok: false; error: string } {
  const parsed = parseCommand(command);
  if (!parsed.ok) return { ok: false, error: `${parsed.error.message} (column ${parsed.error.column})` };
  store.getState().addStep({ command: command.trim(), cycles: [] });
  store.getState().selectEntry(undefined);
  return { ok: true };
}

export function callTool(store: WorkbenchStore, tool: string, args: { [key: string]: Plain }): boolean {
  const open = openTurn(store.getState().doc);
  if (!open) return false;
  const call: CallDoc = { tool, args };
  store.getState().updateStep(open.stepIndex, withCall(open.step, call));
  store.getState().selectEntry(undefined);
  return true;
}

export function reply(store: WorkbenchStore, text: string): boolean {
  const open = openTurn(store.getState().doc);
  if (!open) return false;
  store.getState().updateStep(open.stepIndex, withReply(open.step, text));
  store.getState().selectEntry(undefined);
  return true;
}

/** The derivation of the store's current revision (shared with the panels' query). */
export async function currentView(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient): Promise<TimelineView> {
  const { doc, revision } = store.getState();
  return queryClient.fetchQuery(timelineQuery(client, doc, revision));
}

/** Writes what the checker reads of the last step's run as its expectations. */
export async function recordLastStep(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient): Promise<number> {
  const { doc } = store.getState();
  const stepIndex = doc.steps.length - 1;
  const step = doc.steps[stepIndex];
  if (!step) return 0;
  const view = await currentView(store, client, queryClient);
  const recorded = await client.call('record', { revision: view.revision, step: stepIndex + 1 });
  const { step: written, count } = recordExpectations(step, recorded);
  store.getState().updateStep(stepIndex, written);
  return count;
}

/** The calls of a step as the auto model sees them: the tools from the document, the outcomes from the derivation. */
export function turnCalls(view: TimelineView, step: StepDoc, stepNo: number): TurnCall[] {
  const entries = stepEntries(view, stepNo).filter((e) => e.kind === 'call');
  return step.cycles.flatMap((cycle, c) => {
    const outcomes = entries.filter((e) => e.cycle === c + 1);
    return cycle.calls.map((call, k) => {
      const e = outcomes[k];
      return {
        tool: call.tool,
        status: e?.callStatus ?? 'ok',
        ...(e?.search ? { returned: e.search.returned.map((r) => ({ name: r.name, status: r.status })) } : {}),
      };
    });
  });
}

/** One move of the auto model on the open turn; undefined when no turn is open. */
export async function autoStep(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient): Promise<AutoAction | undefined> {
  const open = openTurn(store.getState().doc);
  if (!open) return undefined;
  const view = await currentView(store, client, queryClient);
  const stepNo = open.stepIndex + 1;
  const reqId = requestOf(view, stepNo, open.cycle);
  if (reqId === undefined) return undefined;
  const tools = await queryClient.fetchQuery(toolsQuery(client, view.revision, reqId, true));
  const action = nextAutoAction({ query: open.query, tools: tools.tools, calls: turnCalls(view, open.step, stepNo), cycles: open.cycle - 1 });
  if (action.kind === 'search') callTool(store, 'search_tools', { query: action.query, limit: action.limit });
  else if (action.kind === 'call') callTool(store, action.tool, action.args);
  else reply(store, action.text);
  return action;
}

/** Plays the open turn to its end (at most `max` moves). Returns the moves made. */
export async function autoTurn(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient, max = 8): Promise<AutoAction[]> {
  const moves: AutoAction[] = [];
  for (let i = 0; i < max; i++) {
    const action = await autoStep(store, client, queryClient);
    if (!action) break;
    moves.push(action);
    if (action.kind === 'reply') break;
  }
  return moves;
}
