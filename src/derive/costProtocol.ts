// The views of the derive methods behind the cost views (issue 13): what each request costs in the provider's prompt
// cache, the conversation against the all-on counterfactual, and the break-even sweep. Priced with the
// price table the UI keeps (sent with each call), counted with o200k_base.
import type { CacheStatus, CostTotals } from '../core';

export interface RequestCostView {
  readonly id: number;
  readonly step: number;
  readonly cycle: number;
  readonly at: number;
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly uncached: number;
  readonly output: number;
  readonly usd: number;
  readonly reason: string;
  /** The one cache status every panel shows (issue 24.6): the prefix comparison with the tokens read. */
  readonly status: CacheStatus;
}

export interface CostView {
  readonly provider: string;
  readonly model: string;
  /** The models of the table this provider can be priced at. */
  readonly models: readonly string[];
  /** "prices of 2026-12-01". */
  readonly priced: string;
  readonly counter: string;
  /** False for local runtimes: figures are prefill tokens saved, not money. */
  readonly money: boolean;
  readonly summary: string;
  readonly undocumented: readonly string[];
  readonly citations: readonly { readonly rule: string; readonly document: string; readonly url: string; readonly read: string }[];
  readonly requests: readonly RequestCostView[];
  /** The core's totals as they are (money in USD, 0 for local runtimes). */
  readonly totals: CostTotals;
  readonly variants: readonly { readonly id: string; readonly label: string; readonly totals: CostTotals }[];
  /** Discovery as configured against all-on (positive: discovery is cheaper). */
  readonly saving: { readonly usd: number; readonly tokens: number; readonly uncached: number; readonly cacheRead: number };
  readonly turnedOn: number;
  readonly error?: string;
}

export interface BreakEvenView {
  readonly unit: 'USD' | 'prefill tokens';
  readonly model: string;
  readonly priced: string;
  readonly catalogue: number;
  readonly sizes: readonly number[];
  readonly turns: readonly number[];
  /** saving[t][s]: all-on minus discoverable for turns[t] and sizes[s]. */
  readonly saving: readonly (readonly number[])[];
  readonly breakEven: readonly { readonly turns: number; readonly size?: number }[];
  readonly error?: string;
}
