// The reply direction of every provider (issue 26): the envelope a rendered JP body is sent in, and the
// provider's reply read back into text, tool calls and billed usage. Each provider's descriptor holds
// one `ReplyWire` (its `reply` part) built from the families below; the bridge (src/bridge/models.ts)
// does the sending, this module only says what to send and how to read what comes back. Pure.
//
// Wire formats and usage fields, as each provider documents them (read 2026-12 through stored copies):
// - Anthropic Messages: POST /v1/messages, `x-api-key`, `anthropic-version: 2023-06-01`, `max_tokens`
//   required; reply `content[]` of `text` and `tool_use {id, name, input}` blocks; `usage.input_tokens`
//   counts only the tokens after the last cache breakpoint, beside `cache_read_input_tokens` and
//   `cache_creation_input_tokens` (Anthropic API reference, Messages, Usage; the same four fields in
//   docs.rs dynamo-protocols AnthropicUsage and the LangChain AnthropicUsage type).
// - OpenAI Responses (JP's openai.rs uses it): POST /responses, `Authorization: Bearer`; reply `output[]`
//   of `message` items (content `output_text`) and `function_call {call_id, name, arguments}` items whose
//   arguments are a JSON string; `usage.input_tokens` includes the cached ones,
//   `usage.input_tokens_details.cached_tokens` (OpenAI API reference, ResponseUsage; openai-client-base
//   ResponseUsageInputTokensDetails; "OpenAI includes cached tokens inside prompt_tokens and
//   input_tokens", docs.stigg.io OpenAI wrapper). OpenAI reports no cache write.
// - Chat Completions (OpenRouter, Cerebras, llama.cpp's server): POST .../chat/completions; reply
//   `choices[0].message {content, tool_calls[{id, function {name, arguments}}]}`; `usage.prompt_tokens`
//   includes `prompt_tokens_details.cached_tokens`, and OpenRouter adds `cache_write_tokens` there
//   (openrouter.ai/docs/use-cases/usage-accounting).
// - Gemini generateContent: POST /v1beta/models/MODEL:generateContent, `x-goog-api-key`; reply
//   `candidates[0].content.parts[]` of `text` and `functionCall {name, args, id?}`;
//   `usageMetadata.promptTokenCount` includes `cachedContentTokenCount` ("When cached_content is set,
//   this is still the total effective prompt size", Gemini API UsageMetadata, via geminix docs);
//   output is `candidatesTokenCount` + `thoughtsTokenCount`.
// - Ollama: POST /api/chat with `stream: false` (it streams NDJSON by default); reply
//   `message {content, tool_calls[{function {name, arguments}}]}` with arguments an object and no call
//   id; `prompt_eval_count`, `eval_count` (Ollama API docs, "Chat request with tools").
import type { JsonObject } from '../catalogue/schema';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the provider billed for one request, in tokens. `uncached` + `cacheRead` + `cacheWrite` = every input token. */
export interface BilledUsage {
  readonly uncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
}

export const NO_USAGE: BilledUsage = { uncached: 0, cacheRead: 0, cacheWrite: 0, output: 0 };

export const addUsage = (a: BilledUsage, b: BilledUsage): BilledUsage => ({
  uncached: a.uncached + b.uncached,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
  output: a.output + b.output,
});

export const inputOf = (u: BilledUsage): number => u.uncached + u.cacheRead + u.cacheWrite;

