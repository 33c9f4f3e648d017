import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { samePlain } from './same';

/** A canonical text of plain data: keys sorted, so two values are equal exactly when their texts are. */
function canonical(v: unknown): string {
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  if (v === undefined) return 'undefined';
  if (typeof v !== 'object' || v === null) return `${typeof v}:${JSON.stringify(v)}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

const plain = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom<unknown>(0, -0, 1, NaN, '', 'a', true, false, null, undefined), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'kind'), tie('value'), { maxKeys: 3 }),
})).value;

describe('samePlain', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [1, 2, 3], false],
    [[], {}, false],
    [{ a: { b: 'x' } }, { a: { b: 'y' } }, false],
    [NaN, NaN, true],
    [null, {}, false],
    ['1', 1, false],
  ])('%j vs %j: %s', (a, b, same) => {
    expect(samePlain(a, b)).toBe(same);
    expect(samePlain(b, a)).toBe(same);
  });

  it('holds a value equal to its structured clone', () => {
    fc.assert(fc.property(plain, (v) => {
      expect(samePlain(v, structuredClone(v))).toBe(true);
    }));
  });

  it('says two values are equal exactly when their canonical texts are', () => {
    fc.assert(fc.property(plain, plain, (a, b) => {
      expect(samePlain(a, b)).toBe(canonical(a) === canonical(b));
    }));
  });
});
