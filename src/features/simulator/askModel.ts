// "Ask the model" (issue 26): the open turn played by the user's real model, through the bridge. Each
// cycle sends the rendered body the Requests panel shows for it (the same bytes JP would send), and the
// reply's tool calls become the cycle's calls: search_tools and describe_tools run in the workbench and
// promote as for a hand-made call; a call to a tool of a server with a live session goes to that server
// (modelCalls.ts: after a confirmation, or unattended when the run allows it) and its result or refusal
// is recorded in the step; any other call is answered by the scenario's simulated server, shown as
// simulated, and its result can be edited in the step like any call's. Stops at the reply, at the
// cycle cap, or at an error (the cycles before it stay in the document).
import type { QueryClient } from '@tanstack/react-query';
import type { CallDoc, Plain } from '../../core';
import type { ModelAnswerView, ModelAskRequest } from '../../bridge-protocol';
import type { ProviderId } from '../../core/providers/types';
import type { BilledUsage } from '../../core/providers/reply';
import type { DeriveClient } from '../../derive/client';
import type { WorkbenchStore } from '../../state/store';
import { currentView, reply } from './actions';
import { resolveServerCall, routeCall } from './modelCalls';
import type { ResolveDeps, RouteContext, ServerCallRecord } from './modelCalls';
import { openTurn, requestOf } from './turn';

export interface AskedCall {
  readonly name: string;
  readonly args: { readonly [key: string]: Plain };
  /** 'workbench': run here (search, promotion); 'simulated': the scenario's simulated server answers; 'server': a live server's tool. */
  readonly kind: 'workbench' | 'simulated' | 'server';
  /** For 'server': the server, and what happened (run, refused, failed) with what was recorded. */
  readonly server?: string;
  readonly record?: ServerCallRecord;
}

/** How the model's calls to live servers run: the run's choice, the live sessions, the confirmation and the call. */
export type ServerCalls = Omit<RouteContext, 'tools'> & ResolveDeps;

export interface AskedCycle {
  readonly cycle: number;
  readonly text: string;
  readonly calls: readonly AskedCall[];
  readonly usage?: BilledUsage;
}

export type AskOutcome =
  | { readonly ok: true; readonly stepNo: number; readonly cycles: readonly AskedCycle[]; readonly stopped: string }
  | { readonly ok: false; readonly reason: string };

export type AskApi = (request: ModelAskRequest) => Promise<ModelAnswerView>;

export const ASK_MAX_CYCLES = 8;

/** Without live servers: no endpoint, so every call not the workbench's is simulated and none is asked. */
const NO_SERVERS: ServerCalls = {
  endpointOf: () => undefined,
  destructive: () => false,
  unattended: false,
  confirm: () => Promise.resolve(false),
  run: () => Promise.reject(new Error('no live server')),
};
const NO_SERVERS_CONTEXT: RouteContext = { ...NO_SERVERS, tools: [] };

/**
 * Why "Ask the model" cannot be pressed, in words shown beside the button (a tooltip alone is missed,
 * and never reached by touch or keyboard); undefined when it can be, or while it asks (the button says
 * "Asking…").
 */
export function askBlockedReason({ busy, stepIndex, model }: { readonly busy: boolean; readonly stepIndex: number | undefined; readonly model: string }): string | undefined {
  if (busy) return undefined;
  if (stepIndex === undefined) return 'Nothing to ask: no request awaits the model.';
  if (model.trim() === '') return 'Type a model name to ask it.';
  return undefined;
}

/** The open cycle answered with all of a reply's calls at once (parallel calls share a cycle); the next cycle opens. */
function withCalls(store: WorkbenchStore, stepIndex: number, calls: readonly CallDoc[]): boolean {
  const open = openTurn(store.getState().doc, stepIndex);
  if (!open) return false;
  const cycles = open.step.cycles.length === 0 ? [{ calls: [] }] : open.step.cycles;
  const last = cycles[cycles.length - 1] as (typeof cycles)[number];
  store.getState().updateStep(stepIndex, { ...open.step, cycles: [...cycles.slice(0, -1), { ...last, calls: [...calls] }, { calls: [] }] });
  return true;
}

/** Plays the open turn of `stepIndex` with `model` (the scenario's provider renders every request). */
export async function askModelTurn(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient, stepIndex: number, model: string, ask: AskApi, maxCycles = ASK_MAX_CYCLES, servers: ServerCalls = NO_SERVERS): Promise<AskOutcome> {
  const stepNo = stepIndex + 1;
  const cycles: AskedCycle[] = [];
  for (;;) {
    const open = openTurn(store.getState().doc, stepIndex);
    if (!open) return cycles.length === 0 ? { ok: false, reason: `Step ${stepNo} is not awaiting the model.` } : { ok: true, stepNo, cycles, stopped: 'the model replied' };
    if (cycles.length >= maxCycles) return { ok: true, stepNo, cycles, stopped: `${maxCycles} requests reached (the cycle cap)` };
    const view = await currentView(store, client, queryClient);
    const id = requestOf(view, stepNo, open.cycle);
    if (id === undefined) return { ok: false, reason: `Step ${stepNo} sent no request for cycle ${open.cycle} (see the step's error).` };
    const detail = await client.call('request', { revision: view.revision, id });
    const answer = await ask({ provider: detail.provider as ProviderId, model, body: JSON.parse(detail.bodyJson) as unknown, cycle: open.cycle });
    if (!answer.reply) return cycles.length === 0 ? { ok: false, reason: answer.error ?? 'the model sent no reply' } : { ok: true, stepNo, cycles, stopped: answer.error ?? 'the model sent no reply' };
    const r = answer.reply;
    if (r.calls.length === 0) {
      cycles.push({ cycle: open.cycle, text: r.text, calls: [], ...(r.usage ? { usage: r.usage } : {}) });
      reply(store, stepIndex, r.text);
      return { ok: true, stepNo, cycles, stopped: 'the model replied' };
    }
    // The request's permitted tools, with their run modes: only when a live server could answer a call
    // (a search or a describe never goes to one, and at scale the list is thousands of rows).
    const needsTools = servers !== NO_SERVERS && r.calls.some((c) => routeCall(c.name, NO_SERVERS_CONTEXT).kind !== 'workbench');
    const ctx: RouteContext = { ...servers, tools: needsTools ? (await client.call('tools', { revision: view.revision, id })).tools : [] };
    const calls: AskedCall[] = [];
    const docs: CallDoc[] = [];
    // One at a time, in the model's order: each confirmation names one call.
    for (const c of r.calls) {
      const args = JSON.parse(JSON.stringify(c.args)) as { [key: string]: Plain };
      const route = routeCall(c.name, ctx);
      if (route.kind === 'workbench' || route.kind === 'simulated') {
        calls.push({ name: c.name, args, kind: route.kind });
        docs.push({ tool: c.name, args: { ...args } });
        continue;
      }
      const record = await resolveServerCall(route, args, servers);
      calls.push({ name: c.name, args, kind: 'server', server: route.target.server, record });
      // Recorded as Run on the server records it: replayed offline by check, and read by the model next.
      docs.push({ tool: c.name, args: { ...args }, ...record.outcome, ...(record.asked ? { asked: record.asked } : {}) });
    }
    cycles.push({ cycle: open.cycle, text: r.text, calls, ...(r.usage ? { usage: r.usage } : {}) });
    withCalls(store, stepIndex, docs);
  }
}
