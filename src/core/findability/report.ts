// Findability (issue 17): for every discoverable tool, will search_tools find it, and which tools
// crowd each other out. Every tool is asked by its own words (queries.ts) and by the tasks that
// need it, under each ranking side by side, with search_tools' filter (the discoverable set) and
// limit. Nothing runs a model: the report is what a catalogue designer can know before one does.
//
// A tool is
// - unreachable when none of its queries returns it within the limit (under the scenario's ranking);
// - hard to find when it is reachable but its description is empty or shorter than
//   MIN_DESCRIPTION_WORDS words, fewer than half its queries return it within the limit, or a task
//   that needs it misses it;
// - findable otherwise.
import { MAX_QUERY_LENGTH } from '../search/contract';
import { patternFromWords } from '../search/regex';
import type { RankerIndex, SearchDocument } from '../search/types';
import { contentWords } from '../search/words';
import { lookAlikeGroups } from './lookalikes';
import { ownQueries, tasksByTool } from './queries';
import type { OwnQuery } from './queries';
import { explain } from './reasons';
import { MIN_DESCRIPTION_WORDS, toolWords } from './tool-words';
import type { Asked, ToolWords } from './tool-words';
import type { FindabilityInput, FindabilityReport, FindabilityStatus, FindabilityWord, QueryResult, RankingScore, RankingSummary, ToolFindability } from './types';

export const DEFAULT_FINDABILITY_LIMIT = 10;
/** Below this share of its queries found within the limit, a reachable tool is hard to find. */
export const HARD_SCORE = 0.5;
/** A tool below another within this share of its score is as good as tied with it (a look-alike). */
export const NEAR_TIE = 0.1;

/** The query a ranking is given: the regex ranker gets the pattern a model would write for the words. */
function queryFor(rankerId: string, text: string): string {
  return rankerId === 'regex' ? patternFromWords(text) : text.slice(0, MAX_QUERY_LENGTH);
}

/**
 * One query, through the ranker's public `search` (every hit passing search_tools' filter, best
 * first), so a rank below the limit is known too. Queries are never empty and at most
 * MAX_QUERY_LENGTH characters, as the search_tools contract requires.
 */
function ask(index: RankerIndex, query: string, name: string, input: FindabilityInput, filter: (n: string) => boolean, limit: number): Asked {
  if (query.trim() === '') return { rank: null, above: [], tied: [] };
  const hits = index.search(query, { filter, ...(input.substringMatch ? { substringMatch: input.substringMatch } : {}) });
  const at = hits.findIndex((h) => h.name === name);
  const rank = at < 0 ? null : at + 1;
  const above = hits.slice(0, at < 0 ? limit : Math.min(at, limit)).map((h) => h.name);
  const score = at < 0 ? undefined : hits[at]?.score;
  // Within a tenth of its score counts as a tie: a wording away from outranking it.
  const tied = score === undefined ? [] : hits.slice(at + 1, limit).filter((h) => h.score >= score - Math.abs(score) * NEAR_TIE).map((h) => h.name);
  return { rank, above, tied };
}

function rankingScore(ranks: readonly (number | null)[], limit: number): RankingScore {
  const found = ranks.filter((r) => r !== null && r <= limit).length;
  const best = ranks.reduce<number | null>((b, r) => (r === null ? b : b === null ? r : Math.min(b, r)), null);
  return { found, queries: ranks.length, best, score: ranks.length === 0 ? 0 : found / ranks.length };
}

/** The tools that beat it most often (at most 5), most often first, then in first-seen order. */
function mostOften(lists: readonly (readonly string[])[]): string[] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const n of list) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n]) => n);
}

function statusOf(score: RankingScore, words: ToolWords, queries: readonly OwnQuery[], asked: readonly Asked[], limit: number): { status: FindabilityStatus; word: FindabilityWord } {
  if (score.found === 0) return { status: 'unreachable', word: 'unreachable' };
  const taskMissed = queries.some((q, i) => q.kind === 'task' && !((asked[i]?.rank ?? Infinity) <= limit));
  if (score.score < HARD_SCORE || taskMissed) return { status: 'hard', word: 'hard to find' };
  // Its own words find it: only the thin description puts it at risk, and the word says that.
  return words.describedBy < MIN_DESCRIPTION_WORDS ? { status: 'hard', word: 'thinly described' } : { status: 'findable', word: 'findable' };
}

const STATUS_ORDER: Record<FindabilityStatus, number> = { unreachable: 0, hard: 1, findable: 2 };

