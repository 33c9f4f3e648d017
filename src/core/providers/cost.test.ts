import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeToolsDefinition, searchToolsDefinition } from '../catalogue/builtins';
import {
  approximateTokenCounter,
  approximateTokens,
  definitionCost,
  definitionText,
  definitionTokens,
  localDefinitionCost,
  setCost,
  utf8ByteLength,
} from './cost';
import type { TokenCounter } from './cost';
import { makeTool } from './test-helpers';
import { parametersSchema } from '../catalogue/schema';
import { toJson } from '../json/serde';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLayer } from '../config/layer';
import { resolveTool } from '../catalogue/resolve';
import { parseScenario } from '../scenario/parse';
import { tomlKey, tomlString } from '../scenario/doc';
import { generateScenario } from '../../../bench/check-scale';

const EMPTY_SCHEMA = '{"type":"object","properties":{},"additionalProperties":false,"required":[]}';

describe('definitionCost', () => {
  it('is the UTF-8 bytes of the text JP measures, for any name, description and parameters', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', '"', '\\', '\n', 'é', '😀', '\ud800', '\udc00'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 8 });
    const schema = fc.dictionary(fc.oneof(text, fc.constantFrom('type', '0', '7', '__proto__')), fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 });
    const params = fc.uniqueArray(fc.record({ name: fc.oneof(text, fc.constantFrom('0', '12', 'type')), schema, required: fc.boolean() }), { selector: (p) => p.name, maxLength: 4 });
    fc.assert(
      fc.property(text, fc.option(text, { nil: undefined }), params, (name, description, ps) => {
        const def = makeTool(name, description, ps);
        // Three texts measured apart (JP's three `len`s): a surrogate pair split across two is two lone ones.
        const bytes = (t: string): number => new TextEncoder().encode(t).length;
        expect(definitionCost(def)).toBe(bytes(name) + bytes(description ?? '') + bytes(toJson(parametersSchema(def))));
      }),
    );
  });

  it('describe_tools costs 262 bytes (14 + 67 + 181)', () => {
    expect(definitionCost(describeToolsDefinition)).toBe(262);
  });

  it('a tool with no parameters costs name + description + 76', () => {
    expect(EMPTY_SCHEMA.length).toBe(76);
    const def = makeTool('ping', 'Check the server.');
    expect(definitionCost(def)).toBe(4 + 17 + 76);
    expect(definitionText(def)).toBe(`pingCheck the server.${EMPTY_SCHEMA}`);
  });

  it('a tool without a description counts ""', () => {
    expect(definitionCost(makeTool('x', undefined))).toBe(1 + 76);
  });

  it('counts UTF-8 bytes, not UTF-16 code units', () => {
    // Café = 5 bytes, 日本 = 6, 🚀 = 4 (2 UTF-16 units), two spaces: 17.
    const description = 'Café 日本 🚀';
    expect(utf8ByteLength(description)).toBe(new TextEncoder().encode(description).length);
    expect(utf8ByteLength(description)).toBe(17);
    const def = makeTool('t', description, [{ name: 'ü', schema: { type: 'string', description: '→' } }]);
    const expected =
      new TextEncoder().encode('t').length +
      17 +
      new TextEncoder().encode(
        '{"type":"object","properties":{"ü":{"type":"string","description":"→"}},"additionalProperties":false,"required":[]}',
      ).length;
    expect(definitionCost(def)).toBe(expected);
  });

  it('lone surrogates count as 3 bytes, as TextEncoder does', () => {
    const s = 'a\ud800b';
    expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
  });

  it('memoizes per definition object', () => {
    const def = makeTool('m', 'd');
    expect(definitionCost(def)).toBe(definitionCost(def));
  });

  it('setCost sums', () => {
    expect(setCost([describeToolsDefinition, searchToolsDefinition])).toBe(
      definitionCost(describeToolsDefinition) + definitionCost(searchToolsDefinition),
    );
    expect(setCost([])).toBe(0);
  });
});

describe('token helpers', () => {
  it('approximateTokens is ceil(bytes / 4)', () => {
    expect(approximateTokens(0)).toBe(0);
    expect(approximateTokens(1)).toBe(1);
    expect(approximateTokens(262)).toBe(66);
    expect(approximateTokenCounter.count('日本')).toBe(2);
  });

  it('definitionTokens counts name, description and schema JSON separately, memoized per counter', () => {
    const seen: string[] = [];
    const counter: TokenCounter = { id: 'spy', count: (t) => (seen.push(t), t.length) };
    const def = makeTool('ping', 'Check.');
    expect(definitionTokens(def, counter)).toBe(4 + 6 + 76);
    expect(definitionTokens(def, counter)).toBe(86);
    expect(seen).toEqual(['ping', 'Check.', EMPTY_SCHEMA]);
  });
});

