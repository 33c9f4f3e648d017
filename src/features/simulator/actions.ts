// What the simulator's buttons do to the store, shared by the panel and the commands. Each action is an
// ordinary edit of the scenario document, on the turn the simulator shows (the timeline's selected one).
import type { QueryClient } from '@tanstack/react-query';
import { parseCommand } from '../../core';
import type { AutoAction, CallDoc, Plain } from '../../core';
import type { DeriveClient } from '../../derive/client';
import type { TimelineView } from '../../derive/protocol';
import { timelineQuery } from '../../derive/queries';
import type { WorkbenchStore } from '../../state/store';
import { openTurn, recordExpectations, withCall, withReply } from './turn';

/** After an edit of the last step, follow its new rows; an earlier step keeps the selection. */
function follow(store: WorkbenchStore, stepIndex: number): void {
  if (stepIndex === store.getState().doc.steps.length - 1) store.getState().selectEntry(undefined);
}

/** Appends a call to the open cycle; `outcome` is a real run's result (or failure), recorded with it. */
/** `asked`: what the server asked the user while the call ran for real, and what they decided (recorded with the call). */
export function callTool(store: WorkbenchStore, stepIndex: number, tool: string, args: { [key: string]: Plain }, outcome?: { result: string } | { fail: string }, asked?: CallDoc['asked']): boolean {
  const open = openTurn(store.getState().doc, stepIndex);
  if (!open) return false;
  const call: CallDoc = { tool, args, ...outcome, ...(asked && asked.length > 0 ? { asked } : {}) };
  store.getState().updateStep(open.stepIndex, withCall(open.step, call));
  follow(store, stepIndex);
  return true;
}

export function reply(store: WorkbenchStore, stepIndex: number, text: string): boolean {
  const open = openTurn(store.getState().doc, stepIndex);
  if (!open) return false;
  store.getState().updateStep(open.stepIndex, withReply(open.step, text));
  follow(store, stepIndex);
  return true;
}

/** The derivation of the store's current revision (shared with the panels' query). */
export async function currentView(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient): Promise<TimelineView> {
  const { doc, revision } = store.getState();
  return queryClient.fetchQuery(timelineQuery(client, doc, revision));
}

/** Writes what the checker reads of a step's run as its expectations. */
export async function recordStep(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient, stepIndex: number): Promise<number> {
  const step = store.getState().doc.steps[stepIndex];
  if (!step) return 0;
  const view = await currentView(store, client, queryClient);
  const recorded = await client.call('record', { revision: view.revision, step: stepIndex + 1 });
  const { step: written, count } = recordExpectations(step, recorded);
  store.getState().updateStep(stepIndex, written);
  return count;
}

export type AutoOutcome = { readonly ok: true; readonly stepIndex: number; readonly moves: readonly AutoAction[]; readonly stopped?: string } | { readonly ok: false; readonly reason: string };

/**
 * Plays a turn with the core's auto model, in the worker: the open turn of `stepIndex`, or, when it is
 * not open and the step field holds a `jp q`, that command as a new step. The document is changed only
 * if nobody edited it meanwhile.
 */
export async function autoTurn(store: WorkbenchStore, client: DeriveClient, stepIndex: number | undefined): Promise<AutoOutcome> {
  let index = stepIndex;
  if (index === undefined || !openTurn(store.getState().doc, index)) {
    const typed = store.getState().stepDraft.trim();
    const parsed = typed === '' ? undefined : parseCommand(typed);
    if (!parsed?.ok || parsed.command.kind !== 'query') return { ok: false, reason: 'No turn is open here: type a jp q command in the step field under the timeline, then press Auto model.' };
    store.getState().addStep({ command: typed, cycles: [] });
    store.getState().setStepDraft('');
    store.getState().selectEntry(undefined);
    index = store.getState().doc.steps.length - 1;
  }
  const before = store.getState().doc;
  const played = await client.call('autoTurn', { doc: before, stepIndex: index });
  if (store.getState().doc !== before) return { ok: false, reason: 'The document changed while the auto model played; nothing was applied.' };
  if (played.step) store.getState().updateStep(index, played.step);
  follow(store, index);
  return { ok: true, stepIndex: index, moves: played.moves, ...(played.stopped !== undefined ? { stopped: played.stopped } : {}) };
}
