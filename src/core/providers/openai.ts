// OpenAI's Responses API as JP's openai.rs renders it (jp-today §8).
import { OPENAI_WIRE } from './reply';
import { strictParameters } from '../catalogue/schema';
import type { JsonObject } from '../catalogue/schema';
import { toJson } from '../json/serde';
import { defineProvider, READ_ON, sdkFields } from './descriptor';
import type { KeywordRule, NameRule } from './rules';
import type { ToolChoice } from './types';
import { argumentsObject, hasText, obj, renderMessages } from './wire';
import type { MessageShape, RenderParts, Sections } from './wire';

function openaiChoice(choice: ToolChoice): unknown {
  switch (choice.kind) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.kind;
    case 'function':
      return obj([
        ['type', 'function'],
        ['name', choice.name],
      ]);
  }
}

const MESSAGES: MessageShape = {
  family: 'message',
  user: (text) => obj([['role', 'user'], ['content', text]]),
  toolResult: (m) =>
    obj([
      ['type', 'function_call_output'],
      ['call_id', m.callId],
      ['output', m.content],
    ]),
  // The Responses input has one item per call after the reply's text.
  assistant: (m) => {
    const items: JsonObject[] = hasText(m) ? [obj([['role', 'assistant'], ['content', m.text]])] : [];
    for (const call of m.toolCalls ?? []) {
      items.push(
        obj([
          ['type', 'function_call'],
          ['call_id', call.id],
          ['name', call.name],
          ['arguments', toJson(argumentsObject(call))],
        ]),
      );
    }
    return items;
  },
};

function render(input: RenderParts): Sections {
  // `tools: Some(vec)` is always sent, even empty (openai.rs:580-581).
  const tools = input.tools.map((def) =>
    obj([
      ['type', 'function'],
      ['name', def.name],
      ['strict', true],
      ['description', def.schemaDescription],
      ['parameters', strictParameters(def, true)],
    ]),
  );
  const toolChoice = openaiChoice(input.toolChoice);
  const system =
    input.system === ''
      ? undefined
      : obj([
          ['role', 'system'],
          ['content', [obj([['type', 'input_text'], ['text', input.system]])]],
        ]);
  const messages = renderMessages(input.messages, MESSAGES);
  return {
    tools,
    toolNames: input.tools.map((d) => d.name),
    toolChoice,
    system,
    messages,
    body: obj([
      ['tools', tools],
      ['tool_choice', toolChoice],
      ['input', system === undefined ? messages : [system, ...messages]],
    ]),
  };
}

/** OpenAI's function names (OpenRouter takes the same). */
export const OPENAI_NAMES: NameRule = {
  allowed: /^[a-zA-Z0-9_-]$/,
  words: 'letters a-z and A-Z, digits, `_` and `-`',
  max: 64,
  source: {
    document: 'OpenAI API reference, function name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64" (openai 7.55.0 resources/shared.d.ts FunctionDefinition.name)',
    read: '2026-12',
  },
};

// OpenAI's strict mode (Structured Outputs) takes a subset of JSON Schema. JP's strict conversion
// flattens `allOf` and resolves `$ref` with siblings (schema.ts); these survive it and are refused.
export const STRICT_KEYWORDS: KeywordRule = {
  keywords: new Set(['oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas']),
  why: 'strict mode (Structured Outputs) supports a subset of JSON Schema without it',
  source: {
    document: 'OpenAI Structured Outputs guide, "Supported schemas": composition keywords allOf, not, dependentRequired, dependentSchemas, if, then, else are not supported; the API answers "\'oneOf\' is not permitted" (community.openai.com t/932422)',
    read: '2026-12',
  },
};

const DOCS = { document: 'OpenAI, "Prompt caching" guide', url: 'https://developers.openai.com/docs/guides/prompt-caching', read: READ_ON };
const COOKBOOK = {
  document: 'OpenAI Cookbook, "Prompt Caching 201" §1.1',
  url: 'https://raw.githubusercontent.com/openai/openai-cookbook/main/examples/Prompt_Caching_201.ipynb',
  read: READ_ON,
};
const RETENTION = {
  document: 'Microsoft Learn, Azure OpenAI "Prompt caching": in-memory retention',
  url: 'https://learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching',
  read: READ_ON,
};

export const OPENAI = defineProvider({
  id: 'openai',
  words: 'OpenAI',
  render,
  reply: OPENAI_WIRE,
  names: OPENAI_NAMES,
  schemaKeywords: STRICT_KEYWORDS,
  // JP always sends `tools` to OpenAI, even empty, with the function choice (openai.rs:580-581): refused.
  forced: { source: { document: 'OpenAI Responses API, tool_choice {type: "function", name}: "The name of the function to call" (openai 7.55.0 ToolChoiceFunction), one of the request\'s tools', read: '2026-12' } },
  emptyContent: undefined,
  checks: [],
  cache: {
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
    summary: 'Automatic prefix caching from 1,024 tokens in steps of 128: a promotion in config order cuts the shared prefix at the promoted tool; appended, it keeps the old array as a prefix.',
    undocumented: [
      'where the tools array sits among the prompt\'s tokens: the guide says tools are part of the cached prefix and must be identical; the simulation puts them first, as JP\'s request carries them',
      'the exact time-to-live: caches are cleared after 5 to 10 minutes of inactivity and always within an hour; the simulation uses the lower bound, 5 minutes',
    ],
    citations: [
      { rule: 'automatic for prompts of 1,024 tokens or more; no code changes and no extra fee for writes', ...DOCS },
      { rule: 'hits only for exact prefix matches; tools must be identical between requests', ...DOCS },
      { rule: 'cache hits come in increments of 128 tokens', ...COOKBOOK },
      { rule: 'cleared after 5 to 10 minutes of inactivity, always within one hour', ...RETENTION },
      { rule: 'cached input is billed at the model\'s cached-input price (per model in the price table)', ...DOCS },
    ],
  },
  prices: 'openai',
  tokenizer: "o200k_base is OpenAI's own encoding for its current models (tiktoken), here through gpt-tokenizer; OpenAI adds a few tokens of its own tool formatting",
  sdk: {
    module: 'openai/resources/responses/responses',
    type: 'ResponseCreateParamsNonStreaming',
    elements: { tools: 'NonNullable<P["tools"]>[number]', input: 'Extract<NonNullable<P["input"]>, readonly unknown[]>[number]' },
    wrap: (p) => `{ model: 'm', ${sdkFields(p, ['tools', 'tool_choice', 'input'])} }`,
  },
});
