// The per-request provider rules: names and schema keywords of every tool in the array (rules.ts),
// a forced tool that is not in the array, empty message content, and each provider's own checks (JP's
// Ollama `parameters`), each provider's part read from its descriptor.
// They read JP's inputs to a request (its tools array before provider filtering, its tool choice and
// its conversation), so a timeline can check every request without rendering its tools array.
import { isJsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import { providerOf } from './registry';
import { checkToolName, checkToolSchema } from './rules';
import type { ProviderDiagnostic } from './rules';
import type { ConversationMessage, ProviderId, ToolChoice } from './types';

export interface RequestCheckInput {
  readonly provider: ProviderId;
  /** JP's tools array, in order, before any provider filters it (llama.cpp's forced filter). */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly messages: readonly ConversationMessage[];
}

function forcedAbsent(input: RequestCheckInput): ProviderDiagnostic[] {
  const choice = input.toolChoice;
  if (choice.kind !== 'function') return [];
  const { provider } = input;
  const forced = choice.name;
  const names = input.tools.map((d) => d.name);
  if (names.includes(forced)) return [];
  const { words, forced: rule } = providerOf(provider);
  const warning = rule.absent?.(forced, names);
  if (warning) return [{ rule: 'forced-absent', severity: 'warning', provider, tool: forced, source: warning.source ?? rule.source, message: warning.message }];
  return [{ rule: 'forced-absent', severity: 'error', provider, tool: forced, source: rule.source, message: `${words} refuses the request: tool_choice names \`${forced}\`, which is not in the tools array (${names.length} tools)` }];
}

function emptyContent(input: RequestCheckInput): ProviderDiagnostic[] {
  const { provider } = input;
  const { words, emptyContent: rule } = providerOf(provider);
  if (!rule || input.messages.length === 0) return [];
  // Only the messages are rendered, and only to their body (not serialized to bytes): an empty tools
  // array keeps this cheap at any catalogue size.
  const body = providerOf(provider).render({ tools: [], toolChoice: { kind: 'auto' }, system: '', messages: input.messages }).body;
  const list = isJsonObject(body) ? body[rule.list] : undefined;
  if (!Array.isArray(list)) return [];
  const out: ProviderDiagnostic[] = [];
  list.forEach((m: unknown, i) => {
    if (!isJsonObject(m)) return;
    const content = m[rule.content];
    const last = i === list.length - 1 && m.role === 'assistant';
    const empty = (Array.isArray(content) && content.length === 0) || content === '';
    const emptyText = Array.isArray(content) && content.some((b: unknown) => isJsonObject(b) && b.type === 'text' && b.text === '');
    if ((empty && !last) || emptyText) {
      out.push({ rule: 'empty-content', severity: 'error', provider, source: rule.source, message: `${words} refuses the request: ${rule.list}[${i}] (role ${String(m.role)}) has ${emptyText ? 'an empty text block' : 'no content'}` });
    }
  });
  return out;
}

/** Every provider finding for one request, tool findings first, in array order. */
export function checkRequest(input: RequestCheckInput): ProviderDiagnostic[] {
  const out: ProviderDiagnostic[] = [];
  for (const def of input.tools) {
    out.push(...checkToolName(input.provider, def.name), ...checkToolSchema(input.provider, def));
  }
  out.push(...forcedAbsent(input), ...emptyContent(input));
  for (const check of providerOf(input.provider).checks) out.push(...check(input).map(({ rule, severity, ...rest }) => ({ rule, severity, provider: input.provider, ...rest })));
  return out;
}
