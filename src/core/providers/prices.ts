// The dated price table: what the models people use with each provider cost per million tokens, from
// the providers' public pricing pages (read through stored copies on the table's date). The UI lets a
// user edit it and keeps the edit locally; `validatePriceTable` checks an edited table, and every
// money figure carries the table's date. Prices are USD per million tokens (MTok).
import { PRICE_KEYS, priceKeyOf } from './registry';
import type { PriceKey } from './registry';
import type { ProviderId } from './types';

/** A provider whose cache rules apply to a model served through OpenRouter. */
export type Upstream = 'anthropic' | 'openai' | 'google';

export interface ModelPrice {
  /** The model id as the provider spells it. */
  readonly id: string;
  /** Which provider's requests this model is priced for: a provider's price key (anthropic-directives uses anthropic's). */
  readonly provider: PriceKey;
  /** USD per million uncached input tokens. */
  readonly input: number;
  /** USD per million input tokens read from the cache. */
  readonly cacheRead: number;
  /** USD per million input tokens written to the cache (Anthropic's 5-minute write; elsewhere the input price). */
  readonly cacheWrite: number;
  /** USD per million output tokens. */
  readonly output: number;
  /** The model's own minimum cacheable length, where it differs from the provider's default. */
  readonly minCacheTokens?: number;
  /** OpenRouter: whose cache rules apply. */
  readonly upstream?: Upstream;
  /** The pricing page the row comes from. */
  readonly source: string;
  readonly note?: string;
}

export interface PriceTable {
  /** The day the prices were read (ISO date), shown beside every money figure. */
  readonly date: string;
  /** Set when a user edited the table (ISO date of the last edit). */
  readonly edited?: string;
  readonly models: readonly ModelPrice[];
}

const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';
const ANTHROPIC_MINIMUMS = 'minimum cacheable length from https://platform.claude.com/docs/en/build-with-claude/prompt-caching';
const OPENAI_PRICING = 'https://developers.openai.com/api/docs/pricing';
const GEMINI_PRICING = 'https://ai.google.dev/gemini-api/docs/pricing';
const GEMINI_MINIMUMS = 'minimum from https://ai.google.dev/gemini-api/docs/caching';
const OPENROUTER_MODELS = 'https://openrouter.ai/models (pass-through of the upstream price)';
const CEREBRAS_PRICING = 'https://www.cerebras.ai/pricing';

export const DEFAULT_PRICE_TABLE: PriceTable = {
  date: '2026-12-01',
  models: [
    { id: 'claude-sonnet-4-5', provider: 'anthropic', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15, minCacheTokens: 1024, source: ANTHROPIC_PRICING, note: ANTHROPIC_MINIMUMS },
    { id: 'claude-sonnet-5', provider: 'anthropic', input: 2, cacheRead: 0.2, cacheWrite: 2.5, output: 10, minCacheTokens: 1024, source: ANTHROPIC_PRICING, note: ANTHROPIC_MINIMUMS },
    { id: 'claude-opus-4-5', provider: 'anthropic', input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25, minCacheTokens: 4096, source: ANTHROPIC_PRICING, note: ANTHROPIC_MINIMUMS },
    { id: 'claude-haiku-4-5', provider: 'anthropic', input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5, minCacheTokens: 4096, source: ANTHROPIC_PRICING, note: ANTHROPIC_MINIMUMS },
    { id: 'gpt-5', provider: 'openai', input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10, source: OPENAI_PRICING },
    { id: 'gpt-5-mini', provider: 'openai', input: 0.25, cacheRead: 0.025, cacheWrite: 0.25, output: 2, source: OPENAI_PRICING },
    { id: 'gpt-4.1', provider: 'openai', input: 2, cacheRead: 0.5, cacheWrite: 2, output: 8, source: OPENAI_PRICING },
    { id: 'gpt-4o', provider: 'openai', input: 2.5, cacheRead: 1.25, cacheWrite: 2.5, output: 10, source: OPENAI_PRICING },
    { id: 'gemini-2.5-flash', provider: 'google', input: 0.3, cacheRead: 0.03, cacheWrite: 0.3, output: 2.5, minCacheTokens: 2048, source: GEMINI_PRICING, note: GEMINI_MINIMUMS },
    { id: 'gemini-2.5-pro', provider: 'google', input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10, minCacheTokens: 2048, source: GEMINI_PRICING, note: `${GEMINI_MINIMUMS}; prompts up to 200k tokens` },
    { id: 'openai/gpt-4.1', provider: 'openrouter', input: 2, cacheRead: 0.5, cacheWrite: 2, output: 8, upstream: 'openai', source: OPENROUTER_MODELS },
    { id: 'google/gemini-2.5-flash', provider: 'openrouter', input: 0.3, cacheRead: 0.03, cacheWrite: 0.3, output: 2.5, minCacheTokens: 2048, upstream: 'google', source: OPENROUTER_MODELS },
    { id: 'anthropic/claude-sonnet-4.5', provider: 'openrouter', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15, upstream: 'anthropic', source: OPENROUTER_MODELS, note: 'JP sends no cache_control through OpenRouter: nothing is cached' },
    { id: 'gpt-oss-120b', provider: 'cerebras', input: 0.35, cacheRead: 0.35, cacheWrite: 0.35, output: 0.75, source: CEREBRAS_PRICING, note: 'no cached-token price is published: cached tokens at the input price' },
    { id: 'local model (Ollama)', provider: 'ollama', input: 0, cacheRead: 0, cacheWrite: 0, output: 0, source: 'local: no money; the figure is prefill tokens saved' },
    { id: 'local model (llama.cpp)', provider: 'llamacpp', input: 0, cacheRead: 0, cacheWrite: 0, output: 0, source: 'local: no money; the figure is prefill tokens saved' },
  ],
};

