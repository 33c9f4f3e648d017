// /bridge/models against a running `tool-workbench serve --record FILE` and a fake provider on
// loopback: the door applies unchanged (token, Origin), the body sent is the page's rendered body in
// the provider's envelope, a typed key stays in memory, and a key, from the environment or typed,
// is in no reply, no terminal line and no recording, wherever the provider echoes it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelAnswerView, ModelProviderView } from '../bridge-protocol';
import { startFakeProvider } from '../../e2e/fakeProvider';
import type { FakeProvider } from '../../e2e/fakeProvider';
import { pageClient, raw, startServe } from './testServe';
import type { Running } from './testServe';

const ENV_KEY = 'sk-ant-env-KEY-1122334455667788';
const TYPED_KEY = 'sk-typed-KEY-aabbccddeeff0011';
const dir = mkdtempSync(join(tmpdir(), 'wb-models-'));
const record = join(dir, 'exchanges.jsonl');
let fake: FakeProvider;
let s: Running;
let page: ReturnType<typeof pageClient>;

beforeAll(async () => {
  // The fake echoes whatever key it was sent, in the reply's text and a call's arguments.
  fake = await startFakeProvider((r) => {
    const key = String(r.headers['x-api-key'] ?? r.headers.authorization ?? '');
    return { kind: 'reply', text: `echo ${key}`, calls: [['search_tools', { query: 'deploy', note: key }]] };
  });
  s = await startServe({ ANTHROPIC_API_KEY: ENV_KEY, ANTHROPIC_BASE_URL: fake.url, OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: '' }, ['--record', record]);
  page = pageClient(s);
}, 90_000);

afterAll(async () => {
  s.proc.kill('SIGTERM');
  await s.exited;
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

const BODY = { tools: [{ name: 'search_tools', description: 'Search tools.', input_schema: { type: 'object', properties: {} } }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Deploy main' }] }] };

describe('/bridge/models', () => {
  it('keeps the door: no token 401, another Origin 403, nothing sent', async () => {
    expect((await raw(s.port, { path: '/bridge/models' })).status).toBe(401);
    const other = await raw(s.port, { method: 'POST', path: '/bridge/models/ask', token: s.token, origin: 'http://evil.example', body: { provider: 'anthropic', model: 'm', body: BODY } });
    expect(other.status).toBe(403);
    expect(fake.received).toHaveLength(0);
  });

  it('lists each provider\'s key source and base URL, never a key', async () => {
    const r = await page.get('/bridge/models');
    const providers = r.json<{ providers: ModelProviderView[] }>().providers;
    expect(providers.find((p) => p.provider === 'anthropic')).toMatchObject({ keySource: 'environment', keyVariable: 'ANTHROPIC_API_KEY', base: fake.url });
    expect(providers.find((p) => p.provider === 'openai')?.keySource).toBe('none');
    expect(providers.find((p) => p.provider === 'ollama')?.keySource).toBe('not needed');
    expect(r.body).not.toContain(ENV_KEY);
  });

  it('sends the page\'s rendered body in the envelope with the environment\'s key; the echoed key is masked', async () => {
    const r = await page.post('/bridge/models/ask', { provider: 'anthropic', model: 'claude-haiku-4-5', body: BODY, task: 0, cycle: 1 });
    expect(r.status).toBe(200);
    const answer = r.json<ModelAnswerView>();
    expect(fake.received[0]?.body).toEqual({ model: 'claude-haiku-4-5', max_tokens: 4096, ...BODY });
    expect(fake.received[0]?.headers['x-api-key']).toBe(ENV_KEY);
    expect(answer.reply?.calls[0]?.name).toBe('search_tools');
    expect(answer.reply?.text).toBe('echo ***');
    expect(r.body).not.toContain(ENV_KEY);
  });

  it('a key typed in the page: kept in memory, used, masked; no key at all gives a clear message', async () => {
    const none = (await page.post('/bridge/models/ask', { provider: 'openai', model: 'gpt-5-mini', body: { input: [] } })).json<ModelAnswerView>();
    expect(none.error).toBe('no OpenAI key: set OPENAI_API_KEY in the terminal that runs tool-workbench, or type a key in the page');
    const set = await page.post('/bridge/models/key', { provider: 'openai', key: TYPED_KEY });
    expect(set.json<{ providers: ModelProviderView[] }>().providers.find((p) => p.provider === 'openai')?.keySource).toBe('page');
    expect(set.body).not.toContain(TYPED_KEY);
    const r = await page.post('/bridge/models/ask', { provider: 'openai', model: 'gpt-5-mini', body: { input: [{ role: 'user', content: 'hi' }] } });
    expect(fake.received[fake.received.length - 1]?.headers.authorization).toBe(`Bearer ${TYPED_KEY}`);
    expect(r.json<ModelAnswerView>().reply?.text).toBe('echo Bearer ***');
    expect(r.body).not.toContain(TYPED_KEY);
  });

  it.each([
    [{ provider: 'acme', model: 'm', body: {} }, 'provider must be one of'],
    [{ provider: 'anthropic', model: '', body: {} }, 'model must be a model name'],
    [{ provider: 'anthropic', model: 'm\u0000', body: {} }, 'model must be a model name'],
    [{ provider: 'anthropic', model: 'm', body: [] }, 'body must be the rendered request body'],
    [{ provider: 'anthropic', model: 'm', body: {}, cycle: 0 }, 'cycle must be an integer from 1'],
  ])('refuses %j with 400 and says why', async (body, message) => {
    const r = await page.post('/bridge/models/ask', body);
    expect(r.status).toBe(400);
    expect(r.json<{ error: string }>().error).toContain(message);
  });

  it('no key in the recording, the terminal or its errors; the recording has every exchange', () => {
    const text = readFileSync(record, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { hash: string; task?: number; cycle?: number; usage?: unknown });
    expect(lines.length).toBe(3);
    expect(lines[0]).toMatchObject({ task: 0, cycle: 1, usage: { uncached: 100, cacheRead: 0, cacheWrite: 0, output: 10 } });
    expect(lines[0]?.hash).toMatch(/^[0-9a-f]{64}$/u);
    for (const out of [text, s.stdout(), s.stderr()]) {
      expect(out).not.toContain(ENV_KEY);
      expect(out).not.toContain(TYPED_KEY);
    }
    expect(s.stdout()).toMatch(/anthropic claude-haiku-4-5: request [0-9a-f]{12} asked by POST \/bridge\/models\/ask from session 1: 1 tool call/u);
  });
});
