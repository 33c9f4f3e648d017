// The worker's dispatch never holds a keystroke's derivation behind long work of an older revision:
// the derivation is answered first, the older work is abandoned and answered `superseded`, and the
// page takes that as no answer (its query keeps what it showed), never as an error.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver, keepPreviousData } from '@tanstack/react-query';
import { DEFAULT_PRICE_TABLE, scenarioDocFromText } from '../core';
import { createWorkerClient } from './client';
import { Dispatcher, Superseded, inSlices } from './dispatch';
import type { Slicer } from './dispatch';
import { DeriveHost } from './host';
import type { MethodName } from './methods';
import type { RpcMessage, RpcRequest, RpcResponse } from './protocol';
import { deriveQuery } from './queries';

/** Lets every pending promise callback run (a timer runs after the microtasks). */
const flush = () => new Promise((r) => setTimeout(r, 0));

/**
 * The worker's event loop by hand: one queue of tasks in order, a message's arrival and the dispatch's
 * deferred steps alike, each followed by its microtasks; a fake clock the long work advances.
 */
class Loop {
  readonly tasks: (() => void)[] = [];
  readonly posted: RpcResponse[] = [];
  /** Labels in the order things happened, for the assertions on order. */
  readonly log: string[] = [];
  clock = 0;
  readonly dispatcher: Dispatcher;

  constructor(answer: (method: MethodName, params: unknown, slicer: Slicer) => unknown) {
    this.dispatcher = new Dispatcher({
      answer,
      post: (r) => {
        this.posted.push(r);
        this.log.push(`answer ${r.id} ${r.ok ? 'ok' : 'superseded' in r ? 'superseded' : 'error'}`);
      },
      defer: (fn) => this.tasks.push(fn),
      now: () => this.clock,
      sliceMs: 10,
    });
  }

  /** A message arrives: it waits in the loop's queue behind the tasks already there. */
  arrive(message: RpcMessage): void {
    this.tasks.push(() => this.dispatcher.receive(message));
  }

  async run(): Promise<void> {
    for (let guard = 0; this.tasks.length > 0; guard++) {
      if (guard > 10_000) throw new Error('the loop does not settle');
      this.tasks.shift()!();
      await flush();
    }
  }

  answerOf(id: number): RpcResponse | undefined {
    return this.posted.find((r) => r.id === id);
  }
}

/**
 * A fake host: `derive` answers at once; `costs` (a `supersede: 'settled'` row) is long work of 20
 * steps of 4 ms each on the fake clock, offering the slicer a pause after each; `onStep` lets a test
 * make a message arrive while a step runs (it lands behind the tasks already queued, as in a worker).
 */
function fakeHost(loop: () => Loop, onStep: (step: number) => void = () => undefined) {
  const progress = { steps: 0, finished: false };
  const answer = (method: MethodName, params: unknown, slicer: Slicer): unknown => {
    const revision = (params as { revision: number }).revision;
    loop().log.push(`run ${method} ${revision}`);
    if (method === 'derive' || (method === 'timelineWindow' && (params as { limit: number }).limit <= 10)) return { method, revision };
    if (method === 'costs' || method === 'timelineWindow') {
      return (async () => {
        for (let step = 1; step <= 20; step++) {
          loop().clock += 4;
          progress.steps = step;
          onStep(step);
          await slicer();
        }
        progress.finished = true;
        return { method, revision };
      })();
    }
    throw new Error(`no fake ${method}`);
  };
  return { answer, progress };
}

/** A loop over a fake host; `onStep(loop, step)` runs inside each step of the long work. */
function setup(onStep?: (loop: Loop, step: number) => void, wrap?: (answer: ReturnType<typeof fakeHost>['answer']) => ReturnType<typeof fakeHost>['answer']) {
  const box: { loop?: Loop } = {};
  const host = fakeHost(() => box.loop!, (step) => onStep?.(box.loop!, step));
  box.loop = new Loop(wrap ? wrap(host.answer) : host.answer);
  return { loop: box.loop, host };
}

const costs = (id: number, revision: number): RpcRequest => ({ id, method: 'costs', params: { revision, table: DEFAULT_PRICE_TABLE } });
const derive = (id: number, revision: number): RpcRequest => ({ id, method: 'derive', params: { revision } });
const window = (id: number, revision: number): RpcRequest => ({ id, method: 'timelineWindow', params: { revision, offset: 0, limit: 10 } });

