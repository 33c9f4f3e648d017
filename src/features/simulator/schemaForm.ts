// A form from a tool's inputSchema (JSON Schema): which control each property gets,
// and the arguments the form's values make. Pure. Anything the form cannot show
// (a union of types, $ref, oneOf) is edited as JSON in place; the raw-JSON switch
// edits the whole arguments object.
export type JsonObject = { [key: string]: unknown };

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'array' | 'object' | 'json';

export interface Field {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly description: string;
  readonly options?: readonly unknown[];
  readonly schema: JsonObject;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: JsonObject, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

export function kindOf(schema: JsonObject): FieldKind {
  if (Array.isArray(own(schema, 'enum'))) return 'enum';
  const t = own(schema, 'type');
  if (t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' || t === 'array') return t;
  if (t === 'object' || (t === undefined && isObject(own(schema, 'properties')))) return 'object';
  return 'json';
}

/** The properties of an object schema, each with its control, in declaration order. */
export function fieldsOf(schema: unknown): Field[] {
  if (!isObject(schema)) return [];
  const props = own(schema, 'properties');
  if (!isObject(props)) return [];
  const required = new Set(Array.isArray(own(schema, 'required')) ? (own(schema, 'required') as unknown[]).filter((x): x is string => typeof x === 'string') : []);
  return Object.keys(props).map((name) => {
    const s = isObject(props[name]) ? (props[name] as JsonObject) : {};
    const description = own(s, 'description');
    const kind = kindOf(s);
    return { name, kind, required: required.has(name), description: typeof description === 'string' ? description : '', ...(kind === 'enum' ? { options: own(s, 'enum') as unknown[] } : {}), schema: s };
  });
}

/** The schema of an array's items (an empty schema when it says none). */
export function itemsOf(schema: JsonObject): JsonObject {
  const items = own(schema, 'items');
  return isObject(items) ? items : {};
}

/** Sets (or, with `undefined`, removes) one key of an object, returning a new object; `__proto__` stays data. */
export function withKey(o: JsonObject, key: string, value: unknown): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(o)) if (k !== key) Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  if (value !== undefined) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A number typed in a field: undefined when empty, NaN when not a number of the kind. */
export function numberFrom(text: string, kind: 'number' | 'integer'): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && (kind === 'number' || Number.isInteger(n)) ? n : Number.NaN;
}

/** Required properties the values leave out, by name. */
export function missingRequired(schema: unknown, values: JsonObject): string[] {
  return fieldsOf(schema)
    .filter((f) => f.required && !Object.hasOwn(values, f.name))
    .map((f) => f.name);
}

/** Whether the tool's annotations say it may destroy something (MCP `destructiveHint`). */
export function isDestructive(annotations: unknown): boolean {
  return isObject(annotations) && own(annotations, 'destructiveHint') === true;
}
