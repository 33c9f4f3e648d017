// `jp config set` steps as the timeline records them (config-set.ts, issue 35): a conversation delta
// with its origins and its row, a layer edit with its row and the layers after it, and the errors of
// each, where a refused edit leaves the conversation as it was (docs: scenario-format.md, "a step whose
// command fails leaves the conversation as it was").
import { describe, expect, it } from 'vitest';
import type { Timeline } from './timeline';
import { layer, run, stepErrors, turn } from './test-kit';

const BASE = layer({ a: { enable: '"off"' } }, {});
const WORKSPACE = layer({ b: { enable: '"off"' } }, {});
const LAYERS = [
  { name: 'base', text: BASE },
  { name: 'workspace', text: WORKSPACE },
];
/** A layer's text as the scenario holds it (its TOML string ends with a line break). */
const held = (l: { name: string; text: string }): { name: string; text: string } => ({ name: l.name, text: `${l.text}\n` });
const steps = (...commands: string[]): string => commands.map((c) => `[[steps]]\ncommand = ${JSON.stringify(c)}\n`).join('\n');
/** Rows after the base one, without the step rows' spans. */
const rows = (t: Timeline): unknown[] => t.entries.slice(1).map((e) => (e.kind === 'step' ? { kind: e.kind, step: e.step, position: e.position, error: e.error } : e));
const availability = (t: Timeline, position: number, tool: string): string | undefined => t.statesAt(position).get(tool)?.enable.availability.value;

describe('jp config set --id: one delta on the conversation', () => {
  it('each value names the command\'s assignment as typed; the delta is a row of its step, the command its detail', () => {
    const t = run({ layers: LAYERS, body: steps(`jp config set --id conversation.tools.a.enable=on 'conversation.tools.b.enable:="discoverable"'`) });
    expect(rows(t)).toEqual([
      { kind: 'step', step: 1, position: 0, error: undefined },
      { kind: 'delta', step: 1, position: 1 },
    ]);
    expect(t.positions[1]?.event).toEqual({ kind: 'delta', delta: 1, sources: ['config-set'], detail: `jp config set --id conversation.tools.a.enable=on 'conversation.tools.b.enable:="discoverable"'`, step: 1 });
    expect(t.engine.state('a')?.enable.availability.origin).toEqual({ kind: 'delta', delta: 1, source: 'config-set', detail: 'jp config set --id conversation.tools.a.enable=on' });
    expect(t.engine.state('b')?.enable.availability.origin).toEqual({ kind: 'delta', delta: 1, source: 'config-set', detail: 'jp config set --id conversation.tools.b.enable:="discoverable"' });
  });

  it('a delta that changes nothing adds no row; a bad value fails the step and commits none of its assignments', () => {
    const t = run({ layers: LAYERS, body: steps('jp config set --id conversation.tools.a.enable=off', 'jp config set --id conversation.tools.b.enable=on conversation.tools.a.enable=bogus') });
    expect(rows(t).filter((r) => (r as { kind: string }).kind !== 'step')).toEqual([]);
    expect([...stepErrors(t).keys()]).toEqual([2]);
    expect(stepErrors(t).get(2)).toContain("conversation.tools.a.enable: invalid enable value: 'bogus'");
    expect(availability(t, t.engine.current.index, 'b')).toBe('off');
  });
});

describe('jp config set on a layer', () => {
  it('edits that layer alone; its row and the position name the layer and the command', () => {
    const t = run({ layers: LAYERS, body: steps('jp config set --layer workspace conversation.tools.b.enable=on') });
    expect(rows(t)).toEqual([
      { kind: 'step', step: 1, position: 0, error: undefined },
      { kind: 'layer-edit', step: 1, layer: 'workspace', position: 1 },
    ]);
    expect(t.positions[1]?.event).toEqual({ kind: 'layer-edit', layer: 'workspace', detail: 'jp config set --layer workspace conversation.tools.b.enable=on', step: 1 });
    expect(t.finalLayers).toEqual([held({ name: 'base', text: BASE }), held({ name: 'workspace', text: WORKSPACE.replace('enable = "off"', 'enable = "on"') })]);
    expect(availability(t, 1, 'b')).toBe('on');
  });

  it('an unknown layer: an error naming the layers there are, or none', () => {
    const t = run({ layers: LAYERS, body: steps('jp config set --layer nope conversation.tools.a.enable=on') });
    expect(stepErrors(t).get(1)).toBe('no layer named `nope` (layers: base, workspace)');
    const none = run({ body: steps('jp config set --layer nope conversation.tools.a.enable=on') });
    expect(stepErrors(none).get(1)).toBe('no layer named `nope` (layers: none)');
  });

  it('an edit the layer refuses (a bad value) fails the step and changes nothing', () => {
    const t = run({ layers: LAYERS, body: steps('jp config set --layer workspace conversation.tools.b.run=sometimes') });
    expect(stepErrors(t).get(1)).toContain("conversation.tools.b.run: invalid run: 'sometimes'");
    expect(t.finalLayers).toEqual(LAYERS.map(held));
    expect(t.positions).toHaveLength(1);
  });

  it('an edit that leaves the layer invalid is refused, and a later edit of another layer does not bring it back', () => {
    // The workspace layer has a load error already (a reserved name), so any edit of it leaves it invalid.
    const invalid = `${WORKSPACE}\n[conversation.tools.search_tools]\nsource = "local"\n`;
    const layers = [LAYERS[0] as { name: string; text: string }, { name: 'workspace', text: invalid }];
    const t = run({ layers, body: steps('jp config set --layer workspace conversation.tools.b.enable=on', 'jp config set --layer base conversation.tools.a.enable=on') + turn('jp q go', []) });
    expect(stepErrors(t).get(1)).toBe('the edit leaves layer `workspace` invalid: `search_tools` is a builtin tool name and cannot be configured (reserved)');
    expect(t.steps[0]?.layers).toEqual(layers.map(held));
    expect(t.finalLayers).toEqual([held({ name: 'base', text: BASE.replace('enable = "off"', 'enable = "on"') }), held({ name: 'workspace', text: invalid })]);
    expect([availability(t, t.engine.current.index, 'a'), availability(t, t.engine.current.index, 'b')]).toEqual(['on', 'off']);
    expect(t.requests[0]?.sets.permitted).toEqual(['a', 'describe_tools']);
  });
});
