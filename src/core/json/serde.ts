// JSON as JP writes it. JP serializes request bodies and its cost estimate with serde_json (features
// `preserve_order`, no `arbitrary_precision`: workspace Cargo.toml:130 and crates/jp_llm/Cargo.toml:45
// at dcdpr/jp 4c1c39f1), which keeps a TOML or JSON float a float: `1.0` is written `1.0` and `3e2`
// is written `300.0`, where JavaScript's JSON.stringify writes `1` and `300`. A float that JavaScript
// would write otherwise (a whole one, -0.0, 1e21, 1e-6) is therefore carried as a `JsonFloat` from
// the reader to the serializer; any other float writes the same either way and needs no mark.
//
// Float text is ryu's "pretty" format (dtolnay/ryu src/pretty/mod.rs `format64`, read 2026-12 at
// 3131fd6), which serde_json uses for every finite f64; a non-finite float is `null` (serde_json
// `Number::from_f64` refuses it and `Value` holds null).

// While toJson runs the native JSON.stringify, a JsonFloat writes a marked string that toJson then
// unquotes into ryu's text; any other JSON.stringify (the UI's plain paths) sees the number.
const MARK = '\uE000jf:';
let writing = false;
let marked = 0;

/** A float that JavaScript would write differently from serde_json (`1.0`, `-0.0`, `1e21`, `1e-6`). */
export class JsonFloat {
  constructor(readonly value: number) {}
  toJSON(): number | string {
    if (!writing) return this.value;
    marked += 1;
    return MARK + formatFloat(this.value);
  }
  valueOf(): number {
    return this.value;
  }
}

export function isJsonFloat(value: unknown): value is JsonFloat {
  return value instanceof JsonFloat;
}

/**
 * The value a reader stores for a number it read as a float: marked where JavaScript would write it
 * differently from serde_json (a whole float, -0.0, and the exponent ranges where the two differ),
 * a plain number otherwise.
 */
export function floatValue(value: number): number | JsonFloat {
  return needsMark(value) ? new JsonFloat(value) : value;
}

/** Does JSON.stringify write this float differently from serde_json? */
export function needsMark(value: number): boolean {
  return Number.isFinite(value) && JSON.stringify(value) !== formatFloat(value);
}

/** The number a JSON value holds, whether marked or plain. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value instanceof JsonFloat) return value.value;
  return undefined;
}

/** ryu's shortest representation of a finite f64, in its pretty layout. */
export function formatFloat(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() with no argument gives the shortest digits that round-trip, as ryu's d2d does.
  const exp = Math.abs(x).toExponential();
  const e = exp.indexOf('e');
  const digits = exp.slice(0, e).replace('.', '');
  const length = digits.length;
  const kk = Number(exp.slice(e + 1)) + 1; // 10^(kk-1) <= |x| < 10^kk
  const k = kk - length;
  let body: string;
  if (k >= 0 && kk <= 16) body = `${digits}${'0'.repeat(k)}.0`;
  else if (kk > 0 && kk <= 16) body = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) body = `0.${'0'.repeat(-kk)}${digits}`;
  else if (length === 1) body = `${digits}e${kk - 1}`;
  else body = `${digits.slice(0, 1)}.${digits.slice(1)}e${kk - 1}`;
  return sign + body;
}

// serde_json reads a JSON integer into u64 or i64; past that range it is an f64.
const U64_END = 2 ** 64;
const I64_MIN = -(2 ** 63);

/** A JavaScript number as serde_json writes the value it came from. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (Number.isInteger(n) && n >= I64_MIN && n < U64_END && !Object.is(n, -0)) {
    return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
  }
  return formatFloat(n);
}

function write(value: unknown, indent: string, step: string, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(formatNumber(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      out.push('null');
      return;
  }
  if (value instanceof JsonFloat) {
    out.push(formatFloat(value.value));
    return;
  }
  const inner = step === '' ? '' : `${indent}${step}`;
  const open = step === '' ? '' : `\n${inner}`;
  const sep = step === '' ? ',' : `,\n${inner}`;
  const close = step === '' ? '' : `\n${indent}`;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    out.push(`[${open}`);
    value.forEach((item, i) => {
      if (i > 0) out.push(sep);
      write(item, inner, step, out);
    });
    out.push(`${close}]`);
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  if (keys.length === 0) {
    out.push('{}');
    return;
  }
  out.push(`{${open}`);
  keys.forEach((k, i) => {
    if (i > 0) out.push(sep);
    out.push(JSON.stringify(k), step === '' ? ':' : ': ');
    write(record[k], inner, step, out);
  });
  out.push(`${close}}`);
}

/**
 * serde_json's `to_string` (compact) or, with `pretty`, `to_string_pretty` (two-space indent).
 * Object members whose value is undefined are skipped, as JSON.stringify skips them.
 */
export function toJson(value: unknown, pretty = false): string {
  // The native JSON.stringify is several times faster than a walk in JavaScript; the marks it leaves
  // for floats are unquoted after. Should the text hold a mark that no float left (a string that
  // looks like one), the walk writes it instead.
  writing = true;
  marked = 0;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, pretty ? 2 : undefined);
  } finally {
    writing = false;
  }
  if (text === undefined) return 'null';
  if (marked === 0 && !text.includes(MARK)) return text;
  let found = 0;
  const replaced = text.replace(MARKED, (_m, float: string) => {
    found += 1;
    return float;
  });
  if (found === marked && !replaced.includes(MARK)) return replaced;
  return slowJson(value, pretty);
}

const MARKED = /"\uE000jf:(-?[0-9][0-9.e-]*|null)"/g;

/** serde_json's output by a walk in JavaScript (the reference toJson keeps to). */
export function slowJson(value: unknown, pretty = false): string {
  const out: string[] = [];
  write(value, '', pretty ? '  ' : '', out);
  return out.join('');
}
