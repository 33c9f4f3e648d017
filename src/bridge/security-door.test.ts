// The bridge's door as a function (security.ts), table-driven over hostile values, without starting a
// bridge: Host, Origin, the Origin rule for POST and DELETE, the bearer token, the one-time code and
// its sessions. security.test.ts checks the same rules against a running `tool-workbench serve`.
import { describe, expect, it } from 'vitest';
import { EXCHANGE_PATH, newSecret, refusal, sameSecret, Sessions } from './security';
import type { RequestFacts } from './security';

const PORT = 4173;
const OWN = `http://127.0.0.1:${PORT}`;

function door(now = 1000) {
  const sessions = new Sessions(() => now);
  const code = sessions.newCode();
  const made = sessions.exchange(code, 'Firefox');
  if (!made) throw new Error('the code did not exchange');
  return { sessions, token: made.token, session: made.session };
}

const facts = (more: Partial<RequestFacts>): RequestFacts => ({ method: 'GET', path: '/bridge/info', host: `127.0.0.1:${PORT}`, origin: OWN, authorization: undefined, ...more });

describe('Host', () => {
  const { sessions, token } = door();
  const auth = `Bearer ${token}`;

  it.each([`127.0.0.1:${PORT}`, `localhost:${PORT}`])('accepts %s', (host) => {
    expect(refusal(facts({ host, origin: `http://${host}`, authorization: auth }), sessions, PORT)).toHaveProperty('session');
  });

  it.each([
    ['a trailing dot', `127.0.0.1.:${PORT}`],
    ['a trailing dot on the name', `localhost.:${PORT}`],
    ['IPv6 loopback', `[::1]:${PORT}`],
    ['a nip.io-style name', `127.0.0.1.nip.io:${PORT}`],
    ['a rebound name', `evil.example:${PORT}`],
    ['a missing port', '127.0.0.1'],
    ['a missing port (name)', 'localhost'],
    ['another port sharing a prefix', `127.0.0.1:${PORT}0`],
    ['a port that is a prefix', `127.0.0.1:${String(PORT).slice(0, 3)}`],
    ['a suffix after the port', `127.0.0.1:${PORT}.evil.example`],
    ['a prefix before the address', `x127.0.0.1:${PORT}`],
    ['upper case', `LOCALHOST:${PORT}`],
    ['empty', ''],
  ])('refuses %s with 403, naming the Host it got and the two it answers', (_what, host) => {
    expect(refusal(facts({ host, origin: undefined, authorization: auth }), sessions, PORT)).toEqual({
      status: 403,
      message: `Host ${JSON.stringify(host)} refused: the bridge answers only 127.0.0.1:${PORT} and localhost:${PORT}`,
    });
  });

  it('refuses a request with no Host at all, for the app\'s files too', () => {
    expect(refusal(facts({ host: undefined, path: '/', origin: undefined }), sessions, PORT)).toEqual({ status: 403, message: `Host "" refused: the bridge answers only 127.0.0.1:${PORT} and localhost:${PORT}` });
  });
});

describe('Origin', () => {
  const { sessions, token } = door();
  const auth = `Bearer ${token}`;

  it.each([
    ['a suffix after the port', `${OWN}.evil.example`],
    ['a longer port', `${OWN}0`],
    ['a shorter port', OWN.slice(0, -1)],
    ['another scheme', `https://127.0.0.1:${PORT}`],
    ['null (a sandboxed frame or a file)', 'null'],
    ['the other name of the bridge', `http://localhost:${PORT}`],
    ['upper-case scheme', `HTTP://127.0.0.1:${PORT}`],
    ['a trailing slash', `${OWN}/`],
    ['a prefix before it', `x${OWN}`],
    ['another site', 'http://evil.example'],
    ['empty', ''],
  ])('refuses %s with 403, on GET and POST, with the token, for the app\'s files too', (_what, origin) => {
    const expected = { status: 403, message: `Origin ${JSON.stringify(origin)} refused: only ${OWN} may use the bridge` };
    expect(refusal(facts({ origin, authorization: auth }), sessions, PORT)).toEqual(expected);
    expect(refusal(facts({ origin, method: 'POST', authorization: auth }), sessions, PORT)).toEqual(expected);
    expect(refusal(facts({ origin, path: '/index.html' }), sessions, PORT)).toEqual(expected);
  });

  it('the own origin is the Host\'s: localhost:PORT pairs with http://localhost:PORT', () => {
    expect(refusal(facts({ host: `localhost:${PORT}`, origin: `http://localhost:${PORT}`, authorization: auth }), sessions, PORT)).toHaveProperty('session');
    expect(refusal(facts({ host: `localhost:${PORT}`, origin: OWN, authorization: auth }), sessions, PORT)).toMatchObject({ status: 403 });
  });

  it.each(['POST', 'DELETE', 'PUT', 'PATCH'])('a %s under /bridge/ without an Origin is refused (403), even with the token', (method) => {
    expect(refusal(facts({ method, origin: undefined, authorization: auth }), sessions, PORT)).toEqual({ status: 403, message: `a ${method} without an Origin header is refused (the page always sends one)` });
  });

  it.each(['GET', 'HEAD'])('a %s under /bridge/ without an Origin rests on the token', (method) => {
    expect(refusal(facts({ method, origin: undefined, authorization: auth }), sessions, PORT)).toHaveProperty('session');
    expect(refusal(facts({ method, origin: undefined }), sessions, PORT)).toMatchObject({ status: 401 });
  });
});

