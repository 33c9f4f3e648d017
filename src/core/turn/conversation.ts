// The state a run threads from one named step of the turn loop to the next: the stream, the layers as
// edited, and the timeline so far. Every step of the loop (run.ts, turn.ts, request.ts, call.ts) takes
// it as its first argument and says in its name what it adds.
import type { Layer, LoadedLayer } from '../config/layer';
import type { ConversationMessage } from '../providers/types';
import type { Policy } from '../scenario/policy';
import type { StreamEngine } from '../stream/engine';
import type { RunCatalogue } from './lookups';
import type { DerivedCache } from './request';
import type { CallRecord, RequestRecord, StepRecord, TimelineEntry } from './timeline';
import type { UnresolvableWarnings } from './warnings';

export interface Conversation {
  readonly policy: Policy;
  readonly engine: StreamEngine;
  readonly catalogue: RunCatalogue;
  readonly warnings: UnresolvableWarnings;
  /** The layers as they stand now: `jp config set` edits replace them. */
  layers: readonly Layer[];
  loaded: readonly LoadedLayer[];
  // The timeline so far.
  readonly entries: TimelineEntry[];
  readonly requests: RequestRecord[];
  readonly calls: CallRecord[];
  readonly steps: StepRecord[];
  /** The conversation as the provider sees it. */
  readonly messages: ConversationMessage[];
  /** The offered set last announced in directive blocks (Anthropic directives), once one was. */
  announced: ReadonlySet<string> | undefined;
  /** The system prompt, once the first request was sent (see systemPromptOf in request.ts). */
  system?: string;
  /** The newest request derivation, shared by requests at one position with one forced tool. */
  readonly derived: DerivedCache;
}

/** The number the next delta on the stream will carry (origins name it). */
export function nextDeltaNumber(engine: StreamEngine): number {
  return engine.positions.filter((p) => p.event.kind === 'delta').length + 1;
}

/** Adds to the timeline the unresolvable-tool warnings that are due now. */
export function warnUnresolvable(conv: Conversation, step?: number, forced?: string): void {
  for (const message of conv.warnings.due(conv.engine, forced)) {
    conv.entries.push({ kind: 'warning', message, position: conv.engine.current.index, ...(step !== undefined ? { step } : {}) });
  }
}