describe('the dispatch', () => {
  it('answers a newer revision’s derivation before an older revision’s long work, which it abandons as superseded', async () => {
    const { loop, host } = setup((l, step) => {
      // The keystroke arrives while the long work of revision 1 is on its third step.
      if (step === 3) l.arrive(derive(2, 2));
    });
    loop.arrive(costs(1, 1));
    await loop.run();
    // The long work is abandoned as the derivation arrives (its answer, `superseded`, is posted at once),
    // and the derivation runs after at most the slice it arrived in (10 ms: 3 steps of 4 ms), never after all 20.
    expect(loop.log).toEqual(['run costs 1', 'answer 1 superseded', 'run derive 2', 'answer 2 ok']);
    expect(host.progress.steps).toBeLessThanOrEqual(3);
    expect(host.progress.finished).toBe(false);
    expect(loop.dispatcher.pending()).toEqual({ waiting: [] });
  });

  it('abandons an older revision’s window under way in slices, and answers the newer derivation after at most one slice', async () => {
    const { loop, host } = setup((l, step) => {
      if (step === 2) l.arrive(derive(3, 2));
    });
    loop.arrive(derive(1, 1));
    loop.arrive({ id: 2, method: 'timelineWindow', params: { revision: 1, offset: 0, limit: 48 } });
    await loop.run();
    expect(loop.log).toEqual(['run derive 1', 'answer 1 ok', 'run timelineWindow 1', 'answer 2 superseded', 'run derive 2', 'answer 3 ok']);
    expect(host.progress.steps).toBeLessThanOrEqual(3);
  });

  it('reads a batch as its messages in order: its calls are queued and its cancels drop what they name', async () => {
    const { loop } = setup();
    loop.arrive(derive(1, 1));
    loop.arrive({ batch: [window(2, 1), window(3, 1), { id: 2, cancel: true }, window(4, 1)] });
    await loop.run();
    expect(loop.log).toEqual(['run derive 1', 'answer 1 ok', 'run timelineWindow 1', 'answer 3 ok', 'run timelineWindow 1', 'answer 4 ok']);
    expect(loop.answerOf(2)).toBeUndefined();
  });

  it('answers a call of the same revision between two slices of its long work, which then finishes', async () => {
    const { loop, host } = setup((l, step) => {
      if (step === 5) l.arrive(window(2, 1));
    });
    loop.arrive(derive(1, 1));
    loop.arrive(costs(3, 1));
    await loop.run();
    expect(loop.log.filter((l) => l.startsWith('answer'))).toEqual(['answer 1 ok', 'answer 2 ok', 'answer 3 ok']);
    expect(host.progress.finished).toBe(true);
    expect(loop.answerOf(3)).toEqual({ id: 3, ok: true, result: { method: 'costs', revision: 1 } });
  });

  it('runs a derivation before the calls waiting ahead of it, and answers the older revision’s windows and long work superseded without running them', async () => {
    const { loop } = setup();
    // All three arrive while the worker is busy (before the loop runs a step).
    loop.arrive(window(1, 4));
    loop.arrive(costs(2, 4));
    loop.arrive(derive(3, 5));
    await loop.run();
    expect(loop.log).toEqual(['answer 1 superseded', 'answer 2 superseded', 'run derive 5', 'answer 3 ok']);
  });

  it('runs an older revision’s window that arrived before the derivation was asked, but after it', async () => {
    const { loop } = setup();
    loop.arrive(derive(1, 1));
    await loop.run();
    // Not a `supersede` row: `request` still answers (the simulator's "ask the model" awaits it).
    loop.arrive({ id: 2, method: 'request', params: { revision: 1, id: 0 } });
    loop.arrive(derive(3, 2));
    await loop.run();
    expect(loop.log.slice(2)).toEqual(['run derive 2', 'answer 3 ok', 'run request 1', 'answer 2 error']);
  });

  it('drops a waiting call its caller gave up on, and stops long work under way at its next pause', async () => {
    const { loop, host } = setup((l, step) => {
      if (step === 4) l.arrive({ id: 1, cancel: true });
    });
    loop.arrive(costs(1, 1));
    loop.arrive(costs(2, 1));
    loop.arrive({ id: 2, cancel: true });
    await loop.run();
    expect(loop.log.filter((l) => l.startsWith('run'))).toEqual(['run costs 1']);
    expect(host.progress.finished).toBe(false);
    expect(host.progress.steps).toBeLessThan(20);
  });

  it('keeps an older revision’s calls when the newer derivation failed: the page stays on the older one', async () => {
    const { loop } = setup(undefined, (answer) => (method, params, slicer) => {
      if (method === 'derive' && (params as { revision: number }).revision === 2) throw new Error('resync');
      return answer(method, params, slicer);
    });
    loop.arrive(derive(1, 1));
    loop.arrive(derive(2, 2));
    await loop.run();
    loop.arrive(window(3, 1));
    await loop.run();
    expect(loop.answerOf(2)).toEqual({ id: 2, ok: false, error: 'resync' });
    expect(loop.answerOf(3)).toEqual({ id: 3, ok: true, result: { method: 'timelineWindow', revision: 1 } });
  });
});

