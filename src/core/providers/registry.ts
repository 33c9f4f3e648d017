// The registry of providers: one line per provider module. Every list of provider ids, the
// `ProviderId` type, the price keys and the cache rules by provider are derived from this list.
import { ANTHROPIC, ANTHROPIC_DIRECTIVES } from './anthropic';
import type { CacheRules } from './cache-rules';
import { CEREBRAS } from './cerebras';
import type { ProviderDescriptor } from './descriptor';
import { GOOGLE } from './google';
import { LLAMACPP } from './llamacpp';
import { OLLAMA } from './ollama';
import { OPENAI } from './openai';
import { OPENROUTER } from './openrouter';

/** Every provider, in the order menus and tables list them (the first is the default). */
export const PROVIDERS = [ANTHROPIC, ANTHROPIC_DIRECTIVES, OPENAI, GOOGLE, OPENROUTER, CEREBRAS, OLLAMA, LLAMACPP] as const;

export type ProviderId = (typeof PROVIDERS)[number]['id'];

export const PROVIDER_IDS: readonly ProviderId[] = PROVIDERS.map((p) => p.id);

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

const BY_ID: ReadonlyMap<string, ProviderDescriptor<ProviderId, PriceKey>> = new Map(PROVIDERS.map((p) => [p.id, p]));

export function providerOf(id: ProviderId): ProviderDescriptor<ProviderId, PriceKey> {
  const d = BY_ID.get(id);
  if (!d) throw new Error(`no provider ${id}`);
  return d;
}

/** A key of the price table: whose rows price a provider's requests (anthropic-directives: anthropic's). */
export type PriceKey = (typeof PROVIDERS)[number]['prices'];

export const PRICE_KEYS: readonly PriceKey[] = [...new Set(PROVIDERS.map((p) => p.prices))];

export const priceKeyOf = (id: ProviderId): PriceKey => providerOf(id).prices;

export const CACHE_RULES: ReadonlyMap<ProviderId, CacheRules> = new Map(PROVIDERS.map((p) => [p.id, { provider: p.id, ...p.cache }]));

export function cacheRulesFor(provider: ProviderId): CacheRules {
  const rules = CACHE_RULES.get(provider);
  if (!rules) throw new Error(`no cache rules for provider ${provider}`);
  return rules;
}
