// Anthropic's Messages API as JP's anthropic.rs renders it (jp-today §8), with and without RFD 105's
// tool directives: two descriptors over one renderer.
import { ANTHROPIC_WIRE } from './reply';
import { parametersMap } from '../catalogue/schema';
import type { JsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import type { CacheRules, Citation } from './cache-rules';
import { defineProvider, noChoiceWithoutTools, READ_ON, sdkFields } from './descriptor';
import type { ProviderDescriptor } from './descriptor';
import type { NameRule, RuleSource } from './rules';
import type { DirectiveBlock, ToolChoice } from './types';
import { argumentsObject, hasText, obj, renderMessages } from './wire';
import type { MessageShape, RenderParts, Sections } from './wire';

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

/**
 * A definition's tool object, made once per (strict, last) and shared by every request that offers it:
 * a 50-turn conversation over a large catalogue renders the same definitions hundreds of times, and a
 * shared object lets renderRequest serialize it once too. Bodies are never mutated after rendering.
 */
const renderedTools = new WeakMap<ToolDefinition, (JsonObject | undefined)[]>();

function anthropicTool(def: ToolDefinition, strict: boolean, last: boolean): JsonObject {
  let kept = renderedTools.get(def);
  if (!kept) renderedTools.set(def, (kept = []));
  const slot = (strict ? 2 : 0) + (last ? 1 : 0);
  return (kept[slot] ??= makeAnthropicTool(def, strict, last));
}

function makeAnthropicTool(def: ToolDefinition, strict: boolean, last: boolean): JsonObject {
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

const MESSAGES: MessageShape = {
  family: 'parts',
  key: 'content',
  text: (text) => obj([['type', 'text'], ['text', text]]),
  isText: (b) => typeof b === 'object' && b !== null && (b as JsonObject).type === 'text',
  toolResult: (m) =>
    obj([
      ['type', 'tool_result'],
      ['tool_use_id', m.callId],
      ['content', m.content],
      ['is_error', m.isError],
    ]),
  assistant: (m) => {
    const content: JsonObject[] = [];
    if (hasText(m)) content.push(obj([['type', 'text'], ['text', m.text]]));
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
    return [obj([['role', 'assistant'], ['content', content]])];
  },
};

// In directives mode a directive message that follows tool results joins their user message, so a
// promotion's `tool_addition` lands "after the tool results of its cycle"; without directives the
// availability messages are skipped.
const DIRECTIVE_MESSAGES: MessageShape = { ...MESSAGES, directive: directiveBlock };

function render(input: RenderParts, directives: boolean): Sections {
  const strict = input.anthropicStrict ?? false;
  const hasTools = input.tools.length > 0;
  const tools = hasTools ? input.tools.map((def, i) => anthropicTool(def, strict, i === input.tools.length - 1)) : undefined;
  // Tools and tool_choice are omitted together when there are no tools (anthropic.rs:1399-1401).
  const toolChoice = hasTools ? anthropicChoice(input.toolChoice, input.tools.length) : undefined;
  const system = input.system === '' ? undefined : input.system;
  const messages = renderMessages(input.messages, directives ? DIRECTIVE_MESSAGES : MESSAGES);
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

const NAMES: NameRule = {
  allowed: /^[a-zA-Z0-9_-]$/,
  words: 'letters a-z and A-Z, digits, `_` and `-`',
  max: 64,
  source: {
    document: 'Anthropic Messages API, Tool.name: "Must match the regex ^[a-zA-Z0-9_-]{1,64}$" (the API\'s OpenAPI schema, components/schemas/Tool)',
    read: '2026-12',
  },
};

const FORCED: RuleSource = {
  document: 'Anthropic Messages API, tool_choice {type: "tool", name}: "The name of the tool to use" (@anthropic-ai/sdk 1.10.0 ToolChoiceTool); a name not in tools is answered "Tool not found in provided tools" (issue 18)',
  read: '2026-12',
};

const ONE_TOOL: RuleSource = { document: 'JP anthropic.rs:1309-1316 (jp-today §8): one tool and a forced choice become tool_choice {type: "any"}', read: '2026-12' };
const withoutTools = noChoiceWithoutTools();

const EMPTY_CONTENT = {
  source: { document: 'Anthropic Messages API error "messages.N: all messages must have non-empty content except for the optional final assistant message" (anthropics/claude-code#3196)', read: '2026-12' },
  list: 'messages',
  content: 'content',
};

const READ = READ_ON;
const DOCS = { document: 'Anthropic, "Prompt caching" (Claude API docs)', url: 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching', read: READ };
const PRICING = { document: 'Anthropic, "Pricing" (Claude API docs), prompt caching multipliers', url: 'https://platform.claude.com/docs/en/about-claude/pricing', read: READ };

const CITATIONS: readonly Citation[] = [
  { rule: 'prefix order: tools, then system, then messages; a breakpoint caches everything before it', ...DOCS },
  { rule: 'JP puts its one cache_control breakpoint on the last tool of the array', document: 'JP today (the project\'s reference)', url: '../shared/reference/jp-today.md §8 (anthropic.rs:2092-2125)', read: READ },
  { rule: 'hits are checked at block boundaries up to 20 blocks before a breakpoint', ...DOCS },
  { rule: 'minimum cacheable prompt: 1,024 to 4,096 tokens by model (per model in the price table)', ...DOCS },
  { rule: 'default time-to-live 5 minutes from last use, refreshed at no cost on each hit', ...DOCS },
  { rule: '5-minute cache writes cost 1.25× the base input price; cache reads 0.1×', ...PRICING },
];

const CACHE: Omit<CacheRules, 'provider' | 'summary'> = {
  kind: 'breakpoints',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: ['tools'],
  lookbackBlocks: 20,
  minTokens: 1024,
  ttlSeconds: 300,
  refreshOnHit: true,
  writeFactor: 1.25,
  readFactor: 0.1,
  money: true,
  undocumented: [
    'whether the cache_control marker itself is part of the cached prefix: the simulation compares tools without it (the marker says where to cache, not what)',
    'whether each tool definition is one block for the 20-block lookback: the simulation counts one block per tool',
  ],
  citations: CITATIONS,
};

const SHARED = {
  words: 'Anthropic',
  names: NAMES,
  schemaKeywords: undefined,
  emptyContent: EMPTY_CONTENT,
  checks: [],
  tokenizer: 'Anthropic publishes no tokenizer for current Claude models (its count_tokens endpoint needs the network; @anthropic-ai/tokenizer counts only pre-Claude-3 models)',
  sdk: {
    module: '@anthropic-ai/sdk/resources/messages/messages',
    type: 'MessageCreateParamsNonStreaming',
    elements: { tools: 'NonNullable<P["tools"]>[number]', messages: 'P["messages"][number]' },
    wrap: (p) => `{ model: 'm', max_tokens: 1, ${sdkFields(p, ['tools', 'tool_choice', 'system', 'messages'])} }`,
  },
} satisfies Partial<ProviderDescriptor>;

const forcedAbsent: NonNullable<ProviderDescriptor['forced']['absent']> = (forced, names) =>
  names.length === 1
    ? { message: `\`${forced}\` is forced but not in the tools array; JP turns a forced choice into tool_choice "any" when one tool is offered, so the model must call \`${names[0]}\` instead`, source: ONE_TOOL }
    : withoutTools(forced, names);

export const ANTHROPIC = defineProvider({
  id: 'anthropic',
  ...SHARED,
  render: (input) => render(input, false),
  reply: ANTHROPIC_WIRE,
  prices: 'anthropic',
  forced: { source: FORCED, absent: forcedAbsent },
  cache: { ...CACHE, summary: 'Explicit breakpoints: JP marks the last tool, so the tools array is cached when it reaches the model\'s minimum; a promotion changes the array and the next request writes it again.' },
});

export const ANTHROPIC_DIRECTIVES = defineProvider({
  id: 'anthropic-directives',
  ...SHARED,
  render: (input) => render(input, true),
  reply: ANTHROPIC_WIRE,
  prices: 'anthropic',
  forced: {
    source: { document: 'Anthropic Messages API, tool_choice {type: "tool", name} (@anthropic-ai/sdk 1.10.0 ToolChoiceTool); a name not in tools is answered "Tool not found in provided tools" (issue 18)', read: '2026-12' },
    absent: forcedAbsent,
  },
  cache: {
    ...CACHE,
    summary: 'Explicit breakpoints over RFD 105\'s fixed array: the array is byte-identical from the first request, so a promotion (a tool_addition block in the messages) never loses the cache.',
    citations: [...CITATIONS, { rule: 'with tool directives the array stays byte-identical; a promotion becomes a tool_addition block', document: 'RFD 108, "Provider behaviour"', url: '../shared/rfd/108-discoverable-tools.txt', read: READ }],
  },
});
