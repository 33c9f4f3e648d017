// RFD 078's commit buffer as RFD 108 uses it: entries keyed by call index,
// folded in index order into ONE delta at cycle end. A promotion is evaluated
// against the folded state at its own index (the three-row table of RFD 108).
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG } from '../config/read';
import type { DeltaSource, Origin, PartialConfig } from '../config/types';
import type { Policy } from '../scenario/policy';
import type { StreamEngine } from '../stream/engine';
import { availabilityDelta } from './invocation';

export type BufferEntry =
  | { readonly kind: 'write'; readonly index: number; readonly delta: PartialConfig }
  /** search_tools' own channel: a set of tool names (in rank order), never a general write. */
  | { readonly kind: 'promotion'; readonly index: number; readonly names: readonly string[]; readonly query: string };

export type PromotionStatus = 'usable' | 'unavailable';

export interface FoldResult {
  readonly delta: PartialConfig;
  readonly sources: DeltaSource[];
  /** Per call index: each returned tool's status. */
  readonly statuses: ReadonlyMap<number, ReadonlyMap<string, PromotionStatus>>;
  /** Tools the fold moved discoverable → on, in call-index then rank order. */
  readonly promoted: readonly string[];
}

export function foldCommitBuffer(engine: StreamEngine, entries: readonly BufferEntry[], policy: Policy, deltaNumber: number): FoldResult {
  const ordered = [...entries].sort((a, b) => a.index - b.index);
  let working: PartialConfig = EMPTY_CONFIG;
  const statuses = new Map<number, Map<string, PromotionStatus>>();
  const promoted: string[] = [];
  const sources: DeltaSource[] = [];
  for (const entry of ordered) {
    if (entry.kind === 'write') {
      working = mergeConfigs(working, entry.delta);
      if (!sources.includes('tool-write')) sources.push('tool-write');
      continue;
    }
    const origin: Origin = { kind: 'delta', delta: deltaNumber, source: 'promotion', detail: `search_tools(${JSON.stringify(entry.query)})` };
    const own = new Map<string, PromotionStatus>();
    const moves = new Map<string, 'on'>();
    for (const name of entry.names) {
      // Names within one search are distinct, so earlier moves of this call cannot affect later names.
      const eff = engine.pendingEnable(name, working);
      const a = eff.availability.value;
      if (a === 'discoverable') {
        if (policy.never_blocks_promotion && eff.allowToggle.value === 'never') own.set(name, 'unavailable');
        else {
          moves.set(name, 'on');
          promoted.push(name);
          own.set(name, 'usable');
        }
      } else own.set(name, a === 'on' ? 'usable' : 'unavailable');
    }
    if (moves.size > 0) {
      working = mergeConfigs(working, availabilityDelta(moves, origin));
      if (!sources.includes('promotion')) sources.push('promotion');
    }
    statuses.set(entry.index, own);
  }
  return { delta: working, sources, statuses, promoted };
}