describe('long work in slices', () => {
  const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');

  it('prices the conversation the same in slices as whole, pausing between requests', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const sliced = new DeriveHost();
    const whole = new DeriveHost();
    sliced.derive({ doc: d.doc, revision: 1 });
    const view = whole.derive({ doc: d.doc, revision: 1 });
    let pauses = 0;
    const counting: Slicer = () => {
      pauses++;
      return Promise.resolve();
    };
    for (const compare of [false, true]) {
      pauses = 0;
      const a = await sliced.call('costs', { revision: 1, table: DEFAULT_PRICE_TABLE, compare }, counting);
      const b = await whole.call('costs', { revision: 1, table: DEFAULT_PRICE_TABLE, compare });
      expect(a).toEqual(b);
      // A pause after each priced request (and each status), more with the counterfactual's runs.
      expect(pauses).toBeGreaterThanOrEqual(2 * view.requestCount);
    }
  });

  it('builds a timeline window a few rows at a time, the same rows as whole', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const host = new DeriveHost();
    const view = host.derive({ doc: d.doc, revision: 1 });
    let pauses = 0;
    const sliced = await host.call('timelineWindow', { revision: 1, offset: 0, limit: view.entryCount }, () => Promise.resolve(void pauses++));
    const whole = host.timelineSnapshot({ revision: 1 });
    expect(sliced.rows.map((r) => r.entry)).toEqual(whole.entries);
    expect(pauses).toBe(Math.ceil(view.entryCount / 8) - 1);
    expect(view.entryCount).toBeGreaterThan(16);
  });

  it('reports findability the same in slices as whole, pausing after each tool', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const sliced = new DeriveHost();
    const whole = new DeriveHost();
    sliced.derive({ doc: d.doc, revision: 1 });
    whole.derive({ doc: d.doc, revision: 1 });
    let pauses = 0;
    const a = await sliced.call('findability', { revision: 1 }, () => Promise.resolve(void pauses++));
    const b = await whole.call('findability', { revision: 1 });
    expect({ ...a, millis: 0 }).toEqual({ ...b, millis: 0 });
    expect(a.report.tools.length).toBeGreaterThan(5);
    expect(pauses).toBe(a.report.tools.length + 1);
  });

  it('unwinds when the slicer says superseded, caching nothing: the next ask prices it whole', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const host = new DeriveHost();
    host.derive({ doc: d.doc, revision: 1 });
    let pauses = 0;
    const stopping: Slicer = () => (++pauses >= 3 ? Promise.reject(new Superseded('costs')) : Promise.resolve());
    await expect(host.call('cacheStatuses', { revision: 1, table: DEFAULT_PRICE_TABLE, from: 0, to: 5 }, stopping)).rejects.toBeInstanceOf(Superseded);
    let again = 0;
    const answered = await host.call('cacheStatuses', { revision: 1, table: DEFAULT_PRICE_TABLE, from: 0, to: 5 }, () => {
      again++;
      return Promise.resolve();
    });
    expect(again).toBeGreaterThan(3);
    expect(answered.statuses).toHaveLength(5);
  });

  it('inSlices returns what the steps return, offering a pause after each', async () => {
    function* steps(): Generator<void, string, undefined> {
      yield;
      yield;
      return 'done';
    }
    let pauses = 0;
    expect(await inSlices(steps(), () => Promise.resolve(void pauses++))).toBe('done');
    expect(pauses).toBe(2);
  });
});

