// A run's summary and its printed forms: the command line's lines, JSONL and CSV exports.
import { OUTCOMES, OUTCOME_LABELS } from './types';
import type { Outcome, PolicyName, TaskResult, TaskRun, TaskSummary } from './types';

export interface RunLabels {
  readonly policy: PolicyName;
  readonly categories: boolean;
  readonly limit: number;
  readonly section: TaskRun['section'];
  /** "prices of 2026-12-01", when the run was priced. */
  readonly priced?: string;
}

export function summarize(results: readonly TaskResult[], labels: RunLabels): TaskRun {
  const counts: Record<Outcome, number> = { 'met-up-front': 0, 'met-by-search': 0, 'silent-miss': 0, impossible: 0 };
  for (const r of results) counts[r.outcome] += 1;
  const helped = results.filter((r) => r.outcome === 'met-by-search' || r.outcome === 'silent-miss');
  const priced = results.filter((r) => r.tokens !== undefined);
  const sum = (f: (r: TaskResult) => number): number => priced.reduce((a, r) => a + f(r), 0);
  const summary: TaskSummary = {
    tasks: results.length,
    counts,
    searched: results.filter((r) => r.searched).length,
    helpedBySearch: helped.length,
    searchedWhenHelpful: helped.filter((r) => r.searched).length,
    searchRate: helped.length === 0 ? 0 : helped.filter((r) => r.searched).length / helped.length,
    ...(labels.priced !== undefined && priced.length > 0
      ? { tokens: { tokens: sum((r) => r.tokens?.tokens ?? 0), allOnTokens: sum((r) => r.tokens?.allOnTokens ?? 0), money: sum((r) => r.tokens?.money ?? 0), allOnMoney: sum((r) => r.tokens?.allOnMoney ?? 0), priced: labels.priced } }
      : {}),
  };
  const unknown = new Map<string, number>();
  for (const r of results) for (const n of r.needed) if (n.state === 'unknown' && r.error === undefined) unknown.set(n.name, (unknown.get(n.name) ?? 0) + 1);
  return { policy: labels.policy, categories: labels.categories, limit: labels.limit, section: labels.section, results, summary, unknownNames: [...unknown].map(([name, tasks]) => ({ name, tasks })) };
}

const rate = (x: number): string => x.toFixed(2);
/** A rate as the Tasks tab shows it, a whole percentage; the command line's summary line prints the same (issue 33). */
export const percent = (x: number): string => `${Math.round(x * 100)}%`;
const tasksWord = (n: number): string => (n === 1 ? 'task' : 'tasks');

/**
 * The run's two ratios, each naming what it divides (issue 24.7): the share of all tasks whose turn
 * searched, and the search rate, over the tasks a search would have helped (met by search or silently
 * missed). The panel and the command line print these same words; `percent` formats the rate.
 */
export function searchRatios(s: TaskSummary, percent: (x: number) => string = rate): { readonly searched: string; readonly rate: string } {
  return {
    searched: `searched in ${s.searched} of ${s.tasks} ${tasksWord(s.tasks)}`,
    rate: `search rate ${percent(s.searchRate)} (searched in ${s.searchedWhenHelpful} of the ${s.helpedBySearch} ${tasksWord(s.helpedBySearch)} a search would have helped)`,
  };
}

/** `tasks N: met up front A, met by search B, silent misses C, impossible D; searched in S of N tasks; search rate R (searched in H of the K tasks a search would have helped)` */
export function summaryLine(s: TaskSummary): string {
  const c = s.counts;
  const r = searchRatios(s, percent);
  return `tasks ${s.tasks}: met up front ${c['met-up-front']}, met by search ${c['met-by-search']}, silent misses ${c['silent-miss']}, impossible ${c.impossible}; ${r.searched}; ${r.rate}`;
}

const clip = (text: string, width: number): string => {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
};

/** One line per silent miss: the request, the tools it needed, why. */
export function silentMissLines(run: TaskRun): string[] {
  return run.results.filter((r) => r.outcome === 'silent-miss').map((r) => `silent miss: ${clip(r.query, 80)}  needs ${r.relevant.join(', ')}: ${r.reason}`);
}

/** The summary's further lines: the policy that produced the figures, tokens, unknown names. */
export function runNotes(run: TaskRun): string[] {
  const lines = [`policy ${run.policy} (a stand-in, not a real model); search limit ${run.limit}; categories section ${run.categories ? 'in the system prompt' : 'off'}`];
  const sec = run.section;
  lines.push(`categories section: ${sec.lines} line${sec.lines === 1 ? '' : 's'}${sec.tokens !== undefined ? `, ${sec.tokens} tokens on every request` : ''}${run.categories ? '' : ' (not in the prompt; --categories adds it)'}`);
  const t = run.summary.tokens;
  if (t) lines.push(`tokens ${t.tokens} against ${t.allOnTokens} with every permitted tool on; $${t.money.toFixed(4)} against $${t.allOnMoney.toFixed(4)} (${t.priced})`);
  for (const u of run.unknownNames) lines.push(`not in the catalogue: ${u.name} (named by ${u.tasks} task${u.tasks === 1 ? '' : 's'})`);
  return lines;
}

function resultRecord(r: TaskResult): Record<string, unknown> {
  return {
    query: r.query,
    relevant: r.relevant,
    outcome: r.outcome,
    reason: r.reason,
    searched: r.searched,
    queries: r.queries,
    needed: r.needed,
    ...(r.tokens ? { tokens: r.tokens } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
}

/** One JSON object per task, a line each. */
export function resultsJsonl(run: TaskRun): string {
  return run.results.map((r) => JSON.stringify({ policy: run.policy, categories: run.categories, ...resultRecord(r) })).join('\n') + (run.results.length > 0 ? '\n' : '');
}

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(v: string | number | boolean): string {
  const s = String(v);
  // A leading =, +, - or @ makes a spreadsheet evaluate the cell: such text is prefixed with a quote.
  const safe = /^[=+\-@\t\r]/u.test(s) && typeof v === 'string' ? `'${s}` : s;
  return /[",\r\n]/u.test(safe) ? `"${safe.replace(/"/gu, '""')}"` : safe;
}

export const CSV_HEADER = ['policy', 'categories', 'query', 'relevant', 'outcome', 'searched', 'queries', 'ranks', 'states', 'reason', 'tokens', 'all_on_tokens'];

export function resultsCsv(run: TaskRun): string {
  const rows = run.results.map((r) => [
    run.policy,
    run.categories,
    r.query,
    r.relevant.join(' '),
    OUTCOME_LABELS[r.outcome],
    r.searched,
    r.queries.join(' | '),
    r.needed.map((n) => (n.rank === undefined ? 'none' : String(n.rank))).join(' '),
    r.needed.map((n) => n.state).join(' '),
    r.reason,
    r.tokens?.tokens ?? '',
    r.tokens?.allOnTokens ?? '',
  ]);
  return [CSV_HEADER, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export { OUTCOMES };
