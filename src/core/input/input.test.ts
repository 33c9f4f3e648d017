// UTF-8 decoding and JSON parsing of untrusted input: positions of the first
// problem, byte-order marks, depth caps, and agreement with the platform.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8 } from './utf8';
import { deeperThan, MAX_JSON_DEPTH, parseJson, scanJson } from './json';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

describe('decodeUtf8', () => {
  it('decodes UTF-8 and drops a leading byte-order mark', () => {
    expect(decodeUtf8(bytes('name = "é✓𝄞"\n'))).toEqual({ ok: true, text: 'name = "é✓𝄞"\n' });
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], '{}'))).toEqual({ ok: true, text: '{}' });
  });

  it.each([
    ['a Latin-1 byte', bytes('a = 1\nname = "caf', [0xe9], '"\n'), 2, 12, 17, '0xE9'],
    ['a stray continuation byte', bytes([0x80]), 1, 1, 0, '0x80'],
    ['a sequence cut short', bytes('x', [0xe2, 0x82]), 1, 2, 1, '0xE2 0x82'],
    ['an overlong encoding', bytes('ab\ncd', [0xc0, 0xaf]), 2, 3, 5, '0xC0'],
    ['a UTF-16 surrogate', bytes('é', [0xed, 0xa0, 0x80]), 1, 2, 2, 'byte 0xED at'],
    ['a code point above U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80]), 1, 1, 0, 'byte 0xF4 at'],
    ['a sequence broken by an ASCII byte', bytes('x', [0xe2, 0x82], 'y'), 1, 2, 1, 'bytes 0xE2 0x82 at byte offset 1 do not'],
    ['0xFF after astral characters (columns count UTF-16 units)', bytes('𝄞𝄞', [0xff]), 1, 5, 8, '0xFF'],
  ])('%s is an error at its line and column', (_label, input, line, column, offset, shown) => {
    const r = decodeUtf8(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect([r.line, r.column, r.offset]).toEqual([line, column, offset]);
    expect(r.message).toContain(shown);
    expect(r.message).toContain('not UTF-8');
  });

  it('finds exactly the bytes the platform decoder refuses (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (input) => {
        let platformOk = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(input);
        } catch {
          platformOk = false;
        }
        expect(firstInvalidUtf8(input) === undefined).toBe(platformOk);
        expect(decodeUtf8(input).ok).toBe(platformOk);
      }),
      { seed: 12, numRuns: 2000 },
    );
  });
});

describe('parseJson', () => {
  it('reads a JSON file with a byte-order mark', () => {
    expect(parseJson('\uFEFF{"tools": []}')).toEqual({ ok: true, value: { tools: [] } });
  });

  it.each([
    ['a missing value', '{"tools": [\n  {"name": }\n]}', 2, 12, 'expected a value'],
    ['a trailing comma in an array', '[1, 2,\n]', 2, 1, 'a trailing comma before `]`'],
    ['a trailing comma in an object', '{"a": 1,}', 1, 9, 'a trailing comma before `}`'],
    ['an unclosed string', '{"a": "b\n}', 1, 7, 'not closed before the end of the line'],
    ['an unclosed array', '\n\n[1, 2', 3, 1, 'this `[` is never closed'],
    ['single quotes', "{'a': 1}", 1, 2, 'double quotes'],
    ['a comment', '{\n  // tools\n}', 2, 3, 'JSON has no comments'],
    ['a leading zero', '[01]', 1, 2, 'leading zeros'],
    ['a bad escape', '["\\x41"]', 1, 3, 'unknown escape `\\x`'],
    ['text after the value', '{} {}', 1, 4, 'after the end of the JSON value'],
    ['empty text', '', 1, 1, 'the text ends where a value should be'],
    ['a missing colon', '{"a" 1}', 1, 6, 'expected `:`'],
    ['a BOM then an error (columns count the BOM)', '\uFEFF{,}', 1, 3, 'property name'],
  ])('%s: line and column of the first problem', (_label, text, line, column, message) => {
    const r = parseJson(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect([r.line, r.column]).toEqual([line, column]);
    expect(r.message).toContain(message);
  });

  it('refuses nesting deeper than the cap at the bracket that goes too deep, without overflowing the stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const r = parseJson(deep);
    expect(r).toMatchObject({ ok: false, line: 1, column: MAX_JSON_DEPTH + 1 });
    const schema = `{"tools":[{"name":"deep","inputSchema":${'{"properties":{"x":'.repeat(50_000)}{}${'}}'.repeat(50_000)}}]}`;
    expect(parseJson(schema)).toMatchObject({ ok: false, message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`) });
    const justInside = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseJson(justInside).ok).toBe(true);
  });

  it('agrees with JSON.parse on what is well formed (property over mutated JSON)', () => {
    const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 1));
    const mutated = fc.tuple(json, fc.nat(), fc.constantFrom('', ',', ']', '}', '"', '\\', '\n', '0', '-', 'e', '.', ' ', ':', '[', '{', 'tru', '\u0001')).map(
      ([text, at, insert]) => {
        const i = text.length === 0 ? 0 : at % (text.length + 1);
        return `${text.slice(0, i)}${insert}${text.slice(i + (at % 2))}`;
      },
    );
    fc.assert(
      fc.property(fc.oneof(json, mutated), (text) => {
        let native = true;
        try {
          JSON.parse(text);
        } catch {
          native = false;
        }
        expect(scanJson(text) === undefined).toBe(native);
        const r = parseJson(text);
        expect(r.ok).toBe(native);
        if (r.ok) expect(r.value).toEqual(JSON.parse(text));
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  it('deeperThan counts containers, not scalars', () => {
    expect(deeperThan({ a: [1, { b: 'x' }] }, 3)).toBe(false);
    expect(deeperThan({ a: [1, { b: [] }] }, 3)).toBe(true);
    expect(deeperThan('plain', 0)).toBe(false);
  });
});
