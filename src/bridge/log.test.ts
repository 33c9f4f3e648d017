// Secrets kept out of what the page sees: the masks the bridge applies to its logs, its terminal
// and every reply it forwards from a server.
import { describe, expect, it } from 'vitest';
import { escapeControl, headerSecrets, LogRing, mask, maskDeep } from './log';

describe('mask', () => {
  it.each([
    ['a secret anywhere in the text', 'key=sk-123456 and again sk-123456', ['sk-123456'], 'key=*** and again ***'],
    ['the longest secret first, so no tail of it is left', 'Bearer abcd1234', ['abcd1234', 'Bearer abcd1234'], '***'],
    ['nothing shorter than 4 characters (it would mask common words)', 'a b c', ['a', 'bc'], 'a b c'],
    ['text without a secret unchanged', 'hello', ['sk-123456'], 'hello'],
  ])('masks %s', (_why, text, secrets, want) => {
    expect(mask(text, secrets)).toBe(want);
  });
});

describe('maskDeep', () => {
  it('masks every string and key of a reply, keeping its shape and its other values', () => {
    const reply = { content: [{ type: 'text', text: 'you sent Bearer tok-98765' }], structuredContent: { 'tok-98765': 1, n: 3, ok: true, none: null } };
    expect(maskDeep(reply, ['tok-98765'])).toEqual({ content: [{ type: 'text', text: 'you sent Bearer ***' }], structuredContent: { '***': 1, n: 3, ok: true, none: null } });
  });

  it('keeps a key called __proto__ as a field, never as the prototype', () => {
    const v = JSON.parse('{"__proto__": {"polluted": "tok-98765"}}') as Record<string, unknown>;
    const out = maskDeep(v, ['tok-98765']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"***"}}');
  });

  it('gives the value back untouched when there is no secret to mask', () => {
    const v = { a: ['x'] };
    expect(maskDeep(v, [])).toBe(v);
  });
});

describe('headerSecrets', () => {
  it.each([
    ['a bearer token: the value and the token alone', { Authorization: 'Bearer tok-98765' }, ['Bearer tok-98765', 'tok-98765']],
    ['an API key header: its value', { 'X-Api-Key': 'k-1234567' }, ['k-1234567']],
    ['a scheme with a token68 credential', { Authorization: 'Basic dXNlcjpwYXNz' }, ['Basic dXNlcjpwYXNz', 'dXNlcjpwYXNz']],
  ])('%s', (_why, headers, want) => {
    expect(headerSecrets(headers)).toEqual(want);
  });
});

describe('LogRing and escapeControl', () => {
  it('masks each entry as it is added, and escapes control characters for the terminal', () => {
    const ring = new LogRing(() => ['tok-98765'], 2, () => 7);
    ring.add('response', '{"echo":"tok-98765"}');
    expect(ring.since(0)).toEqual([{ seq: 1, at: 7, stream: 'response', text: '{"echo":"***"}' }]);
    ring.add('stderr', 'one');
    ring.add('stderr', 'two');
    // The newest two are kept.
    expect(ring.since(0).map((e) => e.seq)).toEqual([2, 3]);
    expect(ring.since(2).map((e) => e.text)).toEqual(['two']);
    expect(escapeControl('a\u001b[2Jb\nc\td')).toBe('a\\u001b[2Jb\\u000ac\td');
  });
});
