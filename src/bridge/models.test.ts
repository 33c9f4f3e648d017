// Sending a rendered body to a provider, against a fake provider on loopback that speaks each wire
// format: the envelope and the key header, each failure's message, retries of a 429, and the key
// masked in every field of what comes back.
import { afterEach, describe, expect, it } from 'vitest';
import { providerOf } from '../core/providers/registry';
import type { ProviderId } from '../core/providers/types';
import { startFakeProvider } from '../../e2e/fakeProvider';
import type { FakeProvider, Scripted } from '../../e2e/fakeProvider';
import { ModelKeys, sendToModel } from './models';
import { exchangeLine, readRecording, Recording, requestHash } from './recording';
import { Masker } from './secrets';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The environment of a terminal whose provider `p` points at the fake with KEY set. */
function envFor(p: ProviderId, url: string): Record<string, string> {
  const wire = providerOf(p).reply;
  const base = wire.defaultBase.replace(/^https?:\/\/[^/]+/u, url);
  return { [wire.baseVariable]: base, ...(wire.keyVariable !== undefined ? { [wire.keyVariable]: KEY } : {}) };
}

const BODY = { tools: [{ name: 'search_tools' }], messages: [{ role: 'user', content: 'Deploy main' }] };
const noWait = { sleep: () => Promise.resolve() };

describe('each provider through the fake: the path, the key header, the body as rendered', () => {
  const ROWS: readonly (readonly [ProviderId, string, string, string | undefined])[] = [
    ['anthropic', '/v1/messages', 'x-api-key', KEY],
    ['openai', '/v1/responses', 'authorization', `Bearer ${KEY}`],
    ['google', '/v1beta/models/m:generateContent', 'x-goog-api-key', KEY],
    ['openrouter', '/api/v1/chat/completions', 'authorization', `Bearer ${KEY}`],
    ['cerebras', '/v1/chat/completions', 'authorization', `Bearer ${KEY}`],
    ['llamacpp', '/v1/chat/completions', 'authorization', `Bearer ${KEY}`],
    ['ollama', '/api/chat', 'authorization', undefined],
  ];
  it.each(ROWS)('%s', async (p, path, header, value) => {
    fake = await startFakeProvider(() => ({ kind: 'reply', text: 'Hi.', calls: [['search_tools', { query: 'deploy' }], ['deploy_staging', { branch: 'main' }]] }));
    const masker = new Masker();
    const sent = await sendToModel(p, 'm', BODY, new ModelKeys(envFor(p, fake.url), masker), masker);
    expect(sent.error).toBeUndefined();
    expect(fake.received[0]?.path).toBe(path);
    expect(fake.received[0]?.headers[header]).toBe(value);
    expect(fake.received[0]?.body).toMatchObject(BODY);
    expect(sent.reply?.calls.map((c) => c.name)).toEqual(['search_tools', 'deploy_staging']);
    expect(sent.reply?.text).toBe('Hi.');
  });
});

describe('failures: a clear message, and nothing lost', () => {
  const p: ProviderId = 'anthropic';
  const ROWS: readonly (readonly [string, Scripted, string])[] = [
    ['401', { kind: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } }, 'Anthropic refused the key (401): invalid x-api-key; check ANTHROPIC_API_KEY'],
    ['500', { kind: 'status', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } }, 'Anthropic failed (500): Internal server error'],
    ['400', { kind: 'status', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.name: bad' } } }, 'Anthropic refused the request (400): tools.0.name: bad'],
    ['malformed JSON', { kind: 'raw', status: 200, text: '{"content": [' }, 'Anthropic\'s reply is not JSON (cut off?)'],
    ['a reply cut off mid-body', { kind: 'cut', text: JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(2000) }] }) }, 'the connection closed before Anthropic\'s reply was complete'],
    ['429 past its retries', { kind: 'status', status: 429, body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, headers: { 'retry-after': '0' } }, 'Anthropic is rate limiting (429); it asks to retry after 0 s: slow down'],
    ['429 asking for too long', { kind: 'status', status: 429, body: {}, headers: { 'retry-after': '3600' } }, 'it asks to retry after 3600 s'],
  ];
  it.each(ROWS)('%s', async (_what, script, message) => {
    fake = await startFakeProvider(() => script);
    const masker = new Masker();
    const sent = await sendToModel(p, 'm', BODY, new ModelKeys(envFor(p, fake.url), masker), masker, noWait);
    expect(sent.reply).toBeUndefined();
    expect(sent.error).toContain(message);
  });

  it('a 429 with Retry-After is retried after the wait it asks for', async () => {
    const waits: number[] = [];
    fake = await startFakeProvider((_r, n) => (n === 0 ? { kind: 'status', status: 429, body: {}, headers: { 'retry-after': '7' } } : { kind: 'reply', text: 'ok' }));
    const masker = new Masker();
    const sent = await sendToModel(p, 'm', BODY, new ModelKeys(envFor(p, fake.url), masker), masker, { sleep: (ms) => (waits.push(ms), Promise.resolve()) });
    expect([sent.reply?.text, sent.attempts, waits]).toEqual(['ok', 2, [7000]]);
  });

  it('no key: nothing is sent', async () => {
    fake = await startFakeProvider(() => ({ kind: 'reply', text: 'x' }));
    const masker = new Masker();
    const sent = await sendToModel('openai', 'm', BODY, new ModelKeys({ OPENAI_BASE_URL: `${fake.url}/v1` }, masker), masker);
    expect(sent.error).toBe('no OpenAI key: set OPENAI_API_KEY in the terminal that runs tool-workbench, or type a key in the page');
    expect(fake.received).toHaveLength(0);
  });

  it('an unreachable provider names its base URL', async () => {
    const masker = new Masker();
    const sent = await sendToModel('ollama', 'm', BODY, new ModelKeys({ OLLAMA_HOST: '127.0.0.1:1' }, masker), masker);
    expect(sent.error).toContain('could not reach Ollama at http://127.0.0.1:1');
  });
});

