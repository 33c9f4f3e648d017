// The views as windows (issue 32.4): a window is the slice of the whole, the worker's filter is the
// page's, and request facts are built for the rows asked only, once per (revision, request).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioDocFromText } from '../core';
import { filterRows, NO_FILTER } from '../features/sets/filter';
import type { SetsFilter } from '../features/sets/filter';
import { DeriveHost } from './host';
import type { SetsQuery } from './protocol';
import { deriveWhole } from './testing';

const demo = scenarioDocFromText(readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8'));
if (!demo.ok) throw new Error('demo does not parse');
const doc = demo.doc;

describe('setsWindow', () => {
  const host = new DeriveHost();
  const view = host.derive({ doc, revision: 1, entry: null });
  const last = view.positionCount - 1;
  const all = host.sets({ revision: 1, position: last }).rows;

  it('answers a slice of the rows with the counts, and past the end the last position', () => {
    const w = host.setsWindow({ revision: 1, position: last, offset: 5, limit: 7 });
    expect(w.rows).toEqual(all.slice(5, 12));
    expect([w.total, w.all, w.offset]).toEqual([all.length, all.length, 5]);
    expect(w.counts.configured).toBe(all.length);
    expect(host.setsWindow({ revision: 1, position: 10_000, offset: 0, limit: 3 }).position).toBe(last);
    expect(host.setsWindow({ revision: 1, position: last, offset: all.length - 2, limit: 10 }).rows).toEqual(all.slice(-2));
  });

  const filters: readonly [string, Partial<SetsFilter>][] = [
    ['availability on', { availability: new Set(['on'] as const) }],
    ['availability discoverable or off', { availability: new Set(['discoverable', 'off'] as const) }],
    ['offered', { membership: new Set(['offered'] as const) }],
    ['searchable or permitted', { membership: new Set(['searchable', 'permitted'] as const) }],
    ['builtins', { kind: new Set(['builtin'] as const) }],
    ['local and on', { kind: new Set(['local'] as const), availability: new Set(['on'] as const) }],
    ['a name', { query: 'LOGS' }],
    ['words of a summary', { query: 'search the' }],
    ['nothing matches', { query: 'no tool has this' }],
  ];
  it.each(filters)('filters as the page did (%s)', (_, f) => {
    const filter: SetsFilter = { ...NO_FILTER, ...f };
    const want = filterRows(all, filter);
    const q: SetsQuery = { availability: [...filter.availability], membership: [...filter.membership], kind: [...filter.kind], query: filter.query };
    const w = host.setsWindow({ revision: 1, position: last, offset: 0, limit: 500, ...q });
    expect(w.rows.map((r) => r.name)).toEqual(want.map((r) => r.name));
    expect([w.total, w.all]).toEqual([want.length, all.length]);
  });
});

describe('timelineWindow and request facts', () => {
  it('builds the facts of the requests in the rows asked, once each, and whole rows equal the snapshot', async () => {
    const host = new DeriveHost();
    const view = host.derive({ doc, revision: 1, entry: null });
    expect(host.stats().builtRequests).toEqual([]);
    const firstRequest = view.requestEntries[0] ?? -1;
    const w = await host.timelineWindow({ revision: 1, offset: 0, limit: firstRequest + 1 });
    expect(w.rows.map((r) => r.entry.index)).toEqual([...Array(firstRequest + 1).keys()]);
    expect(w.rows.at(-1)?.request?.id).toBe(0);
    expect(host.stats().builtRequests).toEqual([0]);
    const built = host.stats().requestFacts;
    await host.timelineWindow({ revision: 1, offset: firstRequest, limit: 1 });
    host.request({ revision: 1, id: 0 });
    expect(host.stats().requestFacts).toBe(built);

    const whole = host.timelineSnapshot({ revision: 1 });
    const rows = (await host.timelineWindow({ revision: 1, offset: 0, limit: view.entryCount })).rows;
    expect(rows.map((r) => r.entry)).toEqual(whole.entries);
    expect(rows.flatMap((r) => r.expectations)).toEqual([...whole.expectations].sort((a, b) => a.entry - b.entry));
    for (const r of rows) if (r.request) expect(whole.requests[r.request.id]).toMatchObject(r.request);
  });

  it('brief rows carry a search as its names and statuses, and nothing else differs', async () => {
    const host = new DeriveHost();
    const whole = deriveWhole(host, { doc, revision: 1 });
    const brief = (await host.timelineWindow({ revision: 1, offset: 0, limit: whole.entryCount, brief: true })).rows;
    const search = whole.entries.findIndex((e) => e.search !== undefined);
    const e = whole.entries[search];
    const b = brief[search]?.entry;
    expect(b?.search).toBeUndefined();
    expect(b?.detail).toBeUndefined();
    expect(b?.searchBrief).toEqual({ query: e?.search?.query, limit: e?.search?.limit, total: e?.search?.total, returned: e?.search?.returned.map((h) => ({ name: h.name, status: h.status })) });
    brief.forEach((r, i) => {
      const w = whole.entries[i];
      if (w?.kind !== 'call' && w?.kind !== 'delta') expect(r.entry).toEqual(w);
    });
  });

  it('the spine names each row as the whole rows do', () => {
    const host = new DeriveHost();
    const whole = deriveWhole(host, { doc, revision: 1 });
    expect(whole.spine.positions).toEqual(whole.entries.map((e) => e.position));
    expect(whole.spine.steps).toEqual(whole.entries.map((e) => e.step ?? 0));
    expect(whole.requestEntries).toEqual(whole.entries.filter((e) => e.kind === 'request').map((e) => e.index));
    expect(whole.positionEntries.length).toBe(whole.positionCount);
    expect(whole.firstPromotion).toBe(whole.entries.find((e) => e.kind === 'delta' && e.sources?.includes('promotion'))?.index);
  });
});
