// Each provider's prompt cache, as data: where the tools array sits in the cached prefix, what can be
// cached and how, the minimum cacheable length, the step cached lengths come in, the time-to-live, and
// the read and write price factors. Every rule carries the public document it comes from (read through
// stored copies of the pages on 2026-12-01); a rule a provider does not document says so in
// `undocumented`, and the simulation's stand-in for it is named there too, never silently guessed.
// Model-specific numbers (Anthropic's and Google's minimums, each model's read price) live in the
// dated price table (prices.ts); the numbers here are each provider's defaults.
import type { ProviderId } from './types';

export type CacheSection = 'tools' | 'system' | 'messages';

/**
 * How a provider caches:
 * - `breakpoints`: only prefixes ending at a `cache_control` breakpoint are written; a later request
 *   reads the longest written prefix it repeats (Anthropic);
 * - `prefix`: every request's prefix is kept automatically and a later request reads the longest
 *   prefix it shares with one of them (OpenAI, Google, Cerebras);
 * - `local-kv`: a local runtime keeps the KV cache of the previous request in its slot and skips the
 *   prefill of the prefix the next request shares with it: tokens saved, not money;
 * - `none`: nothing is cached.
 */
export type CacheKind = 'breakpoints' | 'prefix' | 'local-kv' | 'none';

export interface Citation {
  /** The rule this citation backs, in a few words. */
  readonly rule: string;
  readonly document: string;
  readonly url: string;
  /** When the document was read (ISO date). */
  readonly read: string;
}

export interface CacheRules {
  readonly provider: ProviderId;
  readonly kind: CacheKind;
  /** The order of the request's sections in the cached prefix (the tools array first). */
  readonly prefixOrder: readonly CacheSection[];
  /** `breakpoints` only: the sections after which the simulated JP puts a breakpoint. */
  readonly breakpointsAfter: readonly CacheSection[];
  /** `breakpoints` only: how many block boundaries before a breakpoint are checked for a hit. */
  readonly lookbackBlocks?: number;
  /** Minimum cacheable length in tokens (a model's own minimum in the price table wins). */
  readonly minTokens?: number;
  /** Cached lengths come in multiples of this many tokens. */
  readonly step?: number;
  /** Seconds an entry lives without use; undefined: not documented (see `undocumented`). */
  readonly ttlSeconds?: number;
  /** Whether a hit restarts the time-to-live. */
  readonly refreshOnHit: boolean;
  /** Price of a cache write as a factor of the input price (1: writes cost nothing extra). */
  readonly writeFactor: number;
  /** Default price of a cache read as a factor of the input price (the price table has each model's). */
  readonly readFactor: number;
  /** Whether the provider bills (false for local runtimes: prefill tokens saved, no money). */
  readonly money: boolean;
  /** One sentence on how the simulated JP meets this cache. */
  readonly summary: string;
  /** Rules the provider does not document, each with the stand-in the simulation uses. */
  readonly undocumented: readonly string[];
  readonly citations: readonly Citation[];
}

const READ = '2026-12-01';
const JP = '../shared/reference/jp-today.md §8 (anthropic.rs:2092-2125)';

const ANTHROPIC_DOCS = {
  document: 'Anthropic, "Prompt caching" (Claude API docs)',
  url: 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching',
  read: READ,
};
const ANTHROPIC_PRICING = {
  document: 'Anthropic, "Pricing" (Claude API docs), prompt caching multipliers',
  url: 'https://platform.claude.com/docs/en/about-claude/pricing',
  read: READ,
};

const ANTHROPIC_CITATIONS: readonly Citation[] = [
  { rule: 'prefix order: tools, then system, then messages; a breakpoint caches everything before it', ...ANTHROPIC_DOCS },
  { rule: 'JP puts its one cache_control breakpoint on the last tool of the array', document: 'JP today (the project\'s reference)', url: JP, read: READ },
  { rule: 'hits are checked at block boundaries up to 20 blocks before a breakpoint', ...ANTHROPIC_DOCS },
  { rule: 'minimum cacheable prompt: 1,024 to 4,096 tokens by model (per model in the price table)', ...ANTHROPIC_DOCS },
  { rule: 'default time-to-live 5 minutes from last use, refreshed at no cost on each hit', ...ANTHROPIC_DOCS },
  { rule: '5-minute cache writes cost 1.25× the base input price; cache reads 0.1×', ...ANTHROPIC_PRICING },
];

const ANTHROPIC: Omit<CacheRules, 'provider' | 'summary'> = {
  kind: 'breakpoints',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: ['tools'],
  lookbackBlocks: 20,
  minTokens: 1024,
  ttlSeconds: 300,
  refreshOnHit: true,
  writeFactor: 1.25,
  readFactor: 0.1,
  money: true,
  undocumented: [
    'whether the cache_control marker itself is part of the cached prefix: the simulation compares tools without it (the marker says where to cache, not what)',
    'whether each tool definition is one block for the 20-block lookback: the simulation counts one block per tool',
  ],
  citations: ANTHROPIC_CITATIONS,
};