describe('a key never leaves: masked in every field of what comes back', () => {
  // A hostile or careless provider (or proxy) echoes the key in each place it can.
  const ECHOES: readonly (readonly [string, Scripted])[] = [
    ['the reply text', { kind: 'reply', text: `your key is ${KEY}` }],
    ['a call\'s arguments', { kind: 'reply', calls: [['search_tools', { query: KEY, [KEY]: 1 }]] }],
    ['an error message', { kind: 'status', status: 401, body: { error: { message: `bad key ${KEY}` } } }],
    ['a body that is not JSON', { kind: 'raw', status: 200, text: `oops ${KEY}` }],
    ['base64 of the key in the text', { kind: 'reply', text: `k=${Buffer.from(KEY).toString('base64')}` }],
  ];
  it.each(ECHOES)('%s', async (_what, script) => {
    fake = await startFakeProvider(() => script);
    const masker = new Masker();
    const keys = new ModelKeys(envFor('anthropic', fake.url), masker);
    const sent = await sendToModel('anthropic', 'm', BODY, keys, masker);
    const line = exchangeLine(sent, { task: 0, cycle: 1 }, '2026-12-02T00:00:00Z');
    const recording = new Recording(undefined, masker);
    recording.add(line);
    const text = JSON.stringify(sent) + JSON.stringify(line);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(Buffer.from(KEY).toString('base64').slice(4, 20));
    expect(text).toContain('***');
  });

  it('a key typed in the page is masked too, and forgotten on an empty one', async () => {
    const typed = 'typed-key-ABCDEFGHIJKLMNOP';
    fake = await startFakeProvider(() => ({ kind: 'reply', text: typed }));
    const masker = new Masker();
    const keys = new ModelKeys({ OPENAI_BASE_URL: `${fake.url}/v1` }, masker);
    keys.setTyped('openai', typed);
    expect(keys.source('openai')).toBe('page');
    const sent = await sendToModel('openai', 'm', BODY, keys, masker);
    expect(fake.received[0]?.headers.authorization).toBe(`Bearer ${typed}`);
    expect(JSON.stringify(sent)).not.toContain(typed);
    keys.setTyped('openai', '');
    expect(keys.source('openai')).toBe('none');
  });
});

describe('recordings', () => {
  it('the same request hashes the same; a recording reads back, a cut last line named by its line number', () => {
    const h = requestHash('anthropic', 'm', { path: '/v1/messages', body: BODY });
    expect(h).toBe(requestHash('anthropic', 'm', { path: '/v1/messages', body: JSON.parse(JSON.stringify(BODY)) as unknown }));
    expect(h).not.toBe(requestHash('anthropic', 'm2', { path: '/v1/messages', body: BODY }));
    const line = JSON.stringify({ hash: h, task: 0, cycle: 1, provider: 'anthropic', model: 'm', request: {}, status: 200, response: {}, reply: { text: 'x', calls: [] }, time: 't' });
    const read = readRecording('r.jsonl', `${line}\n{"hash": "ab`);
    expect(read.exchanges).toHaveLength(1);
    expect(read.errors).toEqual([expect.stringMatching(/^r\.jsonl:2:1: not JSON/u)]);
    expect(new Recording(undefined, new Masker(), read).find(0, 1, h)?.reply?.text).toBe('x');
  });
});
