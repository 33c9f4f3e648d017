// Issue 33, "The key stays with its provider": against fake providers on loopback, a redirect never
// carries a key to another origin; credentials written in a base URL are masked wherever the base URL
// is said, and a base URL with a query string still builds a valid request; a reply is read only up to
// its cap; the model named on the command line or by the page is the one sent.
import { afterEach, describe, expect, it } from 'vitest';
import { providerOf } from '../core/providers/registry';
import type { ProviderId } from '../core/providers/types';
import { range, replyBody, startFakeProvider } from '../../e2e/fakeProvider';
import type { FakeProvider } from '../../e2e/fakeProvider';
import { MAX_REPLY_BYTES, ModelKeys, sendToModel } from './models';
import { Masker } from './secrets';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const fakes: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes.length = 0;
});

async function fake(...args: Parameters<typeof startFakeProvider>): Promise<FakeProvider> {
  const f = await startFakeProvider(...args);
  fakes.push(f);
  return f;
}

function envFor(p: ProviderId, url: string): Record<string, string> {
  const wire = providerOf(p).reply;
  const base = wire.defaultBase.replace(/^https?:\/\/[^/]+/u, url);
  return { [wire.baseVariable]: base, ...(wire.keyVariable !== undefined ? { [wire.keyVariable]: KEY } : {}) };
}

const BODY = { messages: [{ role: 'user', content: 'Deploy main' }] };
const noWait = { sleep: () => Promise.resolve() };

describe('a redirect never carries the key to another origin', () => {
  const ROWS: readonly (readonly [ProviderId, string, number])[] = (['anthropic', 'google', 'openai'] as const).flatMap((p) => [307, 308, 302].map((status) => [p, providerOf(p).reply.keyHeader, status] as const));
  it.each(ROWS)('%s (%s) answering %i to another port: nothing reaches it, the error names the target', async (p, _header, status) => {
    const other = await fake(() => ({ kind: 'reply', text: 'stolen' }));
    const target = `${other.url}/steal${providerOf(p).reply.request('m', {}).path}`;
    const first = await fake(() => ({ kind: 'status', status, body: {}, headers: { location: target } }));
    expect(other.port).not.toBe(first.port);
    const masker = new Masker();
    const sent = await sendToModel(p, 'm', BODY, new ModelKeys(envFor(p, first.url), masker), masker, noWait);
    expect(first.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
    expect(sent.reply).toBeUndefined();
    expect(sent.error).toContain(`redirected the request (${status}) to ${target}`);
    expect(sent.error).toContain('another origin');
  });

  it('a redirect within the same origin (307) is followed with the same method and body', async () => {
    const f = await fake((r) => (r.path === '/v1/messages' ? { kind: 'status', status: 307, body: {}, headers: { location: '/moved/v1/messages' } } : { kind: 'reply', text: 'here' }));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys(envFor('anthropic', f.url), masker), masker, noWait);
    expect(sent.reply?.text).toBe('here');
    expect(f.received.map((r) => r.path)).toEqual(['/v1/messages', '/moved/v1/messages']);
    expect(f.received[1]?.body).toMatchObject(BODY);
  });

  it('a redirect to the same origin that would turn the POST into a GET (302) is not followed', async () => {
    const f = await fake(() => ({ kind: 'status', status: 302, body: {}, headers: { location: '/elsewhere/v1/messages' } }));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys(envFor('anthropic', f.url), masker), masker, noWait);
    expect(f.received).toHaveLength(1);
    expect(sent.error).toContain(`redirected the request (302) to ${f.url}/elsewhere/v1/messages`);
  });
});

