// Request rendering per provider, after JP's provider modules (jp-today §8): each provider's module
// (registry.ts lists them) renders its own body; wire.ts holds what they share. The caller passes the
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
import { toJson } from '../json/serde';
import { providerOf } from './registry';
import type { ProviderId } from './types';
import type { RenderParts } from './wire';

export { ollamaToolChoiceNudge } from './ollama';

export interface RenderInput extends RenderParts {
  readonly provider: ProviderId;
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

/** Each tool object's compact JSON, kept while the object lives (a provider may share one across requests). */
const toolJson = new WeakMap<object, string>();

/** toJson of the tools array, element by element: the same text as a whole toJson (compact JSON joins elements with ','). */
function toolsArrayJson(tools: unknown): string {
  if (!Array.isArray(tools)) return toJson(tools);
  const parts: string[] = [];
  for (const t of tools as unknown[]) {
    if (t === null || typeof t !== 'object') {
      parts.push(toJson(t));
      continue;
    }
    let text = toolJson.get(t);
    if (text === undefined) toolJson.set(t, (text = toJson(t)));
    parts.push(text);
  }
  return `[${parts.join(',')}]`;
}

export function renderRequest(input: RenderInput): RenderedRequest {
  const sections = providerOf(input.provider).render(input);
  // serde_json's output, so a whole float keeps its `.0` (../json/serde.ts).
  const toolsJson = sections.tools === undefined ? '' : toolsArrayJson(sections.tools);
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
