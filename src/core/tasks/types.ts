// The values of a task run (RFD 108 phase 5: "will the model choose to search?"). A task is a user
// request and the tools it needs, in the query-set format `eval` and `findability` read.
import type { AutoAction } from '../model/auto';
import type { EvalQuery } from '../search/metrics';

export type Task = EvalQuery;

/** A needed tool's state when the task's turn starts. */
export type NeededState = 'offered' | 'discoverable' | 'off' | 'down' | 'unknown';

/**
 * met up front: every needed tool was offered when the turn started;
 * met by search: every needed tool reached the model, some through a search's promotion;
 * silent miss: a needed tool was discoverable and never reached the model (the RFD's silent failure);
 * impossible: a needed tool is off, its server is down, or the catalogue has no such tool.
 */
export type Outcome = 'met-up-front' | 'met-by-search' | 'silent-miss' | 'impossible';

export const OUTCOMES: readonly Outcome[] = ['met-up-front', 'met-by-search', 'silent-miss', 'impossible'];

export const OUTCOME_LABELS: Readonly<Record<Outcome, string>> = {
  'met-up-front': 'met up front',
  'met-by-search': 'met by search',
  'silent-miss': 'silent miss',
  impossible: 'impossible',
};

export interface NeededTool {
  /** The configured name. */
  readonly name: string;
  /** The name the task gave, when it is the tool's name on its MCP server instead. */
  readonly asked?: string;
  readonly state: NeededState;
  /** 1-based rank in the first search of the turn that returned it. */
  readonly rank?: number;
  /** The query of that search. */
  readonly foundBy?: string;
  /** A search returned it usable: the fold moved it discoverable → on. */
  readonly promoted: boolean;
  /** Offered in a request of the turn (up front, or after its promotion). */
  readonly reached: boolean;
  readonly called: boolean;
}

export interface TaskTokens {
  /** Input + output tokens of the task's turn as designed. */
  readonly tokens: number;
  /** The same turn with every permitted tool on (JP today), its searches dropped. */
  readonly allOnTokens: number;
  /** USD, at the price table's date. */
  readonly money: number;
  readonly allOnMoney: number;
}

export interface TaskResult {
  /** 0-based line among the task set's good lines. */
  readonly index: number;
  readonly query: string;
  readonly relevant: readonly string[];
  readonly outcome: Outcome;
  /** Why the outcome, in words. */
  readonly reason: string;
  readonly needed: readonly NeededTool[];
  readonly searched: boolean;
  /** The search_tools queries of the turn, in order. */
  readonly queries: readonly string[];
  /** The policy's moves, each with its reason: the task's turn as the scratch copy plays it. */
  readonly moves: readonly AutoAction[];
  readonly tokens?: TaskTokens;
  /** Why the turn did not run, when it did not (a query JP could not parse...). */
  readonly error?: string;
}

export interface TaskSummary {
  readonly tasks: number;
  readonly counts: Readonly<Record<Outcome, number>>;
  /** Tasks whose turn called search_tools. */
  readonly searched: number;
  /**
   * RFD 108's instrumentation: searches against the turns where a discoverable tool would have helped
   * (tasks met by search or silently missed); 0 when no task needed one.
   */
  readonly searchRate: number;
  readonly helpedBySearch: number;
  /** searchRate's numerator: the tasks a search would have helped whose turn did search. */
  readonly searchedWhenHelpful: number;
  readonly tokens?: { readonly tokens: number; readonly allOnTokens: number; readonly money: number; readonly allOnMoney: number; readonly priced: string };
}

export type PolicyName = 'never' | 'request' | 'auto' | 'categories';
export const POLICY_NAMES: readonly PolicyName[] = ['never', 'request', 'auto', 'categories'];

export interface TaskRun {
  readonly policy: PolicyName;
  /** The categories section was in the system prompt. */
  readonly categories: boolean;
  readonly limit: number;
  /** The categories section of the design: its lines, its text and (with a counter) its tokens on every request. */
  readonly section: { readonly lines: number; readonly text: string; readonly tokens?: number };
  readonly results: readonly TaskResult[];
  readonly summary: TaskSummary;
  /** Needed tool names the catalogue does not have, each with the number of tasks that name it. */
  readonly unknownNames: readonly { readonly name: string; readonly tasks: number }[];
}
