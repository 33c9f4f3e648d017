import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonFloat, toJson } from '../json/serde';
import { cloneJson, ensureStrictSchema, makeSchemaNullable, parametersMap, parametersSchema, parametersSchemaJson, strictParameters } from './schema';
import { makeTool } from '../providers/test-helpers';

const json = (v: unknown): string => JSON.stringify(v);

describe('parametersSchema', () => {
  it('renders an empty tool as the 76-byte object, keys in JP order', () => {
    const s = json(parametersSchema(makeTool('t', 'd')));
    expect(s).toBe('{"type":"object","properties":{},"additionalProperties":false,"required":[]}');
    expect(s.length).toBe(76);
  });

  it('keeps parameter order and the required list', () => {
    const def = makeTool('t', 'd', [
      { name: 'b', schema: { type: 'string' } },
      { name: 'a', schema: { type: 'integer' }, required: true },
    ]);
    expect(json(parametersSchema(def))).toBe(
      '{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"additionalProperties":false,"required":["a"]}',
    );
  });

  it('treats a parameter called __proto__ as an ordinary key', () => {
    const def = makeTool('t', 'd', [
      { name: '__proto__', schema: { type: 'string' }, required: true },
      { name: 'constructor', schema: { type: 'number' } },
    ]);
    const schema = parametersSchema(def) as { properties: Record<string, unknown> };
    expect(Object.getPrototypeOf(schema)).toBeNull();
    expect(Object.getPrototypeOf(schema.properties)).toBeNull();
    expect(Object.keys(schema.properties)).toEqual(['__proto__', 'constructor']);
    expect(json(schema)).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"additionalProperties":false,"required":["__proto__"]}',
    );
    expect(json(parametersMap(def))).toBe('{"__proto__":{"type":"string"},"constructor":{"type":"number"}}');
    expect(json(strictParameters(def, true))).toContain('"__proto__":{"type":"string"}');
  });

  it('does not share or mutate the definition schemas', () => {
    const inner = { type: 'object', properties: { x: { type: 'string' } } };
    const def = makeTool('t', 'd', [{ name: 'o', schema: inner }]);
    strictParameters(def, true);
    expect(inner).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
    const map = parametersMap(def) as Record<string, unknown>;
    expect(map.o).not.toBe(inner);
  });
});

describe('parametersSchemaJson (what a definition\'s cost measures)', () => {
  const key = fc.constantFrom('type', 'description', 'enum', 'items', 'properties', '__proto__', 'constructor', '0', '10', 'x');
  const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => new JsonFloat(v)));
  const schema = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('value'), { maxLength: 3 }), tie('object')),
    // Built key by key on a null prototype, as the resolver builds them (so __proto__ is an own key).
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => {
      const o = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of entries) o[k] = v;
      return o;
    }),
  })).object;
  const params = fc.uniqueArray(fc.record({ name: fc.oneof(key, fc.string({ maxLength: 5 })), schema, required: fc.boolean() }), { selector: (p) => p.name, maxLength: 5 });

  it('writes the text parametersSchema writes, for any parameters', () => {
    fc.assert(
      fc.property(params, (ps) => {
        const def = makeTool('t', 'd', ps);
        expect(parametersSchemaJson(def)).toBe(toJson(parametersSchema(def)));
      }),
    );
  });

});

describe('strictParameters (parameters_with_strict_mode)', () => {
  const def = makeTool('t', 'd', [
    { name: 'path', schema: { type: 'string', description: 'File' }, required: true },
    { name: 'count', schema: { type: 'integer' } },
    { name: 'tags', schema: { type: 'array', description: 'Tags', items: { type: 'string' } } },
    {
      name: 'opts',
      schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] },
      required: true,
    },
  ]);

  it('strict: all required, optional ones nullable, additionalProperties false everywhere', () => {
    expect(json(strictParameters(def, true))).toBe(
      json({
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File' },
          count: { type: ['integer', 'null'] },
          tags: { description: 'Tags', anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
          opts: {
            type: 'object',
            properties: { a: { type: 'string' }, b: { type: ['boolean', 'null'] } },
            required: ['a', 'b'],
            additionalProperties: false,
          },
        },
        additionalProperties: false,
        required: ['path', 'count', 'tags', 'opts'],
      }),
    );
  });

  it('non-strict (Cerebras): only flagged required, additionalProperties true, schemas untouched', () => {
    expect(json(strictParameters(def, false))).toBe(
      json({
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File' },
          count: { type: 'integer' },
          tags: { type: 'array', description: 'Tags', items: { type: 'string' } },
          opts: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] },
        },
        additionalProperties: true,
        required: ['path', 'opts'],
      }),
    );
  });

  it('moves array-valued enum entries of an array parameter into items.enum', () => {
    const d = makeTool('t', 'd', [{ name: 'e', schema: { type: 'array', enum: [['x', 'y'], ['z']] }, required: true }]);
    expect(json((strictParameters(d, false) as { properties: unknown }).properties)).toBe(
      '{"e":{"type":"array","items":{"type":"string","enum":["x","y","z"]}}}',
    );
  });
});

describe('makeSchemaNullable / ensureStrictSchema', () => {
  it('is idempotent', () => {
    const s = cloneJson({ type: 'string' });
    makeSchemaNullable(s);
    makeSchemaNullable(s);
    expect(s).toEqual({ type: ['string', 'null'] });
    const o = cloneJson({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    makeSchemaNullable(o);
    expect(o).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('flattens allOf, strips null defaults and inlines a $ref with siblings', () => {
    const s = cloneJson({
      type: 'object',
      $defs: { P: { type: 'object', properties: { q: { type: 'string' } } } },
      properties: {
        a: { allOf: [{ type: 'string' }], default: null },
        r: { $ref: '#/$defs/P', description: 'ref' },
      },
    });
    ensureStrictSchema(s);
    const props = (s as { properties: Record<string, unknown> }).properties;
    // Nullability is injected before allOf is flattened, so `a` (no `type` yet) stays non-null: JP does the same.
    expect(props.a).toEqual({ type: 'string' });
    expect(JSON.stringify(props.r)).toBe(JSON.stringify({
      type: 'object',
      properties: { q: { type: ['string', 'null'] } },
      description: 'ref',
      additionalProperties: false,
      required: ['q'],
    }));
  });
});
