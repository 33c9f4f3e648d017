// Validating the JSON arguments typed for a tool call, against the tool's
// parameters as the derivation reports them. Pure.
import type { Plain } from '../../core';
import type { RequestToolView } from '../../derive/labProtocol';

export interface ArgsCheck {
  readonly ok: boolean;
  readonly value?: { [key: string]: Plain };
  readonly error?: { readonly message: string; readonly line: number; readonly column: number };
  /** Problems the call may still be made with (the tool decides). */
  readonly warnings: readonly string[];
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function fits(expected: string, actual: string): boolean {
  if (expected === 'any' || expected === 'enum' || expected === '') return true;
  return expected.split(' | ').some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

function findNull(v: unknown, path: string): string | undefined {
  if (v === null) return path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = findNull(v[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
  } else if (typeof v === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const found = findNull(x, path ? `${path}.${k}` : `"${k}"`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export function checkArgs(text: string, tool: RequestToolView | undefined): ArgsCheck {
  const source = text.trim() === '' ? '{}' : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/u.exec(message);
    const where = at ? lineColumn(source, Number(at[1])) : { line: 1, column: 1 };
    return { ok: false, error: { message: message.replace(/\s*\(line \d+ column \d+\)/u, ''), ...where }, warnings: [] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: { message: `arguments must be a JSON object, got ${typeOf(value)}`, line: 1, column: 1 }, warnings: [] };
  }
  const record = value as { [key: string]: Plain };
  const nullAt = findNull(record, '');
  if (nullAt !== undefined) {
    return { ok: false, error: { message: `${nullAt || 'a value'} is null, which a scenario file cannot hold (TOML has no null); leave it out`, line: 1, column: 1 }, warnings: [] };
  }
  const warnings: string[] = [];
  if (tool) {
    const known = new Map(tool.params.map((p) => [p.name, p]));
    for (const p of tool.params) if (p.required && !Object.hasOwn(record, p.name)) warnings.push(`missing required parameter "${p.name}"`);
    for (const k of Object.keys(record)) {
      const p = known.get(k);
      if (!p) warnings.push(`"${k}" is not a parameter of ${tool.name}`);
      else if (!fits(p.type, typeOf(record[k]))) warnings.push(`"${k}" should be ${p.type}, got ${typeOf(record[k])}`);
    }
  }
  return { ok: true, value: record, warnings };
}

/**
 * The "Run on the server" form's values for the call's arguments text (the simulated call's JSON; the
 * two are one value): undefined when the text is not a JSON object, so the form shows nothing it would
 * overwrite the typed text with. An empty text is no arguments.
 */
export function formValuesOf(text: string): { [key: string]: unknown } | undefined {
  if (text.trim() === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as { [key: string]: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** The arguments text after an edit in the form: the whole object, keys the form has no field for included. */
export function textOfForm(values: { readonly [key: string]: unknown }): string {
  return JSON.stringify(values, null, 1);
}
