// Each provider's reply, in its real wire shape, read back: text, tool calls (parallel ones too),
// billed usage with the cache fields, and the malformed replies a provider or proxy can send.
import { describe, expect, it } from 'vitest';
import { PROVIDERS, providerOf } from './registry';
import { billedUsd, errorMessageOf, parseAnthropic } from './reply';
import type { BilledUsage, ReplyCall } from './reply';
import type { ProviderId } from './types';

interface Row {
  readonly provider: ProviderId;
  readonly what: string;
  readonly json: unknown;
  readonly text: string;
  readonly calls: readonly ReplyCall[];
  readonly usage?: BilledUsage;
}

const SEARCH = { query: 'deploy staging', limit: 3 };
const DEPLOY = { branch: 'main' };

const ROWS: readonly Row[] = [
  {
    provider: 'anthropic', what: 'text and two parallel tool_use blocks, cache read and write',
    json: { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Searching.' }, { type: 'tool_use', id: 'toolu_1', name: 'search_tools', input: SEARCH }, { type: 'tool_use', id: 'toolu_2', name: 'deploy_staging', input: DEPLOY }], stop_reason: 'tool_use', usage: { input_tokens: 12, cache_read_input_tokens: 900, cache_creation_input_tokens: 40, output_tokens: 30 } },
    text: 'Searching.', calls: [{ id: 'toolu_1', name: 'search_tools', args: SEARCH }, { id: 'toolu_2', name: 'deploy_staging', args: DEPLOY }], usage: { uncached: 12, cacheRead: 900, cacheWrite: 40, output: 30 },
  },
  {
    provider: 'anthropic-directives', what: 'text only',
    json: { type: 'message', content: [{ type: 'text', text: 'Done' }, { type: 'text', text: '.' }], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 2 } },
    text: 'Done.', calls: [], usage: { uncached: 5, cacheRead: 0, cacheWrite: 0, output: 2 },
  },
  {
    provider: 'openai', what: 'Responses: a message item and a function_call item (arguments a JSON string), cached input inside input_tokens',
    json: { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] }, { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search_tools', arguments: JSON.stringify(SEARCH) }], usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 768 }, output_tokens: 20 } },
    text: 'Let me look.', calls: [{ id: 'call_1', name: 'search_tools', args: SEARCH }], usage: { uncached: 232, cacheRead: 768, cacheWrite: 0, output: 20 },
  },
  {
    provider: 'google', what: 'generateContent: two functionCall parts, cachedContentTokenCount inside promptTokenCount, thoughts billed as output',
    json: { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'search_tools', args: SEARCH } }, { functionCall: { id: 'g2', name: 'deploy_staging', args: DEPLOY } }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 500, cachedContentTokenCount: 100, candidatesTokenCount: 10, thoughtsTokenCount: 5 } },
    text: '', calls: [{ id: 'call_0', name: 'search_tools', args: SEARCH }, { id: 'g2', name: 'deploy_staging', args: DEPLOY }], usage: { uncached: 400, cacheRead: 100, cacheWrite: 0, output: 15 },
  },
  {
    provider: 'openrouter', what: 'chat completion with OpenRouter\'s cache_write_tokens',
    json: { id: 'gen-1', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search_tools', arguments: JSON.stringify(SEARCH) } }] } }], usage: { prompt_tokens: 194, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 50, cache_write_tokens: 100 } } },
    text: '', calls: [{ id: 'c1', name: 'search_tools', args: SEARCH }], usage: { uncached: 44, cacheRead: 50, cacheWrite: 100, output: 2 },
  },
  {
    provider: 'cerebras', what: 'chat completion, text reply',
    json: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: 'Deployed.' } }], usage: { prompt_tokens: 80, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 64 } } },
    text: 'Deployed.', calls: [], usage: { uncached: 16, cacheRead: 64, cacheWrite: 0, output: 3 },
  },
  {
    provider: 'llamacpp', what: 'OpenAI-compatible chat completion with empty arguments',
    json: { choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: '', tool_calls: [{ id: 'x', type: 'function', function: { name: 'list_jobs', arguments: '' } }] } }], usage: { prompt_tokens: 30, completion_tokens: 4 } },
    text: '', calls: [{ id: 'x', name: 'list_jobs', args: {} }], usage: { uncached: 30, cacheRead: 0, cacheWrite: 0, output: 4 },
  },
  {
    provider: 'ollama', what: 'chat reply: arguments an object, no call ids',
    json: { model: 'qwen3', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'search_tools', arguments: SEARCH } }, { function: { name: 'deploy_staging', arguments: DEPLOY } }] }, done: true, done_reason: 'stop', prompt_eval_count: 300, eval_count: 25 },
    text: '', calls: [{ id: 'call_0', name: 'search_tools', args: SEARCH }, { id: 'call_1', name: 'deploy_staging', args: DEPLOY }], usage: { uncached: 300, cacheRead: 0, cacheWrite: 0, output: 25 },
  },
];

