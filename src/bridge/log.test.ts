// Secrets kept out of everything the bridge says: the one masker (every form of a secret, keys
// too, deep values without recursion, cut after masking), the log ring and the terminal.
import { describe, expect, it } from 'vitest';
import { LogRing, terminalOf } from './log';
import { environmentSecrets, formsOf, headerSecrets, Masker, urlSecrets } from './secrets';

const masker = (...values: string[]) => {
  const m = new Masker();
  m.registerAll(values);
  return m;
};

describe('Masker.mask', () => {
  const key = 'sk-"live\\key/9f8e 7d6c5b';
  it.each([
    ['a secret anywhere in the text', 'key=sk-123456 and again sk-123456', ['sk-123456'], 'key=*** and again ***'],
    ['the longest secret first, so no tail of it is left', 'Bearer abcd1234', ['abcd1234', 'Bearer abcd1234'], '***'],
    ['nothing shorter than 4 characters (it would mask common words)', 'a b c', ['a', 'bc'], 'a b c'],
    ['text without a secret unchanged', 'hello', ['sk-123456'], 'hello'],
    ['its JSON-escaped form (a " or \\ in it)', JSON.stringify({ v: key }), [key], '{"v":"***"}'],
    ['its URL-encoded form', `?k=${encodeURIComponent(key)}&x=1`, [key], '?k=***&x=1'],
    ['its form-encoded form (+ for a space)', `k=${encodeURIComponent(key).replace(/%20/gu, '+')}`, [key], 'k=***'],
  ])('masks %s', (_why, text, secrets, want) => {
    expect(masker(...secrets).mask(text)).toBe(want);
  });

  const pct = (t: string) => [...Buffer.from(t)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  it.each([
    ['lowercase percent-escapes (every byte)', pct(key)],
    ['lowercase percent-escapes (encodeURIComponent lowercased)', encodeURIComponent(key).toLowerCase()],
    ['hex', Buffer.from(key).toString('hex')],
    ['HEX', Buffer.from(key).toString('hex').toUpperCase()],
    ['\\u-escapes', [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['JSON inside JSON', JSON.stringify(JSON.stringify(key)).slice(3, -3)],
    ['JSON inside JSON inside JSON', JSON.stringify(JSON.stringify(JSON.stringify(key))).slice(7, -7)],
    ['PHP\'s escaped slash', JSON.stringify(key).slice(1, -1).replace(/\//gu, '\\/')],
  ])('masks its form in %s', (_why, form) => {
    expect(masker(key).mask(`<${form}>`)).toBe('<***>');
  });

  it('leaves JSON text valid: a secret ending in a backslash does not take the one that escapes a quote after it', () => {
    const m = masker('tail-secret\\');
    const text = JSON.stringify({ a: 'tail-secret\\"quoted"', b: JSON.stringify({ c: 'tail-secret\\' }) });
    expect(JSON.parse(m.mask(text))).toEqual({ a: '***"quoted"', b: '{"c":"***"}' });
  });

  it.each([0, 1, 2, 3, 4, 5])('masks its base64 form (standard and url-safe) %i bytes into a longer text', (offset) => {
    const m = masker(key);
    const bytes = Buffer.from(`${'x'.repeat(offset)}${key} and more`);
    for (const encoded of [bytes.toString('base64'), bytes.toString('base64url')]) {
      const out = m.mask(encoded);
      expect(out).toContain('***');
      // What is left decodes to no run of the secret longer than two characters.
      const left = Buffer.from(out.replace('***', ''), encoded.includes('-') || encoded.includes('_') ? 'base64url' : 'base64').toString('latin1');
      expect(left).not.toContain(key.slice(0, 3));
    }
  });

  it('lists the forms it masks: raw, JSON-escaped, URL-encoded and three base64 alignments in two alphabets', () => {
    expect(formsOf(key)).toEqual(expect.arrayContaining([key, 'sk-\\"live\\\\key/9f8e 7d6c5b', encodeURIComponent(key)]));
    expect(formsOf('short')).toEqual(['short']);
  });

  it('cuts after masking, so a secret across the cut leaves none of its characters', () => {
    const secret = 'sk-0123456789abcdef';
    const text = `${'a'.repeat(10)}${secret}`;
    expect(masker(secret).cut(text, 15)).toBe('aaaaaaaaaa***');
    // The cut comes after: what would have been cut mid-secret is whole ***.
    expect(masker(secret).cut(`${'a'.repeat(14)}${secret}tail`, 15)).toBe(`${'a'.repeat(14)}*… (21 characters)`);
  });
});

describe('Masker.maskDeep', () => {
  it('masks every string and key of a reply, keeping its shape and its other values', () => {
    const reply = { content: [{ type: 'text', text: 'you sent Bearer tok-98765' }], structuredContent: { 'tok-98765': 1, n: 3, ok: true, none: null } };
    expect(masker('tok-98765').maskDeep(reply)).toEqual({ content: [{ type: 'text', text: 'you sent Bearer ***' }], structuredContent: { '***': 1, n: 3, ok: true, none: null } });
  });

  it('keeps a key called __proto__ as a field, never as the prototype', () => {
    const v = JSON.parse('{"__proto__": {"polluted": "tok-98765"}}') as Record<string, unknown>;
    const out = masker('tok-98765').maskDeep(v);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"***"}}');
  });

  it('masks a value nested 20,000 deep without overflowing the stack', () => {
    let v: unknown = 'tok-98765';
    for (let i = 0; i < 20_000; i++) v = { a: [v] };
    let out = masker('tok-98765').maskDeep(v);
    for (let i = 0; i < 20_000; i++) out = (out as { a: unknown[] }).a[0];
    expect(out).toBe('***');
  });

  it('gives the value back untouched when there is no secret to mask', () => {
    const v = { a: ['x'] };
    expect(new Masker().maskDeep(v)).toBe(v);
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

describe('environmentSecrets and urlSecrets', () => {
  it('takes the values of variables named as credentials, long enough to be one', () => {
    const env = { GITHUB_TOKEN: 'ghp_0123456789', AWS_SECRET_ACCESS_KEY: 'abcdefgh12345678', OPENAI_API_KEY: 'sk-12345678', DB_PASSWORD: 'hunter2hunter2', USE_TOKEN: 'true', HOME: '/home/someone', PATH: '/usr/bin', TOKENIZER: 'bpe-tokenizer', MONKEY: 'banana-banana' };
    expect(environmentSecrets(env).sort()).toEqual(['abcdefgh12345678', 'ghp_0123456789', 'hunter2hunter2', 'sk-12345678']);
  });

  it("takes a URL's password and its credential query parameters, raw and decoded", () => {
    expect(urlSecrets('http://u:p%40ss-word@h/mcp?api_key=k%2F123&x=1&sig=abc')).toEqual(expect.arrayContaining(['p%40ss-word', 'p@ss-word', 'k%2F123', 'k/123', 'abc']));
    expect(urlSecrets('http://h/mcp?x=1')).toEqual([]);
    expect(urlSecrets('not a url')).toEqual([]);
  });
});

describe('LogRing and the terminal', () => {
  it('keeps the newest entries, however many came', () => {
    const ring = new LogRing(new Masker(), 3, () => 7);
    for (let i = 1; i <= 10; i++) ring.add(i % 2 === 0 ? 'stderr' : 'notification', `line ${i}`);
    expect(ring.since(0).map((e) => e.text)).toEqual(['line 8', 'line 9', 'line 10']);
    expect(ring.since(9).map((e) => e.seq)).toEqual([10]);
    expect(ring.stderrTail()).toEqual(['line 8', 'line 10']);
    expect(ring.last).toBe(10);
  });

  it('masks each entry before it is cut and kept', () => {
    const ring = new LogRing(masker('tok-98765'), 2, () => 7);
    ring.add('response', '{"echo":"tok-98765"}');
    expect(ring.since(0)).toEqual([{ seq: 1, at: 7, stream: 'response', text: '{"echo":"***"}' }]);
    ring.add('stderr', 'one');
    ring.add('stderr', 'two');
    // The newest two are kept.
    expect(ring.since(0).map((e) => e.seq)).toEqual([2, 3]);
    expect(ring.since(2).map((e) => e.text)).toEqual(['two']);
    // A secret straddling the 4,000-character cut: masked first, so none of it is left.
    ring.add('stderr', `${'x'.repeat(3995)}tok-98765`);
    expect(ring.since(3)[0]?.text).toBe(`${'x'.repeat(3995)}***`);
  });

  it('escapes control, bidi and invisible characters on the terminal, keeping tabs, after masking', () => {
    const lines: string[] = [];
    const t = terminalOf((s) => lines.push(s), masker('tok-98765'));
    t.line('a\u001b[2Jb\nc\td \u202Eevil\u202C tok-98765 zero\u200Bwidth');
    expect(lines).toEqual(['a\\u001B[2Jb\\u000Ac\td \\u202Eevil\\u202C *** zero\\u200Bwidth\n']);
  });
});
