// Tokens of tools as a provider receives them: the provider's rendered tools JSON (render.ts), each
// tool's element memoized per definition and provider. Up to EXACT_LIMIT tools the array's whole text
// is counted (memoized per provider and tool list); past it, element by element plus brackets and
// commas, which keeps a 10,000-tool catalogue cheap and differs from the whole count only at the `},{`
// seams (the tokenizer's pre-split joins the punctuation of two elements: about 2 tokens per tool).
//
// Every figure is an estimate, and says with which tokenizer. No provider here publishes an installable
// tokenizer for its current models, so each counts with OpenAI's o200k_base (TOKENIZER_NOTES says why,
// per provider; read 2026-12).
import type { ToolDefinition } from '../catalogue/types';
import { toJson } from '../json/serde';
import type { TokenCounter } from './cost';
import { PROVIDERS } from './registry';
import { renderRequest } from './render';
import type { ProviderId } from './types';

/** Why the counter is what it is, per provider: the words the UI shows beside a token figure. */
export const TOKENIZER_NOTES: Readonly<Record<ProviderId, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.tokenizer])) as Record<ProviderId, string>;

/** "estimate: o200k_base over OpenAI's tools JSON" and why, for a label or a title. */
export function tokenBasis(provider: ProviderId, counterId: string): { readonly label: string; readonly why: string } {
  return {
    label: `estimate: ${counterId} over the ${provider} tools JSON`,
    why: `Counted with ${counterId} over each tool as the ${provider} request carries it. ${TOKENIZER_NOTES[provider]}.`,
  };
}

const elementCache = new WeakMap<ToolDefinition, Map<string, string>>();

// A stand-in second tool, so the first is rendered as a tool that is not last (Anthropic puts its
// cache breakpoint on the last tool only).
const FOLLOWER: ToolDefinition = {
  name: 'follower',
  kind: 'local',
  backendName: 'follower',
  docs: { parameters: new Map() },
  parameters: new Map(),
  required: [],
  run: 'ask',
};

/** One tool's element of the provider's tools JSON, as serde_json writes it (memoized). */
export function toolElementJson(provider: ProviderId, def: ToolDefinition, last = false): string {
  let byKey = elementCache.get(def);
  if (!byKey) {
    byKey = new Map();
    elementCache.set(def, byKey);
  }
  const key = `${provider}\u0000${last ? 1 : 0}`;
  let json = byKey.get(key);
  if (json === undefined) {
    const tools = last ? [def] : [def, FOLLOWER];
    const body = renderRequest({ provider, tools, toolChoice: { kind: 'auto' }, system: '', messages: [] }).body as { tools?: unknown[] };
    json = toJson(body.tools?.[0] ?? null);
    byKey.set(key, json);
  }
  return json;
}

const tokenCache = new WeakMap<ToolDefinition, Map<string, number>>();

/** Tokens of one tool's element (memoized per definition, provider, position and counter). */
export function toolTokens(def: ToolDefinition, provider: ProviderId, counter: TokenCounter, last = false): number {
  let byKey = tokenCache.get(def);
  if (!byKey) {
    byKey = new Map();
    tokenCache.set(def, byKey);
  }
  const key = `${provider}\u0000${last ? 1 : 0}\u0000${counter.id}`;
  let n = byKey.get(key);
  if (n === undefined) {
    n = counter.count(toolElementJson(provider, def, last));
    byKey.set(key, n);
  }
  return n;
}

/** cyrb53: a 53-bit string hash, so the memo keeps short keys rather than whole arrays. */
function hash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Arrays up to this many tools are counted whole. */
export const EXACT_LIMIT = 1000;

const arrayCache = new Map<string, number>();
const ARRAY_CACHE_SIZE = 256;

/** Tokens of a tools array in the provider's shape, exact up to EXACT_LIMIT tools (see above). */
export function toolsArrayTokens(defs: readonly ToolDefinition[], provider: ProviderId, counter: TokenCounter): number {
  if (defs.length === 0) return 0;
  if (defs.length <= EXACT_LIMIT) {
    const elements = defs.map((def, i) => toolElementJson(provider, def, i === defs.length - 1));
    const text = `[${elements.join(',')}]`;
    const key = `${counter.id}\u0000${text.length}\u0000${hash(text)}`;
    let n = arrayCache.get(key);
    if (n === undefined) {
      n = counter.count(text);
      if (arrayCache.size >= ARRAY_CACHE_SIZE) arrayCache.clear();
      arrayCache.set(key, n);
    }
    return n;
  }
  let total = counter.count('[') + counter.count(']') + (defs.length - 1) * counter.count(',');
  defs.forEach((def, i) => {
    total += toolTokens(def, provider, counter, i === defs.length - 1);
  });
  return total;
}
