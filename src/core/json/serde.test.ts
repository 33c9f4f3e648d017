import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { floatValue, formatFloat, formatNumber, JsonFloat, needsMark, slowJson, toJson } from './serde';
import { parseJsonKeepingFloats } from './parse';

// Expected texts are what serde_json 1.x (ryu pretty format) writes for the same f64.
describe('formatFloat: ryu pretty format, one row per branch', () => {
  it.each([
    [1, '1.0'],
    [300, '300.0'],
    [-2, '-2.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [1.5, '1.5'],
    [0.1, '0.1'],
    [123.456, '123.456'],
    [0.001234, '0.001234'],
    [0.00001, '0.00001'],
    [0.000001, '1e-6'],
    [0.0000012, '1.2e-6'],
    [1e16, '1e16'],
    [1e15, '1000000000000000.0'],
    [1234e20, '1.234e23'],
    [1.7976931348623157e308, '1.7976931348623157e308'],
    [5e-324, '5e-324'],
    [Infinity, 'null'],
    [NaN, 'null'],
  ])('%s → %s', (x, text) => {
    expect(formatFloat(x)).toBe(text);
  });

  it('every finite double reads back to itself', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Object.is(Number(formatFloat(x)), x)).toBe(true);
      }),
    );
  });
});

describe('formatNumber: integers as serde_json reads them (u64/i64), the rest as floats', () => {
  it.each([
    [0, '0'],
    [42, '42'],
    [-7, '-7'],
    [1.5, '1.5'],
    [1e21, '1e21'],
    [2 ** 60, '1152921504606846976'],
    [-0, '-0.0'],
  ])('%s → %s', (n, text) => {
    expect(formatNumber(n)).toBe(text);
  });
});

describe('toJson', () => {
  it('writes a whole float with .0 and matches JSON.stringify otherwise', () => {
    const value = { a: 1, b: new JsonFloat(1), c: [new JsonFloat(300), 'x"\n'], d: undefined, e: null, f: {} };
    expect(toJson(value)).toBe('{"a":1,"b":1.0,"c":[300.0,"x\\"\\n"],"e":null,"f":{}}');
    expect(toJson(value, true)).toBe(JSON.stringify(value, null, 2).replace('"b": 1', '"b": 1.0').replace('    300', '    300.0'));
  });

  it('equals JSON.stringify on float-free JSON values, compact and pretty', () => {
    const json = fc.jsonValue().filter((v) => !JSON.stringify(v).match(/[0-9][eE.]|-0\b/));
    fc.assert(
      fc.property(json, (v) => {
        expect(toJson(v)).toBe(JSON.stringify(v));
        expect(toJson(v, true)).toBe(JSON.stringify(v, null, 2));
      }),
    );
  });
});

describe('parseJsonKeepingFloats', () => {
  it('keeps whole floats and leaves integers, other floats and strings alone', () => {
    const text = '{"default":1.0,"enum":[3e2,2,1.5,-0.0],"s":"1.0 e5","n":{"k":10E0}}';
    const v = parseJsonKeepingFloats(text) as Record<string, unknown>;
    expect(v.default).toBeInstanceOf(JsonFloat);
    expect(toJson(v)).toBe('{"default":1.0,"enum":[300.0,2,1.5,-0.0],"s":"1.0 e5","n":{"k":10.0}}');
  });

  it('throws as JSON.parse does on bad JSON', () => {
    expect(() => parseJsonKeepingFloats('{"a": 1.0,}')).toThrow();
  });

  it('reads a text without whole floats exactly as JSON.parse', () => {
    expect(parseJsonKeepingFloats('{"a":[1,2.5,"3.0"]}')).toEqual({ a: [1, 2.5, '3.0'] });
  });
});

describe('toJson: the native fast path agrees with the reference walk', () => {
  // JSON values with floats as a reader stores them (floatValue), safe integers and strings.
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(floatValue),
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
    ),
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
  })).node;

  it('compact and pretty', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(toJson(v)).toBe(slowJson(v));
        expect(toJson(v, true)).toBe(slowJson(v, true));
      }),
    );
  });

  it('a string that looks like a mark stays a string', () => {
    const v = { a: '\uE000jf:1.0', b: new JsonFloat(2) };
    expect(toJson(v)).toBe('{"a":"\uE000jf:1.0","b":2.0}');
  });

  it('marks exactly the floats JavaScript writes otherwise', () => {
    expect([1, 1.5, -0, 1e21, 0.000001, 0.00001, 1e-7, 0.1].map(needsMark)).toEqual([true, false, true, true, true, false, false, false]);
    // A plain JSON.stringify elsewhere (the UI) still sees the number.
    expect(JSON.stringify({ x: new JsonFloat(1) })).toBe('{"x":1}');
  });
});
