// Cerebras' chat completions as JP's cerebras.rs renders them (jp-today §8).
import { chatWire } from './reply';
import { strictParameters } from '../catalogue/schema';
import { chatSdk, functionTool, namedChoice, renderChat } from './chat-completions';
import { defineProvider, noChoiceWithoutTools, READ_ON } from './descriptor';

const DOCS = { document: 'Cerebras Inference docs, "Prompt Caching"', url: 'https://inference-docs.cerebras.ai/capabilities/prompt-caching', read: READ_ON };

export const CEREBRAS = defineProvider({
  id: 'cerebras',
  words: 'Cerebras',
  reply: chatWire('CEREBRAS_API_KEY', 'CEREBRAS_BASE_URL', 'https://api.cerebras.ai/v1'),
  render: renderChat({
    tool: (def) =>
      functionTool([
        ['name', def.name],
        ['description', def.schemaDescription ?? ''],
        ['parameters', strictParameters(def, false)],
      ]),
    choice: namedChoice,
  }),
  names: { unpublished: { document: 'no rule for tool names in @cerebras/cerebras_cloud_sdk 1.91.0 or the Cerebras docs: nothing is checked', read: '2026-12' } },
  schemaKeywords: undefined,
  forced: {
    source: { document: 'Cerebras chat completions, tool_choice {type: "function", function: {name}} names one of the request\'s tools (@cerebras/cerebras_cloud_sdk 1.91.0)', read: '2026-12' },
    absent: noChoiceWithoutTools(),
  },
  emptyContent: undefined,
  checks: [],
  cache: {
    kind: 'prefix',
    prefixOrder: ['tools', 'system', 'messages'],
    breakpointsAfter: [],
    step: 128,
    ttlSeconds: 300,
    refreshOnHit: false,
    writeFactor: 1,
    readFactor: 1,
    money: true,
    summary: 'Automatic prefix caching in 128-token blocks, for latency: no cached-token price is documented.',
    undocumented: [
      'a minimum cacheable length: none is documented beyond the 128-token block',
      'a price for cached tokens: the page promises lower latency, not a lower price; the simulation bills them at the input price (edit the price table when Cerebras publishes one)',
      'whether a hit restarts the 5-minute time-to-live: the simulation counts it from the write',
    ],
    citations: [
      { rule: 'automatic on supported models; the prefix includes system prompts and tool definitions', ...DOCS },
      { rule: 'prompts are processed in 128-token blocks; a hit needs the whole beginning to match', ...DOCS },
      { rule: 'guaranteed time-to-live of 5 minutes, up to 1 hour depending on load', ...DOCS },
    ],
  },
  prices: 'cerebras',
  tokenizer: 'Cerebras serves open models (Llama, Qwen, gpt-oss) with their own tokenizers; none is an npm package of Cerebras',
  sdk: chatSdk('@cerebras/cerebras_cloud_sdk/resources/chat/completions', 'ChatCompletionCreateParamsNonStreaming'),
});
