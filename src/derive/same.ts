// Whether two values of worker answers read the same. Every derivation's answer is a fresh structured
// clone, so a row that did not change still arrives as new objects: a memoized row compared by
// identity re-renders on every keystroke (at 1,000 tools each of the timeline's ~30 rows rendered once
// or twice a keystroke, on the main thread between the keystroke and the next). Answers are plain data
// (what structured clone carries: objects, arrays, primitives), so a walk compares them.

/** Structural equality of plain data: same primitives (NaN equal to NaN), same keys, same items. */
export function samePlain(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!samePlain(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !samePlain(x[k], y[k])) return false;
    count++;
  }
  for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k)) count--;
  return count === 0;
}
