// Ollama's chat API as JP's ollama.rs renders it (jp-today §8).
import { OLLAMA_WIRE } from './reply';
import { parametersMap } from '../catalogue/schema';
import type { JsonObject } from '../catalogue/schema';
import { defineProvider, READ_ON, sdkFields } from './descriptor';
import type { ProviderFinding, RequestFacts } from './descriptor';
import { LOCAL_CACHE, RFD_LOCAL } from './local-runtime';
import type { ToolChoice } from './types';
import { argumentsObject, obj, renderMessages, systemMessage } from './wire';
import type { MessageShape, RenderParts, Sections } from './wire';

/** Ollama's "poor-man's tool choice" (ollama.rs `tool_choice_to_system_message`). */
export function ollamaToolChoiceNudge(choice: ToolChoice): string | undefined {
  if (choice.kind !== 'function' && choice.kind !== 'required') return undefined;
  const msg =
    choice.kind === 'function'
      ? `You MUST use the function named '${choice.name}' available to you.`
      : 'You MUST use AT LEAST ONE tool available to you.';
  return `IMPORTANT: ${msg} DO NOT QUESTION THIS DIRECTIVE. DO NOT PROMPT FOR MORE CONTEXT OR DETAILS. JUST RUN IT.`;
}

const MESSAGES: MessageShape = {
  family: 'message',
  user: (text) => obj([['role', 'user'], ['content', text]]),
  toolResult: (m) => obj([['role', 'tool'], ['content', m.content]]),
  assistant: (m) => {
    const calls = (m.toolCalls ?? []).map((call) =>
      obj([
        [
          'function',
          obj([
            ['name', call.name],
            ['arguments', argumentsObject(call)],
          ]),
        ],
      ]),
    );
    return [
      obj([
        ['role', 'assistant'],
        ['content', m.text ?? ''],
        ['tool_calls', calls.length > 0 ? calls : undefined],
      ]),
    ];
  },
};

function render(input: RenderParts): Sections {
  const hasTools = input.tools.length > 0;
  const tools = hasTools
    ? input.tools.map((def) =>
        obj([
          ['type', 'function'],
          [
            'function',
            obj([
              ['name', def.name],
              ['description', def.schemaDescription ?? ''],
              // JP passes `to_parameters_map()`: the properties only (ollama.rs:411-429).
              ['parameters', parametersMap(def)],
            ]),
          ],
        ]),
      )
    : undefined;
  const system = systemMessage(input.system);
  const messages: JsonObject[] = renderMessages(input.messages, MESSAGES);
  // No tool_choice field: a forced choice appends a system message after the history.
  const nudge = ollamaToolChoiceNudge(input.toolChoice);
  if (nudge !== undefined) messages.push(obj([['role', 'system'], ['content', nudge]]));
  return {
    tools,
    toolNames: input.tools.map((d) => d.name),
    toolChoice: undefined,
    system,
    messages,
    body: obj([
      ['tools', tools],
      ['messages', system === undefined ? messages : [system, ...messages]],
    ]),
  };
}

const PARAMETERS = {
  document: 'JP ollama.rs:411-429 passes to_parameters_map() (jp-today §8); Ollama reads parameters.type, parameters.properties and parameters.required (ollama 0.6.4 Tool type; Ollama API docs, "Chat request with tools")',
  read: '2026-12',
};

/** JP sends Ollama the properties map alone as `parameters`: Ollama sees no parameters at all. */
function parametersLost(request: RequestFacts): ProviderFinding[] {
  const withParams = request.tools.filter((d) => d.parameters.size > 0);
  if (withParams.length === 0) return [];
  const names = withParams.slice(0, 3).map((d) => `\`${d.name}\``).join(', ');
  const more = withParams.length > 3 ? ` and ${withParams.length - 3} more` : '';
  return [
    {
      rule: 'ollama-parameters',
      severity: 'warning',
      source: PARAMETERS,
      message: `JP sends only the properties map as \`parameters\` (no type, properties or required wrapper), so Ollama sees no parameters for ${withParams.length} tool${withParams.length === 1 ? '' : 's'} (${names}${more}); the simulator keeps JP's body`,
    },
  ];
}

export const OLLAMA = defineProvider({
  id: 'ollama',
  words: 'Ollama',
  render,
  reply: OLLAMA_WIRE,
  names: { unpublished: { document: 'no rule for tool names in the ollama 0.6.4 types or the Ollama API docs: nothing is checked', read: '2026-12' } },
  schemaKeywords: undefined,
  forced: {
    source: { document: 'JP ollama.rs:431-450 (jp-today §8): a forced choice becomes a system message naming the tool; Ollama has no tool_choice field', read: '2026-12' },
    absent: (forced) => ({ message: `\`${forced}\` is forced but not in the tools array; JP's system message tells the model to call a tool it does not have` }),
  },
  emptyContent: undefined,
  checks: [parametersLost],
  cache: {
    ...LOCAL_CACHE,
    ttlSeconds: 300,
    summary: 'Local: the runtime reuses the KV cache of the previous request for the shared prefix; counted as prefill tokens saved, not money.',
    undocumented: ['how much of the previous request the slot keeps: the simulation reuses the longest shared prefix of the rendered request', 'the template\'s exact rendering: the simulation compares JP\'s request JSON, tools first'],
    citations: [
      { rule: 'the model (and its KV cache) is unloaded after keep_alive, 5 minutes by default', document: 'Ollama: keep_alive (default 5 minutes) before a model is unloaded', url: 'https://github.com/ollama/ollama/pull/2146', read: READ_ON },
      RFD_LOCAL,
    ],
  },
  prices: 'ollama',
  tokenizer: "Ollama counts with the local model's own tokenizer, which ships inside the model file",
  sdk: {
    module: 'ollama/browser',
    type: 'ChatRequest',
    elements: { tools: 'NonNullable<P["tools"]>[number]', messages: 'NonNullable<P["messages"]>[number]' },
    wrap: (p) => `{ model: 'm', ${sdkFields(p, ['tools', 'messages'])} }`,
  },
});
