// The price table the workbench prices with, and the model chosen per provider: the dated defaults
// until the user edits a price, then the edited table, kept in localStorage so it survives a reload.
// A stored table that no longer validates is set aside (with its errors shown), never half-used.
import { create } from 'zustand';
import { DEFAULT_PRICE_TABLE, isProviderId, priceKeyOf, validatePriceTable } from '../core';
import type { ModelPrice, PriceTable } from '../core';

export const PRICES_KEY = 'tool-workbench:prices:v1';

interface Stored {
  readonly table: PriceTable;
  /** The model chosen per provider id. */
  readonly chosen: Readonly<Record<string, string>>;
}

export interface PricesState extends Stored {
  /** Why a stored table was set aside, if it was. */
  readonly problem?: string;
  setPrice(provider: string, id: string, field: 'input' | 'cacheRead' | 'cacheWrite' | 'output', value: number): void;
  choose(provider: string, id: string): void;
  reset(): void;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function load(): Stored & { problem?: string } {
  try {
    const raw = localStorage.getItem(PRICES_KEY);
    if (raw === null) return { table: DEFAULT_PRICE_TABLE, chosen: {} };
    const value = JSON.parse(raw) as { table?: unknown; chosen?: unknown };
    const checked = validatePriceTable(value.table);
    const chosen = typeof value.chosen === 'object' && value.chosen !== null ? (value.chosen as Record<string, string>) : {};
    if (!checked.ok) return { table: DEFAULT_PRICE_TABLE, chosen, problem: `The saved price table was set aside: ${checked.errors.slice(0, 3).join('; ')}` };
    return { table: checked.table, chosen };
  } catch (e) {
    return { table: DEFAULT_PRICE_TABLE, chosen: {}, problem: `The saved price table could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function save(s: Stored): void {
  try {
    localStorage.setItem(PRICES_KEY, JSON.stringify({ table: s.table, chosen: s.chosen }));
  } catch {
    // Storage full or blocked: the edit still applies for this session.
  }
}

export const usePrices = create<PricesState>((set, get) => ({
  ...load(),
  setPrice(provider, id, field, value) {
    if (!Number.isFinite(value) || value < 0) return;
    const models = get().table.models.map((m): ModelPrice => (m.provider === provider && m.id === id ? { ...m, [field]: value } : m));
    const next = { table: { ...get().table, models, edited: today() }, chosen: get().chosen };
    save(next);
    set(next);
  },
  choose(provider, id) {
    const next = { table: get().table, chosen: { ...get().chosen, [provider]: id } };
    save(next);
    set(next);
  },
  reset() {
    const next = { table: DEFAULT_PRICE_TABLE, chosen: {} };
    save(next);
    set({ ...next, problem: undefined });
  },
}));

/** Choices are kept per price key: providers that share prices share the choice (anthropic-directives, anthropic's). */
export const choiceKey = (provider: string): string => (isProviderId(provider) ? priceKeyOf(provider) : provider);

/** The model chosen for a provider. */
export function chosenModel(chosen: Readonly<Record<string, string>>, provider: string): string | undefined {
  return chosen[choiceKey(provider)];
}
