// Why a tool is where it is: the chain of layers and deltas that set its
// availability up to a position, as data and as one sentence
// ("'*' in layer user → delta 3 (-t) → on").
import type { Origin } from '../config/types';
import type { StreamEngine, ToolState } from './engine';

export interface ProvenanceStep {
  readonly availability: string;
  readonly allowToggle: string;
  readonly from: 'tool' | 'defaults' | 'fallback';
  readonly origin: Origin;
  /** The position that made this step. */
  readonly position: number;
}

export interface Provenance {
  readonly steps: readonly ProvenanceStep[];
  readonly text: string;
}

export function originLabel(o: Origin, from?: 'tool' | 'defaults' | 'fallback'): string {
  const star = from === 'defaults' ? "'*' in " : '';
  switch (o.kind) {
    case 'layer':
      return `${star}layer ${o.layer}`;
    case 'delta': {
      const word = o.source === 'cfg' ? '--cfg' : o.source === 'directive' ? o.detail : o.source === 'config-set' ? 'config set' : o.source === 'promotion' ? 'promotion' : 'tool write';
      return `${star}delta ${o.delta} (${word})`;
    }
    case 'builtin':
      return 'builtin';
    case 'default':
      return 'default (on, any)';
  }
}

function stepOf(s: ToolState, position: number): ProvenanceStep {
  return {
    availability: s.enable.availability.value,
    allowToggle: s.enable.allowToggle.value,
    from: s.enable.availability.from,
    origin: s.enable.availability.origin,
    position,
  };
}

export function provenance(engine: StreamEngine, name: string, position: number): Provenance {
  const steps: ProvenanceStep[] = [];
  const positions = engine.positions;
  for (let i = 0; i <= position && i < positions.length; i++) {
    for (const c of positions[i]?.changes ?? []) {
      if (c.name !== name) continue;
      const step = stepOf(c.after, i);
      const last = steps[steps.length - 1];
      // A layer edit re-reads every layer, so an unchanged tool gets a new but identical origin: a step
      // is new when what it says is (its label or its availability), not when its origin object is.
      if (!last || originLabel(last.origin, last.from) !== originLabel(step.origin, step.from) || last.availability !== step.availability) steps.push(step);
    }
  }
  if (steps.length === 0) return { steps, text: 'not configured' };
  const parts = steps.map((s) => originLabel(s.origin, s.from));
  const final = steps[steps.length - 1];
  return { steps, text: `${parts.join(' → ')} → ${final?.availability ?? ''}` };
}