/** The price row a provider's requests are priced at: the named model if it fits the provider, else the provider's first. */
export function modelFor(table: PriceTable, provider: ProviderId, id?: string): ModelPrice | undefined {
  const p = priceKeyOf(provider);
  const rows = table.models.filter((m) => m.provider === p);
  return rows.find((m) => m.id === id) ?? rows[0];
}

export function modelsFor(table: PriceTable, provider: ProviderId): readonly ModelPrice[] {
  const p = priceKeyOf(provider);
  return table.models.filter((m) => m.provider === p);
}

const PRICE_FIELDS = ['input', 'cacheRead', 'cacheWrite', 'output'] as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export type PriceTableCheck = { readonly ok: true; readonly table: PriceTable } | { readonly ok: false; readonly errors: readonly string[] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkRow(row: unknown, at: string, errors: string[]): ModelPrice | undefined {
  if (!isRecord(row)) {
    errors.push(`${at}: a model must be an object`);
    return undefined;
  }
  const before = errors.length;
  const id = row.id;
  if (typeof id !== 'string' || id.trim() === '') errors.push(`${at}.id: a model needs a name`);
  const provider = row.provider;
  if (typeof provider !== 'string' || !(PRICE_KEYS as readonly string[]).includes(provider)) errors.push(`${at}.provider: one of ${PRICE_KEYS.join(', ')}`);
  for (const f of PRICE_FIELDS) {
    const v = row[f];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) errors.push(`${at}.${f}: a price in USD per million tokens, 0 or more`);
  }
  const min = row.minCacheTokens;
  if (min !== undefined && (typeof min !== 'number' || !Number.isInteger(min) || min < 0)) errors.push(`${at}.minCacheTokens: a whole number of tokens`);
  const upstream = row.upstream;
  if (upstream !== undefined && upstream !== 'anthropic' && upstream !== 'openai' && upstream !== 'google') errors.push(`${at}.upstream: anthropic, openai or google`);
  if (errors.length > before) return undefined;
  return {
    id: String(id),
    provider: provider as ModelPrice['provider'],
    input: row.input as number,
    cacheRead: row.cacheRead as number,
    cacheWrite: row.cacheWrite as number,
    output: row.output as number,
    ...(typeof min === 'number' ? { minCacheTokens: min } : {}),
    ...(upstream !== undefined ? { upstream: upstream as Upstream } : {}),
    source: typeof row.source === 'string' ? row.source : 'edited',
    ...(typeof row.note === 'string' ? { note: row.note } : {}),
  };
}

/** Checks a price table read back from storage or edited by hand; every problem names its place. */
export function validatePriceTable(value: unknown): PriceTableCheck {
  const errors: string[] = [];
  if (!isRecord(value)) return { ok: false, errors: ['the price table must be an object with date and models'] };
  const date = value.date;
  if (typeof date !== 'string' || !ISO_DATE.test(date)) errors.push('date: an ISO date (YYYY-MM-DD)');
  const edited = value.edited;
  if (edited !== undefined && (typeof edited !== 'string' || !ISO_DATE.test(edited))) errors.push('edited: an ISO date (YYYY-MM-DD)');
  const models = value.models;
  if (!Array.isArray(models) || models.length === 0) errors.push('models: a list of at least one model');
  const rows: ModelPrice[] = [];
  const seen = new Set<string>();
  if (Array.isArray(models)) {
    models.forEach((row: unknown, i) => {
      const m = checkRow(row, `models[${i}]`, errors);
      if (!m) return;
      const key = `${m.provider}\u0000${m.id}`;
      if (seen.has(key)) errors.push(`models[${i}].id: ${m.provider} already has a model named ${JSON.stringify(m.id)}`);
      seen.add(key);
      rows.push(m);
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, table: { date: date as string, ...(typeof edited === 'string' ? { edited } : {}), models: rows } };
}

/** "prices of 2026-12-01" or "prices of 2026-12-01, edited 2026-12-03": the words shown beside money. */
export function priceDateLabel(table: PriceTable): string {
  return `prices of ${table.date}${table.edited ? `, edited ${table.edited}` : ''}`;
}
