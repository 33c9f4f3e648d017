// A strict JSON (RFC 8259) validator that reports where the text goes wrong, as an offset, so a
// `--cfg KEY:=JSON` error can point at the exact column whatever the host's JSON.parse message says.

export type JsonCheck = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly offset: number };

const MAX_DEPTH = 256;

class JsonSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

export function checkJson(text: string): JsonCheck {
  let i = 0;
  const n = text.length;

  const describe = (at: number): string => (at >= n ? 'end of input' : `\`${text.charAt(at)}\``);
  const unexpected = (expected: string): never => {
    throw new JsonSyntaxError(`expected ${expected}, found ${describe(i)}`, i);
  };
  const skipWs = (): void => {
    while (i < n) {
      const c = text.charAt(i);
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') break;
      i += 1;
    }
  };
  const isDigit = (c: string): boolean => c >= '0' && c <= '9';
  const isHex = (c: string): boolean => isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');

  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k += 1) {
      if (text.charAt(i) !== word.charAt(k)) unexpected(`\`${word}\``);
      i += 1;
    }
  };

  const string = (): void => {
    i += 1; // opening quote
    for (;;) {
      if (i >= n) throw new JsonSyntaxError('unterminated string', i);
      const c = text.charAt(i);
      if (c === '"') {
        i += 1;
        return;
      }
      if (c === '\\') {
        const e = text.charAt(i + 1);
        if (e === 'u') {
          for (let k = 2; k < 6; k += 1) {
            if (!isHex(text.charAt(i + k))) throw new JsonSyntaxError('invalid \\u escape: expected 4 hex digits', i);
          }
          i += 6;
        } else if ('"\\/bfnrt'.includes(e) && e !== '') {
          i += 2;
        } else {
          throw new JsonSyntaxError(`invalid escape \`\\${e}\` in string`, i);
        }
        continue;
      }
      if (c.charCodeAt(0) < 0x20) throw new JsonSyntaxError('control character in string (escape it)', i);
      i += 1;
    }
  };

  const number = (): void => {
    if (text.charAt(i) === '-') i += 1;
    if (text.charAt(i) === '0') {
      i += 1;
    } else if (isDigit(text.charAt(i)) && text.charAt(i) !== '0') {
      while (isDigit(text.charAt(i))) i += 1;
    } else {
      unexpected('a digit');
    }
    if (text.charAt(i) === '.') {
      i += 1;
      if (!isDigit(text.charAt(i))) unexpected('a digit after `.`');
      while (isDigit(text.charAt(i))) i += 1;
    }
    if (text.charAt(i) === 'e' || text.charAt(i) === 'E') {
      i += 1;
      if (text.charAt(i) === '+' || text.charAt(i) === '-') i += 1;
      if (!isDigit(text.charAt(i))) unexpected('a digit in the exponent');
      while (isDigit(text.charAt(i))) i += 1;
    }
  };

  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(`nested deeper than ${MAX_DEPTH} levels`, i);
    skipWs();
    const c = text.charAt(i);
    if (c === '{') {
      i += 1;
      skipWs();
      if (text.charAt(i) === '}') {
        i += 1;
        return;
      }
      for (;;) {
        skipWs();
        if (text.charAt(i) !== '"') unexpected('a string key');
        string();
        skipWs();
        if (text.charAt(i) !== ':') unexpected('`:`');
        i += 1;
        value(depth + 1);
        skipWs();
        if (text.charAt(i) === ',') {
          i += 1;
          continue;
        }
        if (text.charAt(i) === '}') {
          i += 1;
          return;
        }
        unexpected('`,` or `}`');
      }
    }
    if (c === '[') {
      i += 1;
      skipWs();
      if (text.charAt(i) === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value(depth + 1);
        skipWs();
        if (text.charAt(i) === ',') {
          i += 1;
          continue;
        }
        if (text.charAt(i) === ']') {
          i += 1;
          return;
        }
        unexpected('`,` or `]`');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || isDigit(c)) return number();
    unexpected('a JSON value');
  };

  try {
    value(0);
    skipWs();
    if (i < n) unexpected('end of input');
    return { ok: true };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false, message: e.message, offset: e.offset };
    throw e;
  }
}
