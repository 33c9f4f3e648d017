// OpenAI-compatible chat completions, as JP's openrouter.rs, cerebras.rs and llamacpp.rs render them
// (jp-today §8): the providers differ only in a tool's element, the tool choice and llama.cpp's filter.
import type { JsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import { toJson } from '../json/serde';
import { sdkFields } from './descriptor';
import type { SdkType } from './descriptor';
import type { ToolChoice } from './types';
import { argumentsObject, obj, renderMessages, systemMessage } from './wire';
import type { MessageShape, RenderParts, Sections } from './wire';

const MESSAGES: MessageShape = {
  family: 'message',
  user: (text) => obj([['role', 'user'], ['content', text]]),
  toolResult: (m) =>
    obj([
      ['role', 'tool'],
      ['tool_call_id', m.callId],
      ['content', m.content],
    ]),
  assistant: (m) => {
    const calls = (m.toolCalls ?? []).map((call) =>
      obj([
        ['id', call.id],
        ['type', 'function'],
        [
          'function',
          obj([
            ['name', call.name],
            ['arguments', toJson(argumentsObject(call))],
          ]),
        ],
      ]),
    );
    return [
      obj([
        ['role', 'assistant'],
        ['content', m.text ?? null],
        ['tool_calls', calls.length > 0 ? calls : undefined],
      ]),
    ];
  },
};

/** OpenAI's `{type: "function", function: {name}}` choice, auto/none/required as they are. */
export function namedChoice(choice: ToolChoice): unknown {
  if (choice.kind === 'function') {
    return obj([
      ['type', 'function'],
      ['function', obj([['name', choice.name]])],
    ]);
  }
  return choice.kind;
}

/** A tool as `{type: "function", function: {...}}` with the given function fields. */
export const functionTool = (fields: readonly (readonly [string, unknown])[]): JsonObject => obj([['type', 'function'], ['function', obj(fields)]]);

export interface ChatProvider {
  readonly tool: (def: ToolDefinition) => JsonObject;
  readonly choice: (choice: ToolChoice) => unknown;
  /** llama.cpp: with Function(X), the array is filtered down to X alone (llamacpp.rs:648-672). */
  readonly filterForced?: boolean;
}

export function renderChat(provider: ChatProvider): (input: RenderParts) => Sections {
  return (input) => {
    const forced = provider.filterForced && input.toolChoice.kind === 'function' ? input.toolChoice.name : undefined;
    const defs = forced === undefined ? input.tools : input.tools.filter((d) => d.name === forced);
    const hasTools = defs.length > 0;
    // Empty tools: tools and tool_choice omitted (OpenRouter sends tool_choice None, Cerebras
    // cerebras.rs:529-532, llama.cpp llamacpp.rs:530-533).
    const tools = hasTools ? defs.map(provider.tool) : undefined;
    const toolChoice = hasTools ? provider.choice(input.toolChoice) : undefined;
    const system = systemMessage(input.system);
    const messages = renderMessages(input.messages, MESSAGES);
    return {
      tools,
      toolNames: defs.map((d) => d.name),
      toolChoice,
      system,
      messages,
      body: obj([
        ['tools', tools],
        ['tool_choice', toolChoice],
        ['messages', system === undefined ? messages : [system, ...messages]],
      ]),
    };
  };
}

/** The SDK check of a chat completions body: `P` from `module`, tools and messages element by element. */
export const chatSdk = (module: string, type: string, extra: Readonly<Record<string, string>> = {}): SdkType => ({
  module,
  type,
  elements: { tools: 'NonNullable<P["tools"]>[number]', messages: 'P["messages"][number]' },
  wrap: (p) => `{ model: 'm', ${sdkFields({ ...extra, ...p }, [...Object.keys(extra), 'tools', 'tool_choice', 'messages'])} }`,
});
