import { describe, expect, it } from 'vitest';
import { substring, substringTerms } from './substring';
import { all, doc } from './test-docs';
import type { SearchDocument, SubstringMatch } from './types';

// Config order is the reverse of the array order and of the field order, so neither
// can pass for the other.
const widgets: SearchDocument[] = [
  doc('by_param_desc', 6, { summary: 'x', description: 'x', parameterDescriptions: ['a widget here'] }),
  doc('by_desc', 5, { summary: 'x', description: 'x mentions Widget' }),
  doc('by_summary_b', 4, { summary: 'widget maker' }),
  doc('by_summary_a', 3, { summary: 'another WIDGET' }),
  doc('by_param', 2, { summary: 'x', parameterNames: ['widget_count'] }),
  doc('widget_tool', 1, { summary: 'x' }),
  doc('unrelated', 0, { summary: 'nothing here' }),
];

describe('substring: order by the best field matched, ties in config order', () => {
  it('name, parameter name, summary (config order within), description, parameter description', () => {
    const hits = substring.build(widgets).search('widget', { filter: all });
    expect(hits.map((h) => h.name)).toEqual(['widget_tool', 'by_param', 'by_summary_a', 'by_summary_b', 'by_desc', 'by_param_desc']);
    expect(hits.map((h) => h.score)).toEqual([5, 4, 3, 3, 2, 1]);
  });

  it('fields lists every matched field, best first', () => {
    const hits = substring.build(widgets).search('widget', { filter: all });
    expect(hits.find((h) => h.name === 'by_summary_a')?.fields).toEqual(['summary', 'description']);
    expect(hits.find((h) => h.name === 'by_param_desc')?.fields).toEqual(['parameter_description']);
  });

  it('is case-insensitive both ways', () => {
    expect(substring.build(widgets).search('WiDgEt', { filter: all })).toHaveLength(6);
  });

  it('respects the filter', () => {
    const hits = substring.build(widgets).search('widget', { filter: (n) => n.startsWith('by_summary') });
    expect(hits.map((h) => h.name)).toEqual(['by_summary_a', 'by_summary_b']);
  });

  it('equal orders fall back to array order', () => {
    const hits = substring.build([doc('b', 0, { summary: 'k' }), doc('a', 0, { summary: 'k' })]).search('k', { filter: all });
    expect(hits.map((h) => h.name)).toEqual(['b', 'a']);
  });
});

describe('substring: all_terms and whole_query', () => {
  const docs: SearchDocument[] = [
    doc('both_in_summary', 0, { summary: 'Restart the payment service.' }),
    doc('split_fields', 1, { summary: 'Restart things.', parameterDescriptions: ['Which payment queue.'] }),
    doc('only_restart', 2, { summary: 'Restart a pod.' }),
    doc('payment_refund', 3, { summary: 'Refund a charge.' }),
    doc('regexy', 4, { summary: 'Matches .*( and [a-z]+$ literally.' }),
  ];
  const index = substring.build(docs);
  const rows: { mode: SubstringMatch; query: string; returned: string[] }[] = [
    { mode: 'all_terms', query: 'restart payment', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: 'payment restart', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: '  payment \t ', returned: ['payment_refund', 'both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: 'refund payment', returned: ['payment_refund'] },
    { mode: 'all_terms', query: 'payment payment', returned: ['payment_refund', 'both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: 'restart nothing', returned: [] },
    { mode: 'all_terms', query: '.*(', returned: ['regexy'] },
    { mode: 'all_terms', query: '[a-z]+$', returned: ['regexy'] },
    { mode: 'all_terms', query: '(a+)+$', returned: [] },
    { mode: 'all_terms', query: '   ', returned: [] },
    { mode: 'whole_query', query: 'restart payment', returned: [] },
    { mode: 'whole_query', query: 'restart the payment', returned: ['both_in_summary'] },
    { mode: 'whole_query', query: ' payment', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'whole_query', query: 'payment ', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'whole_query', query: 'payment s', returned: ['both_in_summary'] },
    { mode: 'whole_query', query: '.*( and [A-Z]+$', returned: ['regexy'] },
    { mode: 'whole_query', query: '', returned: [] },
  ];
  for (const row of rows) {
    it(`${row.mode}: ${JSON.stringify(row.query)} → ${JSON.stringify(row.returned)}`, () => {
      expect(index.search(row.query, { filter: all, substringMatch: row.mode }).map((h) => h.name)).toEqual(row.returned);
    });
  }

  it('all_terms ranks by the best field any term matched', () => {
    const hits = substring
      .build([doc('in_summary', 0, { summary: 'alpha beta' }), doc('beta_named', 1, { summary: 'alpha here' })])
      .search('alpha beta', { filter: all });
    expect(hits.map((h) => [h.name, h.fields])).toEqual([
      ['beta_named', ['name', 'summary', 'description']],
      ['in_summary', ['summary', 'description']],
    ]);
  });

  it('a term never matches across two texts of one field', () => {
    const d = doc('p', 0, { parameterNames: ['ab', 'cd'] });
    expect(substring.build([d]).search('bc', { filter: all })).toEqual([]);
    expect(substring.build([d]).search('b\u0000c', { filter: all, substringMatch: 'whole_query' })).toEqual([]);
  });

  it('a NUL inside a text still matches literally', () => {
    expect(substring.build([doc('z', 0, { summary: 'a\u0000b' })]).search('a\u0000b', { filter: all }).map((h) => h.name)).toEqual(['z']);
  });

  it('handles non-ASCII case folding and astral characters', () => {
    const index2 = substring.build([doc('ü', 0, { summary: 'Größe ÄNDERN 🚀 launch' })]);
    expect(index2.search('änd', { filter: all })).toHaveLength(1);
    expect(index2.search('🚀', { filter: all })).toHaveLength(1);
  });
});

describe('substringTerms', () => {
  it('all_terms: lowercased, deduplicated, longest first', () => {
    expect(substringTerms(' B  aa\nB ccc ', 'all_terms')).toEqual(['ccc', 'aa', 'b']);
  });
  it('whole_query: the query as given, lowercased', () => {
    expect(substringTerms(' A b ', 'whole_query')).toEqual([' a b ']);
  });
});
