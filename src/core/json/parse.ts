// JSON.parse that keeps whole floats as floats (`1.0`, `3e2` → JsonFloat), as serde_json reads them,
// so a catalogue file's schema renders and costs what JP's would. Numbers are found by one scan that
// skips strings; only when a whole float is present is the text parsed a second way, with each such
// number swapped for a marked string that a reviver turns back into a JsonFloat.
import { JsonFloat, needsMark } from './serde';

// Private-use characters: a marked number is a string starting with these two.
const MARK = '\uE000\uE001';

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

interface FloatToken {
  readonly start: number;
  readonly end: number;
}

/** Number tokens written as floats (a `.` or an exponent) that JavaScript would write otherwise. */
function wholeFloats(text: string): FloatToken[] {
  const found: FloatToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 45 /* - */ || isDigit(c)) {
      const start = i;
      let float = false;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (isDigit(d) || d === 43 || d === 45) i++;
        else if (d === 46 || d === 101 || d === 69) {
          float = true;
          i++;
        } else break;
      }
      if (float && needsMark(Number(text.slice(start, i)))) found.push({ start, end: i });
      continue;
    }
    i++;
  }
  return found;
}

/** JSON.parse, with whole floats kept as JsonFloat. Throws what JSON.parse throws. */
export function parseJsonKeepingFloats(text: string): unknown {
  const floats = wholeFloats(text);
  // A text that already holds the mark (raw or escaped) is read plainly: its floats lose their `.0`.
  if (floats.length === 0 || text.includes(MARK.charAt(0)) || /\\u[eE]000/.test(text)) return JSON.parse(text);
  // Validate the text as it is first, so an error message points at the user's own text.
  JSON.parse(text);
  const parts: string[] = [];
  let at = 0;
  for (const f of floats) {
    parts.push(text.slice(at, f.start), `"${MARK}${text.slice(f.start, f.end)}"`);
    at = f.end;
  }
  parts.push(text.slice(at));
  return JSON.parse(parts.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? new JsonFloat(Number(value.slice(MARK.length))) : value,
  );
}
