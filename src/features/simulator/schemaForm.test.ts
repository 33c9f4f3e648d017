// The form generated from an inputSchema: the control each kind of property gets, required
// fields, numbers typed by hand, keys that are data (`__proto__`), and the destructive hint.
import { describe, expect, it } from 'vitest';
import { fieldsOf, isDestructive, itemsOf, kindOf, missingRequired, numberFrom, withKey } from './schemaForm';

describe('schemaForm', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'number' }, 'number'],
    [{ type: 'integer' }, 'integer'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'string', enum: ['a', 'b'] }, 'enum'],
    [{ type: 'array', items: { type: 'string' } }, 'array'],
    [{ type: 'object', properties: {} }, 'object'],
    [{ properties: { x: {} } }, 'object'],
    [{ type: ['boolean', 'string'] }, 'json'],
    [{ $ref: '#/defs/x' }, 'json'],
  ])('%j gets a %s control', (schema, kind) => {
    expect(kindOf(schema)).toBe(kind);
  });

  it('lists the properties in order with their required flags, descriptions and options', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string', description: 'Where.' }, mode: { enum: ['r', 'w'] }, depth: { type: 'integer' }, opts: { type: 'object', properties: { deep: { type: 'boolean' } } } },
      required: ['path', 'mode'],
    };
    expect(fieldsOf(schema).map((f) => [f.name, f.kind, f.required, f.description, f.options])).toEqual([
      ['path', 'string', true, 'Where.', undefined],
      ['mode', 'enum', true, '', ['r', 'w']],
      ['depth', 'integer', false, '', undefined],
      ['opts', 'object', false, '', undefined],
    ]);
    expect(fieldsOf(fieldsOf(schema)[3]?.schema).map((f) => f.kind)).toEqual(['boolean']);
    expect(missingRequired(schema, { path: 'x' })).toEqual(['mode']);
    expect(missingRequired(schema, { path: 'x', mode: 'r' })).toEqual([]);
  });

  it('reads numbers strictly and keeps an empty field out', () => {
    expect(numberFrom('', 'number')).toBeUndefined();
    expect(numberFrom('2.5', 'number')).toBe(2.5);
    expect(numberFrom('2.5', 'integer')).toBeNaN();
    expect(numberFrom('abc', 'number')).toBeNaN();
    expect(numberFrom('7', 'integer')).toBe(7);
  });

  it('sets and removes keys without touching the prototype', () => {
    const o = withKey(withKey({}, '__proto__', 1), 'a', 2);
    expect(Object.keys(o)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(o)).toBe('{"__proto__":1,"a":2}');
    expect(withKey(o, 'a', undefined)).toEqual(JSON.parse('{"__proto__":1}'));
    expect(itemsOf({ type: 'array' })).toEqual({});
  });

  it('reads the destructive hint', () => {
    expect(isDestructive({ destructiveHint: true })).toBe(true);
    expect(isDestructive({ destructiveHint: false, readOnlyHint: true })).toBe(false);
    expect(isDestructive(undefined)).toBe(false);
  });
});
