// `tool-workbench eval --catalogue FILE --queries FILE.jsonl [--ranking bm25|substring] [--k 1,5,10]`
import { catalogueDocuments } from '../core/search/catalogue-file';
import { bm25 } from '../core/search/bm25';
import { formatEvalLines, parseEvalQueries, runEval } from '../core/search/metrics';
import { substring } from '../core/search/substring';
import type { Ranker } from '../core/search/types';
import type { Io } from './main';
import { line } from './print';
import { readErrorText } from './read';

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
        io.err(line(`tool-workbench eval: --k takes positive integers separated by commas, got \`${v}\``));
        return 2;
      }
    } else {
      io.err(line(`tool-workbench eval: unknown argument \`${a ?? ''}\` (accepted: --catalogue FILE, --queries FILE.jsonl, --ranking bm25|substring, --k 1,5,10, --help)`));
      return 2;
    }
  }
  if (!catalogue || !queries) {
    io.err(line('tool-workbench eval: --catalogue FILE and --queries FILE.jsonl are required (tool-workbench eval --help)'));
    return 2;
  }
  if (ranking !== undefined && !RANKERS.has(ranking)) {
    io.err(line(`tool-workbench eval: unknown ranking \`${ranking}\` (accepted: bm25, substring)`));
    return 2;
  }
  const texts: string[] = [];
  for (const file of [catalogue, queries]) {
    try {
      texts.push(io.readFile(file));
    } catch (e) {
      io.err(line(readErrorText(file, e)));
      return 2;
    }
  }
  const [catText = '', qText = ''] = texts;
  const docs = catalogueDocuments(catalogue, catText);
  if (!docs.ok) {
    // Errors with a place start `line:column:`; they join the file name as a compiler's do.
    io.err(line(/^\d+:\d+: /u.test(docs.error) ? `${catalogue}:${docs.error}` : `${catalogue}: ${docs.error}`));
    return 2;
  }
  // Tools that could not be read or resolved (an MCP tool of a config has no server here) are left out, visibly.
  for (const w of docs.warnings) io.err(line(`${catalogue}: ${w}`));
  const parsed = parseEvalQueries(qText);
  for (const e of parsed.errors) io.err(line(`${queries}: ${e}`));
  if (parsed.queries.length === 0) {
    io.err(line(`${queries}: no queries`));
    return 2;
  }
  const rankers = ranking ? [RANKERS.get(ranking) as Ranker] : [substring, bm25];
  const report = runEval(docs.documents, parsed.queries, rankers, ks);
  for (const l of formatEvalLines(report)) io.out(line(l));
  // The report covers the good lines; a query set with bad lines is still a bad file, and a script must see it.
  if (parsed.errors.length > 0) {
    io.err(line(`${queries}: ${parsed.errors.length} malformed line${parsed.errors.length === 1 ? '' : 's'} left out of the report above`));
    return 2;
  }
  return 0;
}
