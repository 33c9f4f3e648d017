// llama.cpp's server (OpenAI-compatible chat completions) as JP's llamacpp.rs renders it (jp-today §8).
import { chatWire } from './reply';
import { strictParameters } from '../catalogue/schema';
import { chatSdk, functionTool, renderChat } from './chat-completions';
import { defineProvider, READ_ON } from './descriptor';
import { LOCAL_CACHE, RFD_LOCAL } from './local-runtime';

export const LLAMACPP = defineProvider({
  id: 'llamacpp',
  words: 'llama.cpp',
  // llama.cpp's server takes an optional --api-key; LLAMACPP_API_KEY is sent when set.
  reply: chatWire('LLAMACPP_API_KEY', 'LLAMACPP_BASE_URL', 'http://127.0.0.1:8080/v1', false),
  render: renderChat({
    tool: (def) =>
      functionTool([
        ['name', def.name],
        ['description', def.schemaDescription ?? ''],
        ['parameters', strictParameters(def, true)],
        ['strict', true],
      ]),
    // auto/none as is; required and function both become "required" (llamacpp.rs).
    choice: (choice) => (choice.kind === 'function' ? 'required' : choice.kind),
    filterForced: true,
  }),
  names: { unpublished: { document: 'no rule for tool names in the llama.cpp server README: nothing is checked', read: '2026-12' } },
  schemaKeywords: undefined,
  forced: {
    source: { document: 'JP llamacpp.rs:648-672 (jp-today §8): with a forced tool the array is filtered down to that tool', read: '2026-12' },
    absent: (forced) => ({ message: `\`${forced}\` is forced but not in the tools array; JP filters the array down to the forced tool, so the request goes without tools and nothing is forced` }),
  },
  emptyContent: undefined,
  checks: [],
  cache: {
    ...LOCAL_CACHE,
    summary: 'Local: llama-server keeps the previous request\'s KV cache in its slot and skips the prefill of the shared prefix; counted as prefill tokens saved, not money.',
    undocumented: ['a time-to-live: the slot keeps its cache until another request replaces it; the simulation never expires it', 'the template\'s exact rendering: the simulation compares JP\'s request JSON, tools first'],
    citations: [
      {
        rule: 'per-slot prompt cache: only the tokens after the common prefix are processed (cache_prompt)',
        document: 'llama.cpp server: per-slot prompt cache, the common prefix with the slot\'s previous tokens skips prefill (cache_prompt)',
        url: 'https://github.com/huggingface/chat-ui/pull/920',
        read: READ_ON,
      },
      RFD_LOCAL,
    ],
  },
  prices: 'llamacpp',
  tokenizer: "llama.cpp counts with the loaded model's own tokenizer, which ships inside the model file",
  // llama.cpp has no SDK and serves the OpenAI chat API.
  sdk: chatSdk('openai/resources/chat/completions', 'ChatCompletionCreateParamsNonStreaming'),
});