const OPENAI_DOCS = { document: 'OpenAI, "Prompt caching" guide', url: 'https://developers.openai.com/docs/guides/prompt-caching', read: READ };
const OPENAI_COOKBOOK = {
  document: 'OpenAI Cookbook, "Prompt Caching 201" §1.1',
  url: 'https://raw.githubusercontent.com/openai/openai-cookbook/main/examples/Prompt_Caching_201.ipynb',
  read: READ,
};
const OPENAI_RETENTION = {
  document: 'Microsoft Learn, Azure OpenAI "Prompt caching": in-memory retention',
  url: 'https://learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching',
  read: READ,
};

const OPENAI: Omit<CacheRules, 'provider' | 'summary'> = {
  kind: 'prefix',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: [],
  minTokens: 1024,
  step: 128,
  ttlSeconds: 300,
  refreshOnHit: true,
  writeFactor: 1,
  readFactor: 0.5,
  money: true,
  undocumented: [
    'where the tools array sits among the prompt\'s tokens: the guide says tools are part of the cached prefix and must be identical; the simulation puts them first, as JP\'s request carries them',
    'the exact time-to-live: caches are cleared after 5 to 10 minutes of inactivity and always within an hour; the simulation uses the lower bound, 5 minutes',
  ],
  citations: [
    { rule: 'automatic for prompts of 1,024 tokens or more; no code changes and no extra fee for writes', ...OPENAI_DOCS },
    { rule: 'hits only for exact prefix matches; tools must be identical between requests', ...OPENAI_DOCS },
    { rule: 'cache hits come in increments of 128 tokens', ...OPENAI_COOKBOOK },
    { rule: 'cleared after 5 to 10 minutes of inactivity, always within one hour', ...OPENAI_RETENTION },
    { rule: 'cached input is billed at the model\'s cached-input price (per model in the price table)', ...OPENAI_DOCS },
  ],
};

const GOOGLE_DOCS = { document: 'Google, Gemini API "Context caching": implicit caching', url: 'https://ai.google.dev/gemini-api/docs/caching', read: READ };

const GOOGLE: Omit<CacheRules, 'provider' | 'summary'> = {
  kind: 'prefix',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: [],
  minTokens: 2048,
  refreshOnHit: true,
  writeFactor: 1,
  readFactor: 0.1,
  money: true,
  undocumented: [
    'the time-to-live of an implicit cache entry ("send requests with similar prefix in a short amount of time"): the simulation lets entries live through the conversation',
    'the granularity of a hit: the simulation counts every shared token',
    'where the tools field sits among the prompt\'s tokens: the simulation puts it first',
    'that an implicit hit is guaranteed ("no cost saving guarantee"): the simulation counts every possible hit',
  ],
  citations: [
    { rule: 'implicit caching is on by default for Gemini 2.5 and newer; savings passed on when a request hits', ...GOOGLE_DOCS },
    { rule: 'minimum input tokens by model: 2,048 for Gemini 2.5 Flash and Pro, 4,096 for newer models (per model in the price table)', ...GOOGLE_DOCS },
    { rule: 'put large common content at the beginning of the prompt; hits are prefix matches', ...GOOGLE_DOCS },
  ],
};

const CEREBRAS_DOCS = { document: 'Cerebras Inference docs, "Prompt Caching"', url: 'https://inference-docs.cerebras.ai/capabilities/prompt-caching', read: READ };

const CEREBRAS: Omit<CacheRules, 'provider' | 'summary'> = {
  kind: 'prefix',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: [],
  step: 128,
  ttlSeconds: 300,
  refreshOnHit: false,
  writeFactor: 1,
  readFactor: 1,
  money: true,
  undocumented: [
    'a minimum cacheable length: none is documented beyond the 128-token block',
    'a price for cached tokens: the page promises lower latency, not a lower price; the simulation bills them at the input price (edit the price table when Cerebras publishes one)',
    'whether a hit restarts the 5-minute time-to-live: the simulation counts it from the write',
  ],
  citations: [
    { rule: 'automatic on supported models; the prefix includes system prompts and tool definitions', ...CEREBRAS_DOCS },
    { rule: 'prompts are processed in 128-token blocks; a hit needs the whole beginning to match', ...CEREBRAS_DOCS },
    { rule: 'guaranteed time-to-live of 5 minutes, up to 1 hour depending on load', ...CEREBRAS_DOCS },
  ],
};

const OPENROUTER_DOCS = { document: 'OpenRouter docs, "Prompt Caching"', url: 'https://openrouter.ai/docs/guides/best-practices/prompt-caching', read: READ };

