// Consistency with `eval`: with every MetaTool tool discoverable and policy `request`, the share of
// tasks whose needed tool came back within the search limit is eval's recall at that k, on the same
// files (../shared/data/search-eval/metatool). One turn loop, one ranking: the two must agree.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScenario } from '../scenario/doc';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { catalogueDocuments } from '../search/catalogue-file';
import { bm25 } from '../search/bm25';
import { parseEvalQueries, runEval } from '../search/metrics';
import { IndexCache, LayerCache, runScenario } from '../turn/run';
import { allDiscoverableDoc } from './catalogue';
import { runTasks } from './run';

const dir = resolve(import.meta.dirname, '../../../../shared/data/search-eval/metatool');
const catalogueFile = resolve(dir, 'catalogue.tools-list.json');

function metatoolScenario(): Scenario {
  const made = allDiscoverableDoc(readFileSync(catalogueFile, 'utf8'), 'catalogue.tools-list.json', 'metatool');
  if (!made.ok) throw new Error(made.errors.join('; '));
  const parsed = parseScenario(writeScenario(made.doc));
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  return parsed.scenario;
}

describe('task runs agree with eval on MetaTool', () => {
  // Every 3rd line of multi-queries.jsonl (166 of its 497 tasks of two tools) and every 8th of queries.jsonl (258 of its
  // 2,062: the unit suite stays short on two cores; the bench runs all of them).
  it.each([['multi-queries.jsonl', 5, 3], ['queries.jsonl', 10, 8]])('%s: the share of needed tools back within limit %i is eval\'s bm25 recall@k', (file, k, every) => {
    const parsed = parseEvalQueries(readFileSync(resolve(dir, file), 'utf8'));
    expect(parsed.errors).toEqual([]);
    const queries = parsed.queries.filter((_, i) => i % every === 0);
    const indexCache = new IndexCache();
    const layerCache = new LayerCache();
    const runner = (s: Scenario) => runScenario({ scenario: s, indexCache, layerCache });
    const run = runTasks(metatoolScenario(), runner, queries, { policy: 'request', limit: k });
    const docs = catalogueDocuments('catalogue.tools-list.json', readFileSync(catalogueFile, 'utf8'));
    if (!docs.ok) throw new Error(docs.error);
    const recall = runEval(docs.documents, queries, [bm25], [k]).rankings[0]?.recall[0] ?? NaN;
    // Per task, the share of its needed tools that came back within the limit, averaged: eval's recall@k.
    const share = run.results.reduce((a, r) => a + r.needed.filter((n) => n.rank !== undefined && n.rank <= k).length / r.needed.length, 0) / run.results.length;
    expect(run.results.every((r) => r.searched && r.queries[0] === r.query)).toBe(true);
    expect(share).toBeCloseTo(recall, 10);
    expect(run.summary.tasks).toBe(queries.length);
    expect(run.unknownNames).toEqual([]);
    expect(share).toBeGreaterThan(0.3);
    expect(share).toBeLessThan(1);
  });
});
