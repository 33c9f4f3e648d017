// Request rendering per provider, after JP's provider modules (jp-today §8). The caller passes the
// tools array already ordered (the offered set in config order, or with promotions appended; in
// Anthropic directives mode the fixed catalogue array). The result carries the provider-shaped body
// and the three sections the prefix cache compares, in the order a provider places them:
// tools, then system prompt, then messages.
//
// Serialization of the sections:
// - `toolsJson`: compact JSON of the tools array as the body carries it (`""` when omitted);
// - `systemJson`: compact JSON of the system prompt in the provider's shape (`""` when empty);
// - `messagesJson`: one compact JSON line per rendered message, each ending in "\n", so appending
//   messages extends the previous request's bytes, as appending turns extends a tokenized prefix.
import { cloneJson, jsonObject, parametersMap, parametersSchema, strictParameters } from '../catalogue/schema';
import type { JsonObject } from '../catalogue/schema';
import { toJson } from '../json/serde';
import type { ToolDefinition } from '../catalogue/types';
import type { ConversationMessage, DirectiveBlock, ProviderId, ToolCall, ToolChoice } from './types';

export interface RenderInput {
  readonly provider: ProviderId;
  /** The tools array, already ordered. */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly system: string;
  readonly messages: readonly ConversationMessage[];
  /**
   * Anthropic only: the model supports structured output and the beta flag is on, so tools carry
   * `strict: true` and `additionalProperties: false` (anthropic.rs:1306-1307). Default false.
   */
  readonly anthropicStrict?: boolean;
}

export interface RenderedRequest {
  readonly provider: ProviderId;
  /** The request in the provider's JSON shape (tools, choice, system, messages). */
  readonly body: unknown;
  /** Names in the rendered tools array, in order (llama.cpp may have filtered it). */
  readonly toolNames: readonly string[];
  /** The wire value of the tool choice; undefined when the request carries none. */
  readonly toolChoice: unknown;
  readonly toolsJson: string;
  readonly systemJson: string;
  readonly messagesJson: string;
  /** toolsJson + systemJson + messagesJson: the prefix the cache compares. */
  readonly bytes: string;
}

/** Ollama's "poor-man's tool choice" (ollama.rs `tool_choice_to_system_message`). */
export function ollamaToolChoiceNudge(choice: ToolChoice): string | undefined {
  if (choice.kind !== 'function' && choice.kind !== 'required') return undefined;
  const msg =
    choice.kind === 'function'
      ? `You MUST use the function named '${choice.name}' available to you.`
      : 'You MUST use AT LEAST ONE tool available to you.';
  return `IMPORTANT: ${msg} DO NOT QUESTION THIS DIRECTIVE. DO NOT PROMPT FOR MORE CONTEXT OR DETAILS. JUST RUN IT.`;
}

interface Sections {
  /** undefined: the request has no tools field. */
  readonly tools: readonly unknown[] | undefined;
  readonly toolNames: readonly string[];
  readonly toolChoice: unknown;
  /** undefined: no system prompt. */
  readonly system: unknown;
  readonly messages: readonly unknown[];
  readonly body: unknown;
}

export function renderRequest(input: RenderInput): RenderedRequest {
  const sections = renderSections(input);
  // serde_json's output, so a whole float keeps its `.0` (../json/serde.ts).
  const toolsJson = sections.tools === undefined ? '' : toJson(sections.tools);
  const systemJson = sections.system === undefined ? '' : toJson(sections.system);
  const messagesJson = sections.messages.map((m) => `${toJson(m)}\n`).join('');
  return {
    provider: input.provider,
    body: sections.body,
    toolNames: sections.toolNames,
    toolChoice: sections.toolChoice,
    toolsJson,
    systemJson,
    messagesJson,
    bytes: toolsJson + systemJson + messagesJson,
  };
}

function renderSections(input: RenderInput): Sections {
  switch (input.provider) {
    case 'anthropic':
    case 'anthropic-directives':
      return renderAnthropic(input, input.provider === 'anthropic-directives');
    case 'openai':
      return renderOpenai(input);
    case 'google':
      return renderGoogle(input);
    case 'openrouter':
    case 'cerebras':
    case 'llamacpp':
      return renderChatCompletions(input, input.provider);
    case 'ollama':
      return renderOllama(input);
  }
}

