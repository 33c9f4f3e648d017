import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../input/json';
import { checkJson } from './json';

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

describe('checkJson', () => {
  it.each<[string, boolean]>([
    ['null', true],
    [' {"availability": "on", "allow_toggle": "never"} ', true],
    ['[1, -0.5e+3, "a\\u00e9\\n", true, false, null, {}]', true],
    ['', false],
    ['{', false],
    ['{"a":1,}', false],
    ['[1,]', false],
    ['01', false],
    ['1.', false],
    ['"a\\x"', false],
    ['"tab\there"', false],
    ['on', false],
    ["{'a':1}", false],
    ['1 2', false],
  ])('%j → %s', (s, ok) => {
    expect(checkJson(s).ok).toBe(ok);
    expect(parses(s)).toBe(ok);
  });

  it('reports the offset of the first bad character', () => {
    expect(checkJson('{"x":}')).toMatchObject({ ok: false, offset: 5 });
    // A bracket never closed is reported where it opens.
    expect(checkJson('[1, 2')).toMatchObject({ ok: false, offset: 0, message: 'this `[` is never closed' });
    expect(checkJson('{"a": tru}')).toMatchObject({ ok: false, offset: 6 });
  });

  it('agrees with JSON.parse', () => {
    const near = fc.json().chain((j) =>
      fc.tuple(fc.nat({ max: j.length }), fc.constantFrom('', ',', '}', ']', '"', '\\', ' ', '0', 'e', '-', '.', '\t')).map(([at, ins]) => j.slice(0, at) + ins + j.slice(at)),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), near), (s) => {
        expect(checkJson(s).ok).toBe(parses(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects absurd nesting without overflowing the stack, at the core\'s one depth cap', () => {
    expect(checkJson('['.repeat(100_000)).ok).toBe(false);
    expect(checkJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`).ok).toBe(true);
    expect(checkJson(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toMatchObject({ ok: false, offset: MAX_JSON_DEPTH });
  });
});
