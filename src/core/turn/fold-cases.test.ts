// The fold of a cycle's commit buffer (fold.ts, issue 35: its mutation survivors): writes and
// promotions folded in call-index order whatever order the buffer holds them in, and one delta whose
// sources name each kind once.
import { describe, expect, it } from 'vitest';
import type { Origin } from '../config/types';
import { DEFAULT_POLICY } from '../scenario/policy';
import { foldCommitBuffer } from './fold';
import type { BufferEntry } from './fold';
import { availabilityDelta } from './invocation';
import { call, layer, run, turn } from './test-kit';

const ADMIN = layer({ admin: { enable: '"on"' }, x: { enable: '"off"' }, y: { enable: '"off"' }, b: { enable: '"discoverable"', summary: 'bravo' } }, {});
const write = (tool: string, to: 'on' | 'off', index: number): BufferEntry => {
  const origin: Origin = { kind: 'delta', delta: 1, source: 'tool-write', detail: `write ${index}` };
  return { kind: 'write', index, delta: availabilityDelta(new Map([[tool, to]]), origin) };
};

describe('the fold of a commit buffer', () => {
  it('two approved writes in one cycle: one delta, its sources naming tool-write once', () => {
    const writes = call('admin', 'writes = ["conversation.tools.x.enable=on"], approved = true') + ', ' + call('admin', 'writes = ["conversation.tools.y.enable=on"], approved = true');
    const t = run({ layer: ADMIN, body: turn('jp q go', [[writes]]) });
    expect(t.positions.map((p) => p.event)).toEqual([{ kind: 'base' }, { kind: 'delta', delta: 1, sources: ['tool-write'], detail: 'tool write', step: 1, cycle: 1 }]);
    expect([t.engine.state('x')?.enable.availability.value, t.engine.state('y')?.enable.availability.value]).toEqual(['on', 'on']);
  });

  it('folds in call-index order, not in the order the buffer lists its entries', () => {
    const { engine } = run({ layer: ADMIN, body: turn('jp q go', []) });
    // Index 1 turns x off after index 0 turned it on: off wins, in either listing.
    for (const buffer of [
      [write('x', 'on', 0), write('x', 'off', 1)],
      [write('x', 'off', 1), write('x', 'on', 0)],
    ]) {
      const folded = foldCommitBuffer(engine, buffer, DEFAULT_POLICY, 1);
      expect(folded.delta.tools.get('x')?.enable.availability?.value).toBe('off');
    }
    // A search at index 1 reads b as index 0's write left it (off): not promoted, unavailable.
    for (const buffer of [
      [write('b', 'off', 0), { kind: 'promotion', index: 1, names: ['b'], query: 'bravo' } as const],
      [{ kind: 'promotion', index: 1, names: ['b'], query: 'bravo' } as const, write('b', 'off', 0)],
    ]) {
      const folded = foldCommitBuffer(engine, buffer, DEFAULT_POLICY, 1);
      expect(folded.promoted).toEqual([]);
      expect(folded.statuses.get(1)?.get('b')).toBe('unavailable');
      expect(folded.sources).toEqual(['tool-write']);
    }
  });
});
