// The JSON Schemas JP derives from a tool definition:
// - `parametersSchema`  = `ToolDefinition::to_parameters_schema()` (cost estimate, Google);
// - `parametersMap`     = `ToolDefinition::to_parameters_map()` (Ollama);
// - `strictParameters`  = `parameters_with_strict_mode(_, strict)` (OpenAI, OpenRouter, llama.cpp
//   with `strict = true`; Cerebras with `strict = false`).
//
// Every object built here has a null prototype, so a parameter called `__proto__` is an ordinary
// own key. Key order mirrors JP's (serde_json with `preserve_order`): inserting an existing key keeps
// its place, a new key goes last, and a removal is a `swap_remove` (the last key takes the removed
// key's place), which is what `serde_json::Map::remove` does under `preserve_order`.
import { isJsonFloat, toJson } from '../json/serde';
import type { JsonSchema, ToolDefinition } from './types';

export type JsonObject = Record<string, unknown>;

/** An empty object with a null prototype. */
export function jsonObject(): JsonObject {
  return Object.create(null) as JsonObject;
}

/** A JSON object (a JsonFloat is a number, not an object). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isJsonFloat(value);
}

/** A deep copy of a JSON value; every object in it gets a null prototype. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isJsonObject(value)) {
    const out = jsonObject();
    for (const key of Object.keys(value)) out[key] = cloneJson(value[key]);
    return out as T;
  }
  return value;
}

/** serde_json's `Map::remove` under `preserve_order`: the last entry moves into the hole. */
function swapRemove(map: JsonObject, key: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(map, key)) return undefined;
  const keys = Object.keys(map);
  const removed = map[key];
  const index = keys.indexOf(key);
  const last = keys[keys.length - 1] as string;
  const entries = keys.map((k) => [k, map[k]] as const);
  if (last !== key) entries[index] = [last, map[last]];
  entries.pop();
  for (const k of keys) delete map[k];
  for (const [k, v] of entries) map[k] = v;
  return removed;
}

/** Replace the contents of `map` in place (keeps the object's identity). */
function replaceContents(map: JsonObject, entries: Iterable<readonly [string, unknown]>): void {
  for (const k of Object.keys(map)) delete map[k];
  for (const [k, v] of entries) map[k] = v;
}

