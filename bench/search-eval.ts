// Search quality: recall@1/5/10 and MRR of both rankers on the MetaTool query sets
// (199 tools; whole user requests; target for bm25: recall@10 >= 0.70 on
// queries.jsonl), plus sanity queries of our own, short and model-style, on the
// LiveMCPBench catalogue (510 real MCP tools).
// queries.jsonl is also reported in two halves split by the relevant tool (halvesByRelevantTool): a change
// to the ranking is tuned on the first and must hold on the second, whose tools it was not tuned on.
//   npx tsx bench/search-eval.ts [--misses]   (or through `npm run bench`)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { parseToolsList, mcpToolToSearchDocument } from '../src/core/catalogue/tools-list';
import { bm25 } from '../src/core/search/bm25';
import { substring } from '../src/core/search/substring';
import type { EvalQuery } from '../src/core/search/metrics';
import { formatEvalReport, halvesByRelevantTool, parseEvalQueries, runEval } from '../src/core/search/metrics';
import type { SearchDocument } from '../src/core/search/types';

const here = dirname(fileURLToPath(import.meta.url));
const data = resolve(here, '../../shared/data');

// Several tools can be right, so recall@1 is at most 1/|relevant|; MRR is the figure to watch.
const SANITY: readonly EvalQuery[] = [
  { query: 'take a screenshot of a web page', relevant: ['playwright_screenshot', 'puppeteer_screenshot'] },
  { query: 'convert docx to pdf', relevant: ['docx_to_pdf', 'convert_to_pdf'] },
  { query: 'historical stock prices', relevant: ['get_historical_stock_prices', 'get_price_history', 'get_stock_price_date_range'] },
  { query: 'weather in a city', relevant: ['get_weather_by_city', 'get_weather'] },
  { query: 'pie chart', relevant: ['generate_pie_chart'] },
  { query: 'git commit', relevant: ['git_commit'] },
  { query: 'search arxiv papers', relevant: ['search_papers'] },
  { query: 'whois domain lookup', relevant: ['whois_domain'] },
  { query: 'merge pdf files', relevant: ['pdf_merger'] },
  { query: 'npm package vulnerabilities', relevant: ['npmVulnerabilities'] },
  { query: 'leetcode daily challenge', relevant: ['get-daily-challenge'] },
  { query: 'train tickets', relevant: ['get-tickets', 'get-interline-tickets'] },
  { query: 'kill a running process', relevant: ['kill_process', 'force_terminate'] },
  { query: 'html to markdown', relevant: ['html_to_markdown', 'fetch_markdown'] },
  { query: 'mind map from markdown', relevant: ['convert_markdown_to_mindmap', 'generate_mind_map'] },
  { query: 'geocode an address', relevant: ['geocode_address'] },
  { query: 'crypto fear and greed index', relevant: ['get_crypto_fear_greed_index'] },
  { query: 'add a slide to the presentation', relevant: ['add_slide', 'add_slide_with_layout'] },
  { query: 'random number', relevant: ['random_int', 'random_float', 'secure_random_int'] },
  { query: 'youtube video transcript', relevant: ['get_transcript'] },
  { query: 'EV charging stations nearby', relevant: ['find_ev_charging_stations'] },
  { query: 'currency exchange rate', relevant: ['exchange_rate'] },
  { query: 'make a chess move', relevant: ['make_move'] },
  { query: 'read an excel sheet', relevant: ['excel_read_sheet', 'excel_read'] },
  { query: 'list files in a directory', relevant: ['list_directory', 'list_files', 'list_directory_with_sizes'] },
  { query: 'wikipedia article summary', relevant: ['get_summary', 'search_wikipedia', 'get_article'] },
  { query: 'clinical trials', relevant: ['trial_searcher', 'trial_getter'] },
  { query: 'hacker news stories', relevant: ['getStories', 'getStory'] },
  { query: 'fill a form field in the browser', relevant: ['playwright_fill', 'puppeteer_fill'] },
  { query: 'getWeather', relevant: ['get_weather', 'get_weather_by_city'] },
];

function catalogue(path: string): SearchDocument[] {
  const parsed = parseToolsList(JSON.parse(readFileSync(resolve(data, path), 'utf8')));
  if (parsed.errors.length > 0) console.warn(parsed.errors.join('\n'));
  return parsed.tools.map((tool, i) => mcpToolToSearchDocument(tool, i));
}

function report(title: string, docs: readonly SearchDocument[], queries: readonly EvalQuery[], showMisses: boolean): void {
  const text = formatEvalReport(runEval(docs, queries, [substring, bm25], [1, 5, 10]));
  console.log(`search eval: ${title} (${docs.length} tools)`);
  console.log(showMisses ? text : (text.split('\n\n')[0] ?? ''));
}

export function run(showMisses = false): void {
  const metatool = catalogue('search-eval/metatool/catalogue.tools-list.json');
  for (const file of ['queries.jsonl', 'multi-queries.jsonl']) {
    const { queries, errors } = parseEvalQueries(readFileSync(resolve(data, 'search-eval/metatool', file), 'utf8'));
    if (errors.length > 0) console.warn(errors.join('\n'));
    report(`metatool/${file}`, metatool, queries, showMisses);
    if (file !== 'queries.jsonl') continue;
    const { tuning, heldOut } = halvesByRelevantTool(queries);
    report(`metatool/${file}, tuning half (by relevant tool)`, metatool, tuning, showMisses);
    report(`metatool/${file}, held-out half (by relevant tool)`, metatool, heldOut, showMisses);
  }
  report('livemcpbench, sanity queries of our own', catalogue('catalogues/livemcpbench.tools-list.json'), SANITY, showMisses);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run(process.argv.includes('--misses'));
