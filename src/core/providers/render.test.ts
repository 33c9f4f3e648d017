import { describe, expect, it } from 'vitest';
import { renderRequest, ollamaToolChoiceNudge } from './render';
import type { RenderInput } from './render';
import { PROVIDER_IDS } from './types';
import type { ConversationMessage, ProviderId, ToolChoice } from './types';
import { makeTool } from './test-helpers';

const alpha = makeTool('alpha', 'Alpha tool.', [
  { name: 'x', schema: { type: 'string' }, required: true },
  { name: 'y', schema: { type: 'integer' } },
]);
const beta = makeTool('beta', undefined);

const STRICT_ALPHA = '{"type":"object","properties":{"x":{"type":"string"},"y":{"type":["integer","null"]}},"additionalProperties":false,"required":["x","y"]}';
const STRICT_EMPTY = '{"type":"object","properties":{},"additionalProperties":false,"required":[]}';

/** The expected JSON of each tool in each provider's array (beta is the last tool). */
const SHAPES: Record<ProviderId, { alpha: string; beta: string }> = {
  anthropic: {
    alpha: '{"name":"alpha","description":"Alpha tool.","input_schema":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"integer"}},"required":["x"]}}',
    beta: '{"name":"beta","input_schema":{"type":"object","properties":{},"required":[]},"cache_control":{"type":"ephemeral"}}',
  },
  'anthropic-directives': {
    alpha: '{"name":"alpha","description":"Alpha tool.","input_schema":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"integer"}},"required":["x"]}}',
    beta: '{"name":"beta","input_schema":{"type":"object","properties":{},"required":[]},"cache_control":{"type":"ephemeral"}}',
  },
  openai: {
    alpha: `{"type":"function","name":"alpha","strict":true,"description":"Alpha tool.","parameters":${STRICT_ALPHA}}`,
    beta: `{"type":"function","name":"beta","strict":true,"parameters":${STRICT_EMPTY}}`,
  },
  google: {
    alpha: '{"functionDeclarations":[{"name":"alpha","description":"Alpha tool.","parametersJsonSchema":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"integer"}},"additionalProperties":false,"required":["x"]}}]}',
    beta: `{"functionDeclarations":[{"name":"beta","description":"","parametersJsonSchema":${STRICT_EMPTY}}]}`,
  },
  openrouter: {
    alpha: `{"type":"function","function":{"name":"alpha","description":"Alpha tool.","parameters":${STRICT_ALPHA},"strict":true}}`,
    beta: `{"type":"function","function":{"name":"beta","parameters":${STRICT_EMPTY},"strict":true}}`,
  },
  cerebras: {
    alpha: '{"type":"function","function":{"name":"alpha","description":"Alpha tool.","parameters":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"integer"}},"additionalProperties":true,"required":["x"]}}}',
    beta: '{"type":"function","function":{"name":"beta","description":"","parameters":{"type":"object","properties":{},"additionalProperties":true,"required":[]}}}',
  },
  ollama: {
    alpha: '{"type":"function","function":{"name":"alpha","description":"Alpha tool.","parameters":{"x":{"type":"string"},"y":{"type":"integer"}}}}',
    beta: '{"type":"function","function":{"name":"beta","description":"","parameters":{}}}',
  },
  llamacpp: {
    alpha: `{"type":"function","function":{"name":"alpha","description":"Alpha tool.","parameters":${STRICT_ALPHA},"strict":true}}`,
    // Filtered down to beta alone under a forced choice; otherwise the last tool.
    beta: `{"type":"function","function":{"name":"beta","description":"","parameters":${STRICT_EMPTY},"strict":true}}`,
  },
};

const CHOICES: Record<string, ToolChoice> = {
  auto: { kind: 'auto' },
  none: { kind: 'none' },
  required: { kind: 'required' },
  function: { kind: 'function', name: 'beta' },
};

const anthropicChoice = { auto: { type: 'auto' }, none: { type: 'none' }, required: { type: 'any' }, function: { type: 'tool', name: 'beta' } };
const chatChoice = { auto: 'auto', none: 'none', required: 'required', function: { type: 'function', function: { name: 'beta' } } };

/** The mapped tool_choice wire value, per provider and choice kind. */
const MAPPED: Record<ProviderId, Record<string, unknown>> = {
  anthropic: anthropicChoice,
  'anthropic-directives': anthropicChoice,
  openai: { auto: 'auto', none: 'none', required: 'required', function: { type: 'function', name: 'beta' } },
  google: {
    auto: { functionCallingConfig: { mode: 'VALIDATED' } },
    none: { functionCallingConfig: { mode: 'NONE' } },
    required: { functionCallingConfig: { mode: 'ANY' } },
    function: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['beta'] } },
  },
  openrouter: chatChoice,
  cerebras: chatChoice,
  ollama: { auto: undefined, none: undefined, required: undefined, function: undefined },
  llamacpp: { auto: 'auto', none: 'none', required: 'required', function: 'required' },
};

