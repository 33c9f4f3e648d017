// Hidden characters in what the user confirms: each kind escaped, named, and split out for a view.
import { describe, expect, it } from 'vitest';
import { describeHidden, escapeHidden, hiddenIn, hiddenParts } from './hidden';

describe('escapeHidden and hiddenIn', () => {
  it.each([
    ['a bidi override (Trojan Source)', 'a\u202Eb', 'a\\u202Eb', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['isolates', '\u2066x\u2069', '\\u2066x\\u2069', 'U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP DIRECTIONAL ISOLATE'],
    ['a zero-width space in a command', 'node\u200B', 'node\\u200B', 'U+200B ZERO WIDTH SPACE'],
    ['a zero-width joiner', 'a\u200Db', 'a\\u200Db', 'U+200D ZERO WIDTH JOINER'],
    ['a byte-order mark', '\uFEFFx', '\\uFEFFx', 'U+FEFF ZERO WIDTH NO-BREAK SPACE'],
    ['an escape (terminal control)', 'a\u001b[2J', 'a\\u001B[2J', 'U+001B ESCAPE'],
    ['a newline', 'a\nb', 'a\\u000Ab', 'U+000A LINE FEED'],
    ['a no-break space that looks like a space', 'a\u00A0b', 'a\\u00A0b', 'U+00A0 NO-BREAK SPACE'],
    ['a soft hyphen', 'a\u00ADb', 'a\\u00ADb', 'U+00AD SOFT HYPHEN'],
    ['a Unicode tag character', 'a\u{E0041}', 'a\\u{E0041}', 'U+E0041 TAG character'],
    ['a variation selector', 'a\uFE0F', 'a\\uFE0F', 'U+FE0F VARIATION SELECTOR'],
    ['a Hangul filler', 'a\u3164b', 'a\\u3164b', 'U+3164 HANGUL FILLER'],
    ['the line separator', 'a\u2028b', 'a\\u2028b', 'U+2028 LINE SEPARATOR'],
  ])('escapes and names %s', (_why, text, escaped, named) => {
    expect(escapeHidden(text)).toBe(escaped);
    expect(describeHidden(hiddenIn(text))).toBe(named);
  });

  it.each([['plain ASCII with spaces', '/usr/bin/node server.js --port 3000'], ['accents and other scripts', 'café データ שלום'], ['emoji', 'run 🚀']])('leaves %s alone', (_why, text) => {
    expect(escapeHidden(text)).toBe(text);
    expect(hiddenIn(text)).toEqual([]);
  });

  it('keeps what it is told to keep (a tab on the terminal)', () => {
    expect(escapeHidden('a\tb\u202E', '\t')).toBe('a\tb\\u202E');
  });

  it('splits text into plain runs and marked escapes, in order', () => {
    expect(hiddenParts('a\u202Eb')).toEqual([{ text: 'a' }, { text: '\\u202E', hidden: { code: 'U+202E', name: 'RIGHT-TO-LEFT OVERRIDE' } }, { text: 'b' }]);
  });
});
