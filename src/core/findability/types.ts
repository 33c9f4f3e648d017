// The findability report's shapes: plain data, so the worker can post it and the command line
// can print it as JSON.
import type { EvalQuery } from '../search/metrics';
import type { Ranker, SearchDocument, SubstringMatch } from '../search/types';

/** Where a query came from: the tool's own words, or a task that needs the tool. */
export type QueryKind = 'name' | 'summary' | 'description' | 'task';

export interface FindabilityInput {
  /** The whole catalogue the index is built over, in config order. */
  readonly docs: readonly SearchDocument[];
  /** The tools to report on: the discoverable (searchable) ones; search_tools returns only these. */
  readonly discoverable: readonly string[];
  /** MCP tools' servers, by tool name. */
  readonly servers?: ReadonlyMap<string, string>;
  /** The rankers side by side; the report's reasons and look-alikes are the `ranking` one's. */
  readonly rankers: readonly Ranker[];
  /** The scenario's ranking (policy `ranking`): a ranker id of `rankers`. */
  readonly ranking: string;
  /** search_tools' limit (default 10): a tool is findable by a query when it ranks within it. */
  readonly limit?: number;
  readonly substringMatch?: SubstringMatch;
  /** Task set (the query-set format `eval` reads): each task's query is asked for each tool it needs. */
  readonly tasks?: readonly EvalQuery[];
}

export interface QueryResult {
  readonly kind: QueryKind;
  readonly text: string;
  /** The 1-based rank per ranking (FindabilityReport.rankings order); null when not returned at all. */
  readonly ranks: readonly (number | null)[];
  /** Under the scenario's ranking: the tools ranked above this one, at most `limit`. */
  readonly beatenBy: readonly string[];
}

export type FindabilityStatus = 'findable' | 'hard' | 'unreachable';

/**
 * The word shown for a status, agreeing with the figures beside it (issue 24.8): a tool its own
 * words find (score at least HARD_SCORE, no task missing it) but whose description is too thin is
 * "thinly described", not "hard to find".
 */
export type FindabilityWord = 'findable' | 'hard to find' | 'thinly described' | 'unreachable';

export type ReasonCode = 'no-description' | 'short-description' | 'shared-words' | 'parameter-words' | 'task-words' | 'outranked';

export interface Reason {
  readonly code: ReasonCode;
  /** One sentence, for a diagnostic or a report line. */
  readonly text: string;
  readonly words?: readonly string[];
  readonly tools?: readonly string[];
}

/** An edit that would obviously help: the summary to write for the tool. */
export interface FindabilityFix {
  readonly kind: 'add-summary' | 'add-words';
  readonly title: string;
  readonly summary: string;
}

export interface RankingScore {
  /** Queries that return the tool within the limit. */
  readonly found: number;
  readonly queries: number;
  /** Its best rank over its queries; null when no query returns it. */
  readonly best: number | null;
  /** found / queries, 0..1. */
  readonly score: number;
}

export interface ToolFindability {
  readonly name: string;
  readonly order: number;
  readonly server?: string;
  /** Under the scenario's ranking. */
  readonly status: FindabilityStatus;
  /** What the panels and the command line call it. */
  readonly word: FindabilityWord;
  readonly score: number;
  readonly best: number | null;
  /** Per ranking, in FindabilityReport.rankings order. */
  readonly rankings: readonly RankingScore[];
  readonly queries: readonly QueryResult[];
  /** Why it is hard to find (empty when findable). */
  readonly reasons: readonly Reason[];
  /** The tools that beat it most often on its queries, most often first (at most 5). */
  readonly beatenBy: readonly string[];
  readonly fix?: FindabilityFix;
}

export interface RankingSummary {
  readonly id: string;
  readonly label: string;
  /** This is the scenario's ranking. */
  readonly active: boolean;
  /** Tools with a best rank within the limit. */
  readonly findable: number;
  /** Tools with a best rank within k, for k = 1, 5 and the limit. */
  readonly atK: readonly { readonly k: number; readonly tools: number }[];
  /** The mean tool score, 0..1. */
  readonly score: number;
}

export interface LookAlikeGroup {
  readonly tools: readonly string[];
  /** Words every member's name, summary and description holds (at most 8). */
  readonly shared: readonly string[];
}

export interface FindabilityReport {
  readonly limit: number;
  /** The scenario's ranking id. */
  readonly ranking: string;
  readonly rankings: readonly RankingSummary[];
  /** Every discoverable tool, in config order. */
  readonly tools: readonly ToolFindability[];
  /** Tool names, hardest to find first (unreachable, then hard, by score and best rank). */
  readonly hardest: readonly string[];
  readonly lookAlikes: readonly LookAlikeGroup[];
  readonly tasks: number;
  /** Tools the task set needs that the catalogue lacks, or holds but not as discoverable. */
  readonly unknownTaskTools: readonly string[];
}

export interface FindabilityChange {
  readonly name: string;
  readonly before?: { readonly status: FindabilityStatus; readonly word: FindabilityWord; readonly score: number; readonly best: number | null };
  readonly after?: { readonly status: FindabilityStatus; readonly word: FindabilityWord; readonly score: number; readonly best: number | null };
  /** 'better', 'worse' or 'changed' (same status, other ranks); 'added' and 'removed' for tools only on one side. */
  readonly direction: 'better' | 'worse' | 'changed' | 'added' | 'removed';
}

export interface FindabilityComparison {
  readonly before: { readonly findable: number; readonly tools: number };
  readonly after: { readonly findable: number; readonly tools: number };
  readonly changes: readonly FindabilityChange[];
}
