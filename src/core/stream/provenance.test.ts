// Why a tool is where it is, as the Provenance panel shows it: the chain of layers and deltas that set
// its availability up to a position, each named as a user knows it (--cfg, the directive's words,
// config set, promotion, tool write), and the availability it ends in.
import { describe, expect, it } from 'vitest';
import { call, layer, run, search, turn } from '../turn/test-kit';
import { originLabel, provenance } from './provenance';

// Step 1 turns a on by --cfg, step 2 turns b off by a directive, step 3 edits the layer under them,
// step 4 promotes c with a search, then a tool write makes a discoverable again.
const t = run({
  policy: { ranking: 'substring' },
  layer: layer({ a: { summary: 'Alpha tool.' }, b: { enable: '"on"', summary: 'Beta.' }, admin: { enable: '"on"', summary: 'Admin.' }, c: { summary: 'Gamma deploy.' } }),
  body:
    turn("jp q --cfg conversation.tools.a.enable=on 'x'", []) +
    turn("jp q -T b 'y'", []) +
    '[[steps]]\ncommand = "jp config set conversation.tools.a.enable=off"\n' +
    turn("jp q 'z'", [[search('gamma')], [call('admin', 'writes = ["conversation.tools.a.enable=discoverable"], approved = true')]]),
});
const text = (name: string, position: number) => provenance(t.engine, name, position).text;

describe('provenance', () => {
  it('the run has the positions the chains below refer to', () => {
    expect(t.positions.map((p) => (p.event.kind === 'delta' ? p.event.sources.join('+') : p.event.kind))).toEqual(['base', 'cfg', 'directive', 'layer-edit', 'promotion', 'tool-write']);
  });

  it('a tool set by the \'*\' defaults, then by --cfg, then by a tool write; each step only from its position on', () => {
    expect(text('a', 0)).toBe("'*' in layer workspace → discoverable");
    expect(text('a', 1)).toBe("'*' in layer workspace → delta 1 (--cfg) → on");
    // The layer edit under the --cfg delta changes nothing a user sees: the delta still wins.
    expect(text('a', 4)).toBe("'*' in layer workspace → delta 1 (--cfg) → on");
    expect(text('a', 5)).toBe("'*' in layer workspace → delta 1 (--cfg) → delta 4 (tool write) → discoverable");
    expect(provenance(t.engine, 'a', 5).steps.map((s) => [s.position, s.availability, s.from])).toEqual([[0, 'discoverable', 'defaults'], [1, 'on', 'tool'], [5, 'discoverable', 'tool']]);
  });

  it('a tool\'s own enable is its layer, without the \'*\'; a directive is named by its command', () => {
    expect(text('b', 1)).toBe('layer workspace → on');
    expect(text('b', 2)).toBe('layer workspace → delta 2 (-T b) → off');
  });

  it('a promotion is named as one', () => {
    expect(text('c', 4)).toBe("'*' in layer workspace → delta 3 (promotion) → on");
  });

  it('a layer edit that leaves a tool as it was adds no step (the same layer, the same availability)', () => {
    expect(text('c', 3)).toBe("'*' in layer workspace → discoverable");
    expect(text('admin', 3)).toBe('layer workspace → on');
    expect(provenance(t.engine, 'admin', 3).steps).toHaveLength(1);
  });

  it('a layer edit that changes a tool is a step of its own, even from the same layer', () => {
    const edited = run({ policy: { ranking: 'substring' }, layer: layer({ x: { enable: '"on"', summary: 'Ex.' } }), body: '[[steps]]\ncommand = "jp config set conversation.tools.x.enable=off"\n' });
    expect(provenance(edited.engine, 'x', 1).text).toBe('layer workspace → layer workspace → off');
  });

  it('a tool that gets its own enable, with the availability \'*\' gave it, shows where it now comes from', () => {
    const own = run({ policy: { ranking: 'substring' }, layer: layer({ c: { summary: 'Gamma.' } }), body: '[[steps]]\ncommand = "jp config set conversation.tools.c.enable=discoverable"\n' });
    expect(provenance(own.engine, 'c', 0).text).toBe("'*' in layer workspace → discoverable");
    expect(provenance(own.engine, 'c', 1).text).toBe("'*' in layer workspace → layer workspace → discoverable");
  });

  it('a position past the end reads the end; a name no layer configures is "not configured"', () => {
    expect(text('a', 99)).toBe(text('a', 5));
    expect(provenance(t.engine, 'nope', 5)).toEqual({ steps: [], text: 'not configured' });
    expect(text('a', -1)).toBe('not configured');
  });
});

describe('originLabel', () => {
  it('names each kind of origin', () => {
    const span = { start: 0, end: 0 };
    expect(originLabel({ kind: 'layer', layer: 'user', span })).toBe('layer user');
    expect(originLabel({ kind: 'layer', layer: 'user', span }, 'defaults')).toBe("'*' in layer user");
    expect(originLabel({ kind: 'layer', layer: 'user', span }, 'fallback')).toBe('layer user');
    expect(originLabel({ kind: 'delta', delta: 7, source: 'config-set', detail: 'jp config set …' })).toBe('delta 7 (config set)');
    expect(originLabel({ kind: 'delta', delta: 2, source: 'cfg', detail: '--cfg x' }, 'defaults')).toBe("'*' in delta 2 (--cfg)");
    expect(originLabel({ kind: 'delta', delta: 3, source: 'directive', detail: '-t' })).toBe('delta 3 (-t)');
    expect(originLabel({ kind: 'delta', delta: 4, source: 'promotion', detail: 'search_tools("x")' })).toBe('delta 4 (promotion)');
    expect(originLabel({ kind: 'delta', delta: 5, source: 'tool-write', detail: 'w' })).toBe('delta 5 (tool write)');
    expect(originLabel({ kind: 'builtin' })).toBe('builtin');
    expect(originLabel({ kind: 'default' })).toBe('default (on, any)');
  });
});