describe('utf8ByteLength', () => {
  it('equals TextEncoder on any code units (lone surrogates included), after any run of ASCII', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }));
    fc.assert(
      fc.property(fc.nat({ max: 5000 }), fc.array(unit, { maxLength: 40 }), (ascii, units) => {
        const s = 'a'.repeat(ascii) + String.fromCharCode(...units);
        expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('localDefinitionCost: a local tool priced from its config, as its built definition is', () => {
  const costs = (text: string): [number, number][] => {
    const layer = loadLayer({ name: 'l', text });
    const out: [number, number][] = [];
    for (const tool of layer.config.tools.values()) {
      const r = resolveTool(tool, 'ask', new Map());
      if (r.ok && tool.source?.value.kind !== 'mcp') out.push([localDefinitionCost(tool), definitionCost(r.definition)]);
    }
    return out;
  };

  it('on the conformance scenarios and a generated catalogue, tool by tool', () => {
    const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/conformance');
    const texts = readdirSync(dir)
      .filter((f) => f.endsWith('.toml'))
      .flatMap((f) => {
        const p = parseScenario(readFileSync(join(dir, f), 'utf8'));
        return p.ok ? p.scenario.layers.map((l) => l.text) : [];
      });
    const generated = parseScenario(generateScenario(500, 2, 'local'));
    if (generated.ok) texts.push(...generated.scenario.layers.map((l) => l.text));
    const pairs = texts.flatMap(costs);
    expect(pairs.length).toBeGreaterThan(500);
    for (const [counted, built] of pairs) expect(counted).toBe(built);
  });

  // Keys, strings and values of every kind TOML writes: quotes, backslashes, controls, non-ASCII,
  // astral characters, integer-like names (which JSON puts first), floats, nested items and properties.
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"', '\\', 'a"b\\c', '\u0001\n\t', 'é✓𝄞', '\u2028', '0', '12', '4294967295'));
  const scalar = fc.oneof(text.map(tomlString), fc.integer().map(String), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((d) => (Number.isInteger(d) ? `${d}.0` : String(d))), fc.boolean().map(String));
  const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }).map((a) => `[${a.join(', ')}]`));
  type P = { readonly type?: string; readonly required?: boolean; readonly summary?: string; readonly description?: string; readonly enumValues?: string; readonly defaultValue?: string; readonly items?: P; readonly properties?: readonly [string, P][] };
  const parameter: fc.Memo<P> = fc.memo((depth) =>
    fc.record(
      {
        type: fc.oneof(fc.constantFrom('"string"', '"integer"', '"array"', '"object"'), fc.constant('["string", "null"]')),
        required: fc.boolean(),
        summary: text,
        description: text,
        enumValues: fc.array(scalar, { maxLength: 3 }).map((a) => `[${a.join(', ')}]`),
        defaultValue: value,
        ...(depth > 1 ? { items: parameter(depth - 1), properties: fc.array(fc.tuple(text, parameter(depth - 1)), { maxLength: 2 }) } : {}),
      },
      { requiredKeys: [] },
    ),
  );
  const write = (path: string, p: P, out: string[]): void => {
    out.push(`[${path}]`);
    if (p.type !== undefined) out.push(`type = ${p.type}`);
    if (p.required !== undefined) out.push(`required = ${p.required}`);
    if (p.summary !== undefined) out.push(`summary = ${tomlString(p.summary)}`);
    if (p.description !== undefined) out.push(`description = ${tomlString(p.description)}`);
    if (p.enumValues !== undefined) out.push(`enum = ${p.enumValues}`);
    if (p.defaultValue !== undefined) out.push(`default = ${p.defaultValue}`);
    if (p.items) write(`${path}.items`, p.items, out);
    const seen = new Set<string>();
    for (const [name, child] of p.properties ?? []) {
      if (seen.has(name)) continue;
      seen.add(name);
      write(`${path}.properties.${tomlKey(name)}`, child, out);
    }
  };

  it('on random tools', () => {
    fc.assert(
      fc.property(text, fc.option(text), fc.option(text), fc.array(fc.tuple(text, parameter(3)), { maxLength: 3 }), (name, summary, description, parameters) => {
        const head = `conversation.tools.${tomlKey(name)}`;
        const out = [`[${head}]`, 'source = "local"'];
        if (summary !== null) out.push(`summary = ${tomlString(summary)}`);
        if (description !== null) out.push(`description = ${tomlString(description)}`);
        const seen = new Set<string>();
        for (const [p, spec] of parameters) {
          if (seen.has(p)) continue;
          seen.add(p);
          write(`${head}.parameters.${tomlKey(p)}`, spec, out);
        }
        const pairs = costs(out.join('\n'));
        for (const [counted, built] of pairs) expect(counted).toBe(built);
      }),
      { numRuns: 400 },
    );
  });
});
