// Retrieval metrics for search_tools rankers, and the evaluation report behind
// `tool-workbench eval`.
//
// recall@k: |relevant ∩ top k| / |relevant|, averaged over queries.
// MRR: 1 / rank of the first relevant hit in the whole ranking (0 when none), averaged.
// A miss: a query with no relevant tool in the top max(ks).
import type { Ranker, SearchDocument } from './types';
import { parseJson } from '../input/json';

export interface EvalQuery {
  readonly query: string;
  readonly relevant: readonly string[];
}

export interface EvalMiss {
  readonly query: string;
  readonly relevant: readonly string[];
  /** The top max(ks) names the ranker returned. */
  readonly returned: readonly string[];
}

export interface RankingReport {
  readonly id: string;
  readonly label: string;
  /** recall@k for each k of EvalReport.ks, in that order. */
  readonly recall: readonly number[];
  readonly mrr: number;
  readonly misses: readonly EvalMiss[];
  /** Queries the ranking returned no tool at all for (a miss by silence, not by ranking). */
  readonly empty: number;
}

export interface EvalReport {
  readonly queries: number;
  /** The median length of the queries in words: a substring ranking's zeros are read against it. */
  readonly medianWords: number;
  readonly ks: readonly number[];
  readonly rankings: readonly RankingReport[];
}

export function recallAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 0;
  const top = new Set(ranked.slice(0, Math.max(0, k)));
  let found = 0;
  for (const name of wanted) if (top.has(name)) found++;
  return found / wanted.size;
}

export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const wanted = new Set(relevant);
  const at = ranked.findIndex((name) => wanted.has(name));
  return at < 0 ? 0 : 1 / (at + 1);
}

/**
 * Queries in two halves by their first relevant tool's name (a fixed hash, so the halves never move):
 * a ranking change is tuned on `tuning` and checked on `heldOut`, whose tools it was not tuned on.
 */
export function halvesByRelevantTool(queries: readonly EvalQuery[]): { tuning: EvalQuery[]; heldOut: EvalQuery[] } {
  const half = (name: string): number => {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return h % 2;
  };
  const tuning: EvalQuery[] = [];
  const heldOut: EvalQuery[] = [];
  for (const q of queries) (half(q.relevant[0] ?? '') === 0 ? tuning : heldOut).push(q);
  return { tuning, heldOut };
}

export const DEFAULT_KS: readonly number[] = [1, 5, 10];

export function runEval(
  docs: readonly SearchDocument[],
  queries: readonly EvalQuery[],
  rankers: readonly Ranker[],
  ks: readonly number[] = DEFAULT_KS,
): EvalReport {
  const sortedKs = [...new Set(ks.filter((k) => Number.isInteger(k) && k > 0))].sort((a, b) => a - b);
  const kMax = sortedKs[sortedKs.length - 1] ?? 10;
  const all = () => true;
  const rankings = rankers.map((ranker): RankingReport => {
    const index = ranker.build(docs);
    const recallSums = sortedKs.map(() => 0);
    let rrSum = 0;
    const misses: EvalMiss[] = [];
    let empty = 0;
    for (const q of queries) {
      const ranked = index.search(q.query, { filter: all }).map((hit) => hit.name);
      if (ranked.length === 0) empty += 1;
      sortedKs.forEach((k, i) => {
        recallSums[i] = (recallSums[i] ?? 0) + recallAtK(ranked, q.relevant, k);
      });
      rrSum += reciprocalRank(ranked, q.relevant);
      if (recallAtK(ranked, q.relevant, kMax) === 0) {
        misses.push({ query: q.query, relevant: q.relevant, returned: ranked.slice(0, kMax) });
      }
    }
    const n = queries.length || 1;
    return { id: ranker.id, label: ranker.label, recall: recallSums.map((s) => s / n), mrr: rrSum / n, misses, empty };
  });
  const words = queries.map((q) => q.query.split(/\s+/u).filter((w) => w !== '').length).sort((a, b) => a - b);
  return { queries: queries.length, medianWords: words[Math.floor(words.length / 2)] ?? 0, ks: sortedKs, rankings };
}

/** Parses JSON Lines of `{"query": string, "relevant": [string, ...]}`; bad lines become errors. */
export function parseEvalQueries(text: string): { queries: EvalQuery[]; errors: string[] } {
  const queries: EvalQuery[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    // A byte-order mark only ever opens the first line, and parseJson skips it.
    const read = parseJson(line);
    if (!read.ok) {
      errors.push(`line ${i + 1}, column ${read.column}: not JSON: ${read.message}`);
      return;
    }
    const value = read.value;
    const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    const query = record && Object.hasOwn(record, 'query') ? record.query : undefined;
    const relevant = record && Object.hasOwn(record, 'relevant') ? record.relevant : undefined;
    if (typeof query !== 'string') errors.push(`line ${i + 1}: "query" must be a string`);
    else if (!Array.isArray(relevant) || !relevant.every((r) => typeof r === 'string')) {
      errors.push(`line ${i + 1}: "relevant" must be an array of tool names`);
    } else queries.push({ query, relevant });
  });
  return { queries, errors };
}

const MISS_LINES = 20;
const QUERY_WIDTH = 70;

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length))) ?? [];
  return rows.map((row) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ').trimEnd(),
  );
}

/** The rankings side by side, then each ranking's misses (at most 20 lines each). */
export function formatEvalReport(report: EvalReport): string {
  return formatEvalLines(report).join('\n');
}

/**
 * Why a ranking returned nothing. For substring this is its contract, not a bug (issue 24.9): every
 * whitespace-separated word of the query must appear in one tool's texts, which a sentence-long
 * natural-language query never satisfies; its zeros measure the query style, not the catalogue.
 */
function emptyNote(r: RankingReport, report: EvalReport): string {
  const head = `note: ${r.id} returned no tool for ${r.empty} of ${report.queries} queries`;
  if (r.id !== 'substring') return `${head}.`;
  return `${head}: it returns a tool only when every word of the query appears in that tool's texts (RFD 108's substring search), and these queries are sentences (median ${report.medianWords} words). This is not a bug: substring cannot rank natural-language queries; try it with keywords, or read bm25.`;
}

/** formatEvalReport's lines, for a shell that prints (and escapes) each one. */
export function formatEvalLines(report: EvalReport): string[] {
  const lines: string[] = [];
  const header = ['ranking', ...report.ks.map((k) => `recall@${k}`), 'MRR', 'misses'];
  const rows = report.rankings.map((r) => [
    r.id,
    ...r.recall.map((x) => x.toFixed(3)),
    r.mrr.toFixed(3),
    String(r.misses.length),
  ]);
  lines.push(`${report.queries} queries`, ...table([header, ...rows]));
  const notes = report.rankings.filter((r) => r.empty > 0).map((r) => emptyNote(r, report));
  if (notes.length > 0) lines.push('', ...notes);
  const kMax = report.ks[report.ks.length - 1] ?? 10;
  for (const r of report.rankings) {
    lines.push('', `misses of ${r.id} (no relevant tool in the top ${kMax}): ${r.misses.length}`);
    for (const miss of r.misses.slice(0, MISS_LINES)) {
      const returned = miss.returned.slice(0, 3).join(', ') + (miss.returned.length > 3 ? ', …' : '');
      lines.push(`  ${clip(miss.query, QUERY_WIDTH)}  want ${miss.relevant.join(', ')}; got ${returned || 'nothing'}`);
    }
    if (r.misses.length > MISS_LINES) lines.push(`  … and ${r.misses.length - MISS_LINES} more`);
  }
  return lines;
}