describe('credentials written in a base URL', () => {
  const PASS = 'base-pass-77889900';
  const QKEY = 'query-key-aabbccdd';

  it('are masked where the base URL is said: the provider list and an error', async () => {
    const masker = new Masker();
    const keys = new ModelKeys({ OLLAMA_HOST: `http://jp:${PASS}@127.0.0.1:1/?api-key=${QKEY}&x=1` }, masker);
    const base = keys.status().find((s) => s.provider === 'ollama')?.base;
    expect(base).toBe('http://***:***@127.0.0.1:1/?api-key=***&x=1');
    const sent = await sendToModel('ollama', 'm', BODY, keys, masker);
    expect(sent.error).toContain('could not reach Ollama at http://***:***@127.0.0.1:1/?api-key=***&x=1');
    for (const secret of [PASS, QKEY]) {
      expect(JSON.stringify(sent)).not.toContain(secret);
      // Registered with the masker, so a terminal line or a provider's echo loses them too.
      expect(masker.mask(`echo ${secret}`)).toBe('echo ***');
    }
  });

  it('a short password is masked in the list all the same (the masker ignores short values)', () => {
    const keys = new ModelKeys({ ANTHROPIC_BASE_URL: 'https://u:pw@proxy.example/anthropic' }, new Masker());
    expect(keys.status().find((s) => s.provider === 'anthropic')?.base).toBe('https://***:***@proxy.example/anthropic');
  });

  it('a base URL with a query string keeps its query after the request path', async () => {
    // The fake tells the wire format by the path's end, which the query hides: it answers as Responses.
    const f = await fake(() => ({ kind: 'raw', status: 200, text: JSON.stringify(replyBody('responses', { kind: 'reply', text: 'ok' })) }));
    const masker = new Masker();
    const sent = await sendToModel('openai', 'm', BODY, new ModelKeys({ OPENAI_BASE_URL: `${f.url}/v1?api-key=${QKEY}`, OPENAI_API_KEY: KEY }, masker), masker);
    expect(sent.error).toBeUndefined();
    expect(f.received[0]?.path).toBe(`/v1/responses?api-key=${QKEY}`);
  });

  it('user:pass@ goes as Basic authorization where the key does not take that header; the URL sent has none', async () => {
    const f = await fake(() => ({ kind: 'reply', text: 'ok' }));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys({ ANTHROPIC_BASE_URL: f.url.replace('://', `://jp:${PASS}@`), ANTHROPIC_API_KEY: KEY }, masker), masker);
    expect(sent.error).toBeUndefined();
    expect(f.received[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`jp:${PASS}`).toString('base64')}`);
    expect(f.received[0]?.headers['x-api-key']).toBe(KEY);
  });

  it('user:pass@ with a key that takes the Authorization header: refused before sending, masked', async () => {
    const f = await fake(() => ({ kind: 'reply', text: 'ok' }));
    const masker = new Masker();
    const sent = await sendToModel('openai', 'm', BODY, new ModelKeys({ OPENAI_BASE_URL: `${f.url.replace('://', `://jp:${PASS}@`)}/v1`, OPENAI_API_KEY: KEY }, masker), masker);
    expect(f.received).toHaveLength(0);
    expect(sent.error).toContain('OPENAI_BASE_URL carries a user name and password');
    expect(JSON.stringify(sent)).not.toContain(PASS);
  });
});

describe('a reply is capped', () => {
  it('states the cap and its reason', () => {
    expect(MAX_REPLY_BYTES).toBe(16 * 1024 * 1024);
  });

  const BIG = { content: [{ type: 'text', text: 'x'.repeat(50_000) }] };
  it.each([
    // The fake's raw reply goes chunked, with no length: the cap is met while reading.
    ['streamed past the cap', { kind: 'raw', status: 200, text: JSON.stringify(BIG) }],
    ['with a Content-Length over the cap', { kind: 'status', status: 200, body: BIG, headers: { 'content-length': String(Buffer.byteLength(JSON.stringify(BIG))) } }],
  ] as const)('%s: an error naming the cap, not the reply held in memory', async (_what, script) => {
    // Its own ports: after an aborted reply, node's fetch keeps state for the origin that fails a later
    // request to a new server on the same port ("other side closed"); the same server is unaffected.
    const f = await fake(() => script, range(4890, 4899));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys(envFor('anthropic', f.url), masker), masker, { maxReplyBytes: 10_000 });
    expect(sent.reply).toBeUndefined();
    expect(sent.error).toContain('Anthropic\'s reply is over 10000 bytes, the cap');
    expect(JSON.stringify(sent).length).toBeLessThan(5_000);
  });

  it('a reply under the cap is read whole', async () => {
    const f = await fake(() => ({ kind: 'reply', text: 'y'.repeat(5_000) }));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys(envFor('anthropic', f.url), masker), masker, { maxReplyBytes: 10_000 });
    expect(sent.reply?.text).toHaveLength(5_000);
  });
});

describe('the model asked for is the model sent', () => {
  const PROVIDERS: readonly ProviderId[] = ['anthropic', 'openai', 'google', 'openrouter', 'cerebras', 'llamacpp', 'ollama'];
  it.each(PROVIDERS)('%s: a model named inside the body does not override it', async (p) => {
    const f = await fake(() => ({ kind: 'reply', text: 'ok' }));
    const masker = new Masker();
    const sent = await sendToModel(p, 'asked-model', { ...BODY, model: 'expensive-model' }, new ModelKeys(envFor(p, f.url), masker), masker);
    expect(sent.error).toBeUndefined();
    const got = f.received[0];
    expect(JSON.stringify(got?.body)).not.toContain('expensive-model');
    if (p === 'google') expect(got?.path).toBe('/v1beta/models/asked-model:generateContent');
    else expect(got?.body.model).toBe('asked-model');
  });
});

describe('keys from the environment, and retries', () => {
  it('a key read from the environment is trimmed, and masked with or without its whitespace', async () => {
    const f = await fake((r) => ({ kind: 'reply', text: `got [${String(r.headers['x-api-key'])}]` }));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys({ ANTHROPIC_BASE_URL: f.url, ANTHROPIC_API_KEY: `  ${KEY}\n` }, masker), masker);
    expect(f.received[0]?.headers['x-api-key']).toBe(KEY);
    expect(sent.reply?.text).toBe('got [***]');
    expect(masker.mask(`a ${KEY} b  ${KEY}\n c`)).not.toContain(KEY);
  });

  it('a 429 answered twice then a 200 succeeds within the default retries', async () => {
    const f = await fake((_r, n) => (n < 2 ? { kind: 'status', status: 429, body: {}, headers: { 'retry-after': '0' } } : { kind: 'reply', text: 'third time' }));
    const masker = new Masker();
    const sent = await sendToModel('anthropic', 'm', BODY, new ModelKeys(envFor('anthropic', f.url), masker), masker, noWait);
    expect([sent.reply?.text, sent.attempts, f.received.length]).toEqual(['third time', 3, 3]);
  });
});
