// The method table is the protocol: every row is dispatched by the worker's host, nothing else is,
// the client's types are the table's, the query keys come from its rows, and the client coalesces
// exactly the rows that say so.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createWorkerClient } from './client';
import type { DeriveClient } from './client';
import { NO_SOURCE, openedFrom } from './document';
import { DeriveHost } from './host';
import { deriveKey, isMethod, methods } from './methods';
import type { Answers, HostName, MethodName, Methods, Params, Result } from './methods';
import type { SetsView, TimelineView } from './protocol';

const rows = Object.entries(methods) as [MethodName, (typeof methods)[MethodName]][];

describe('the method table', () => {
  it('is what the client and the hosts are typed by', () => {
    expectTypeOf<keyof Methods>().toEqualTypeOf<MethodName>();
    expectTypeOf<Parameters<DeriveClient['call']>[0]>().toEqualTypeOf<MethodName>();
    expectTypeOf<Params<'sets'>>().toEqualTypeOf<{ revision: number; position: number }>();
    expectTypeOf<Result<'sets'>>().toEqualTypeOf<SetsView>();
    expectTypeOf<Result<'derive'>>().toEqualTypeOf<TimelineView>();
    // Each host's class answers the rows routed to it (host.ts's `answerers` is typed by the same).
    expectTypeOf<DeriveHost>().toMatchTypeOf<Answers<'derive'>>();
    expectTypeOf<keyof Answers<HostName>>().toEqualTypeOf<MethodName>();
  });

  it('dispatches every row: the host it names has the method', () => {
    const host = new DeriveHost();
    expect(rows.length).toBeGreaterThan(0);
    for (const [name] of rows) expect(host.answers(name), name).toBe(true);
  });

  it('dispatches nothing else: host members, helpers and object builtins are refused with the name', () => {
    const host = new DeriveHost();
    for (const name of ['timeline', 'layerLink', 'positionOfDelta', 'answers', 'call', 'answerers', 'lab', 'constructor', 'toString', '__proto__', 'hasOwnProperty', 'run', 'runParsed', 'load']) {
      expect(isMethod(name), name).toBe(false);
      expect(host.answers(name), name).toBe(false);
      expect(() => host.call(name as MethodName, {} as never), name).toThrow(`no derive method ${name}`);
    }
  });

  it('names a host for every answerer the worker holds, and every host answers some row', () => {
    const hosts: readonly HostName[] = ['derive', 'lab', 'cost', 'workspace', 'servers', 'findability', 'tasks', 'ab'];
    expect([...new Set(rows.map(([, r]) => r.host))].sort()).toEqual([...hosts].sort());
  });

  it('answers through the routed host as the sub-host itself would', () => {
    const host = new DeriveHost();
    expect(() => host.call('tools', { revision: 7, id: 0 })).toThrow('revision 7 is not a recent derivation');
    expect(() => host.call('tasksNext', { run: 99, count: 1 })).toThrow();
  });
});

describe('query keys', () => {
  it('key a method by all its params unless its row names some', () => {
    expect(deriveKey('sets', { revision: 3, position: 2 })).toEqual(['derive', 'sets', { revision: 3, position: 2 }]);
    expect(deriveKey('search', { revision: 3, position: 0, query: 'q', limit: 5 })).toEqual(['derive', 'search', { revision: 3, position: 0, query: 'q', limit: 5 }]);
  });

  it('leave out what the row leaves out, and append what the caller names it by', () => {
    // `entry` is read when the derivation starts; the document is named by the revision.
    expect(deriveKey('derive', { revision: 4 })).toEqual(['derive', 'derive', { revision: 4 }]);
    const full = { revision: 4, doc: { name: 'x' }, entry: 3 } as unknown as Params<'derive'>;
    expect(deriveKey('derive', full)).toEqual(['derive', 'derive', { revision: 4 }]);
    expect(deriveKey('policyDiff', {}, 12, 4)).toEqual(['derive', 'policyDiff', {}, 12, 4]);
    expect(deriveKey('findability', { revision: 4 }, '10:abc', 'before')).toEqual(['derive', 'findability', { revision: 4 }, '10:abc', 'before']);
    const preview = { source: { kind: 'text', text: 'x'.repeat(1000) }, origin: 'f.json', policy: { kind: 'on', keep: 0, offDestructive: false }, revision: 2 } as unknown as Params<'importPreview'>;
    const key = deriveKey('importPreview', preview, 'source-1');
    expect(key).toEqual(['derive', 'importPreview', { origin: 'f.json', policy: { kind: 'on', keep: 0, offDestructive: false }, revision: 2 }, 'source-1']);
  });

  it('differ between methods with the same params', () => {
    expect(deriveKey('request', { revision: 1, id: 0 })).not.toEqual(deriveKey('tools', { revision: 1, id: 0 }));
  });
});

