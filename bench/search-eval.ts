// Search quality: recall@1/5/10 and MRR of every ranker on the MetaTool query sets.
//   npx tsx bench/search-eval.ts [--misses]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { parseToolsList, mcpToolToSearchDocument } from '../src/core/catalogue/tools-list';
import { bm25 } from '../src/core/search/bm25';
import { substring } from '../src/core/search/substring';
import { formatEvalReport, parseEvalQueries, runEval } from '../src/core/search/metrics';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(here, '../../shared/data/search-eval/metatool');
const showMisses = process.argv.includes('--misses');

const catalogue = parseToolsList(JSON.parse(readFileSync(resolve(dataDir, 'catalogue.tools-list.json'), 'utf8')));
if (catalogue.errors.length > 0) console.warn(catalogue.errors.join('\n'));
const docs = catalogue.tools.map((tool, i) => mcpToolToSearchDocument(tool, i));

for (const file of ['queries.jsonl', 'multi-queries.jsonl']) {
  const { queries, errors } = parseEvalQueries(readFileSync(resolve(dataDir, file), 'utf8'));
  if (errors.length > 0) console.warn(errors.join('\n'));
  const report = runEval(docs, queries, [substring, bm25], [1, 5, 10]);
  console.log(`\n== metatool/${file} (${docs.length} tools)`);
  const text = formatEvalReport(report);
  console.log(showMisses ? text : text.split('\n\n')[0]);
}
