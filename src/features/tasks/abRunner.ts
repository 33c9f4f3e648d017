// The Tasks tab's model A/B driven from the page: the worker plays both arms (abHost.ts) and answers
// each call with the next request; the page sends it through the bridge (keys stay there) and hands
// the model's reply back, until the run is finished or stopped. One request at a time, so the run is
// the CLI's at --concurrency 1, request for request.
import type { ModelAnswerView, ModelAskRequest } from '../../bridge-protocol';
import type { ModelAnswer } from '../../core/tasks/model-play';
import type { ProviderId } from '../../core/providers/types';
import type { DeriveClient } from '../../derive/client';
import type { AbAsk, AbEvent, AbParams } from '../../derive/abProtocol';
import { setAbState, useAbStore } from './abStore';

export type AskApi = (request: ModelAskRequest) => Promise<ModelAnswerView>;

/** The budget field: undefined for none, a number of USD, or why it cannot be read. */
export function parseBudget(text: string): number | undefined | { readonly error: string } {
  const t = text.trim().replace(/^\$/u, '');
  if (t === '') return undefined;
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) return { error: `The budget takes an amount in USD from 0 to 10000 (e.g. 0.50), got “${text}”.` };
  return n;
}

/** Arm B's switches as `--ab` takes them, in the list's order; a switch left as in arm A is not one. */
export function switchWords(switches: Readonly<Record<string, string>>, order: readonly string[]): string[] {
  return order.filter((name) => (switches[name] ?? '') !== '').map((name) => `${name}=${switches[name] ?? ''}`);
}

/** The A/B's inputs from the tab's fields, or why they are not enough. */
export function abParams(f: { readonly revision: number | undefined; readonly tasks: string; readonly provider: ProviderId; readonly model: string; readonly switches: readonly string[]; readonly budget: string }): AbParams | { readonly error: string } {
  if (f.revision === undefined) return { error: 'The scenario has errors; fix them before an A/B.' };
  if (f.tasks.trim() === '') return { error: 'Load, drop or paste a task set first: {"query": "...", "relevant": ["tool", ...]} per line.' };
  if (f.model.trim() === '') return { error: `Type the ${f.provider} model to ask (e.g. claude-haiku-4-5).` };
  if (f.switches.length === 0) return { error: 'Choose at least one switch arm B sets.' };
  const budget = parseBudget(f.budget);
  if (typeof budget === 'object') return budget;
  return { revision: f.revision, tasks: f.tasks, provider: f.provider, model: f.model.trim(), switches: f.switches, ...(budget !== undefined ? { maxUsd: budget } : {}) };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export async function estimateAb(client: DeriveClient, params: AbParams): Promise<void> {
  setAbState({ estimating: true, error: undefined, estimate: undefined });
  try {
    const view = await client.call('abEstimate', params);
    setAbState({ estimate: { params, view } });
  } catch (e) {
    setAbState({ error: `No estimate: ${message(e)}` });
  } finally {
    setAbState({ estimating: false });
  }
}

/** The bridge's answer as the core reads it: a failure of the bridge itself is the turn's error too. */
async function sendOne(ask: AskApi, params: AbParams, a: AbAsk): Promise<ModelAnswer> {
  try {
    const r = await ask({ provider: a.provider, model: params.model, body: a.body, task: a.task, cycle: a.cycle });
    return r.reply ? { ok: true, reply: r.reply } : { ok: false, error: r.error ?? `the provider answered ${r.status} with no reply` };
  } catch (e) {
    return { ok: false, error: `the bridge: ${message(e)}` };
  }
}

/** Sends the confirmed estimate's A/B, request by request, until it is finished or stopped. */
export async function runAb(client: DeriveClient, ask: AskApi): Promise<void> {
  const { estimate, progress } = useAbStore.getState();
  if (!estimate || progress) return;
  const { params, view } = estimate;
  const switches = params.switches.join(' ');
  setAbState({ estimate: undefined, error: undefined, finished: undefined, open: undefined, stopRequested: false, progress: { run: undefined, progress: { A: 0, B: 0, total: view.tasks, spent: 0 }, exact: view.exact, switches } });
  try {
    let e: AbEvent = await client.call('abStart', params);
    while (e.ask) {
      setAbState({ progress: { run: e.run, progress: e.progress, exact: view.exact, switches } });
      const answer = await sendOne(ask, params, e.ask);
      e = await client.call('abAnswer', { run: e.run, answer, stop: useAbStore.getState().stopRequested });
    }
    if (e.finished) setAbState({ finished: { run: e.run, view: e.finished, switches, total: e.progress.total } });
  } catch (err) {
    setAbState({ error: `The A/B stopped: ${message(err)}` });
  } finally {
    setAbState({ progress: undefined, stopRequested: false });
  }
}
