// Comparing one expectation with what the run produced. Each key of the format
// document has one rule here; the runner supplies the actual values.

export type Comparison = { pass: boolean; actual: unknown };

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

function sameSet(expected: unknown, actual: readonly string[]): boolean {
  const e = new Set(asList(expected));
  const a = new Set(actual);
  if (e.size !== a.size) return false;
  for (const x of e) if (!a.has(x)) return false;
  return true;
}

function sameList(expected: unknown, actual: readonly string[]): boolean {
  const e = asList(expected);
  return e.length === actual.length && e.every((x, i) => x === actual[i]);
}

export function containsAll(expected: unknown, text: string | undefined): boolean {
  if (text === undefined) return false;
  return asList(expected).every((part) => text.includes(part));
}

export const setEquals = (expected: unknown, actual: readonly string[]): Comparison => ({ pass: sameSet(expected, actual), actual: [...actual] });
export const listEquals = (expected: unknown, actual: readonly string[]): Comparison => ({ pass: sameList(expected, actual), actual: [...actual] });
export const includesAll = (expected: unknown, actual: readonly string[]): Comparison => {
  const a = new Set(actual);
  return { pass: asList(expected).every((x) => a.has(x)), actual: [...actual] };
};
export const excludesAll = (expected: unknown, actual: readonly string[]): Comparison => {
  const a = new Set(actual);
  return { pass: asList(expected).every((x) => !a.has(x)), actual: [...actual] };
};

/** `{ NAME = "on" | ... }`: every named tool's effective availability. */
export function availabilityMatches(expected: unknown, lookup: (name: string) => string): Comparison {
  const actual: Record<string, string> = Object.create(null) as Record<string, string>;
  let pass = typeof expected === 'object' && expected !== null;
  if (pass) {
    for (const name of Object.keys(expected as object)) {
      const got = lookup(name);
      actual[name] = got;
      if ((expected as Record<string, unknown>)[name] !== got) pass = false;
    }
  }
  return { pass, actual };
}

export function scalarEquals(expected: unknown, actual: unknown): Comparison {
  return { pass: expected === actual, actual };
}

export function recordEquals(expected: unknown, actual: Record<string, unknown>): Comparison {
  if (typeof expected !== 'object' || expected === null) return { pass: false, actual };
  const e = expected as Record<string, unknown>;
  const pass = Object.keys(e).every((k) => Object.hasOwn(actual, k) && e[k] === actual[k]);
  return { pass, actual };
}

/** Renders a value for a failure line. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * `provider_warnings`: each expected text is part of some finding's message, whatever its severity;
 * an empty list expects no finding at all.
 */
export function findingsMatch(expected: unknown, messages: readonly string[]): Comparison {
  const wanted = asList(expected);
  const pass = wanted.length === 0 ? messages.length === 0 : wanted.every((part) => messages.some((m) => m.includes(part)));
  return { pass, actual: [...messages] };
}
