import { describe, expect, it } from 'vitest';
import { formatEvalReport, parseEvalQueries, recallAtK, reciprocalRank, runEval } from './metrics';
import type { EvalQuery } from './metrics';
import { doc } from './test-docs';
import { substring } from './substring';
import type { Ranker, SearchDocument } from './types';

describe('recall@k and reciprocal rank', () => {
  const rows: { ranked: string[]; relevant: string[]; k: number; recall: number; rr: number }[] = [
    { ranked: ['a', 'b', 'c'], relevant: ['a'], k: 1, recall: 1, rr: 1 },
    { ranked: ['a', 'b', 'c'], relevant: ['b'], k: 1, recall: 0, rr: 1 / 2 },
    { ranked: ['a', 'b', 'c'], relevant: ['b', 'c'], k: 2, recall: 1 / 2, rr: 1 / 2 },
    { ranked: ['a', 'b', 'c'], relevant: ['c', 'b'], k: 3, recall: 1, rr: 1 / 2 },
    { ranked: ['a'], relevant: ['z'], k: 10, recall: 0, rr: 0 },
    { ranked: [], relevant: ['z'], k: 10, recall: 0, rr: 0 },
    { ranked: ['a'], relevant: [], k: 10, recall: 0, rr: 0 },
    { ranked: ['a', 'a'], relevant: ['a', 'a'], k: 2, recall: 1, rr: 1 },
  ];
  for (const row of rows) {
    it(`${row.ranked.join(',')} vs ${row.relevant.join(',')} @${row.k}`, () => {
      expect(recallAtK(row.ranked, row.relevant, row.k)).toBeCloseTo(row.recall);
      expect(reciprocalRank(row.ranked, row.relevant)).toBeCloseTo(row.rr);
    });
  }
});

// A ranker that returns the documents in a fixed order, whatever the query.
function fixed(id: string, order: string[]): Ranker {
  return { id, label: id, build: () => ({ search: (_q, o) => order.filter((n) => o.filter(n)).map((name) => ({ name, score: 1, fields: ['name'] })) }) };
}

describe('runEval and formatEvalReport', () => {
  const docs: SearchDocument[] = ['a', 'b', 'c'].map((n, i) => doc(n, i));
  const queries: EvalQuery[] = [
    { query: 'q1', relevant: ['a'] },
    { query: 'q2', relevant: ['c'] },
    { query: 'q3', relevant: ['b', 'z'] },
  ];

  it('averages recall@k and MRR per ranker and lists the misses', () => {
    const report = runEval(docs, queries, [fixed('abc', ['a', 'b', 'c']), fixed('none', [])], [2, 1]);
    expect(report.ks).toEqual([1, 2]);
    const [abc, none] = report.rankings;
    expect(abc?.recall[0]).toBeCloseTo(1 / 3); // q1 only
    expect(abc?.recall[1]).toBeCloseTo((1 + 0 + 0.5) / 3);
    expect(abc?.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 2) / 3);
    expect(abc?.misses).toEqual([{ query: 'q2', relevant: ['c'], returned: ['a', 'b'] }]);
    expect(none?.misses).toHaveLength(3);
  });

  it('prints the table side by side, then at most 20 misses per ranking', () => {
    const many: EvalQuery[] = Array.from({ length: 25 }, (_, i) => ({ query: `query ${i} ${'long '.repeat(30)}`, relevant: ['z'] }));
    const text = formatEvalReport(runEval(docs, many, [fixed('abc', ['a', 'b', 'c', 'a2']), fixed('none', [])]));
    const lines = text.split('\n');
    expect(lines[0]).toBe('25 queries');
    expect(lines[1]).toMatch(/^ranking\s+recall@1\s+recall@5\s+recall@10\s+MRR\s+misses$/);
    expect(lines[2]).toMatch(/^abc\s+0\.000\s+0\.000\s+0\.000\s+0\.000\s+25$/);
    expect(lines[3]).toMatch(/^none\s+0\.000/);
    expect(text).toContain('misses of abc (no relevant tool in the top 10): 25');
    expect(text.match(/… and 5 more/g)).toHaveLength(2);
    expect(text).toContain('want z; got a, b, c, …');
    expect(text).toContain('got nothing');
    expect(lines.every((line) => line.length < 140)).toBe(true);
  });
});

describe('a ranking that returns nothing (issue 24.9)', () => {
  const docs: SearchDocument[] = [doc('research_finder', 0), doc('seo_tool', 1)];
  const sentences: EvalQuery[] = [
    { query: 'Can you help me find research papers on this topic?', relevant: ['research_finder'] },
    { query: 'What are the best content strategies for my business?', relevant: ['seo_tool'] },
  ];

  it('counts the queries each ranking returned no tool for', () => {
    const report = runEval(docs, sentences, [substring, fixed('abc', ['research_finder'])]);
    expect(report.rankings.map((r) => r.empty)).toEqual([2, 0]);
    // The same substring ranking finds a tool from a keyword: the zeros above are the queries, not a bug.
    expect(runEval(docs, [{ query: 'research', relevant: ['research_finder'] }], [substring]).rankings[0]?.recall[0]).toBe(1);
  });

  it('says so under the table, with the reason for substring', () => {
    const lines = formatEvalReport(runEval(docs, sentences, [substring, fixed('abc', ['research_finder'])])).split('\n');
    const note = lines.filter((l) => l.startsWith('note: '));
    expect(note).toHaveLength(1);
    expect(note[0]).toMatch(/^note: substring returned no tool for 2 of 2 queries: it returns a tool only when every word of the query appears in that tool's texts/u);
    expect(note[0]).toContain('not a bug');
    expect(note[0]).toContain('median 10 words');
  });
});

describe('parseEvalQueries', () => {
  it('reads JSON lines and reports bad ones', () => {
    const text = ['{"query": "q", "relevant": ["a"]}', '', 'nope', '{"query": 1, "relevant": []}', '{"query": "q", "relevant": [1]}', '[]'].join('\n');
    const { queries, errors } = parseEvalQueries(text);
    expect(queries).toEqual([{ query: 'q', relevant: ['a'] }]);
    expect(errors).toEqual([
      'line 3, column 1: not JSON: expected a value (an object, an array, a string in double quotes, a number, true, false or null), found `n`',
      'line 4: "query" must be a string',
      'line 5: "relevant" must be an array of tool names',
      'line 6: "query" must be a string',
    ]);
  });
});