const OPENROUTER: Omit<CacheRules, 'provider' | 'summary'> = {
  kind: 'prefix',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: [],
  refreshOnHit: true,
  writeFactor: 1,
  readFactor: 1,
  money: true,
  undocumented: [
    'OpenRouter passes caching through to the model\'s upstream provider: the simulation applies the upstream\'s rules (the price table names each model\'s upstream); JP\'s OpenRouter request carries no cache_control, so an Anthropic model through OpenRouter caches nothing',
  ],
  citations: [
    { rule: 'most providers cache automatically; Anthropic needs cache_control per message', ...OPENROUTER_DOCS },
    { rule: 'sticky routing keeps requests on the provider holding the warm cache', ...OPENROUTER_DOCS },
    { rule: 'JP\'s OpenRouter request has no cache_control', document: 'JP today (the project\'s reference)', url: '../shared/reference/jp-today.md §8 (openrouter.rs:764-789)', read: READ },
  ],
};

const LLAMACPP_DOCS = {
  document: 'llama.cpp server: per-slot prompt cache, the common prefix with the slot\'s previous tokens skips prefill (cache_prompt)',
  url: 'https://github.com/huggingface/chat-ui/pull/920',
  read: READ,
};
const OLLAMA_DOCS = { document: 'Ollama: keep_alive (default 5 minutes) before a model is unloaded', url: 'https://github.com/ollama/ollama/pull/2146', read: READ };
const RFD_LOCAL = {
  rule: 'the chat template puts tool definitions ahead of the messages, so a change to the offered set invalidates the KV prefix (inferred, not measured)',
  document: 'RFD 108, "Provider behaviour"',
  url: '../shared/rfd/108-discoverable-tools.txt',
  read: READ,
};

const LOCAL: Omit<CacheRules, 'provider' | 'summary' | 'ttlSeconds' | 'citations' | 'undocumented'> = {
  kind: 'local-kv',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: [],
  refreshOnHit: true,
  writeFactor: 1,
  readFactor: 0,
  money: false,
};

export const CACHE_RULES: ReadonlyMap<ProviderId, CacheRules> = new Map<ProviderId, CacheRules>([
  ['anthropic', { provider: 'anthropic', ...ANTHROPIC, summary: 'Explicit breakpoints: JP marks the last tool, so the tools array is cached when it reaches the model\'s minimum; a promotion changes the array and the next request writes it again.' }],
  [
    'anthropic-directives',
    {
      provider: 'anthropic-directives',
      ...ANTHROPIC,
      summary: 'Explicit breakpoints over RFD 105\'s fixed array: the array is byte-identical from the first request, so a promotion (a tool_addition block in the messages) never loses the cache.',
      citations: [...ANTHROPIC_CITATIONS, { rule: 'with tool directives the array stays byte-identical; a promotion becomes a tool_addition block', document: 'RFD 108, "Provider behaviour"', url: '../shared/rfd/108-discoverable-tools.txt', read: READ }],
    },
  ],
  ['openai', { provider: 'openai', ...OPENAI, summary: 'Automatic prefix caching from 1,024 tokens in steps of 128: a promotion in config order cuts the shared prefix at the promoted tool; appended, it keeps the old array as a prefix.' }],
  ['google', { provider: 'google', ...GOOGLE, summary: 'Implicit prefix caching above the model\'s minimum; a promotion cuts the shared prefix where the array changes.' }],
  ['openrouter', { provider: 'openrouter', ...OPENROUTER, summary: 'Pass-through: the upstream provider\'s automatic caching applies; an Anthropic model caches nothing, as JP sends no cache_control through OpenRouter.' }],
  ['cerebras', { provider: 'cerebras', ...CEREBRAS, summary: 'Automatic prefix caching in 128-token blocks, for latency: no cached-token price is documented.' }],
  [
    'ollama',
    {
      provider: 'ollama',
      ...LOCAL,
      ttlSeconds: 300,
      summary: 'Local: the runtime reuses the KV cache of the previous request for the shared prefix; counted as prefill tokens saved, not money.',
      undocumented: ['how much of the previous request the slot keeps: the simulation reuses the longest shared prefix of the rendered request', 'the template\'s exact rendering: the simulation compares JP\'s request JSON, tools first'],
      citations: [{ rule: 'the model (and its KV cache) is unloaded after keep_alive, 5 minutes by default', ...OLLAMA_DOCS }, RFD_LOCAL],
    },
  ],
  [
    'llamacpp',
    {
      provider: 'llamacpp',
      ...LOCAL,
      summary: 'Local: llama-server keeps the previous request\'s KV cache in its slot and skips the prefill of the shared prefix; counted as prefill tokens saved, not money.',
      undocumented: ['a time-to-live: the slot keeps its cache until another request replaces it; the simulation never expires it', 'the template\'s exact rendering: the simulation compares JP\'s request JSON, tools first'],
      citations: [{ rule: 'per-slot prompt cache: only the tokens after the common prefix are processed (cache_prompt)', ...LLAMACPP_DOCS }, RFD_LOCAL],
    },
  ],
]);

export function cacheRulesFor(provider: ProviderId): CacheRules {
  const rules = CACHE_RULES.get(provider);
  if (!rules) throw new Error(`no cache rules for provider ${provider}`);
  return rules;
}