describe('the paths', () => {
  const { sessions } = door();

  it.each(['/', '/index.html', '/assets/app.js', '/bridge', '/bridgework/x'])('the app\'s file %s needs no token, and no Origin on a POST', (path) => {
    expect(refusal(facts({ path, origin: undefined }), sessions, PORT)).toEqual({});
    expect(refusal(facts({ path, method: 'POST', origin: undefined }), sessions, PORT)).toEqual({});
  });

  it('the exchange is the one /bridge/ route without a token, and only as a POST with the Origin', () => {
    expect(EXCHANGE_PATH).toBe('/bridge/session');
    expect(refusal(facts({ path: EXCHANGE_PATH, method: 'POST' }), sessions, PORT)).toEqual({});
    expect(refusal(facts({ path: EXCHANGE_PATH, method: 'POST', origin: undefined }), sessions, PORT)).toMatchObject({ status: 403 });
    expect(refusal(facts({ path: EXCHANGE_PATH, method: 'GET' }), sessions, PORT)).toMatchObject({ status: 401 });
    expect(refusal(facts({ path: `${EXCHANGE_PATH}/x`, method: 'POST' }), sessions, PORT)).toMatchObject({ status: 401 });
  });
});

describe('the bearer token', () => {
  const { sessions, token, session } = door();
  const unauthorised = { status: 401, message: 'the bridge needs a session: open the address `tool-workbench serve` printed (it ends in #code=...); press Enter in its terminal for a new one' };

  it('the session\'s own token opens it', () => {
    expect(refusal(facts({ authorization: `Bearer ${token}` }), sessions, PORT)).toEqual({ session });
  });

  it.each([
    ['no header', undefined],
    ['empty', ''],
    ['Bearer and nothing', 'Bearer '],
    ['the bare word Bearer', 'Bearer'],
    ['a one-character guess', `Bearer ${token.slice(0, 1)}`],
    ['a prefix', `Bearer ${token.slice(0, -1)}`],
    ['an extension', `Bearer ${token}x`],
    ['the token twice', `Bearer ${token}${token}`],
    ['the token without Bearer', token],
    ['lower-case bearer', `bearer ${token}`],
    ['two spaces', `Bearer  ${token}`],
    ['a trailing space', `Bearer ${token} `],
    ['Basic', `Basic ${token}`],
    ['standard base64 of the same bytes', `Bearer ${Buffer.from(token, 'base64url').toString('base64')}`],
    ['percent-encoded', `Bearer ${[...token].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['another secret', `Bearer ${newSecret()}`],
  ])('%s is refused with 401 and how to get a session', (_what, authorization) => {
    expect(refusal(facts({ authorization }), sessions, PORT)).toEqual(unauthorised);
  });
});

describe('the one-time code and its sessions', () => {
  it('a code is spent by its exchange; a wrong code, or one replaced by a newer one, opens nothing', () => {
    let now = 5000;
    const sessions = new Sessions(() => now);
    expect(sessions.exchange('anything', 'ua')).toBeUndefined();
    const first = sessions.newCode();
    const second = sessions.newCode();
    expect(second).not.toBe(first);
    expect(sessions.exchange(first, 'ua')).toBeUndefined();
    expect(sessions.exchange(second.slice(0, -1), 'ua')).toBeUndefined();
    expect(sessions.exchange(`${second}x`, 'ua')).toBeUndefined();
    const a = sessions.exchange(second, 'x'.repeat(200));
    expect(a?.session).toEqual({ n: 1, since: 5000, userAgent: 'x'.repeat(120) });
    expect(sessions.exchange(second, 'ua')).toBeUndefined();
    now = 9000;
    const b = sessions.exchange(sessions.newCode(), 'Chromium');
    expect(b?.session).toEqual({ n: 2, since: 9000, userAgent: 'Chromium' });
    expect(b?.token).not.toBe(a?.token);
    // Each token opens its own session, and only its own.
    expect(sessions.of(a?.token ?? '')).toBe(a?.session);
    expect(sessions.of(b?.token ?? '')).toBe(b?.session);
    expect(sessions.of('')).toBeUndefined();
  });

  it('its secrets, for masking: the unspent code and every token; a spent code is no longer one', () => {
    const sessions = new Sessions(() => 0);
    expect(sessions.secrets()).toEqual([]);
    const code = sessions.newCode();
    expect(sessions.secrets()).toEqual([code]);
    const made = sessions.exchange(code, 'ua');
    expect(sessions.secrets()).toEqual([made?.token]);
    const next = sessions.newCode();
    expect(sessions.secrets()).toEqual([next, made?.token]);
  });
});

describe('the secrets themselves', () => {
  it('256 random bits in base64url, a new one each time', () => {
    const a = newSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });

  it('sameSecret: equal only when equal; a prefix, an extension or another length is not', () => {
    const s = newSecret();
    expect(sameSecret(s, s)).toBe(true);
    expect(sameSecret(`${s}`, s.slice(0))).toBe(true);
    expect(sameSecret(s.slice(0, -1), s)).toBe(false);
    expect(sameSecret(`${s}x`, s)).toBe(false);
    expect(sameSecret('', s)).toBe(false);
    expect(sameSecret(s, '')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });
});