/** One tool call of a reply, its arguments parsed. */
export interface ReplyCall {
  /** The provider's call id (synthesized as `call_N` where the provider gives none: Ollama). */
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface ModelReply {
  readonly text: string;
  readonly calls: readonly ReplyCall[];
  /** Absent when the provider sent no usage. */
  readonly usage?: BilledUsage;
  /** The provider's own stop reason, as sent. */
  readonly stop?: string;
}

export type ParsedReply = { readonly ok: true; readonly reply: ModelReply } | { readonly ok: false; readonly error: string };

/** How a provider takes its key. */
export type KeyHeader = 'x-api-key' | 'bearer' | 'x-goog-api-key' | 'none';

export interface ReplyWire {
  /** The environment variable the provider's own SDK reads its key from (undefined: no key, a local server). */
  readonly keyVariable: string | undefined;
  readonly keyHeader: KeyHeader;
  /** A request without a key is refused before it is sent (false: a local server, where a key is optional). */
  readonly keyRequired: boolean;
  /** The environment variable of the base URL, and the base URL without it. */
  readonly baseVariable: string;
  readonly defaultBase: string;
  /** Headers every request carries besides the key (Anthropic's version). */
  readonly headers: Readonly<Record<string, string>>;
  /** The path under the base URL and the body: JP's rendered body with the model (and what the API requires). */
  readonly request: (model: string, body: unknown) => { readonly path: string; readonly body: JsonObject };
  /** A 2xx reply body read back. */
  readonly parse: (json: unknown) => ParsedReply;
}

// ── reading helpers ──

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const field = (v: unknown, k: string): unknown => (isPlainObject(v) && Object.hasOwn(v, k) ? v[k] : undefined);
const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

function argsFromString(text: string, name: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return `the arguments of the call to ${name} are not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  return isPlainObject(value) ? value : `the arguments of the call to ${name} are not a JSON object`;
}

function argsFromObject(value: unknown, name: string): Record<string, unknown> | string {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return argsFromString(value, name);
  return isPlainObject(value) ? value : `the arguments of the call to ${name} are not a JSON object`;
}

/** The message of a provider's error body, whichever of the usual shapes it has. */
export function errorMessageOf(json: unknown): string | undefined {
  const e = field(json, 'error');
  if (typeof e === 'string') return e;
  const m = field(e, 'message');
  if (typeof m === 'string') return m;
  const top = field(json, 'message');
  return typeof top === 'string' && field(json, 'type') === 'error' ? top : undefined;
}

function notAReply(json: unknown, what: string): ParsedReply {
  const error = errorMessageOf(json);
  return { ok: false, error: error !== undefined ? `the provider answered with an error: ${error}` : `the reply is not ${what}` };
}

type Calls = ReplyCall[] | string;

function collect(items: readonly unknown[], read: (item: unknown, i: number) => ReplyCall | string | undefined): Calls {
  const calls: ReplyCall[] = [];
  for (let i = 0; i < items.length; i++) {
    const c = read(items[i], i);
    if (typeof c === 'string') return c;
    if (c) calls.push(c);
  }
  return calls;
}

function finish(text: string, calls: Calls, usage: BilledUsage | undefined, stop: unknown): ParsedReply {
  if (typeof calls === 'string') return { ok: false, error: calls };
  return { ok: true, reply: { text, calls, ...(usage ? { usage } : {}), ...(typeof stop === 'string' ? { stop } : {}) } };
}

// ── Anthropic Messages ──

export function parseAnthropic(json: unknown): ParsedReply {
  const content = field(json, 'content');
  if (!Array.isArray(content)) return notAReply(json, 'an Anthropic Messages reply (no content array)');
  const text = content.filter((b) => field(b, 'type') === 'text').map((b) => str(field(b, 'text'))).join('');
  const calls = collect(content, (b) => {
    if (field(b, 'type') !== 'tool_use') return undefined;
    const name = str(field(b, 'name'));
    const args = argsFromObject(field(b, 'input'), name);
    return typeof args === 'string' ? args : { id: str(field(b, 'id')), name, args };
  });
  const u = field(json, 'usage');
  const usage = u === undefined ? undefined : { uncached: num(field(u, 'input_tokens')), cacheRead: num(field(u, 'cache_read_input_tokens')), cacheWrite: num(field(u, 'cache_creation_input_tokens')), output: num(field(u, 'output_tokens')) };
  return finish(text, calls, usage, field(json, 'stop_reason'));
}

// ── OpenAI Responses ──

export function parseResponses(json: unknown): ParsedReply {
  const output = field(json, 'output');
  if (!Array.isArray(output)) return notAReply(json, 'an OpenAI Responses reply (no output array)');
  const text = output
    .filter((item) => field(item, 'type') === 'message')
    .flatMap((item) => list(field(item, 'content')))
    .filter((c) => field(c, 'type') === 'output_text')
    .map((c) => str(field(c, 'text')))
    .join('');
  const calls = collect(output, (item) => {
    if (field(item, 'type') !== 'function_call') return undefined;
    const name = str(field(item, 'name'));
    const args = argsFromString(str(field(item, 'arguments')), name);
    return typeof args === 'string' ? args : { id: str(field(item, 'call_id')), name, args };
  });
  const u = field(json, 'usage');
  const input = num(field(u, 'input_tokens'));
  const cached = Math.min(input, num(field(field(u, 'input_tokens_details'), 'cached_tokens')));
  const usage = u === undefined ? undefined : { uncached: input - cached, cacheRead: cached, cacheWrite: 0, output: num(field(u, 'output_tokens')) };
  const status = field(json, 'status');
  if (status === 'failed') return notAReply(json, 'a finished response (status failed)');
  return finish(text, calls, usage, status);
}

// ── Chat Completions (OpenRouter, Cerebras, llama.cpp) ──

export function parseChat(json: unknown): ParsedReply {
  const choice = list(field(json, 'choices'))[0];
  const message = field(choice, 'message');
  if (!isPlainObject(message)) return notAReply(json, 'a chat completion (no choices[0].message)');
  const text = str(message.content);
  const calls = collect(list(message.tool_calls), (c, i) => {
    const fn = field(c, 'function');
    const name = str(field(fn, 'name'));
    const args = argsFromObject(field(fn, 'arguments'), name);
    return typeof args === 'string' ? args : { id: str(field(c, 'id')) || `call_${i}`, name, args };
  });
  const u = field(json, 'usage');
  const prompt = num(field(u, 'prompt_tokens'));
  const details = field(u, 'prompt_tokens_details');
  const read = Math.min(prompt, num(field(details, 'cached_tokens')));
  const write = Math.min(prompt - read, num(field(details, 'cache_write_tokens')));
  const usage = u === undefined ? undefined : { uncached: prompt - read - write, cacheRead: read, cacheWrite: write, output: num(field(u, 'completion_tokens')) };
  return finish(text, calls, usage, field(choice, 'finish_reason'));
}

// ── Gemini generateContent ──

export function parseGemini(json: unknown): ParsedReply {
  const candidate = list(field(json, 'candidates'))[0];
  const parts = field(field(candidate, 'content'), 'parts');
  if (candidate === undefined) return notAReply(json, 'a generateContent reply (no candidates)');
  const items = list(parts);
  const text = items.map((p) => str(field(p, 'text'))).join('');
  const calls = collect(items, (p, i) => {
    const fc = field(p, 'functionCall');
    if (fc === undefined) return undefined;
    const name = str(field(fc, 'name'));
    const args = argsFromObject(field(fc, 'args'), name);
    return typeof args === 'string' ? args : { id: str(field(fc, 'id')) || `call_${i}`, name, args };
  });
  const u = field(json, 'usageMetadata');
  const prompt = num(field(u, 'promptTokenCount'));
  const cached = Math.min(prompt, num(field(u, 'cachedContentTokenCount')));
  const usage = u === undefined ? undefined : { uncached: prompt - cached, cacheRead: cached, cacheWrite: 0, output: num(field(u, 'candidatesTokenCount')) + num(field(u, 'thoughtsTokenCount')) };
  return finish(text, calls, usage, field(candidate, 'finishReason'));
}

// ── Ollama chat ──

export function parseOllama(json: unknown): ParsedReply {
  const message = field(json, 'message');
  if (!isPlainObject(message)) return notAReply(json, 'an Ollama chat reply (no message)');
  const calls = collect(list(message.tool_calls), (c, i) => {
    const fn = field(c, 'function');
    const name = str(field(fn, 'name'));
    const args = argsFromObject(field(fn, 'arguments'), name);
    return typeof args === 'string' ? args : { id: str(field(c, 'id')) || `call_${i}`, name, args };
  });
  const usage = field(json, 'prompt_eval_count') === undefined && field(json, 'eval_count') === undefined ? undefined : { uncached: num(field(json, 'prompt_eval_count')), cacheRead: 0, cacheWrite: 0, output: num(field(json, 'eval_count')) };
  return finish(str(message.content), calls, usage, field(json, 'done_reason'));
}

// ── envelopes ──

/**
 * The body in its envelope: the envelope's fields first and last word. A `model` (or `stream`) inside
 * the body cannot override the model asked for (a page or a scenario could otherwise send a request to
 * a dearer model than the one the user chose and the estimate priced); `dropped` are body fields the
 * envelope says elsewhere (Gemini names the model in the path).
 */
const withFields = (body: unknown, fields: readonly (readonly [string, unknown])[], dropped: readonly string[] = []): JsonObject => {
  const out: JsonObject = {};
  for (const [k, v] of fields) out[k] = v;
  const own = new Set([...fields.map(([k]) => k), ...dropped]);
  if (isPlainObject(body)) for (const [k, v] of Object.entries(body)) if (!own.has(k)) out[k] = v;
  return out;
};

/** Anthropic requires max_tokens; JP's default for its Anthropic provider is this order of size. */
export const ANTHROPIC_MAX_TOKENS = 4096;

export const ANTHROPIC_WIRE: ReplyWire = {
  keyVariable: 'ANTHROPIC_API_KEY',
  keyHeader: 'x-api-key',
  keyRequired: true,
  baseVariable: 'ANTHROPIC_BASE_URL',
  defaultBase: 'https://api.anthropic.com',
  headers: { 'anthropic-version': '2023-06-01' },
  request: (model, body) => ({ path: '/v1/messages', body: withFields(body, [['model', model], ['max_tokens', ANTHROPIC_MAX_TOKENS]]) }),
  parse: parseAnthropic,
};

export const OPENAI_WIRE: ReplyWire = {
  keyVariable: 'OPENAI_API_KEY',
  keyHeader: 'bearer',
  keyRequired: true,
  baseVariable: 'OPENAI_BASE_URL',
  defaultBase: 'https://api.openai.com/v1',
  headers: {},
  // `store: false`: the workbench's requests are experiments, not conversations to keep on OpenAI's side.
  request: (model, body) => ({ path: '/responses', body: withFields(body, [['model', model], ['store', false]]) }),
  parse: parseResponses,
};

export const GOOGLE_WIRE: ReplyWire = {
  keyVariable: 'GEMINI_API_KEY',
  keyHeader: 'x-goog-api-key',
  keyRequired: true,
  baseVariable: 'GEMINI_BASE_URL',
  defaultBase: 'https://generativelanguage.googleapis.com',
  headers: {},
  request: (model, body) => ({ path: `/v1beta/models/${encodeURIComponent(model)}:generateContent`, body: withFields(body, [], ['model']) }),
  parse: parseGemini,
};

export function chatWire(keyVariable: string, baseVariable: string, defaultBase: string, keyRequired = true): ReplyWire {
  return {
    keyVariable,
    keyHeader: 'bearer',
    keyRequired,
    baseVariable,
    defaultBase,
    headers: {},
    request: (model, body) => ({ path: '/chat/completions', body: withFields(body, [['model', model], ['stream', false]]) }),
    parse: parseChat,
  };
}

export const OLLAMA_WIRE: ReplyWire = {
  keyVariable: undefined,
  keyHeader: 'none',
  keyRequired: false,
  baseVariable: 'OLLAMA_HOST',
  defaultBase: 'http://127.0.0.1:11434',
  headers: {},
  request: (model, body) => ({ path: '/api/chat', body: withFields(body, [['model', model], ['stream', false]]) }),
  parse: parseOllama,
};

/** USD of billed usage at a price row (USD per million tokens). */
export function billedUsd(u: BilledUsage, price: { readonly input: number; readonly cacheRead: number; readonly cacheWrite: number; readonly output: number }): number {
  return (u.uncached * price.input + u.cacheRead * price.cacheRead + u.cacheWrite * price.cacheWrite + u.output * price.output) / 1_000_000;
}
