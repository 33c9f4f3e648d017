import { describe, expect, it } from 'vitest';
import { splitDescription } from './split-description';

describe('splitDescription (JP split_description)', () => {
  const rows: { why: string; text: string; summary: string }[] = [
    { why: 'a period then a space and an uppercase letter ends the sentence', text: 'List workflow runs. Paginated with a cursor.', summary: 'List workflow runs.' },
    { why: 'a period then a newline ends the sentence', text: 'Get a file.\nReturns its content.', summary: 'Get a file.' },
    { why: 'a period then a space and a lowercase letter does not', text: 'Uses e.g. a cursor. Then more.', summary: 'Uses e.g. a cursor.' },
    { why: 'an abbreviation before a digit does not', text: 'Version 1. 2 is next\nsecond line', summary: 'Version 1. 2 is next' },
    { why: 'a period inside a word does not', text: 'Reads config.toml and v1.2 files', summary: 'Reads config.toml and v1.2 files' },
    { why: 'no sentence end: the first line', text: 'First line without period\nSecond line.', summary: 'First line without period' },
    { why: 'no sentence end and one line: the whole text', text: 'Just one line', summary: 'Just one line' },
    { why: 'a final period alone is not followed by anything: the whole line', text: 'One sentence.', summary: 'One sentence.' },
    { why: 'two spaces then uppercase do not count (a space and then an uppercase letter)', text: 'A.  B c', summary: 'A.  B c' },
    { why: 'uppercase in other scripts counts', text: 'Über alles. Ärger folgt.', summary: 'Über alles.' },
    { why: 'the result is trimmed', text: '  Padded.\n  More.  ', summary: 'Padded.' },
    { why: 'CRLF: the first line without its carriage return', text: 'Windows line\r\nnext', summary: 'Windows line' },
    { why: 'empty text', text: '', summary: '' },
    { why: 'the sentence rule is tried first, across lines, before the first-line rule', text: 'Line one\nLine two. Three.', summary: 'Line one\nLine two.' },
  ];
  for (const row of rows) {
    it(row.why, () => {
      expect(splitDescription(row.text)).toBe(row.summary);
    });
  }
});
