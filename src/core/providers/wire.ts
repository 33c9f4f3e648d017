// What every provider's renderer shares: the sections a request is made of, serde-like object
// building, and the one loop that turns JP's conversation into a provider's messages. A provider
// says only how each kind of message looks (a MessageShape); the loop decides what is skipped,
// grouped and folded, the same way for all of them.
import { cloneJson, jsonObject } from '../catalogue/schema';
import type { JsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import type { ConversationMessage, DirectiveBlock, ToolCall, ToolChoice } from './types';

/** JP's inputs to one request, as a provider's renderer reads them. */
export interface RenderParts {
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

/** A rendered request before serialization: the three sections the prefix cache compares, and the body. */
export interface Sections {
  /** undefined: the request has no tools field. */
  readonly tools: readonly unknown[] | undefined;
  readonly toolNames: readonly string[];
  readonly toolChoice: unknown;
  /** undefined: no system prompt. */
  readonly system: unknown;
  readonly messages: readonly unknown[];
  readonly body: unknown;
}

/** Build an object from entries, skipping undefined values (serde's `skip_serializing_if`). */
export function obj(entries: readonly (readonly [string, unknown])[]): JsonObject {
  const out = jsonObject();
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * A reply with no text and no calls. JP stores no event for it (an empty text block starts no
 * message: anthropic.rs:2336, google.rs:753), so no provider's body carries an assistant message
 * for it; Anthropic's and Gemini's would refuse an empty one.
 */
function isEmptyReply(m: AssistantMessage): boolean {
  return (m.text === undefined || m.text === '') && (m.toolCalls === undefined || m.toolCalls.length === 0);
}

export function argumentsObject(call: ToolCall): JsonObject {
  return cloneJson(call.arguments) as JsonObject;
}

export const hasText = (m: AssistantMessage): m is AssistantMessage & { readonly text: string } => m.text !== undefined && m.text !== '';

export type AssistantMessage = Extract<ConversationMessage, { kind: 'assistant' }>;
export type ToolResultMessage = Extract<ConversationMessage, { kind: 'tool-result' }>;

/**
 * How one provider writes each kind of message. Two families:
 * - `message`: every user text and every tool result is a message of its own (OpenAI, the chat
 *   completions providers, Ollama);
 * - `parts`: a user message holds a list of parts under `key` (Anthropic `content`, Gemini `parts`).
 *   Consecutive tool results are parts of one user message; a user text joins the previous user
 *   message when that holds text only (JP folds consecutive same-role events: anthropic.rs
 *   convert_events, google.rs:1117-1128); directive blocks, where the provider has them, join the
 *   tool results before them (so a promotion's `tool_addition` lands after its cycle's results) or
 *   form a user message of their own.
 */
export type MessageShape = {
  /** A non-empty reply: its message, or its items (OpenAI's Responses input has one per call). */
  readonly assistant: (m: AssistantMessage) => readonly JsonObject[];
} & (
  | { readonly family: 'message'; readonly user: (text: string) => JsonObject; readonly toolResult: (m: ToolResultMessage) => JsonObject }
  | {
      readonly family: 'parts';
      readonly key: string;
      readonly text: (text: string) => JsonObject;
      readonly isText: (part: unknown) => boolean;
      readonly toolResult: (m: ToolResultMessage) => JsonObject;
      /** Directive blocks (Anthropic directives mode); without it they are skipped. */
      readonly directive?: (block: DirectiveBlock) => JsonObject;
    }
);

/** One shape's newest render: its inputs, its messages, and for each message the input index just past what it holds. */
interface KeptRender {
  readonly inputs: readonly ConversationMessage[];
  readonly out: readonly JsonObject[];
  readonly ends: readonly number[];
}

/**
 * The newest render per shape. A conversation's requests repeat the messages of the one before and
 * add a few, so a render resumes from the previous one: the messages made of inputs both share (the
 * same objects) and closed by a shared input after them are taken as they are, the same objects, and
 * the request's text memoizes each message's JSON by object (render.ts), once per conversation rather
 * than once per request. A taken message is copied before a user text joins it, never changed.
 */
const kept = new WeakMap<MessageShape, KeptRender>();

/** JP's conversation as one provider's messages. */
export function renderMessages(messages: readonly ConversationMessage[], shape: MessageShape): JsonObject[] {
  const prev = kept.get(shape);
  let reused = 0;
  let from = 0;
  if (prev) {
    let common = 0;
    const n = Math.min(prev.inputs.length, messages.length);
    while (common < n && prev.inputs[common] === messages[common]) common++;
    // A message is closed once the input after it was read without joining it; that input is shared too.
    while (reused < prev.out.length && (prev.ends[reused] ?? Infinity) < common) reused++;
    from = reused > 0 ? (prev.ends[reused - 1] ?? 0) : 0;
  }
  const out: JsonObject[] = prev ? prev.out.slice(0, reused) : [];
  const ends: number[] = prev ? prev.ends.slice(0, reused) : [];
  const userOf = (key: string, parts: JsonObject[]): JsonObject => obj([['role', 'user'], [key, parts]]);
  let group: JsonObject[] | undefined;
  const push = (m: JsonObject, end: number): void => {
    out.push(m);
    ends.push(end);
  };
  const flush = (end: number): void => {
    if (group && shape.family === 'parts') push(userOf(shape.key, group), end);
    group = undefined;
  };
  for (let i = from; i < messages.length; i++) {
    const m = messages[i] as ConversationMessage;
    switch (m.kind) {
      case 'tool-result':
        if (shape.family === 'parts') (group ??= []).push(shape.toolResult(m));
        else push(shape.toolResult(m), i + 1);
        break;
      case 'tool-availability': {
        if (shape.family !== 'parts' || !shape.directive) break;
        const blocks = m.blocks.map(shape.directive);
        if (group) {
          group.push(...blocks);
          flush(i + 1);
        } else push(userOf(shape.key, blocks), i + 1);
        break;
      }
      case 'user': {
        flush(i);
        if (shape.family === 'message') {
          push(shape.user(m.text), i + 1);
          break;
        }
        const at = out.length - 1;
        const last = out[at];
        const parts = last?.role === 'user' ? last[shape.key] : undefined;
        if (last && Array.isArray(parts) && parts.every(shape.isText)) {
          // The message may be a previous render's: joined as a copy.
          const joined = jsonObject();
          for (const k of Object.keys(last)) joined[k] = last[k];
          joined[shape.key] = [...(parts as JsonObject[]), shape.text(m.text)];
          out[at] = joined;
          ends[at] = i + 1;
        } else push(userOf(shape.key, [shape.text(m.text)]), i + 1);
        break;
      }
      case 'assistant':
        flush(i);
        if (!isEmptyReply(m)) for (const item of shape.assistant(m)) push(item, i + 1);
        break;
    }
  }
  flush(messages.length);
  kept.set(shape, { inputs: messages.slice(), out: out.slice(), ends });
  return out;
}

/** The system prompt as a leading message, for the providers that carry it so (none when empty). */
export const systemMessage = (system: string): JsonObject | undefined => (system === '' ? undefined : obj([['role', 'system'], ['content', system]]));
