// What a derivation takes as unchanged (derivation.ts sameValue, compareInputs), the cases
// derivation-compare.test.ts leaves: live servers replaced one for one, and a primitive against an
// object of its own prototype.
import { describe, expect, it } from 'vitest';
import { compareInputs, sameValue, unchangedSteps } from './derivation';
import type { DerivationInput } from './derivation';
import { layer, parsed, scenarioText, turn } from './test-kit';

describe('compareInputs: the live servers', () => {
  const base: DerivationInput = { scenario: parsed(scenarioText({ layer: layer({ read_file: { summary: 'Reads a file.' } }), body: turn('jp q one', []) })) };
  const live = { name: 'live', status: 'running', tools: [] };
  const other = { name: 'other', status: 'running', tools: [] };

  it('as many servers, one of them another: the run starts over', () => {
    const a = { ...base, extraServers: [live] as never };
    const b = { ...base, extraServers: [other] as never };
    expect(compareInputs(a, b)).toMatchObject({ restart: true });
    expect(unchangedSteps(a, b)).toBe(-1);
    const ab = { ...base, extraServers: [live, other] as never };
    const ba = { ...base, extraServers: [other, live] as never };
    expect(compareInputs(ab, ba)).toMatchObject({ restart: true });
    expect(compareInputs(ab, { ...base, extraServers: [live, other] as never })).toMatchObject({ restart: false, steps: 1 });
  });
});

describe('sameValue: a primitive is not an object', () => {
  it('not even one of its own prototype with the same keys, either way round', () => {
    expect(sameValue('ab', new String('ab'))).toBe(false);
    expect(sameValue(new String('ab'), 'ab')).toBe(false);
    expect(sameValue(1, new Number(1))).toBe(false);
    expect(sameValue(new Number(1), 1)).toBe(false);
    // Two wrappers of the same value hold the same keys: equal as objects.
    expect(sameValue(new String('ab'), new String('ab'))).toBe(true);
  });
});