const conversation: ConversationMessage[] = [
  { kind: 'user', text: 'hi' },
  { kind: 'assistant', text: 'calling', toolCalls: [{ id: 'c1', name: 'alpha', arguments: { x: 'a' } }] },
  { kind: 'tool-result', callId: 'c1', name: 'alpha', content: 'done', isError: false },
];

function input(provider: ProviderId, toolChoice: ToolChoice, over: Partial<RenderInput> = {}): RenderInput {
  return { provider, tools: [alpha, beta], toolChoice, system: 'Be brief.', messages: conversation, ...over };
}

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null));

describe('renderRequest: providers × tool_choice', () => {
  const cells = PROVIDER_IDS.flatMap((provider) => Object.keys(CHOICES).map((choice) => [provider, choice] as const));

  it.each(cells)('%s with tool_choice %s', (provider, choice) => {
    const r = renderRequest(input(provider, CHOICES[choice] as ToolChoice));
    expect(plain(r.toolChoice)).toEqual(plain(MAPPED[provider][choice]));

    const forcedFilter = provider === 'llamacpp' && choice === 'function';
    expect(r.toolNames).toEqual(forcedFilter ? ['beta'] : ['alpha', 'beta']);
    const tools = JSON.parse(r.toolsJson) as unknown[];
    const expected = forcedFilter ? [SHAPES[provider].beta] : [SHAPES[provider].alpha, SHAPES[provider].beta];
    expect(tools.map((t) => JSON.stringify(t))).toEqual(expected);

    // The body carries the same tools array, and bytes are the three sections in order.
    const body = r.body as Record<string, unknown>;
    expect(JSON.stringify(body.tools)).toBe(r.toolsJson);
    expect(r.bytes).toBe(r.toolsJson + r.systemJson + r.messagesJson);

    // Ollama has no tool_choice field: a forced choice becomes a trailing system message.
    if (provider === 'ollama') {
      const lines = r.messagesJson.trimEnd().split('\n').map((l) => JSON.parse(l) as { role: string; content: string });
      const nudge = ollamaToolChoiceNudge(CHOICES[choice] as ToolChoice);
      if (nudge === undefined) expect(lines.at(-1)?.role).not.toBe('system');
      else expect(lines.at(-1)).toEqual({ role: 'system', content: nudge });
    }
  });
});

