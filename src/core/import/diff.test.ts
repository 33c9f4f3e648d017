// A server's tool list fetched again: what changed, and the prompt-cache effect.
import { describe, expect, it } from 'vitest';
import { diffToolLists, diffWords, prefixCacheImpact, sameDiff } from './diff';
import type { ServerToolPlace } from './diff';

const t = (name: string, description = '', props: Record<string, unknown> = {}, annotations?: Record<string, unknown>) => ({
  name, description, inputSchema: { type: 'object', properties: props }, ...(annotations ? { annotations } : {}),
});

describe('diffToolLists', () => {
  it('added, removed and changed tools, with the fields that changed', () => {
    const before = [t('a', 'A'), t('b', 'B'), t('c', 'C', { x: { type: 'string' } })];
    const after = [t('a', 'A'), t('c', 'C', { x: { type: 'number' } }, { readOnlyHint: true }), t('d', 'D')];
    expect(diffToolLists(before, after)).toEqual({ added: ['d'], removed: ['b'], changed: [{ name: 'c', fields: ['inputSchema', 'annotations'] }] });
  });

  it('sees a change of outputSchema, execution, icons or _meta', () => {
    const base = t('a', 'A');
    const after = { ...base, outputSchema: { type: 'object' }, execution: { taskSupport: 'required' }, icons: [{ src: 'x' }], _meta: { k: 1 } };
    expect(diffToolLists([base], [after]).changed).toEqual([{ name: 'a', fields: ['outputSchema', 'execution', 'icons', '_meta'] }]);
  });

  it('key order does not count as a change', () => {
    const a = { name: 'a', description: '', inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'd' } } } };
    const b = { name: 'a', description: '', inputSchema: { properties: { x: { description: 'd', type: 'string' } }, type: 'object' } };
    expect(diffToolLists([a], [b]).changed).toEqual([]);
  });
});

describe('diffWords and sameDiff', () => {
  it('say a live list that differs in short words, and nothing when the two agree', () => {
    const recorded = [t('a', 'A'), t('b', 'B'), t('c', 'C')];
    const live = [t('a', 'A*'), t('c', 'C'), t('d', 'D'), t('e', 'E')];
    const d = diffToolLists(recorded, live);
    expect(diffWords(d)).toBe('+2 / \u22121 / ~1');
    expect(diffWords(diffToolLists(recorded, [...recorded, t('z')]))).toBe('+1');
    expect(diffWords(diffToolLists(recorded, recorded.slice(1)))).toBe('\u22121');
    expect(diffWords(diffToolLists(recorded, recorded))).toBe('');
  });

  it('tell the same difference from another', () => {
    const recorded = [t('a', 'A'), t('b', 'B')];
    expect(sameDiff(diffToolLists(recorded, [t('a', 'A')]), diffToolLists([t('a', 'A'), t('b', 'B')], [t('a', 'A')]))).toBe(true);
    expect(sameDiff(diffToolLists(recorded, [t('a', 'A')]), diffToolLists(recorded, [t('b', 'B')]))).toBe(false);
  });
});

describe('prefixCacheImpact', () => {
  const places: ServerToolPlace[] = [
    { name: 'echo', backendName: 'echo', availability: 'on', offeredIndex: 0 },
    { name: 'get-sum', backendName: 'get-sum', availability: 'on', offeredIndex: 1 },
    { name: 'get-env', backendName: 'get-env', availability: 'discoverable' },
    { name: 'zip', backendName: 'zip', availability: 'on' },
  ];

  it('a changed offered tool misses from its place in the array on', () => {
    const impact = prefixCacheImpact({ added: [], removed: [], changed: [{ name: 'get-sum', fields: ['description'] }] }, places);
    expect(impact.status).toBe('miss');
    expect(impact.offered).toEqual(['get-sum']);
    expect(impact.sentence).toMatch(/from position 2 on/u);
  });

  it('says it in sentences, without a bare hit or miss (the badge beside it says "prefix changed", issue 24.6)', () => {
    const cases = [
      prefixCacheImpact({ added: [], removed: [], changed: [{ name: 'get-sum', fields: ['description'] }] }, places),
      prefixCacheImpact({ added: ['zip'], removed: [], changed: [] }, places),
      prefixCacheImpact({ added: [], removed: [], changed: [{ name: 'get-env', fields: ['inputSchema'] }] }, places),
      prefixCacheImpact({ added: ['new-tool'], removed: [], changed: [] }, places),
    ];
    for (const c of cases) expect(c.sentence).not.toMatch(/\b(hit|miss)\b/iu);
  });

  it('changes to discoverable tools, or to annotations only, keep the cache', () => {
    expect(prefixCacheImpact({ added: [], removed: [], changed: [{ name: 'get-env', fields: ['inputSchema'] }] }, places)).toMatchObject({ status: 'hit', discoverable: ['get-env'] });
    expect(prefixCacheImpact({ added: [], removed: [], changed: [{ name: 'echo', fields: ['annotations'] }] }, places).status).toBe('hit');
  });

  it('a removed offered tool misses; a new tool nobody configured changes nothing yet', () => {
    expect(prefixCacheImpact({ added: [], removed: ['echo'], changed: [] }, places)).toMatchObject({ status: 'miss', offered: ['echo'] });
    expect(prefixCacheImpact({ added: ['new-tool'], removed: [], changed: [] }, places)).toMatchObject({ status: 'hit', unconfigured: ['new-tool'] });
  });

  it('a configured, on tool the server now lists joins the array: a miss', () => {
    expect(prefixCacheImpact({ added: ['zip'], removed: [], changed: [] }, places)).toMatchObject({ status: 'miss', offered: ['zip'] });
  });
});