export function findabilityReport(input: FindabilityInput): FindabilityReport {
  const steps = findabilityReportInSteps(input);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

/**
 * `findabilityReport` a tool at a time: it yields after the indexes are built and after each tool, and
 * returns the same report. The derive worker runs it in slices, so a derivation asked meanwhile is
 * answered between two tools instead of after the whole catalogue (src/derive/dispatch.ts).
 */
export function* findabilityReportInSteps(input: FindabilityInput): Generator<void, FindabilityReport, undefined> {
  const limit = input.limit ?? DEFAULT_FINDABILITY_LIMIT;
  const byName = new Map<string, SearchDocument>();
  for (const d of input.docs) byName.set(d.name, d);
  const searchable = new Set(input.discoverable.filter((n) => byName.has(n)));
  const filter = (n: string) => searchable.has(n);
  const targets = input.docs.filter((d) => searchable.has(d.name));
  const tasks = tasksByTool(input.tasks ?? []);
  const unknownTaskTools = [...tasks.keys()].filter((n) => !searchable.has(n));
  const activeAt = Math.max(0, input.rankers.findIndex((r) => r.id === input.ranking));
  // No tool to report on: no index to build.
  const indexes = targets.length === 0 ? [] : input.rankers.map((r) => r.build(input.docs));
  yield;
  const words = new Map<string, ToolWords>();
  for (const d of input.docs) words.set(d.name, toolWords(d));
  const taskWordCounts = new Map<string, number>();
  for (const t of input.tasks ?? []) for (const w of contentWords(t.query)) taskWordCounts.set(w, (taskWordCounts.get(w) ?? 0) + 1);
  const taskWords = { counts: taskWordCounts, tasks: input.tasks?.length ?? 0 };
  const holders = new Map<string, number>();
  for (const w of words.values()) for (const word of new Set([...w.own, ...w.parameters])) holders.set(word, (holders.get(word) ?? 0) + 1);

  const asked = new Map<string, Asked[]>();
  const toolOf = (doc: SearchDocument): ToolFindability => {
    const w = words.get(doc.name) as ToolWords;
    const queries: OwnQuery[] = [...ownQueries(doc), ...(tasks.get(doc.name) ?? []).map((t) => ({ kind: 'task' as const, text: t.query }))];
    const perRanker = indexes.map((index, r) => queries.map((q) => ask(index, queryFor(input.rankers[r]?.id ?? '', q.text), doc.name, input, filter, limit)));
    const active = perRanker[activeAt] ?? [];
    // Look-alikes are about a tool's own words: two tools one task needs are not crowding each other.
    asked.set(doc.name, active.filter((_, i) => queries[i]?.kind !== 'task'));
    const results: QueryResult[] = queries.map((q, i) => ({ kind: q.kind, text: q.text, ranks: perRanker.map((a) => a[i]?.rank ?? null), beatenBy: active[i]?.above ?? [] }));
    const rankings = perRanker.map((a) => rankingScore(a.map((x) => x.rank), limit));
    const score = rankings[activeAt] as RankingScore;
    const { status, word } = statusOf(score, w, queries, active, limit);
    const missed = active.filter((a) => !(a.rank !== null && a.rank <= limit));
    const beatenBy = mostOften(missed.length > 0 ? missed.map((a) => a.above) : active.map((a) => a.above));
    const server = input.servers?.get(doc.name);
    const base = { name: doc.name, order: doc.order, ...(server !== undefined ? { server } : {}), status, word, score: score.score, best: score.best, rankings, queries: results, beatenBy };
    if (status === 'findable') return { ...base, reasons: [] };
    const missedQueries = results.filter((_, i) => !((active[i]?.rank ?? Infinity) <= limit));
    const { reasons, fix } = explain({ words: w, holders, queries: results, missed: missedQueries, beatenBy, all: words, taskWords });
    return { ...base, reasons, ...(fix ? { fix } : {}) };
  };
  const tools: ToolFindability[] = [];
  for (const doc of targets) {
    tools.push(toolOf(doc));
    yield;
  }

  const hardest = [...tools]
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.score - b.score || (b.best ?? Infinity) - (a.best ?? Infinity) || a.order - b.order)
    .filter((t) => t.status !== 'findable')
    .map((t) => t.name);
  const ks = [...new Set([1, 5, limit])].filter((k) => k <= limit).sort((a, b) => a - b);
  const rankings: RankingSummary[] = input.rankers.map((r, i) => ({
    id: r.id,
    label: r.label,
    active: i === activeAt,
    findable: tools.filter((t) => { const b = t.rankings[i]?.best; return b !== null && b !== undefined && b <= limit; }).length,
    atK: ks.map((k) => ({ k, tools: tools.filter((t) => { const b = t.rankings[i]?.best; return b !== null && b !== undefined && b <= k; }).length })),
    score: tools.length === 0 ? 0 : tools.reduce((s, t) => s + (t.rankings[i]?.score ?? 0), 0) / tools.length,
  }));
  return {
    limit,
    ranking: input.rankers[activeAt]?.id ?? input.ranking,
    rankings,
    tools,
    hardest,
    lookAlikes: lookAlikeGroups(targets, asked, words),
    tasks: input.tasks?.length ?? 0,
    unknownTaskTools,
  };
}