/** Build an object from entries, skipping undefined values (serde's `skip_serializing_if`). */
function obj(entries: readonly (readonly [string, unknown])[]): JsonObject {
  const out = jsonObject();
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * A reply with no text and no calls. JP stores no event for it (an empty text block starts no
 * message: anthropic.rs:2336, google.rs:753), so no provider's body carries an assistant message
 * for it; Anthropic's and Gemini's would refuse an empty one.
 */
function isEmptyReply(m: Extract<ConversationMessage, { kind: 'assistant' }>): boolean {
  return (m.text === undefined || m.text === '') && (m.toolCalls === undefined || m.toolCalls.length === 0);
}

/** A user message of text blocks only (an availability or tool-result message is not merged into). */
function isTextBlocks(content: unknown): content is JsonObject[] {
  return Array.isArray(content) && content.every((b) => typeof b === 'object' && b !== null && (b as JsonObject).type === 'text');
}

function isFunctionResponses(parts: unknown[]): boolean {
  return parts.length > 0 && parts.every((p) => typeof p === 'object' && p !== null && 'functionResponse' in p);
}

function argumentsObject(call: ToolCall): JsonObject {
  return cloneJson(call.arguments) as JsonObject;
}

// ── Anthropic ────────────────────────────────────────────────────────────────────────────────

function anthropicChoice(choice: ToolChoice, toolCount: number): unknown {
  // One tool + Function → Required (anthropic.rs:1309-1316).
  const c: ToolChoice = toolCount === 1 && choice.kind === 'function' ? { kind: 'required' } : choice;
  switch (c.kind) {
    case 'none':
      return obj([['type', 'none']]);
    case 'auto':
      return obj([['type', 'auto']]);
    case 'required':
      return obj([['type', 'any']]);
    case 'function':
      return obj([
        ['type', 'tool'],
        ['name', c.name],
      ]);
  }
}

function anthropicTool(def: ToolDefinition, strict: boolean, last: boolean): JsonObject {
  return obj([
    ['name', def.name],
    ['description', def.schemaDescription],
    ['strict', strict ? true : undefined],
    [
      'input_schema',
      obj([
        ['type', 'object'],
        ['properties', parametersMap(def)],
        ['required', [...def.required]],
        ['additionalProperties', strict ? false : undefined],
      ]),
    ],
    // The single tool-level cache breakpoint sits on the last tool (anthropic.rs:2092-2125).
    ['cache_control', last ? obj([['type', 'ephemeral']]) : undefined],
  ]);
}

function directiveBlock(block: DirectiveBlock): JsonObject {
  return obj([
    ['type', block.type],
    ['tools', [...block.tools]],
  ]);
}

/**
 * Anthropic messages. Consecutive tool results form one user message; in directives mode a
 * directive message that follows tool results joins that user message (after the results), so a
 * promotion's `tool_addition` lands "after the tool results of its cycle". Any other directive
 * message is a user message of its own. Without directives, directive messages are skipped.
 */
function anthropicMessages(messages: readonly ConversationMessage[], directives: boolean): JsonObject[] {
  const out: JsonObject[] = [];
  let results: JsonObject[] | undefined;
  const flush = (): void => {
    if (results) out.push(obj([['role', 'user'], ['content', results]]));
    results = undefined;
  };
  for (const m of messages) {
    switch (m.kind) {
      case 'tool-result':
        results ??= [];
        results.push(
          obj([
            ['type', 'tool_result'],
            ['tool_use_id', m.callId],
            ['content', m.content],
            ['is_error', m.isError],
          ]),
        );
        break;
      case 'tool-availability':
        if (!directives) break;
        if (results) {
          results.push(...m.blocks.map(directiveBlock));
          flush();
        } else {
          out.push(obj([['role', 'user'], ['content', m.blocks.map(directiveBlock)]]));
        }
        break;
      case 'user': {
        flush();
        const text = obj([['type', 'text'], ['text', m.text]]);
        // JP folds consecutive same-role events into one message (anthropic.rs convert_events).
        const last = out[out.length - 1];
        if (last?.role === 'user' && isTextBlocks(last.content)) last.content.push(text);
        else out.push(obj([['role', 'user'], ['content', [text]]]));
        break;
      }
      case 'assistant': {
        flush();
        if (isEmptyReply(m)) break;
        const content: JsonObject[] = [];
        if (m.text !== undefined && m.text !== '') content.push(obj([['type', 'text'], ['text', m.text]]));
        for (const call of m.toolCalls ?? []) {
          content.push(
            obj([
              ['type', 'tool_use'],
              ['id', call.id],
              ['name', call.name],
              ['input', argumentsObject(call)],
            ]),
          );
        }
        out.push(obj([['role', 'assistant'], ['content', content]]));
        break;
      }
    }
  }
  flush();
  return out;
}

function renderAnthropic(input: RenderInput, directives: boolean): Sections {
  const strict = input.anthropicStrict ?? false;
  const hasTools = input.tools.length > 0;
  const tools = hasTools
    ? input.tools.map((def, i) => anthropicTool(def, strict, i === input.tools.length - 1))
    : undefined;
  // Tools and tool_choice are omitted together when there are no tools (anthropic.rs:1399-1401).
  const toolChoice = hasTools ? anthropicChoice(input.toolChoice, input.tools.length) : undefined;
  const system = input.system === '' ? undefined : input.system;
  const messages = anthropicMessages(input.messages, directives);
  return {
    tools,
    toolNames: input.tools.map((d) => d.name),
    toolChoice,
    system,
    messages,
    body: obj([
      ['tools', tools],
      ['tool_choice', toolChoice],
      ['system', system],
      ['messages', messages],
    ]),
  };
}

// ── OpenAI (Responses API) ───────────────────────────────────────────────────────────────────

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

function openaiMessages(messages: readonly ConversationMessage[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const m of messages) {
    switch (m.kind) {
      case 'user':
        out.push(obj([['role', 'user'], ['content', m.text]]));
        break;
      case 'assistant':
        if (m.text !== undefined && m.text !== '') out.push(obj([['role', 'assistant'], ['content', m.text]]));
        for (const call of m.toolCalls ?? []) {
          out.push(
            obj([
              ['type', 'function_call'],
              ['call_id', call.id],
              ['name', call.name],
              ['arguments', toJson(argumentsObject(call))],
            ]),
          );
        }
        break;
      case 'tool-result':
        out.push(
          obj([
            ['type', 'function_call_output'],
            ['call_id', m.callId],
            ['output', m.content],
          ]),
        );
        break;
      case 'tool-availability':
        break;
    }
  }
  return out;
}

function renderOpenai(input: RenderInput): Sections {
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
  const messages = openaiMessages(input.messages);
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

// ── Google ───────────────────────────────────────────────────────────────────────────────────

function googleToolConfig(choice: ToolChoice, hasTools: boolean): JsonObject {
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

function googleMessages(messages: readonly ConversationMessage[]): JsonObject[] {
  const out: JsonObject[] = [];
  let responses: JsonObject[] | undefined;
  const flush = (): void => {
    if (responses) out.push(obj([['role', 'user'], ['parts', responses]]));
    responses = undefined;
  };
  for (const m of messages) {
    switch (m.kind) {
      case 'tool-result':
        responses ??= [];
        responses.push(
          obj([
            [
              'functionResponse',
              obj([
                ['name', m.name],
                ['response', obj([[m.isError ? 'error' : 'content', m.content]])],
              ]),
            ],
          ]),
        );
        break;
      case 'tool-availability':
        break;
      case 'user': {
        flush();
        const part = obj([['text', m.text]]);
        // JP folds consecutive same-role events into one content (google.rs:1117-1128).
        const last = out[out.length - 1];
        if (last?.role === 'user' && Array.isArray(last.parts) && !isFunctionResponses(last.parts)) (last.parts as JsonObject[]).push(part);
        else out.push(obj([['role', 'user'], ['parts', [part]]]));
        break;
      }
      case 'assistant': {
        flush();
        if (isEmptyReply(m)) break;
        const parts: JsonObject[] = [];
        if (m.text !== undefined && m.text !== '') parts.push(obj([['text', m.text]]));
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
        out.push(obj([['role', 'model'], ['parts', parts]]));
        break;
      }
    }
  }
  flush();
  return out;
}

function renderGoogle(input: RenderInput): Sections {
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
  const toolChoice = googleToolConfig(input.toolChoice, hasTools);
  const system = input.system === '' ? undefined : obj([['parts', [obj([['text', input.system]])]]]);
  const messages = googleMessages(input.messages);
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

// ── OpenAI-compatible chat completions: OpenRouter, Cerebras, llama.cpp ───────────────────────

type ChatProvider = 'openrouter' | 'cerebras' | 'llamacpp';

function chatChoice(provider: ChatProvider, choice: ToolChoice): unknown {
  if (provider === 'llamacpp') {
    // auto/none as is; required and function both become "required" (llamacpp.rs).
    return choice.kind === 'function' ? 'required' : choice.kind;
  }
  if (choice.kind === 'function') {
    return obj([
      ['type', 'function'],
      ['function', obj([['name', choice.name]])],
    ]);
  }
  return choice.kind;
}

function chatTool(provider: ChatProvider, def: ToolDefinition): JsonObject {
  switch (provider) {
    case 'openrouter':
      return obj([
        ['type', 'function'],
        [
          'function',
          obj([
            ['name', def.name],
            ['description', def.schemaDescription],
            ['parameters', strictParameters(def, true)],
            ['strict', true],
          ]),
        ],
      ]);
    case 'cerebras':
      return obj([
        ['type', 'function'],
        [
          'function',
          obj([
            ['name', def.name],
            ['description', def.schemaDescription ?? ''],
            ['parameters', strictParameters(def, false)],
          ]),
        ],
      ]);
    case 'llamacpp':
      return obj([
        ['type', 'function'],
        [
          'function',
          obj([
            ['name', def.name],
            ['description', def.schemaDescription ?? ''],
            ['parameters', strictParameters(def, true)],
            ['strict', true],
          ]),
        ],
      ]);
  }
}

function chatMessages(messages: readonly ConversationMessage[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const m of messages) {
    switch (m.kind) {
      case 'user':
        out.push(obj([['role', 'user'], ['content', m.text]]));
        break;
      case 'assistant': {
        if (isEmptyReply(m)) break;
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
        out.push(
          obj([
            ['role', 'assistant'],
            ['content', m.text ?? null],
            ['tool_calls', calls.length > 0 ? calls : undefined],
          ]),
        );
        break;
      }
      case 'tool-result':
        out.push(
          obj([
            ['role', 'tool'],
            ['tool_call_id', m.callId],
            ['content', m.content],
          ]),
        );
        break;
      case 'tool-availability':
        break;
    }
  }
  return out;
}

function renderChatCompletions(input: RenderInput, provider: ChatProvider): Sections {
  let defs = input.tools;
  // llama.cpp: with Function(X), the array is filtered down to X alone (llamacpp.rs:648-672).
  if (provider === 'llamacpp' && input.toolChoice.kind === 'function') {
    const forced = input.toolChoice.name;
    defs = defs.filter((d) => d.name === forced);
  }
  const hasTools = defs.length > 0;
  // Empty tools: tools and tool_choice omitted (OpenRouter sends tool_choice None, Cerebras
  // cerebras.rs:529-532, llama.cpp llamacpp.rs:530-533).
  const tools = hasTools ? defs.map((def) => chatTool(provider, def)) : undefined;
  const toolChoice = hasTools ? chatChoice(provider, input.toolChoice) : undefined;
  const system = input.system === '' ? undefined : obj([['role', 'system'], ['content', input.system]]);
  const messages = chatMessages(input.messages);
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
}

// ── Ollama ───────────────────────────────────────────────────────────────────────────────────

function ollamaMessages(messages: readonly ConversationMessage[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const m of messages) {
    switch (m.kind) {
      case 'user':
        out.push(obj([['role', 'user'], ['content', m.text]]));
        break;
      case 'assistant': {
        if (isEmptyReply(m)) break;
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
        out.push(
          obj([
            ['role', 'assistant'],
            ['content', m.text ?? ''],
            ['tool_calls', calls.length > 0 ? calls : undefined],
          ]),
        );
        break;
      }
      case 'tool-result':
        out.push(obj([['role', 'tool'], ['content', m.content]]));
        break;
      case 'tool-availability':
        break;
    }
  }
  return out;
}

function renderOllama(input: RenderInput): Sections {
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
  const system = input.system === '' ? undefined : obj([['role', 'system'], ['content', input.system]]);
  const messages = ollamaMessages(input.messages);
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
