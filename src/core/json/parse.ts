// JSON.parse that keeps whole floats as floats (`1.0`, `3e2` → JsonFloat), as serde_json reads them,
// so a catalogue file's schema renders and costs what JP's would. Numbers are found by the core's one
// JSON scanner (input/json.ts); only when a whole float is present is the text parsed a second way,
// with each such number swapped for a marked string that a reviver turns back into a JsonFloat.
import { scanJson } from '../input/json';
import { JsonFloat, needsMark } from './serde';

// Private-use characters: a marked number is a string starting with these two.
const MARK = '\uE000\uE001';

interface FloatToken {
  readonly start: number;
  readonly end: number;
}

/**
 * Number tokens written as floats (a `.` or an exponent) that JavaScript would write otherwise, found
 * by the core's one JSON scanner; undefined when the text is not JSON (JSON.parse then says why).
 */
function wholeFloats(text: string): FloatToken[] | undefined {
  const found: FloatToken[] = [];
  const problem = scanJson(text, Infinity, (start, end) => {
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 46 /* . */ || c === 101 /* e */ || c === 69 /* E */) {
        if (needsMark(Number(text.slice(start, end)))) found.push({ start, end });
        return;
      }
    }
  });
  return problem ? undefined : found;
}

/** JSON.parse, with whole floats kept as JsonFloat. Throws what JSON.parse throws. */
export function parseJsonKeepingFloats(text: string): unknown {
  const floats = wholeFloats(text);
  // Not JSON: JSON.parse throws its own error. A text that already holds the mark (raw or escaped) is
  // read plainly: its floats lose their `.0`.
  if (!floats || floats.length === 0 || text.includes(MARK.charAt(0)) || /\\u[eE]000/.test(text)) return JSON.parse(text);
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