/** A stand-in Worker: records what is posted; the test answers each message when it chooses. */
class FakeWorker {
  static last: FakeWorker | undefined;
  /** Each call and cancel, a batch's in order. */
  readonly posted: Exclude<RpcMessage, { batch: unknown }>[] = [];
  /** The messages themselves: how many posts the page made. */
  readonly messages: RpcMessage[] = [];
  onmessage: ((e: { data: RpcResponse }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(m: RpcMessage): void {
    this.messages.push(m);
    if ('batch' in m) this.posted.push(...m.batch);
    else this.posted.push(m);
  }
  reply(r: RpcResponse): void {
    this.onmessage?.({ data: r });
  }
  calls(): { id: number; revision: number }[] {
    return this.posted.flatMap((m) => ('method' in m ? [{ id: m.id, revision: (m.params as { revision: number }).revision }] : []));
  }
}

describe('the page takes superseded as no answer', () => {
  const real = (globalThis as { Worker?: unknown }).Worker;
  afterEach(() => {
    (globalThis as { Worker?: unknown }).Worker = real;
  });
  function client() {
    (globalThis as { Worker?: unknown }).Worker = FakeWorker;
    const c = createWorkerClient();
    return { c, w: FakeWorker.last! };
  }
  const params = (revision: number) => ({ revision, table: DEFAULT_PRICE_TABLE, from: 0, to: 2 });

  it('without a signal, the call rejects with Superseded; with one, it waits until the signal aborts', async () => {
    const { c, w } = client();
    const bare = c.call('cacheStatuses', params(1));
    const abort = new AbortController();
    let settled = false;
    const watched = c.call('cacheStatuses', params(1), { signal: abort.signal }).finally(() => (settled = true));
    watched.catch(() => undefined);
    // Calls go to the worker at the end of the task that made them.
    await Promise.resolve();
    const [one, two] = w.calls();
    w.reply({ id: one!.id, ok: false, superseded: true });
    w.reply({ id: two!.id, ok: false, superseded: true });
    await expect(bare).rejects.toBeInstanceOf(Superseded);
    await flush();
    expect(settled).toBe(false);
    abort.abort();
    await expect(watched).rejects.toThrow();
    // Answered already: nothing to cancel in the worker.
    expect(w.posted.filter((m) => 'cancel' in m)).toEqual([]);
  });

  it('a call its caller gives up on before the answer is cancelled in the worker', async () => {
    const { c, w } = client();
    const abort = new AbortController();
    const p = c.call('cacheStatuses', params(1), { signal: abort.signal });
    abort.abort();
    await expect(p).rejects.toThrow();
    await Promise.resolve();
    expect(w.posted.at(-1)).toEqual({ id: w.calls()[0]!.id, cancel: true });
  });

  it('calls and cancels of one task go to the worker as one message, in order; a derivation goes at once', async () => {
    const { c, w } = client();
    const abort = new AbortController();
    void c.call('cacheStatuses', params(1), { signal: abort.signal }).catch(() => undefined);
    void c.call('cacheStatuses', params(2)).catch(() => undefined);
    expect(w.messages).toHaveLength(0);
    await Promise.resolve();
    expect(w.messages).toHaveLength(1);
    const [first] = w.calls();
    abort.abort();
    void c.call('cacheStatuses', params(3)).catch(() => undefined);
    const parsed = scenarioDocFromText('name = "x"');
    if (!parsed.ok) throw new Error('the fixture parses');
    void c.derive({ revision: 4, doc: parsed.doc }).catch(() => undefined);
    // The derivation is posted as it is asked, after the cancel and the call that waited for the batch.
    expect(w.messages).toHaveLength(2);
    expect(w.posted.slice(2).map((m) => ('cancel' in m ? `cancel ${m.id}` : m.method))).toEqual([`cancel ${first!.id}`, 'cacheStatuses', 'derive']);
  });

  it('a react-query query keeps showing the previous answer, with no error, and moves on with its key', async () => {
    const { c, w } = client();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
    const options = (revision: number) => ({ ...deriveQuery(c, 'cacheStatuses', params(revision)), staleTime: Infinity, gcTime: 30_000, placeholderData: keepPreviousData });
    const observer = new QueryObserver(qc, options(1));
    const seen: { error: boolean; data: unknown }[] = [];
    const unsubscribe = observer.subscribe((r) => seen.push({ error: r.isError, data: r.data }));
    await flush();
    w.reply({ id: w.calls()[0]!.id, ok: true, result: { from: 0, statuses: ['one'] } });
    await flush();
    expect(observer.getCurrentResult().data).toEqual({ from: 0, statuses: ['one'] });

    observer.setOptions(options(2));
    await flush();
    const second = w.calls().find((m) => m.revision === 2)!;
    w.reply({ id: second.id, ok: false, superseded: true });
    await flush();
    await flush();
    const during = observer.getCurrentResult();
    expect(during.isError).toBe(false);
    expect(during.isPlaceholderData).toBe(true);
    expect(during.data).toEqual({ from: 0, statuses: ['one'] });
    // No retry either: a superseded call is not a failure.
    expect(w.calls().filter((m) => m.revision === 2)).toHaveLength(1);

    observer.setOptions(options(3));
    await flush();
    const third = w.calls().find((m) => m.revision === 3)!;
    w.reply({ id: third.id, ok: true, result: { from: 0, statuses: ['three'] } });
    await flush();
    expect(observer.getCurrentResult().data).toEqual({ from: 0, statuses: ['three'] });
    expect(seen.every((s) => !s.error)).toBe(true);
    // The superseded revision's query, left without observers, is reverted (no error kept) and can be collected.
    const left = qc.getQueryCache().find({ queryKey: options(2).queryKey });
    expect(left?.state.status).not.toBe('error');
    expect(left?.state.fetchStatus).toBe('idle');
    unsubscribe();
  });
});