/** A stand-in Worker: records what is posted; the test answers each message when it chooses. */
class FakeWorker {
  static last: FakeWorker | undefined;
  readonly posted: { id: number; method: string; params: unknown }[] = [];
  readonly transfers: unknown[][] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(m: { id: number; method: string; params: unknown } | { batch: { id: number; method: string; params: unknown }[] }, transfer: unknown[] = []): void {
    this.transfers.push(transfer);
    // Calls made in one task come as one message (client.ts): each is one call here.
    if ('batch' in m) this.posted.push(...m.batch);
    else this.posted.push(m);
  }
  answer(id: number, result: unknown): void {
    this.onmessage?.({ data: { id, ok: true, result } });
  }
}

describe('the client', () => {
  const real = (globalThis as { Worker?: unknown }).Worker;
  afterEach(() => {
    (globalThis as { Worker?: unknown }).Worker = real;
  });

  function client(): { c: ReturnType<typeof createWorkerClient>; w: FakeWorker } {
    (globalThis as { Worker?: unknown }).Worker = FakeWorker;
    const c = createWorkerClient();
    return { c, w: FakeWorker.last! };
  }

  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('coalesces the rows that say so: while one derive runs, only the newest waiting one is sent, and its answer reaches every caller it replaced', async () => {
    expect(rows.filter(([, r]) => 'coalesce' in r && r.coalesce).map(([n]) => n)).toEqual(['derive']);
    const { c, w } = client();
    const doc = {} as Params<'derive'>['doc'];
    const a = c.call('derive', { doc, revision: 1 });
    const b = c.call('derive', { doc, revision: 2 });
    const d = c.call('derive', { doc, revision: 3 });
    expect(w.posted.map((m) => (m.params as { revision: number }).revision)).toEqual([1]);
    w.answer(w.posted[0]!.id, 'one');
    await settle();
    expect(w.posted.map((m) => (m.params as { revision: number }).revision)).toEqual([1, 3]);
    w.answer(w.posted[1]!.id, 'three');
    expect(await a).toBe('one');
    expect(await b).toBe('three');
    expect(await d).toBe('three');
  });

  it("sends a document opened from a file as the file's bytes, moved not copied, and the document itself when the worker cannot take them", async () => {
    const { c, w } = client();
    const doc = { name: 'opened', policy: {}, layers: [], servers: [], steps: [] } as unknown as NonNullable<Params<'derive'>['doc']>;
    const bytes = new TextEncoder().encode('name = "opened"');
    openedFrom(doc, bytes);
    c.meter?.(true);
    const answered = c.derive({ doc, revision: 1 });
    expect(w.posted).toHaveLength(1);
    expect(w.posted[0]?.params).toMatchObject({ revision: 1, source: bytes });
    expect(w.posted[0]?.params).not.toHaveProperty('doc');
    // Its buffer was in the transfer list.
    expect(w.transfers[0]).toEqual([bytes.buffer]);
    expect(c.traffic?.()).toMatchObject({ transferred: bytes.byteLength });
    expect(c.traffic?.().sent).toBeLessThan(100);
    w.onmessage?.({ data: { id: w.posted[0]!.id, ok: false, error: `${NO_SOURCE} (no bytes)` } });
    await settle();
    expect(w.posted).toHaveLength(2);
    expect(w.posted[1]?.params).toMatchObject({ revision: 1, doc });
    expect(w.posted[1]?.params).not.toHaveProperty('source');
    w.answer(w.posted[1]!.id, 'derived');
    expect(await answered).toBe('derived');
  });

  it('sends every call of the other rows, none coalesced, at the end of the task that made them', async () => {
    const { c, w } = client();
    const one = c.call('sets', { revision: 1, position: 0 });
    const two = c.call('sets', { revision: 1, position: 1 });
    await Promise.resolve();
    expect(w.posted.map((m) => m.method)).toEqual(['sets', 'sets']);
    w.answer(w.posted[1]!.id, 'second');
    w.answer(w.posted[0]!.id, 'first');
    expect(await one).toBe('first');
    expect(await two).toBe('second');
  });
});
