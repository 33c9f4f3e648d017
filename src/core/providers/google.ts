// Google's Gemini API as JP's google.rs renders it (jp-today §8).
import { GOOGLE_WIRE } from './reply';
import { parametersSchema } from '../catalogue/schema';
import type { JsonObject } from '../catalogue/schema';
import { defineProvider, noChoiceWithoutTools, READ_ON, sdkFields } from './descriptor';
import type { ToolChoice } from './types';
import { argumentsObject, hasText, obj, renderMessages } from './wire';
import type { MessageShape, RenderParts, Sections } from './wire';

function toolConfig(choice: ToolChoice, hasTools: boolean): JsonObject {
  let mode: string;
  let allowed: string[] | undefined;
  if (!hasTools) mode = 'NONE';
  else {
    switch (choice.kind) {
      case 'none':
        mode = 'NONE';
        break;
      case 'auto':
        mode = 'VALIDATED';
        break;
      case 'required':
        mode = 'ANY';
        break;
      case 'function':
        mode = 'ANY';
        allowed = [choice.name];
        break;
    }
  }
  return obj([
    [
      'functionCallingConfig',
      obj([
        ['mode', mode],
        ['allowedFunctionNames', allowed],
      ]),
    ],
  ]);
}

const MESSAGES: MessageShape = {
  family: 'parts',
  key: 'parts',
  text: (text) => obj([['text', text]]),
  isText: (p) => typeof p === 'object' && p !== null && 'text' in p,
  toolResult: (m) =>
    obj([
      [
        'functionResponse',
        obj([
          ['name', m.name],
          ['response', obj([[m.isError ? 'error' : 'content', m.content]])],
        ]),
      ],
    ]),
  assistant: (m) => {
    const parts: JsonObject[] = [];
    if (hasText(m)) parts.push(obj([['text', m.text]]));
    for (const call of m.toolCalls ?? []) {
      parts.push(
        obj([
          [
            'functionCall',
            obj([
              ['name', call.name],
              ['args', argumentsObject(call)],
            ]),
          ],
        ]),
      );
    }
    return [obj([['role', 'model'], ['parts', parts]])];
  },
};

function render(input: RenderParts): Sections {
  const hasTools = input.tools.length > 0;
  // One Tool per definition, each with one FunctionDeclaration (google.rs:1014-1033).
  const tools = hasTools
    ? input.tools.map((def) =>
        obj([
          [
            'functionDeclarations',
            [
              obj([
                ['name', def.name],
                ['description', def.schemaDescription ?? ''],
                ['parametersJsonSchema', parametersSchema(def)],
              ]),
            ],
          ],
        ]),
      )
    : undefined;
  // With no tools, tool_config mode is NONE (google.rs:207-221).
  const toolChoice = toolConfig(input.toolChoice, hasTools);
  const system = input.system === '' ? undefined : obj([['parts', [obj([['text', input.system]])]]]);
  const messages = renderMessages(input.messages, MESSAGES);
  return {
    tools,
    toolNames: input.tools.map((d) => d.name),
    toolChoice,
    system,
    messages,
    body: obj([
      ['tools', tools],
      ['toolConfig', toolChoice],
      ['systemInstruction', system],
      ['contents', messages],
    ]),
  };
}

const DOCS = { document: 'Google, Gemini API "Context caching": implicit caching', url: 'https://ai.google.dev/gemini-api/docs/caching', read: READ_ON };

export const GOOGLE = defineProvider({
  id: 'google',
  words: 'Gemini',
  render,
  reply: GOOGLE_WIRE,
  names: {
    allowed: /^[a-zA-Z0-9_.:-]$/,
    first: /^[a-zA-Z_]$/,
    words: 'letters a-z and A-Z, digits, `_`, `.`, `:` and `-`, starting with a letter or `_`',
    max: 128,
    documentedMax: {
      max: 64,
      source: { document: 'Gemini API v1beta FunctionDeclaration.name: "with a maximum length of 64" (generativelanguage v1beta reference; Vertex AI v1 says 128)', read: '2026-12' },
    },
    source: {
      document: 'Gemini API FunctionDeclaration.name: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 128" (@google/genai 3.1.0 genai.d.ts)',
      read: '2026-12',
    },
  },
  schemaKeywords: undefined,
  forced: {
    source: { document: 'Gemini API FunctionCallingConfig.allowedFunctionNames: "Function names should match [FunctionDeclaration.name]" (@google/genai 3.1.0 genai.d.ts)', read: '2026-12' },
    absent: noChoiceWithoutTools(' (mode NONE)'),
  },
  emptyContent: {
    source: { document: 'Gemini API error "GenerateContentRequest.contents[N].parts: contents.parts must not be empty" (vercel/ai#3775)', read: '2026-12' },
    list: 'contents',
    content: 'parts',
  },
  checks: [],
  cache: {
    kind: 'prefix',
    prefixOrder: ['tools', 'system', 'messages'],
    breakpointsAfter: [],
    minTokens: 2048,
    refreshOnHit: true,
    writeFactor: 1,
    readFactor: 0.1,
    money: true,
    summary: 'Implicit prefix caching above the model\'s minimum; a promotion cuts the shared prefix where the array changes.',
    undocumented: [
      'the time-to-live of an implicit cache entry ("send requests with similar prefix in a short amount of time"): the simulation lets entries live through the conversation',
      'the granularity of a hit: the simulation counts every shared token',
      'where the tools field sits among the prompt\'s tokens: the simulation puts it first',
      'that an implicit hit is guaranteed ("no cost saving guarantee"): the simulation counts every possible hit',
    ],
    citations: [
      { rule: 'implicit caching is on by default for Gemini 2.5 and newer; savings passed on when a request hits', ...DOCS },
      { rule: 'minimum input tokens by model: 2,048 for Gemini 2.5 Flash and Pro, 4,096 for newer models (per model in the price table)', ...DOCS },
      { rule: 'put large common content at the beginning of the prompt; hits are prefix matches', ...DOCS },
    ],
  },
  prices: 'google',
  tokenizer: 'Google publishes no Gemini tokenizer for JavaScript (@google/genai counts through the countTokens API; the local tokenizer is Python and Java only)',
  sdk: {
    module: '@google/genai',
    type: 'GenerateContentParameters',
    alsoTypes: ['Content', 'Tool'],
    values: ['FunctionCallingConfigMode'],
    elements: { tools: 'Tool', contents: 'Content' },
    // The SDK types the mode as a TypeScript enum, whose members are the wire strings.
    literal: (key, json) => (key === 'toolConfig' ? json.replace(/"mode":"([A-Z_]+)"/g, '"mode":FunctionCallingConfigMode.$1') : json),
    wrap: (p) => `{ model: 'm', contents: ${p.contents ?? '[]'}, config: { ${sdkFields(p, ['tools', 'toolConfig', 'systemInstruction'])} } }`,
  },
});
