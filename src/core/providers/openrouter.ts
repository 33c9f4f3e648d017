// OpenRouter's chat API as JP's openrouter.rs renders it (jp-today §8).
import { chatWire } from './reply';
import { strictParameters } from '../catalogue/schema';
import { chatSdk, functionTool, namedChoice, renderChat } from './chat-completions';
import { defineProvider, noChoiceWithoutTools, READ_ON } from './descriptor';
import { OPENAI_NAMES, STRICT_KEYWORDS } from './openai';

const DOCS = { document: 'OpenRouter docs, "Prompt Caching"', url: 'https://openrouter.ai/docs/guides/best-practices/prompt-caching', read: READ_ON };

export const OPENROUTER = defineProvider({
  id: 'openrouter',
  words: 'OpenRouter',
  reply: chatWire('OPENROUTER_API_KEY', 'OPENROUTER_BASE_URL', 'https://openrouter.ai/api/v1'),
  render: renderChat({
    tool: (def) =>
      functionTool([
        ['name', def.name],
        ['description', def.schemaDescription],
        ['parameters', strictParameters(def, true)],
        ['strict', true],
      ]),
    choice: namedChoice,
  }),
  names: {
    ...OPENAI_NAMES,
    source: { document: 'OpenRouter chat API, ChatFunctionTool.function.name: "a-z, A-Z, 0-9, underscores, dashes, max 64 chars" (@openrouter/sdk 1.3.19 models/chatfunctiontool.d.ts)', read: '2026-12' },
  },
  schemaKeywords: STRICT_KEYWORDS,
  forced: {
    source: { document: 'OpenRouter chat API, tool_choice {type: "function", function: {name}} names one of the request\'s tools (@openrouter/sdk 1.3.19 ChatToolChoice)', read: '2026-12' },
    absent: noChoiceWithoutTools(),
  },
  emptyContent: undefined,
  checks: [],
  cache: {
    kind: 'prefix',
    prefixOrder: ['tools', 'system', 'messages'],
    breakpointsAfter: [],
    refreshOnHit: true,
    writeFactor: 1,
    readFactor: 1,
    money: true,
    summary: 'Pass-through: the upstream provider\'s automatic caching applies; an Anthropic model caches nothing, as JP sends no cache_control through OpenRouter.',
    undocumented: [
      'OpenRouter passes caching through to the model\'s upstream provider: the simulation applies the upstream\'s rules (the price table names each model\'s upstream); JP\'s OpenRouter request carries no cache_control, so an Anthropic model through OpenRouter caches nothing',
    ],
    citations: [
      { rule: 'most providers cache automatically; Anthropic needs cache_control per message', ...DOCS },
      { rule: 'sticky routing keeps requests on the provider holding the warm cache', ...DOCS },
      { rule: 'JP\'s OpenRouter request has no cache_control', document: 'JP today (the project\'s reference)', url: '../shared/reference/jp-today.md §8 (openrouter.rs:764-789)', read: READ_ON },
    ],
  },
  prices: 'openrouter',
  tokenizer: 'OpenRouter routes to many models, each with its own tokenizer',
  // The wire shape; the SDK's own ChatRequest is camelCase.
  sdk: chatSdk('@openrouter/sdk/models', 'ChatRequest$Outbound', { stream: 'false' }),
});
