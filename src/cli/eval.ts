// `tool-workbench eval --catalogue FILE --queries FILE.jsonl [--ranking bm25|substring] [--k 1,5,10]`
import { catalogueDocuments } from '../core/search/catalogue-file';
import { bm25 } from '../core/search/bm25';
import { formatEvalReport, parseEvalQueries, runEval } from '../core/search/metrics';
import { substring } from '../core/search/substring';
import type { Ranker } from '../core/search/types';
import type { Io } from './main';

const RANKERS: ReadonlyMap<string, Ranker> = new Map([
  ['bm25', bm25],
  ['substring', substring],
]);

export function evalCommand(args: readonly string[], io: Io): number {
  let catalogue: string | undefined;
  let queries: string | undefined;
  let ranking: string | undefined;
  let ks = [1, 5, 10];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = (): string | undefined => args[++i];
    if (a === '--catalogue') catalogue = next();
    else if (a === '--queries') queries = next();
    else if (a === '--ranking') ranking = next();
    else if (a === '--k') {
      const v = next() ?? '';
      ks = v.split(',').map((x) => Number(x.trim()));
      if (ks.some((k) => !Number.isInteger(k) || k < 1)) {
        io.err(`tool-workbench eval: --k takes positive integers separated by commas, got \`${v}\`\n`);
        return 2;
      }
    } else {
      io.err(`tool-workbench eval: unknown argument \`${a ?? ''}\` (accepted: --catalogue FILE, --queries FILE.jsonl, --ranking bm25|substring, --k 1,5,10)\n`);
      return 2;
    }
  }
  if (!catalogue || !queries) {
    io.err('tool-workbench eval: --catalogue FILE and --queries FILE.jsonl are required\n');
    return 2;
  }
  if (ranking !== undefined && !RANKERS.has(ranking)) {
    io.err(`tool-workbench eval: unknown ranking \`${ranking}\` (accepted: bm25, substring)\n`);
    return 2;
  }
  let catText: string;
  let qText: string;
  try {
    catText = io.readFile(catalogue);
    qText = io.readFile(queries);
  } catch (e) {
    io.err(`tool-workbench eval: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const docs = catalogueDocuments(catalogue, catText);
  if (!docs.ok) {
    io.err(`${catalogue}: ${docs.error}\n`);
    return 2;
  }
  // Tools that could not be read or resolved (an MCP tool of a config has no server here) are left out, visibly.
  for (const w of docs.warnings) io.err(`${catalogue}: ${w}\n`);
  const parsed = parseEvalQueries(qText);
  for (const e of parsed.errors) io.err(`${queries}: ${e}\n`);
  if (parsed.queries.length === 0) {
    io.err(`${queries}: no queries\n`);
    return 2;
  }
  const rankers = ranking ? [RANKERS.get(ranking) as Ranker] : [substring, bm25];
  const report = runEval(docs.documents, parsed.queries, rankers, ks);
  io.out(`${formatEvalReport(report)}\n`);
  return 0;
}
