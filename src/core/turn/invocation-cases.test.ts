// Where an invocation's --cfg assignments say a value came from (invocation.ts, issue 35: survivors of
// line 48): the delta's number, the source `cfg` and the words that made it, `=` or `:=` as typed.
import { describe, expect, it } from 'vitest';
import { layer, run, turn } from './test-kit';

describe('the origin of an invocation\'s --cfg value', () => {
  it('names the delta and the assignment as typed, plain and JSON', () => {
    const L = layer({ a: { enable: '"off"' }, b: { enable: '"off"' } }, {});
    const body = [turn("jp q --cfg conversation.tools.a.enable=on one", []), turn(`jp q --cfg 'conversation.tools.b.enable:="discoverable"' two`, [])].join('\n');
    const t = run({ layer: L, body });
    expect(t.engine.state('a')?.enable.availability).toEqual({ value: 'on', from: 'tool', origin: { kind: 'delta', delta: 1, source: 'cfg', detail: '--cfg conversation.tools.a.enable=on' } });
    expect(t.engine.state('b')?.enable.availability).toEqual({ value: 'discoverable', from: 'tool', origin: { kind: 'delta', delta: 2, source: 'cfg', detail: '--cfg conversation.tools.b.enable:="discoverable"' } });
  });
});
