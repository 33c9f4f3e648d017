import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core/scenario/doc';
import { createWorkbenchStore } from '../state/store';
import type { DeriveClient } from './client';
import type { TimelineView } from './protocol';
import { timelineSource } from './timelineSource';

interface Asked {
  readonly revision: number;
  readonly resolve: (v: TimelineView) => void;
}

function fakeClient(): { client: DeriveClient; asked: Asked[] } {
  const asked: Asked[] = [];
  const client = {
    derive: ({ revision }: { revision: number }) => new Promise<TimelineView>((resolve) => asked.push({ revision, resolve })),
  } as unknown as DeriveClient;
  return { client, asked };
}

const viewOf = (revision: number) => ({ revision }) as unknown as TimelineView;
const tick = () => new Promise((r) => setTimeout(r, 0));
/** React Query's notification, then the panels' publish after it (no frames in a test's DOM: a task each). */
const settle = async () => {
  await tick();
  await tick();
};

describe('timelineSource: one observer of the derivation, moved by the store', () => {
  it('asks for each new revision from the store change itself, and keeps the answer on screen until the next one comes', async () => {
    const store = createWorkbenchStore(EMPTY_DOC);
    const { client, asked } = fakeClient();
    const source = timelineSource(new QueryClient(), store, client);
    let notified = 0;
    const off = source.subscribe(() => notified++);
    expect(asked.map((a) => a.revision)).toEqual([1]);
    asked[0]?.resolve(viewOf(1));
    await settle();
    const first = source.view();
    expect(first?.revision).toBe(1);

    store.getState().setName('typed');
    // Asked before anything renders: no React, no await between the edit and the call.
    expect(asked.map((a) => a.revision)).toEqual([1, 2]);
    await settle();
    expect(source.view()).toBe(first);
    expect(source.result().isFetching).toBe(true);
    const beforeAnswer = notified;

    asked[1]?.resolve(viewOf(2));
    await settle();
    expect(source.view()?.revision).toBe(2);
    expect(source.result().isFetching).toBe(false);
    expect(notified).toBeGreaterThan(beforeAnswer);
    off();
  });

  it('tells the set counts of an answer at once and the other panels a task later, each once', async () => {
    const store = createWorkbenchStore(EMPTY_DOC);
    const { client, asked } = fakeClient();
    const source = timelineSource(new QueryClient(), store, client);
    const told: string[] = [];
    const offNow = source.subscribeNow(() => told.push(`now ${source.viewNow()?.revision ?? '-'}`));
    const offPanels = source.subscribe(() => told.push(`panels ${source.view()?.revision ?? '-'}`));
    asked[0]?.resolve(viewOf(1));
    await settle();
    store.getState().setName('typed');
    await settle();
    told.length = 0;

    asked[1]?.resolve(viewOf(2));
    await tick();
    // The counts' listener has the new answer; the panels still show the previous one.
    expect(source.viewNow()?.revision).toBe(2);
    expect(source.view()?.revision).toBe(1);
    expect(told).toEqual(['now 2']);
    await tick();
    expect(source.view()?.revision).toBe(2);
    expect(told).toEqual(['now 2', 'panels 2']);
    offNow();
    offPanels();
  });

  it('follows the store only while someone listens, and catches up on the revision it missed', async () => {
    const store = createWorkbenchStore(EMPTY_DOC);
    const { client, asked } = fakeClient();
    const source = timelineSource(new QueryClient(), store, client);
    const off = source.subscribe(() => undefined);
    asked[0]?.resolve(viewOf(1));
    await settle();
    off();
    store.getState().setName('unseen');
    store.getState().setName('unseen twice');
    expect(asked).toHaveLength(1);
    const again = source.subscribe(() => undefined);
    expect(asked.map((a) => a.revision)).toEqual([1, 3]);
    again();
  });

  it('is one source per query client, store and worker', () => {
    const store = createWorkbenchStore(EMPTY_DOC);
    const qc = new QueryClient();
    const { client } = fakeClient();
    expect(timelineSource(qc, store, client)).toBe(timelineSource(qc, store, client));
    expect(timelineSource(qc, createWorkbenchStore(EMPTY_DOC), client)).not.toBe(timelineSource(qc, store, client));
  });
});
