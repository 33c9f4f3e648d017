// What a derivation takes as unchanged between two inputs (derivation.ts sameValue, compareInputs,
// unchangedSteps). A part taken as unchanged when it differs keeps a timeline the edit changed (the
// user sees the old result); one taken as changed when it is equal only re-does work, which the
// property tests cannot see, so these pin both directions.
import { describe, expect, it } from 'vitest';
import { LayerSourced, anchorsOf } from '../config/anchors';
import type { Scenario } from '../scenario/types';
import { INPUT_PARTS, compareInputs, sameValue, unchangedSteps } from './derivation';
import type { DerivationInput } from './derivation';
import { layer, parsed, scenarioText, search, turn } from './test-kit';

describe('sameValue: equal in value, spans included', () => {
  it('primitives by Object.is', () => {
    expect(sameValue(1, 1)).toBe(true);
    expect(sameValue('a', 'a')).toBe(true);
    expect(sameValue(Number.NaN, Number.NaN)).toBe(true);
    expect(sameValue(1, 2)).toBe(false);
    expect(sameValue('a', 'b')).toBe(false);
    expect(sameValue(0, -0)).toBe(false);
    expect(sameValue(undefined, null)).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue({}, null)).toBe(false);
    expect(sameValue(1, { valueOf: () => 1 })).toBe(false);
    expect(sameValue({ valueOf: () => 1 }, 1)).toBe(false);
  });

  it('arrays element by element', () => {
    expect(sameValue([1, [2, 3]], [1, [2, 3]])).toBe(true);
    expect(sameValue([], [])).toBe(true);
    expect(sameValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameValue([1, 2, 3], [1, 2])).toBe(false);
    expect(sameValue([1, 2], [1, 3])).toBe(false);
    expect(sameValue([1, 2], [2, 2])).toBe(false);
    // An array is not an object with the same keys, either way round.
    expect(sameValue([1], { 0: 1 })).toBe(false);
    expect(sameValue({ 0: 1 }, [1])).toBe(false);
    expect(sameValue({ length: 0 }, [])).toBe(false);
  });

  it('Maps by key and value, Sets by member', () => {
    expect(sameValue(new Map([['a', [1]]]), new Map([['a', [1]]]))).toBe(true);
    expect(sameValue(new Map(), new Map())).toBe(true);
    expect(sameValue(new Map([['a', 1]]), new Map([['a', 2]]))).toBe(false);
    expect(sameValue(new Map([['a', 1]]), new Map([['b', 1]]))).toBe(false);
    expect(sameValue(new Map([['a', undefined]]), new Map([['b', undefined]]))).toBe(false);
    expect(sameValue(new Map([['a', 1]]), new Map([['a', 1], ['b', 2]]))).toBe(false);
    expect(sameValue(new Map([['a', 1]]), { a: 1 })).toBe(false);
    expect(sameValue({}, new Map())).toBe(false);
    expect(sameValue(new Set(['a', 'b']), new Set(['b', 'a']))).toBe(true);
    expect(sameValue(new Set(['a']), new Set(['b']))).toBe(false);
    expect(sameValue(new Set(['a']), new Set(['a', 'b']))).toBe(false);
    expect(sameValue(new Set(), new Map())).toBe(false);
    expect(sameValue(new Set(), {})).toBe(false);
    expect(sameValue({}, new Set())).toBe(false);
    expect(sameValue(new Set(), [])).toBe(false);
  });

  it('plain objects key by key, an undefined key the same as a missing one, prototypes compared', () => {
    expect(sameValue({ a: 1, b: { c: [2] } }, { b: { c: [2] }, a: 1 })).toBe(true);
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue({ a: 1 }, { b: 1 })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameValue({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(sameValue(Object.create(null) as object, {})).toBe(false);
  });

  it("a layer's compact value is the { value, origin } pair it stands for", () => {
    const anchors = anchorsOf([10]);
    const sourced = new LayerSourced('on', 'workspace', anchors[0] as never, 2, anchors[0] as never, 6);
    const pair = { value: 'on', origin: sourced.origin };
    expect(sameValue(sourced, pair)).toBe(true);
    expect(sameValue(pair, sourced)).toBe(true);
    expect(sameValue(sourced, new LayerSourced('on', 'workspace', anchors[0] as never, 2, anchors[0] as never, 6))).toBe(true);
    expect(sameValue(sourced, { value: 'off', origin: sourced.origin })).toBe(false);
    expect(sameValue(sourced, sourced.with('off'))).toBe(false);
    // Moved in the text: spans count here.
    expect(sameValue(sourced, new LayerSourced('on', 'workspace', anchors[0] as never, 3, anchors[0] as never, 7))).toBe(false);
    expect(sameValue(sourced, new LayerSourced('on', 'user', anchors[0] as never, 2, anchors[0] as never, 6))).toBe(false);
    // Not a pair at all.
    expect(sameValue(sourced, { value: 'on' })).toBe(false);
    expect(sameValue({ origin: sourced.origin }, sourced)).toBe(false);
  });
});

describe('compareInputs: what each part of the input is to a run', () => {
  const tools = { read_file: { summary: 'Reads a file.' }, list_issues: { summary: 'Lists issues.', enable: '"on"' } };
  const text = scenarioText({ layer: layer(tools), body: [turn('jp q one', [[search('files', 2)]]), turn('jp q two', []), turn('jp q three', [])].join('\n') });
  const s = parsed(text);
  const base: DerivationInput = { scenario: s };

  it('the same input: nothing differs, every step kept', () => {
    expect(compareInputs(base, { scenario: parsed(text) })).toEqual({ restart: false, layers: false, steps: 3 });
    expect(unchangedSteps(base, { scenario: parsed(text) })).toBe(3);
  });

  it('steps: the leading steps equal in value, up to the first that differs', () => {
    const edited: Scenario = { ...s, steps: [s.steps[0], { ...s.steps[1], command: 'jp q two -T read_file' }, s.steps[2]] as Scenario['steps'] };
    expect(compareInputs(base, { scenario: edited })).toEqual({ restart: false, layers: false, steps: 1 });
    expect(unchangedSteps(base, { scenario: edited })).toBe(1);
    // Fewer steps, or more: the common leading ones.
    expect(compareInputs(base, { scenario: { ...s, steps: s.steps.slice(0, 2) } }).steps).toBe(2);
    expect(compareInputs({ scenario: { ...s, steps: s.steps.slice(0, 2) } }, base).steps).toBe(2);
    expect(compareInputs(base, { scenario: { ...s, steps: [] } }).steps).toBe(0);
  });

  it('a layer edit is compared tool by tool (not a restart); unchangedSteps says -1', () => {
    const edited: Scenario = { ...s, layers: s.layers.map((l) => ({ ...l, text: l.text.replace('Reads a file.', 'Reads one file.') })) };
    expect(compareInputs(base, { scenario: edited })).toEqual({ restart: false, layers: true, steps: 3 });
    expect(unchangedSteps(base, { scenario: edited })).toBe(-1);
    const renamed: Scenario = { ...s, layers: s.layers.map((l) => ({ ...l, name: 'other' })) };
    expect(compareInputs(base, { scenario: renamed }).layers).toBe(true);
    expect(compareInputs(base, { scenario: { ...s, layers: [...s.layers, { name: 'top', text: '' }] } }).layers).toBe(true);
    expect(compareInputs(base, { ...base, workspaceLayers: [{ name: 'user', text: '' }] })).toEqual({ restart: false, layers: true, steps: 3 });
    expect(compareInputs({ ...base, workspaceLayers: [{ name: 'user', text: '' }] }, { ...base, workspaceLayers: [{ name: 'user', text: '' }] }).layers).toBe(false);
    expect(compareInputs({ ...base, workspaceLayers: [{ name: 'user', text: '' }] }, { ...base, workspaceLayers: [{ name: 'user', text: '# x' }] }).layers).toBe(true);
  });

  it('the policy, the servers, the workspace diagnostics, the live servers and the rankers restart the run', () => {
    const restart = (next: DerivationInput, prev: DerivationInput = base): void => {
      expect(compareInputs(prev, next)).toMatchObject({ restart: true });
      expect(unchangedSteps(prev, next)).toBe(-1);
    };
    restart({ scenario: { ...s, policy: { ...s.policy, substring_match: s.policy.substring_match === 'all_terms' ? 'whole_query' : 'all_terms' } } });
    restart({ scenario: { ...s, servers: [...s.servers, { name: 'extra', status: 'running', tools: [] }] as Scenario['servers'] } });
    const diagnostic = { severity: 'error', message: 'bad', line: 1, column: 1 } as never;
    restart({ ...base, workspaceDiagnostics: [diagnostic] });
    // No diagnostics and an empty list are the same.
    expect(compareInputs(base, { ...base, workspaceDiagnostics: [] }).restart).toBe(false);
    restart({ ...base, extraServers: [{ name: 'live', status: 'running', tools: [] }] as never });
    const live = [{ name: 'live', status: 'running', tools: [] }] as never;
    expect(compareInputs({ ...base, extraServers: live }, { ...base, extraServers: live }).restart).toBe(false);
    expect(compareInputs({ ...base, extraServers: [] }, base).restart).toBe(false);
    restart({ ...base, rankers: new Map() });
  });

  it('the name, description, expectations and [workspace] of the scenario are read by no run', () => {
    const unread: Scenario = { ...s, name: 'renamed', description: 'another' };
    expect(compareInputs(base, { scenario: unread })).toEqual({ restart: false, layers: false, steps: 3 });
    expect(INPUT_PARTS.name.role).toBe('unread');
    expect(INPUT_PARTS.load.role).toBe('unread');
    expect(INPUT_PARTS.workspace.role).toBe('unread');
    expect(INPUT_PARTS.name.same(base, { scenario: unread })).toBe(true);
  });
});
