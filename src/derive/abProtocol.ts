// The derive methods behind the Tasks tab's model A/B (issue 33 §1): a paired A/B of policy switches
// on the user's model, played in the worker (src/core/tasks/ab.ts) while the page sends each request
// through the bridge. The worker cannot reach the bridge (its session and keys stay with the page's
// origin and the bridge), so the run is a conversation: every answer the worker gives is either the
// next request to send (`ask`) or the finished run, and the page answers each request with the model's
// reply (abAnswer), or asks it to stop.
import type { ModelAnswer } from '../core/tasks/model-play';
import type { AbResult, Arm } from '../core/tasks/ab';
import type { ProviderId } from '../core/providers/types';
import type { TaskResult } from '../core';

export interface AbParams {
  readonly revision: number;
  /** The task set as JSONL, as the Tasks tab has it. */
  readonly tasks: string;
  readonly provider: ProviderId;
  readonly model: string;
  /** Arm B's switches, `SWITCH=VALUE` as `--ab` takes them. */
  readonly switches: readonly string[];
  /** Stop sending once the billed money reaches this (USD); needs a priced model. */
  readonly maxUsd?: number;
}

export interface AbEstimateView {
  /** The CLI's estimate line, word for word. */
  readonly line: string;
  readonly tasks: number;
  /** Lines of the task set that could not be read, each with its line (and column). */
  readonly taskErrors: readonly string[];
  readonly requests: number;
  /** How the money is priced, in words (the price row, or why unpriced). */
  readonly priced: string;
  readonly exact: boolean;
}

/** One request the worker needs answered: JP's rendered body for arm `arm`, task `task` (0-based), cycle `cycle`. */
export interface AbAsk {
  readonly arm: Arm;
  readonly task: number;
  readonly cycle: number;
  readonly provider: ProviderId;
  readonly body: unknown;
}

export interface AbProgress {
  /** Tasks each arm has finished (played to the model's end, stopped, or failed). */
  readonly A: number;
  readonly B: number;
  readonly total: number;
  /** USD billed by both arms so far, at the price row (0 when unpriced). */
  readonly spent: number;
}

/** An arm's task, as the page lists and opens it (its cycles stay in the worker, for its turn). */
export type AbTaskView = TaskResult & { readonly stopped: string; readonly why: string; readonly usd: number };

export interface AbArmView {
  readonly summary: string;
  readonly usd: number;
  readonly results: readonly AbTaskView[];
}

export interface AbFinished {
  /** `A/B on N tasks (B: …): met A a, B b; A only c, B only d; McNemar exact p = P`, as the CLI prints it. */
  readonly line: string;
  readonly ab: AbResult;
  readonly arms: { readonly A: AbArmView; readonly B: AbArmView };
  /** Why the run stopped early (the budget cap, the page's Stop), and what the test is then on. */
  readonly stoppedBy?: string;
  readonly stoppedNote?: string;
  /** The turns that ended on an error (a provider's refusal, a bridge failure), in words. */
  readonly errors: readonly string[];
}

export interface AbEvent {
  readonly run: number;
  readonly progress: AbProgress;
  /** The next request to send; absent once the run is finished. */
  readonly ask?: AbAsk;
  readonly finished?: AbFinished;
}

export interface AbAnswerParams {
  readonly run: number;
  readonly answer: ModelAnswer;
  /** The page's Stop: nothing more is sent after this answer. */
  readonly stop?: boolean;
}
