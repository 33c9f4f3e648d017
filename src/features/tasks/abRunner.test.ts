// The page's side of the model A/B: its fields read into the worker's inputs, and the loop that sends
// each request the worker asks for through the bridge and hands the reply back, with the page's Stop
// and a failing bridge kept as the turn's error.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelAnswerView, ModelAskRequest } from '../../bridge-protocol';
import type { DeriveClient } from '../../derive/client';
import type { AbAnswerParams, AbEvent, AbParams } from '../../derive/abProtocol';
import { abParams, parseBudget, runAb, switchWords } from './abRunner';
import { setAbState, useAbStore } from './abStore';

const fields = { revision: 3, tasks: '{"query": "q", "relevant": ["t"]}\n', provider: 'anthropic' as const, model: ' claude-haiku-4-5 ', switches: ['categories=true'], budget: '$0.50' };

describe('the A/B fields', () => {
  it('reads the budget in USD, or says why not', () => {
    expect(parseBudget('')).toBeUndefined();
    expect(parseBudget('$0.5')).toBe(0.5);
    expect(parseBudget('2')).toBe(2);
    expect(parseBudget('abc')).toEqual({ error: 'The budget takes an amount in USD from 0 to 10000 (e.g. 0.50), got “abc”.' });
    expect(parseBudget('0')).toHaveProperty('error');
  });

  it('writes arm B\'s switches as --ab takes them, in the list\'s order, leaving out those as in A', () => {
    expect(switchWords({ ranking: 'substring', categories: 'true', hide_unapproved: '' }, ['ranking', 'hide_unapproved', 'categories'])).toEqual(['ranking=substring', 'categories=true']);
  });

  it('gives the worker its inputs, or the first thing missing', () => {
    expect(abParams(fields)).toEqual({ revision: 3, tasks: fields.tasks, provider: 'anthropic', model: 'claude-haiku-4-5', switches: ['categories=true'], maxUsd: 0.5 });
    expect(abParams({ ...fields, model: ' ' })).toEqual({ error: 'Type the anthropic model to ask (e.g. claude-haiku-4-5).' });
    expect(abParams({ ...fields, switches: [] })).toEqual({ error: 'Choose at least one switch arm B sets.' });
    expect(abParams({ ...fields, revision: undefined })).toHaveProperty('error', 'The scenario has errors; fix them before an A/B.');
    expect(abParams({ ...fields, budget: 'lots' })).toHaveProperty('error');
  });
});

/** A worker that asks `asks` requests, then finishes; it records what the page answered. */
function fakeClient(asks: number, answered: AbAnswerParams[]): DeriveClient {
  const progress = { A: 0, B: 0, total: 1, spent: 0 };
  const ask = (n: number): AbEvent => ({ run: 7, progress, ask: { arm: n % 2 === 0 ? 'A' : 'B', task: 0, cycle: 1, provider: 'anthropic', body: { n } } });
  const done: AbEvent = { run: 7, progress: { ...progress, A: 1, B: 1 }, finished: { line: 'A/B on 1 tasks', ab: { pairs: [], complete: 1, incomplete: [], metA: 0, metB: 0, aOnly: 0, bOnly: 0, p: 1 }, arms: { A: { summary: 'a', usd: 0, results: [] }, B: { summary: 'b', usd: 0, results: [] } }, errors: [] } };
  const call = (method: string, params: unknown): Promise<unknown> => {
    if (method === 'abStart') return Promise.resolve(ask(0));
    const p = params as AbAnswerParams;
    answered.push(p);
    return Promise.resolve(p.stop === true || answered.length >= asks ? done : ask(answered.length));
  };
  return { call } as unknown as DeriveClient;
}

const params: AbParams = { revision: 1, tasks: 'x', provider: 'anthropic', model: 'm', switches: ['categories=true'] };
const estimate = { params, view: { line: 'estimate: …', tasks: 1, taskErrors: [], requests: 2, priced: 'p', exact: true } };

describe('the page\'s A/B loop', () => {
  beforeEach(() => setAbState({ estimate, progress: undefined, finished: undefined, stopRequested: false, error: undefined }));

  it('sends each asked request through the bridge with its task and cycle, and hands the reply back', async () => {
    const answered: AbAnswerParams[] = [];
    const sent: ModelAskRequest[] = [];
    const ask = (r: ModelAskRequest): Promise<ModelAnswerView> => {
      sent.push(r);
      return Promise.resolve(sent.length === 1 ? { status: 200, reply: { text: 'hi', calls: [] }, hash: 'h', attempts: 1 } : { status: 401, error: 'Anthropic refused the key (401)', hash: 'h', attempts: 1 });
    };
    await runAb(fakeClient(2, answered), ask);
    expect(sent).toEqual([{ provider: 'anthropic', model: 'm', body: { n: 0 }, task: 0, cycle: 1 }, { provider: 'anthropic', model: 'm', body: { n: 1 }, task: 0, cycle: 1 }]);
    expect(answered.map((a) => a.answer)).toEqual([{ ok: true, reply: { text: 'hi', calls: [] } }, { ok: false, error: 'Anthropic refused the key (401)' }]);
    const s = useAbStore.getState();
    expect(s.finished?.view.line).toBe('A/B on 1 tasks');
    expect(s.progress).toBeUndefined();
    expect(s.estimate).toBeUndefined();
  });

  it('a bridge that fails is the turn\'s error, and Stop goes with the next answer', async () => {
    const answered: AbAnswerParams[] = [];
    const ask = (): Promise<ModelAnswerView> => {
      setAbState({ stopRequested: true });
      return Promise.reject(new Error('the bridge is not running'));
    };
    await runAb(fakeClient(5, answered), ask);
    expect(answered).toEqual([{ run: 7, answer: { ok: false, error: 'the bridge: the bridge is not running' }, stop: true }]);
    expect(useAbStore.getState().stopRequested).toBe(false);
  });

  it('sends nothing without a confirmed estimate', async () => {
    setAbState({ estimate: undefined });
    const answered: AbAnswerParams[] = [];
    await runAb(fakeClient(1, answered), () => Promise.reject(new Error('sent')));
    expect(answered).toEqual([]);
    expect(useAbStore.getState().finished).toBeUndefined();
  });
});
