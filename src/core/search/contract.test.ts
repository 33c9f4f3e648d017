import { describe, expect, it } from 'vitest';
import { bm25 } from './bm25';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY_LENGTH, resolveLimit, searchTools } from './contract';
import type { SearchToolsContext, SearchToolsResult } from './contract';
import { substring } from './substring';
import { all, doc } from './test-docs';
import type { Ranker, SearchDocument } from './types';

const RANKERS: readonly Ranker[] = [substring, bm25];

// 60 gadgets (so limits can clamp), a regex-looking description, and names that
// are special on plain objects.
const docs: SearchDocument[] = [
  ...Array.from({ length: 60 }, (_, i) => doc(`gadget_${String(i).padStart(2, '0')}`, i, { summary: 'A gadget.' })),
  doc('regexy', 60, { summary: 'Matches .*( and [a-z]+$ literally.' }),
  doc('__proto__', 61, { summary: 'The prototype tool.' }),
  doc('constructor', 62, { summary: 'The constructor tool.' }),
  doc('hasOwnProperty', 63, { summary: 'Another prototype name.' }),
];
const ctx: SearchToolsContext = { filter: all, reportMatchCount: true };

function ok(result: SearchToolsResult): Extract<SearchToolsResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${result.error}`);
  return result;
}

for (const ranker of RANKERS) {
  describe(`searchTools contract (${ranker.id})`, () => {
    const index = ranker.build(docs);

    const errors: { why: string; args: unknown; error: string }[] = [
      { why: 'arguments that are not an object', args: 'gadget', error: 'arguments must be an object' },
      { why: 'null arguments', args: null, error: 'arguments must be an object' },
      { why: 'array arguments', args: ['gadget'], error: 'arguments must be an object' },
      { why: 'a missing query', args: {}, error: 'query must be a string' },
      { why: 'a numeric query', args: { query: 5 }, error: 'query must be a string, got a number' },
      { why: 'a null query', args: { query: null }, error: 'query must be a string, got null' },
      { why: 'an array query', args: { query: ['gadget'] }, error: 'query must be a string, got an array' },
      { why: 'an empty query', args: { query: '' }, error: 'query must not be empty' },
      { why: 'a blank query', args: { query: ' \t\n ' }, error: 'query must not be empty' },
      { why: 'a no-break-space query', args: { query: '\u00a0' }, error: 'query must not be empty' },
      { why: 'a 10,000-character query', args: { query: 'a'.repeat(10_000) }, error: `query is too long: 10000 characters (at most ${MAX_QUERY_LENGTH})` },
      { why: 'a fractional limit', args: { query: 'gadget', limit: 2.5 }, error: 'limit must be an integer' },
      { why: 'a string limit', args: { query: 'gadget', limit: '3' }, error: 'limit must be an integer' },
      { why: 'a boolean limit', args: { query: 'gadget', limit: true }, error: 'limit must be an integer' },
      { why: 'a NaN limit', args: { query: 'gadget', limit: Number.NaN }, error: 'limit must be an integer' },
      { why: 'an infinite limit', args: { query: 'gadget', limit: Number.POSITIVE_INFINITY }, error: 'limit must be an integer' },
    ];
    for (const row of errors) {
      it(`rejects ${row.why}`, () => {
        const result = searchTools(index, row.args, ctx);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error).toContain(row.error);
      });
    }

    const limits: { limit: unknown; returned: number }[] = [
      { limit: undefined, returned: DEFAULT_LIMIT },
      { limit: null, returned: DEFAULT_LIMIT },
      { limit: 0, returned: 1 },
      { limit: -7, returned: 1 },
      { limit: 1, returned: 1 },
      { limit: 37, returned: 37 },
      { limit: 50, returned: 50 },
      { limit: 500, returned: MAX_LIMIT },
      { limit: 3.0, returned: 3 },
    ];
    for (const row of limits) {
      it(`limit ${String(row.limit)} returns ${row.returned} of 60, total 60`, () => {
        const result = ok(searchTools(index, { query: 'gadget', limit: row.limit }, ctx));
        expect(result.hits).toHaveLength(row.returned);
        expect(result.limit).toBe(row.returned);
        expect(result.total).toBe(60);
      });
    }

    it('omits total when reportMatchCount is false', () => {
      const result = ok(searchTools(index, { query: 'gadget', limit: 2 }, { ...ctx, reportMatchCount: false }));
      expect(result.hits).toHaveLength(2);
      expect('total' in result).toBe(false);
    });

    it('excluded tools are neither returned nor counted; the filter likewise', () => {
      const result = ok(
        searchTools(index, { query: 'gadget', limit: 50 }, { ...ctx, filter: (n) => n !== 'gadget_00', exclude: (n) => n.endsWith('1') }),
      );
      const names = result.hits.map((h) => h.name);
      expect(names).not.toContain('gadget_00');
      expect(names.some((n) => n.endsWith('1'))).toBe(false);
      expect(result.total).toBe(60 - 1 - 6);
    });

    it.each(['.*(', '[a-z]+$', '(a+)+$', '\\', '?*+{}'])('matches the regex-looking query %j literally, without throwing', (query) => {
      const result = ok(searchTools(index, { query }, ctx));
      if (ranker.id === 'substring') expect(result.hits.map((h) => h.name)).toEqual(query === '.*(' || query === '[a-z]+$' ? ['regexy'] : []);
    });

    it('a query of exactly the maximum length works', () => {
      const result = ok(searchTools(index, { query: `gadget ${'x'.repeat(MAX_QUERY_LENGTH - 7)}` }, ctx));
      expect(result.total).toBe(ranker.id === 'substring' ? 0 : 60);
    });

    it('a long query of many words works', () => {
      const letters = (i: number) => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
      const query = Array.from({ length: 300 }, (_, i) => `qz${letters(i)}`).join(' ').slice(0, MAX_QUERY_LENGTH);
      expect(ok(searchTools(index, { query }, ctx)).total).toBe(0);
    });

    it.each(['__proto__', 'constructor', 'hasOwnProperty'])('a tool named %s is an ordinary tool', (name) => {
      const result = ok(searchTools(index, { query: name }, ctx));
      expect(result.hits[0]?.name).toBe(name);
      const filtered = ok(searchTools(index, { query: name }, { ...ctx, filter: (n) => n !== name }));
      expect(filtered.hits.map((h) => h.name)).not.toContain(name);
    });

    it('arguments inherited from a prototype are not read', () => {
      const args = Object.create({ query: 'gadget' }) as object;
      expect(searchTools(index, args, ctx)).toEqual({ ok: false, error: 'query must be a string, and it is missing' });
    });
  });
}

describe('resolveLimit', () => {
  it.each([
    [undefined, 10],
    [0, 1],
    [1, 1],
    [50, 50],
    [51, 50],
    [Number.MAX_SAFE_INTEGER, 50],
    [-0, 1],
  ])('%s → %s', (value, limit) => {
    expect(resolveLimit(value)).toBe(limit);
  });
  it('names the bad value', () => {
    expect(resolveLimit(2.5)).toBe('limit must be an integer between 1 and 50, got 2.5');
    expect(resolveLimit('3')).toBe('limit must be an integer between 1 and 50, got a string');
  });
});

it('substring_match reaches the ranker', () => {
  const index = substring.build([doc('a', 0, { summary: 'restart the payment' }), doc('b', 1, { summary: 'payment, restart' })]);
  const whole = ok(searchTools(index, { query: 'restart the' }, { ...ctx, substringMatch: 'whole_query' }));
  expect(whole.hits.map((h) => h.name)).toEqual(['a']);
  const terms = ok(searchTools(index, { query: 'payment restart' }, ctx));
  expect(terms.hits.map((h) => h.name)).toEqual(['a', 'b']);
});
