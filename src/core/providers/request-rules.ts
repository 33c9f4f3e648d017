// The per-request provider rules: names and schema keywords of every tool in the array (rules.ts),
// a forced tool that is not in the array, empty message content, and JP's own Ollama `parameters`.
// They read JP's inputs to a request (its tools array before provider filtering, its tool choice and
// its conversation), so a timeline can check every request without rendering its tools array.
import { isJsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import { renderRequest } from './render';
import { checkToolName, checkToolSchema, PROVIDER_WORDS } from './rules';
import type { ProviderDiagnostic, RuleSource } from './rules';
import type { ConversationMessage, ProviderId, ToolChoice } from './types';

export interface RequestCheckInput {
  readonly provider: ProviderId;
  /** JP's tools array, in order, before any provider filters it (llama.cpp's forced filter). */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly messages: readonly ConversationMessage[];
}

const FORCED_SOURCES: Readonly<Record<ProviderId, RuleSource>> = {
  anthropic: { document: 'Anthropic Messages API, tool_choice {type: "tool", name}: "The name of the tool to use" (@anthropic-ai/sdk 1.10.0 ToolChoiceTool); a name not in tools is answered "Tool not found in provided tools" (issue 18)', read: '2026-12' },
  'anthropic-directives': { document: 'Anthropic Messages API, tool_choice {type: "tool", name} (@anthropic-ai/sdk 1.10.0 ToolChoiceTool); a name not in tools is answered "Tool not found in provided tools" (issue 18)', read: '2026-12' },
  openai: { document: 'OpenAI Responses API, tool_choice {type: "function", name}: "The name of the function to call" (openai 7.55.0 ToolChoiceFunction), one of the request\'s tools', read: '2026-12' },
  google: { document: 'Gemini API FunctionCallingConfig.allowedFunctionNames: "Function names should match [FunctionDeclaration.name]" (@google/genai 3.1.0 genai.d.ts)', read: '2026-12' },
  openrouter: { document: 'OpenRouter chat API, tool_choice {type: "function", function: {name}} names one of the request\'s tools (@openrouter/sdk 1.3.19 ChatToolChoice)', read: '2026-12' },
  cerebras: { document: 'Cerebras chat completions, tool_choice {type: "function", function: {name}} names one of the request\'s tools (@cerebras/cerebras_cloud_sdk 1.91.0)', read: '2026-12' },
  ollama: { document: 'JP ollama.rs:431-450 (jp-today §8): a forced choice becomes a system message naming the tool; Ollama has no tool_choice field', read: '2026-12' },
  llamacpp: { document: 'JP llamacpp.rs:648-672 (jp-today §8): with a forced tool the array is filtered down to that tool', read: '2026-12' },
};

const ANTHROPIC_ONE_TOOL: RuleSource = { document: 'JP anthropic.rs:1309-1316 (jp-today §8): one tool and a forced choice become tool_choice {type: "any"}', read: '2026-12' };

function forcedAbsent(input: RequestCheckInput): ProviderDiagnostic[] {
  const choice = input.toolChoice;
  if (choice.kind !== 'function') return [];
  const { provider } = input;
  const forced = choice.name;
  const names = input.tools.map((d) => d.name);
  const only = names.length === 1 ? names[0] : undefined;
  const anthropic = provider === 'anthropic' || provider === 'anthropic-directives';
  if (names.includes(forced)) return [];
  const source = FORCED_SOURCES[provider];
  const who = PROVIDER_WORDS[provider];
  const warn = (message: string, src = source): ProviderDiagnostic[] => [{ rule: 'forced-absent', severity: 'warning', provider, tool: forced, source: src, message }];
  if (anthropic && only !== undefined) return warn(`\`${forced}\` is forced but not in the tools array; JP turns a forced choice into tool_choice "any" when one tool is offered, so the model must call \`${only}\` instead`, ANTHROPIC_ONE_TOOL);
  switch (provider) {
    case 'ollama':
      return warn(`\`${forced}\` is forced but not in the tools array; JP's system message tells the model to call a tool it does not have`);
    case 'llamacpp':
      return warn(`\`${forced}\` is forced but not in the tools array; JP filters the array down to the forced tool, so the request goes without tools and nothing is forced`);
    case 'openai':
      // JP always sends `tools` to OpenAI, even empty, with the function choice (openai.rs:580-581).
      break;
    default:
      if (names.length === 0) return warn(`\`${forced}\` is forced but no tool is offered; JP then sends no tool_choice${provider === 'google' ? ' (mode NONE)' : ''}, so nothing is forced`);
  }
  return [{ rule: 'forced-absent', severity: 'error', provider, tool: forced, source, message: `${who} refuses the request: tool_choice names \`${forced}\`, which is not in the tools array (${names.length} tools)` }];
}

const EMPTY_SOURCES: Partial<Record<ProviderId, RuleSource>> = {
  anthropic: { document: 'Anthropic Messages API error "messages.N: all messages must have non-empty content except for the optional final assistant message" (anthropics/claude-code#3196)', read: '2026-12' },
  'anthropic-directives': { document: 'Anthropic Messages API error "messages.N: all messages must have non-empty content except for the optional final assistant message" (anthropics/claude-code#3196)', read: '2026-12' },
  google: { document: 'Gemini API error "GenerateContentRequest.contents[N].parts: contents.parts must not be empty" (vercel/ai#3775)', read: '2026-12' },
};

function emptyContent(input: RequestCheckInput): ProviderDiagnostic[] {
  const { provider } = input;
  const source = EMPTY_SOURCES[provider];
  if (!source || input.messages.length === 0) return [];
  // Only the messages are rendered: an empty tools array keeps this cheap at any catalogue size.
  const body = renderRequest({ provider, tools: [], toolChoice: { kind: 'auto' }, system: '', messages: input.messages }).body;
  const list = isJsonObject(body) ? (provider === 'google' ? body.contents : body.messages) : undefined;
  if (!Array.isArray(list)) return [];
  const out: ProviderDiagnostic[] = [];
  list.forEach((m: unknown, i) => {
    if (!isJsonObject(m)) return;
    const content = provider === 'google' ? m.parts : m.content;
    const last = i === list.length - 1 && m.role === 'assistant';
    const empty = (Array.isArray(content) && content.length === 0) || content === '';
    const emptyText = Array.isArray(content) && content.some((b: unknown) => isJsonObject(b) && b.type === 'text' && b.text === '');
    if ((empty && !last) || emptyText) {
      const where = provider === 'google' ? `contents[${i}] (role ${String(m.role)})` : `messages[${i}] (role ${String(m.role)})`;
      out.push({ rule: 'empty-content', severity: 'error', provider, source, message: `${PROVIDER_WORDS[provider]} refuses the request: ${where} has ${emptyText ? 'an empty text block' : 'no content'}` });
    }
  });
  return out;
}

const OLLAMA_PARAMETERS: RuleSource = {
  document: 'JP ollama.rs:411-429 passes to_parameters_map() (jp-today §8); Ollama reads parameters.type, parameters.properties and parameters.required (ollama 0.6.4 Tool type; Ollama API docs, "Chat request with tools")',
  read: '2026-12',
};

function ollamaParameters(input: RequestCheckInput): ProviderDiagnostic[] {
  if (input.provider !== 'ollama') return [];
  const withParams = input.tools.filter((d) => d.parameters.size > 0);
  if (withParams.length === 0) return [];
  const names = withParams.slice(0, 3).map((d) => `\`${d.name}\``).join(', ');
  const more = withParams.length > 3 ? ` and ${withParams.length - 3} more` : '';
  return [
    {
      rule: 'ollama-parameters',
      severity: 'warning',
      provider: 'ollama',
      source: OLLAMA_PARAMETERS,
      message: `JP sends only the properties map as \`parameters\` (no type, properties or required wrapper), so Ollama sees no parameters for ${withParams.length} tool${withParams.length === 1 ? '' : 's'} (${names}${more}); the simulator keeps JP's body`,
    },
  ];
}

/** Every provider finding for one request, tool findings first, in array order. */
export function checkRequest(input: RequestCheckInput): ProviderDiagnostic[] {
  const out: ProviderDiagnostic[] = [];
  for (const def of input.tools) {
    out.push(...checkToolName(input.provider, def.name), ...checkToolSchema(input.provider, def));
  }
  out.push(...forcedAbsent(input), ...emptyContent(input), ...ollamaParameters(input));
  return out;
}
