import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteShellWord, splitShellWords, wordSubspan } from './shell';

function words(line: string): string[] {
  const r = splitShellWords(line);
  if (!r.ok) throw new Error(`split failed: ${r.error.message}`);
  return r.words.map((w) => w.value);
}

describe('splitShellWords', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['   \t\n ', []],
    ['jp q hello', ['jp', 'q', 'hello']],
    ['  jp   q\thello\n', ['jp', 'q', 'hello']],
    ["jp q 'Deploy main to staging'", ['jp', 'q', 'Deploy main to staging']],
    ['jp q "Deploy main"', ['jp', 'q', 'Deploy main']],
    ["''", ['']],
    ['""', ['']],
    ["a '' b", ['a', '', 'b']],
    ["conversation.tools.'*'.enable=on", ['conversation.tools.*.enable=on']],
    [`a'b'"c"d`, ['abcd']],
    [`"it's"`, ["it's"]],
    [`'say "hi"'`, ['say "hi"']],
    [String.raw`"a\"b"`, ['a"b']],
    [String.raw`"a\\b"`, ['a\\b']],
    [String.raw`"\$HOME"`, ['$HOME']],
    [String.raw`"\`x\`"`, ['`x`']],
    [String.raw`"a\nb"`, ['a\\nb']],
    [String.raw`"a\'b"`, ["a\\'b"]],
    ['"a\\\nb"', ['ab']],
    ['"line1\nline2"', ['line1\nline2']],
    [String.raw`a\ b`, ['a b']],
    [String.raw`a\'b`, ["a'b"]],
    [String.raw`a\\b`, ['a\\b']],
    [String.raw`\"`, ['"']],
    ['a\\\nb', ['ab']],
    ['a \\\n b', ['a', 'b']],
    ['trailing\\', ['trailing\\']],
    [String.raw`'a\b'`, ['a\\b']],
    ["'it'\\''s'", ["it's"]],
    ['$HOME *.ts ~ a#b', ['$HOME', '*.ts', '~', 'a#b']],
    ['"#" \\# \'#\'', ['#', '#', '#']],
  ])('%j', (line, expected) => {
    expect(words(line)).toEqual(expected);
  });

  it('keeps each word’s source span, quotes included', () => {
    const r = splitShellWords(`jp q  'a b'"c"`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.words.map((w) => w.span)).toEqual([
      { start: 0, end: 2 },
      { start: 3, end: 4 },
      { start: 6, end: 14 },
    ]);
    const w = r.words[2];
    expect(w?.value).toBe('a bc');
    if (w === undefined) return;
    expect(wordSubspan(w, 0, 4)).toEqual({ start: 6, end: 14 });
    expect(wordSubspan(w, 1, 2)).toEqual({ start: 8, end: 9 });
    expect(wordSubspan(w, 3, 4)).toEqual({ start: 6 + 6, end: 14 });
  });

  it('maps escaped characters to their two source characters', () => {
    const r = splitShellWords(String.raw`"a\"b"`);
    if (!r.ok) throw new Error('split failed');
    const w = r.words[0];
    if (w === undefined) throw new Error('no word');
    expect(wordSubspan(w, 1, 2)).toEqual({ start: 2, end: 4 });
  });

  it.each<[string, string, number, number]>([
    ["jp q 'unterminated", 'unterminated single quote', 6, 19],
    ['jp q "open', 'unterminated double quote', 6, 11],
    [String.raw`jp q "ends with escape\"`, 'unterminated double quote', 6, 25],
    ["jp q it's", 'unterminated single quote', 8, 10],
    ['jp q a; rm', 'unquoted `;`', 7, 8],
    ['jp q a | b', 'unquoted `|`', 8, 9],
    ['jp q (x)', 'unquoted `(`', 6, 7],
    ['jp q a > out', 'unquoted `>`', 8, 9],
    ['jp q fix #12', 'shell comment', 10, 11],
  ])('rejects %j', (line, message, column, endColumn) => {
    const r = splitShellWords(line);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain(message);
    expect(r.error.column).toBe(column);
    expect(r.error.endColumn).toBe(endColumn);
  });

  it('never throws, and every word span lies inside the line', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\n', "'", '"', '\\', '$', '`', '#', '|', '*', 'é') }), (line) => {
        const r = splitShellWords(line);
        if (!r.ok) {
          expect(r.error.column).toBeGreaterThanOrEqual(1);
          expect(r.error.endColumn).toBeGreaterThan(r.error.column);
          return;
        }
        let prev = 0;
        for (const w of r.words) {
          expect(w.span.start).toBeGreaterThanOrEqual(prev);
          expect(w.span.end).toBeLessThanOrEqual(line.length);
          expect(w.charStarts).toHaveLength(w.value.length);
          prev = w.span.end;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('quoteShellWord', () => {
  it.each<[string, string]>([
    ['plain', 'plain'],
    ['a.b=c:d,e/f-g+h@i%', 'a.b=c:d,e/f-g+h@i%'],
    ['', "''"],
    ['two words', "'two words'"],
    ['*', "'*'"],
    ["it's", `"it's"`],
    ["it's $5", `'it'\\''s $5'`],
    ['{"a":1}', `'{"a":1}'`],
  ])('%j → %s', (word, quoted) => {
    expect(quoteShellWord(word)).toBe(quoted);
  });

  it('round-trips any string through splitShellWords', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (a, b) => {
        for (const s of [a, b]) {
          const r = splitShellWords(quoteShellWord(s));
          expect(r.ok && r.words.map((w) => w.value)).toEqual([s]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