describe('renderRequest: quirks', () => {
  it('Anthropic: one tool + function becomes required (any)', () => {
    const r = renderRequest(input('anthropic', { kind: 'function', name: 'alpha' }, { tools: [alpha] }));
    expect(plain(r.toolChoice)).toEqual({ type: 'any' });
    expect(JSON.parse(r.toolsJson)[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('Anthropic: strict mode adds strict and additionalProperties false', () => {
    const r = renderRequest(input('anthropic', { kind: 'auto' }, { anthropicStrict: true }));
    expect(JSON.stringify(JSON.parse(r.toolsJson)[0])).toBe(
      '{"name":"alpha","description":"Alpha tool.","strict":true,"input_schema":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"integer"}},"required":["x"],"additionalProperties":false}}',
    );
  });

  it('Ollama nudges name the function or ask for at least one tool', () => {
    expect(ollamaToolChoiceNudge({ kind: 'function', name: 'f' })).toBe(
      "IMPORTANT: You MUST use the function named 'f' available to you. DO NOT QUESTION THIS DIRECTIVE. DO NOT PROMPT FOR MORE CONTEXT OR DETAILS. JUST RUN IT.",
    );
    expect(ollamaToolChoiceNudge({ kind: 'required' })).toContain('You MUST use AT LEAST ONE tool available to you.');
    expect(ollamaToolChoiceNudge({ kind: 'auto' })).toBeUndefined();
  });

  it.each([
    ['anthropic', '', ['tools', 'tool_choice']],
    ['anthropic-directives', '', ['tools', 'tool_choice']],
    ['openai', '[]', []],
    ['google', '', ['tools']],
    ['openrouter', '', ['tools', 'tool_choice']],
    ['cerebras', '', ['tools', 'tool_choice']],
    ['ollama', '', ['tools']],
    ['llamacpp', '', ['tools', 'tool_choice']],
  ] as const)('%s with no tools: toolsJson %j, omits %j', (provider, toolsJson, omitted) => {
    const r = renderRequest(input(provider, { kind: 'required' }, { tools: [] }));
    expect(r.toolsJson).toBe(toolsJson);
    const body = r.body as Record<string, unknown>;
    for (const key of omitted) expect(key in body).toBe(false);
    if (provider === 'google') expect(plain(r.toolChoice)).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    if (provider === 'openai') expect(body.tool_choice).toBe('required');
  });

  it('llama.cpp: a forced tool that is not in the array leaves no tools', () => {
    const r = renderRequest(input('llamacpp', { kind: 'function', name: 'gamma' }));
    expect(r.toolNames).toEqual([]);
    expect(r.toolsJson).toBe('');
    expect(r.toolChoice).toBeUndefined();
  });

  it('Google: one Tool per definition', () => {
    const r = renderRequest(input('google', { kind: 'auto' }));
    const tools = JSON.parse(r.toolsJson) as { functionDeclarations: unknown[] }[];
    expect(tools).toHaveLength(2);
    for (const t of tools) expect(t.functionDeclarations).toHaveLength(1);
  });

  it('a parameter called __proto__ renders as a property in every provider', () => {
    const odd = makeTool('odd', 'Odd.', [{ name: '__proto__', schema: { type: 'string' }, required: true }]);
    for (const provider of PROVIDER_IDS) {
      const r = renderRequest(input(provider, { kind: 'auto' }, { tools: [odd] }));
      expect(r.toolsJson, provider).toContain('"__proto__":{"type":"string"}');
      const parsed = JSON.parse(r.toolsJson) as unknown[];
      expect(parsed).toHaveLength(1);
    }
  });
});

describe('renderRequest: messages', () => {
  const lines = (r: { messagesJson: string }): unknown[] =>
    r.messagesJson.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);

  it('Anthropic: tool results and a following tool_addition share one user message (directives only)', () => {
    const msgs: ConversationMessage[] = [
      { kind: 'tool-availability', blocks: [{ type: 'tool_availability', tools: ['alpha'] }] },
      ...conversation,
      { kind: 'tool-availability', blocks: [{ type: 'tool_addition', tools: ['beta'] }] },
    ];
    const directives = lines(renderRequest(input('anthropic-directives', { kind: 'auto' }, { messages: msgs })));
    expect(directives).toEqual([
      { role: 'user', content: [{ type: 'tool_availability', tools: ['alpha'] }] },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'calling' },
          { type: 'tool_use', id: 'c1', name: 'alpha', input: { x: 'a' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'done', is_error: false },
          { type: 'tool_addition', tools: ['beta'] },
        ],
      },
    ]);
    const plainAnthropic = lines(renderRequest(input('anthropic', { kind: 'auto' }, { messages: msgs })));
    expect(plainAnthropic).toHaveLength(3);
    expect(JSON.stringify(plainAnthropic)).not.toContain('tool_addition');
  });

  it('OpenAI, chat completions, Google and Ollama render calls and results in their shapes', () => {
    expect(lines(renderRequest(input('openai', { kind: 'auto' })))).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'calling' },
      { type: 'function_call', call_id: 'c1', name: 'alpha', arguments: '{"x":"a"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'done' },
    ]);
    expect(lines(renderRequest(input('openrouter', { kind: 'auto' })))).toEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'calling',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'alpha', arguments: '{"x":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ]);
    expect(lines(renderRequest(input('google', { kind: 'auto' })))).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'calling' }, { functionCall: { name: 'alpha', args: { x: 'a' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'alpha', response: { content: 'done' } } }] },
    ]);
    expect(lines(renderRequest(input('ollama', { kind: 'auto' })))).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'calling', tool_calls: [{ function: { name: 'alpha', arguments: { x: 'a' } } }] },
      { role: 'tool', content: 'done' },
    ]);
  });

  it('renders the system prompt in each provider shape, and none when empty', () => {
    expect(renderRequest(input('anthropic', { kind: 'auto' })).systemJson).toBe('"Be brief."');
    expect(renderRequest(input('openai', { kind: 'auto' })).systemJson).toBe(
      '{"role":"system","content":[{"type":"input_text","text":"Be brief."}]}',
    );
    expect(renderRequest(input('google', { kind: 'auto' })).systemJson).toBe('{"parts":[{"text":"Be brief."}]}');
    expect(renderRequest(input('cerebras', { kind: 'auto' })).systemJson).toBe('{"role":"system","content":"Be brief."}');
    for (const provider of PROVIDER_IDS) {
      expect(renderRequest(input(provider, { kind: 'auto' }, { system: '' })).systemJson).toBe('');
    }
  });
});
