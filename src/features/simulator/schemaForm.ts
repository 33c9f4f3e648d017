// A form from a JSON Schema (a tool's inputSchema, or the requestedSchema of a
// server's elicitation): which control each property gets, its choices (enum,
// enumNames, oneOf/anyOf of titled consts), its default, and the arguments the
// form's values make. Pure. Anything the form cannot show (a union of types, $ref)
// is edited as JSON in place; the raw-JSON switch edits the whole arguments object.
export type JsonObject = { [key: string]: unknown };

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi' | 'array' | 'object' | 'json';

/** One choice of an enum: its value, and the title a schema gives it (else the value). */
export interface Choice {
  readonly value: unknown;
  readonly label: string;
}

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

const labelOf = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The choices a schema allows: `enum` (titled by the legacy `enumNames`), or `oneOf`/`anyOf` of `{ const, title }`. */
export function choicesOf(schema: JsonObject): Choice[] {
  const values = own(schema, 'enum');
  if (Array.isArray(values)) {
    const names = own(schema, 'enumNames');
    return values.map((v, i) => ({ value: v, label: Array.isArray(names) && typeof names[i] === 'string' ? (names[i] as string) : labelOf(v) }));
  }
  for (const key of ['oneOf', 'anyOf']) {
    const list = own(schema, key);
    if (Array.isArray(list) && list.length > 0 && list.every((x) => isObject(x) && Object.hasOwn(x, 'const'))) {
      return (list as JsonObject[]).map((x) => ({ value: x.const, label: typeof x.title === 'string' ? x.title : labelOf(x.const) }));
    }
  }
  return [];
}

export function kindOf(schema: JsonObject): FieldKind {
  if (choicesOf(schema).length > 0) return 'enum';
  const t = own(schema, 'type');
  if (t === 'array' && choicesOf(itemsOf(schema)).length > 0) return 'multi';
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
    return { name, kind, required: required.has(name), description: typeof description === 'string' ? description : '', ...(kind === 'enum' ? { options: choicesOf(s).map((c) => c.value) } : {}), schema: s };
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

/** The values an object schema's properties default to (SEP-1034: a form starts from them). */
export function defaultsOf(schema: unknown): JsonObject {
  let out: JsonObject = {};
  for (const f of fieldsOf(schema)) if (Object.hasOwn(f.schema, 'default')) out = withKey(out, f.name, f.schema.default);
  return out;
}