describe('each provider\'s reply read back', () => {
  it('every provider has a row', () => {
    expect(new Set(ROWS.map((r) => r.provider))).toEqual(new Set(PROVIDERS.map((p) => p.id)));
  });

  it.each(ROWS)('$provider: $what', (row) => {
    const parsed = providerOf(row.provider).reply.parse(row.json);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.reply.text).toBe(row.text);
    expect(parsed.reply.calls).toEqual(row.calls);
    expect(parsed.reply.usage).toEqual(row.usage);
  });
});

describe('replies that are not replies', () => {
  const BAD: readonly (readonly [ProviderId, unknown, string])[] = [
    ['anthropic', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'the provider answered with an error: Overloaded'],
    ['anthropic', { content: [{ type: 'tool_use', id: 't', name: 'x', input: [1, 2] }] }, 'the arguments of the call to x are not a JSON object'],
    ['openai', { error: { message: 'Incorrect API key provided' } }, 'the provider answered with an error: Incorrect API key provided'],
    ['openai', { output: [{ type: 'function_call', call_id: 'c', name: 'search_tools', arguments: '{"query": "dep' }] }, 'the arguments of the call to search_tools are not JSON'],
    ['openai', { status: 'failed', output: [], error: { message: 'server_error' } }, 'the provider answered with an error: server_error'],
    ['google', { error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }, 'the provider answered with an error: Resource exhausted'],
    ['openrouter', { choices: [] }, 'the reply is not a chat completion'],
    ['ollama', { error: 'model "qwen9" not found, try pulling it first' }, 'model "qwen9" not found'],
    ['ollama', 'not an object', 'the reply is not an Ollama chat reply'],
  ];
  it.each(BAD)('%s: %j → a clear error', (provider, json, message) => {
    const parsed = providerOf(provider).reply.parse(json);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });

  it('errorMessageOf reads the usual error shapes and nothing else', () => {
    expect(errorMessageOf({ error: 'plain' })).toBe('plain');
    expect(errorMessageOf({ message: 'not an error body' })).toBeUndefined();
    expect(errorMessageOf(null)).toBeUndefined();
  });

  it('usage a provider sends as negative or non-numbers counts as 0, never NaN', () => {
    const parsed = parseAnthropic({ content: [], usage: { input_tokens: -4, output_tokens: 'many', cache_read_input_tokens: null } });
    expect(parsed.ok && parsed.reply.usage).toEqual({ uncached: 0, cacheRead: 0, cacheWrite: 0, output: 0 });
  });
});

describe('the envelope: JP\'s body exactly, with the model and what the API requires', () => {
  const BODY = { tools: [{ name: 'a' }], messages: [{ role: 'user', content: 'hi' }] };
  it.each([
    ['anthropic', '/v1/messages', { model: 'm', max_tokens: 4096 }],
    ['openai', '/responses', { model: 'm', store: false }],
    ['google', '/v1beta/models/m:generateContent', {}],
    ['openrouter', '/chat/completions', { model: 'm', stream: false }],
    ['ollama', '/api/chat', { model: 'm', stream: false }],
  ] as const)('%s → %s', (provider, path, extra) => {
    const r = providerOf(provider).reply.request('m', BODY);
    expect(r.path).toBe(path);
    expect(r.body).toEqual({ ...extra, ...BODY });
  });

  it('a model name cannot escape Gemini\'s path', () => {
    expect(providerOf('google').reply.request('../../x?y', {}).path).toBe('/v1beta/models/..%2F..%2Fx%3Fy:generateContent');
  });
});

it('billed USD at a price row (per million tokens)', () => {
  expect(billedUsd({ uncached: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000, output: 1_000_000 }, { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 })).toBeCloseTo(22.05, 10);
});
