// Provider ids, tool choice and the conversation model that request rendering consumes.

// The ids are derived from the registry of provider modules (registry.ts): adding a provider is one
// module and one registry line.
export type { ProviderId } from './registry';
export { PROVIDER_IDS, isProviderId } from './registry';

/** JP's `ToolChoice`, before provider mapping. */
export type ToolChoice =
  | { readonly kind: 'auto' }
  | { readonly kind: 'none' }
  | { readonly kind: 'required' }
  | { readonly kind: 'function'; readonly name: string };

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The call's arguments object. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

export type DirectiveBlockType = 'tool_addition' | 'tool_removal' | 'tool_availability';

export interface DirectiveBlock {
  readonly type: DirectiveBlockType;
  readonly tools: readonly string[];
}

export type ConversationMessage =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text?: string; readonly toolCalls?: readonly ToolCall[] }
  | {
      readonly kind: 'tool-result';
      readonly callId: string;
      readonly name: string;
      readonly content: string;
      readonly isError: boolean;
    }
  /** Anthropic directives mode only; other providers skip it. */
  | { readonly kind: 'tool-availability'; readonly blocks: readonly DirectiveBlock[] };
