// The bm25 ranking's quality on MetaTool (../shared/data, read in place), gated slightly under the
// figures measured when the ranking last changed (src/core/search/README.md, "What the ranking
// does"): a change that finds less on these sets fails here, not silently in the eval's table.
// queries.jsonl is also gated in its two halves by relevant tool (halvesByRelevantTool, which
// bench/search-eval.ts prints too), so a change tuned on one half must hold on the other.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bm25 } from './bm25';
import { catalogueDocuments } from './catalogue-file';
import type { EvalQuery } from './metrics';
import { halvesByRelevantTool, parseEvalQueries, runEval } from './metrics';

const metatool = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/data/search-eval/metatool');

function read(file: string): string {
  return readFileSync(resolve(metatool, file), 'utf8');
}

const catalogue = catalogueDocuments('catalogue.tools-list.json', read('catalogue.tools-list.json'));
if (!catalogue.ok) throw new Error(catalogue.error);
const docs = catalogue.documents;
const single = parseEvalQueries(read('queries.jsonl')).queries;
const multi = parseEvalQueries(read('multi-queries.jsonl')).queries;
const { tuning, heldOut } = halvesByRelevantTool(single);

/** Floors for recall@1, @5, @10 and MRR: each about 0.005 under the measured figure. */
const GATES: readonly (readonly [string, readonly EvalQuery[], readonly [number, number, number, number]])[] = [
  // measured 0.430 0.644 0.704 0.527
  ['queries.jsonl', single, [0.425, 0.64, 0.7, 0.52]],
  // measured 0.444 0.654 0.711 0.539
  ['queries.jsonl, tuning half', tuning, [0.44, 0.65, 0.705, 0.535]],
  // measured 0.417 0.635 0.698 0.516
  ['queries.jsonl, held-out half', heldOut, [0.41, 0.63, 0.69, 0.51]],
  // measured 0.300 0.712 0.772 0.734
  ['multi-queries.jsonl', multi, [0.295, 0.705, 0.765, 0.73]],
];

describe('bm25 on MetaTool finds at least what it found when the ranking last changed', () => {
  it('the halves split queries.jsonl by relevant tool: no tool in both', () => {
    expect(tuning.length + heldOut.length).toBe(single.length);
    const names = new Set(tuning.map((q) => q.relevant[0]));
    expect(heldOut.some((q) => names.has(q.relevant[0]))).toBe(false);
    expect(Math.min(tuning.length, heldOut.length)).toBeGreaterThan(single.length / 3);
  });

  for (const [label, queries, [r1, r5, r10, mrr]] of GATES) {
    it(`${label} (${queries.length} queries): recall@1 >= ${r1}, @5 >= ${r5}, @10 >= ${r10}, MRR >= ${mrr}`, () => {
      const report = runEval(docs, queries, [bm25], [1, 5, 10]).rankings[0];
      expect(report?.recall[0]).toBeGreaterThanOrEqual(r1);
      expect(report?.recall[1]).toBeGreaterThanOrEqual(r5);
      expect(report?.recall[2]).toBeGreaterThanOrEqual(r10);
      expect(report?.mrr).toBeGreaterThanOrEqual(mrr);
    });
  }
});