function has(map: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

/** The `properties` map: each parameter's resolved schema, in declaration order (copies). */
export function parametersMap(def: ToolDefinition): JsonObject {
  const properties = jsonObject();
  for (const [name, schema] of def.parameters) properties[name] = cloneJson(schema);
  return properties;
}

/**
 * JP's `to_parameters_schema()`:
 * `{"type":"object","properties":{…},"additionalProperties":false,"required":[…]}`.
 */
export function parametersSchema(def: ToolDefinition): JsonSchema {
  const schema = jsonObject();
  schema.type = 'object';
  schema.properties = parametersMap(def);
  schema.additionalProperties = false;
  schema.required = [...def.required];
  return schema;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The text of `toJson(parametersSchema(def))` in pieces, written from the parameters' own schemas: no
 * copy of them and no object around them. A definition's cost measures this text once per tool (100,000
 * at a catalogue's open), and the copies and their null-prototype objects were a sixth of what an open
 * allocated; the cost adds up the pieces' lengths and never joins them. Undefined when a parameter's
 * name is an array index: an object writes those keys first, whatever their order, and so does
 * `parametersSchema`'s.
 */
export function parametersSchemaPieces(def: ToolDefinition): readonly string[] | undefined {
  const pieces = ['{"type":"object","properties":{'];
  for (const [name, schema] of def.parameters) {
    if (ARRAY_INDEX.test(name) && Number(name) < 2 ** 32 - 1) return undefined;
    pieces.push(pieces.length === 1 ? '' : ',', JSON.stringify(name), ':', toJson(schema));
  }
  pieces.push('},"additionalProperties":false,"required":', JSON.stringify(def.required), '}');
  return pieces;
}

/** `toJson(parametersSchema(def))`, written from the parameters' own schemas (`parametersSchemaPieces`). */
export function parametersSchemaJson(def: ToolDefinition): string {
  return parametersSchemaPieces(def)?.join('') ?? toJson(parametersSchema(def));
}

/** Names of the required parameters, in parameter (declaration) order. */
function flaggedRequired(def: ToolDefinition): string[] {
  const flagged = new Set(def.required);
  return [...def.parameters.keys()].filter((name) => flagged.has(name));
}

/**
 * JP's `parameters_with_strict_mode(parameters, strict)` (`openai.rs`).
 *
 * - `strict = true` (OpenAI, OpenRouter, llama.cpp): every parameter is required, optional ones are
 *   made nullable (`make_schema_nullable`), each parameter schema is made strict
 *   (`ensure_strict_schema`), and the top level has `additionalProperties: false`.
 * - `strict = false` (Cerebras): only flagged parameters are required and the top level has
 *   `additionalProperties: true`.
 *
 * In both modes `sanitize_parameter` first moves array-valued `enum` entries of an array parameter
 * into its `items.enum`.
 */
export function strictParameters(def: ToolDefinition, strict: boolean): JsonSchema {
  const flagged = new Set(def.required);
  const required = strict ? [...def.parameters.keys()] : flaggedRequired(def);
  const properties = jsonObject();
  for (const [name, original] of def.parameters) {
    const schema: unknown = cloneJson(original);
    sanitizeParameter(schema);
    if (strict && !flagged.has(name)) makeSchemaNullable(schema);
    if (strict) ensureStrictSchema(schema);
    properties[name] = schema;
  }
  const out = jsonObject();
  out.type = 'object';
  out.properties = properties;
  out.additionalProperties = !strict;
  out.required = required;
  return out;
}

function typeIncludes(type: unknown, name: string): boolean {
  if (typeof type === 'string') return type === name;
  if (Array.isArray(type)) return type.some((t) => t === name);
  return false;
}

function inferredType(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (isJsonFloat(value)) return 'number';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** `sanitize_parameter`: array-valued enum entries of an array parameter move into `items.enum`. */
function sanitizeParameter(schema: unknown): void {
  if (!isJsonObject(schema)) return;
  if (isJsonObject(schema.items)) sanitizeParameter(schema.items);
  const enumeration = schema.enum;
  if (!typeIncludes(schema.type, 'array') || !Array.isArray(enumeration)) return;
  if (!enumeration.some((v) => Array.isArray(v))) return;
  const arrays = enumeration.filter((v): v is unknown[] => Array.isArray(v));
  const other = enumeration.filter((v) => !Array.isArray(v));
  // JP rebuilds the schema from the config, where an empty enum is simply not emitted.
  if (other.length > 0) schema.enum = other;
  else swapRemove(schema, 'enum');
  const flattened = arrays.flat();
  let items = schema.items;
  if (!isJsonObject(items)) {
    const types: string[] = [];
    for (const v of flattened) {
      const t = inferredType(v);
      if (!types.includes(t)) types.push(t);
    }
    items = jsonObject();
    (items as JsonObject).type = types.length === 1 ? types[0] : types;
    schema.items = items;
  }
  const itemSchema = items as JsonObject;
  const existing = Array.isArray(itemSchema.enum) ? (itemSchema.enum as unknown[]) : [];
  const merged = [...existing, ...flattened];
  if (merged.length > 0) itemSchema.enum = merged;
}

const NULLABLE_OUTER_KEYS = new Set(['description', 'title', 'default', 'examples']);

/**
 * `make_schema_nullable`: primitives get `"null"` added to `type`; arrays and objects are wrapped as
 * `{…descriptive keys, "anyOf":[{…the rest}, {"type":"null"}]}`. Idempotent.
 */
export function makeSchemaNullable(schema: unknown): void {
  if (!isJsonObject(schema) || !has(schema, 'type')) return;
  const type = schema.type;
  if (typeIncludes(type, 'null')) return;
  const structured = typeIncludes(type, 'array') || typeIncludes(type, 'object');
  if (!structured) {
    if (typeof type === 'string') schema.type = [type, 'null'];
    else if (Array.isArray(type)) schema.type = [...(type as unknown[]), 'null'];
    return;
  }
  const outer: [string, unknown][] = [];
  const inner = jsonObject();
  for (const key of Object.keys(schema)) {
    if (NULLABLE_OUTER_KEYS.has(key)) outer.push([key, schema[key]]);
    else inner[key] = schema[key];
  }
  const nullType = jsonObject();
  nullType.type = 'null';
  replaceContents(schema, [...outer, ['anyOf', [inner, nullType]]]);
}

/** `ensure_strict_schema`: JP's port of OpenAI's `_ensure_strict_json_schema`. */
export function ensureStrictSchema(schema: unknown): void {
  const root = cloneJson(schema);
  processStrict(schema, root, 0);
}

/** Guards against a self-referencing `$ref` (JP would recurse until the stack overflows). */
const MAX_REF_DEPTH = 32;

function processStrict(schema: unknown, root: unknown, refDepth: number): void {
  if (!isJsonObject(schema)) return;
  const map = schema;

  // 1. $defs / definitions.
  for (const key of ['$defs', 'definitions']) {
    const defs = map[key];
    if (isJsonObject(defs)) for (const k of Object.keys(defs)) processStrict(defs[k], root, refDepth);
  }

  // 2. Objects: additionalProperties false, every property required, the formerly optional nullable.
  if (typeIncludes(map.type, 'object')) {
    map.additionalProperties = false;
    const props = map.properties;
    if (isJsonObject(props)) {
      const prevRequired = Array.isArray(map.required)
        ? (map.required as unknown[]).filter((r): r is string => typeof r === 'string')
        : [];
      const keys = Object.keys(props);
      const newlyRequired = keys.filter((k) => !prevRequired.includes(k));
      map.required = [...keys];
      for (const k of newlyRequired) makeSchemaNullable(props[k]);
    }
  }

  // 3. Property values, items, anyOf variants.
  const props = map.properties;
  if (isJsonObject(props)) for (const k of Object.keys(props)) processStrict(props[k], root, refDepth);
  if (has(map, 'items')) processStrict(map.items, root, refDepth);
  if (Array.isArray(map.anyOf)) for (const variant of map.anyOf as unknown[]) processStrict(variant, root, refDepth);

  // 4. Flatten allOf into the parent (earlier entries and the parent's own keys win).
  if (has(map, 'allOf')) {
    const entries = swapRemove(map, 'allOf');
    if (Array.isArray(entries)) {
      for (const entry of entries as unknown[]) {
        processStrict(entry, root, refDepth);
        if (isJsonObject(entry)) for (const k of Object.keys(entry)) if (!has(map, k)) map[k] = entry[k];
      }
    }
  }

  // 5. Strip null defaults.
  if (has(map, 'default') && map.default === null) swapRemove(map, 'default');

  // 6. Unravel a $ref that has siblings.
  if (has(map, '$ref') && Object.keys(map).length > 1) {
    const refPath = swapRemove(map, '$ref');
    if (typeof refPath === 'string') {
      const resolved = refDepth < MAX_REF_DEPTH ? resolveRef(refPath, root) : undefined;
      if (resolved) {
        for (const k of Object.keys(map)) resolved[k] = map[k];
        replaceContents(map, Object.keys(resolved).map((k) => [k, resolved[k]] as const));
        processStrict(map, root, refDepth + 1);
        return;
      }
      map.$ref = refPath;
    }
  }
}

function resolveRef(refPath: string, root: unknown): JsonObject | undefined {
  if (refPath === '#') return isJsonObject(root) ? cloneJson(root) : undefined;
  if (!refPath.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const segment of refPath.slice(2).split('/')) {
    if (!isJsonObject(current) || !has(current, segment)) return undefined;
    current = current[segment];
  }
  return isJsonObject(current) ? cloneJson(current) : undefined;
}
