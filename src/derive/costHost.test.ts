// The cost methods answer from the derivation they name, in the worker's host: the conversation alone
// for the inspector, with the counterfactual for the cost panel, and the break-even sweep.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_TABLE, scenarioDocFromText } from '../core';
import { DeriveHost } from './host';
import { sweepSizes } from './costHost';
import { deriveWhole } from './testing';

const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');

describe('cost methods', () => {
  it('prices the derivation, with and without the counterfactual, and sweeps the break-even', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const host = new DeriveHost();
    const view = deriveWhole(host, { doc: d.doc, revision: 1 });
    const alone = await host.call('costs', { revision: 1, table: DEFAULT_PRICE_TABLE, compare: false });
    expect(alone.requests).toHaveLength(view.requests.length);
    expect(alone.variants.map((v) => v.id)).toEqual(['as-configured']);
    expect(alone.counter).toBe('o200k_base');
    expect(alone.priced).toBe('prices of 2026-12-01');
    const full = await host.call('costs', { revision: 1, table: DEFAULT_PRICE_TABLE, model: 'claude-haiku-4-5' });
    expect(full.model).toBe('claude-haiku-4-5');
    expect(full.variants.map((v) => v.id)).toEqual(['as-configured', 'append', 'directives', 'all-on']);
    const allOn = full.variants[3]?.totals.money ?? 0;
    expect(full.saving.usd).toBeCloseTo(allOn - full.totals.money, 12);
    const be = await host.call('breakEven', { revision: 1, table: DEFAULT_PRICE_TABLE, discoveries: 1 });
    expect(be.saving).toHaveLength(be.turns.length);
    for (const row of be.saving) expect(row).toHaveLength(be.sizes.length);
    expect(be.catalogue).toBeGreaterThan(20);
    await expect(host.call('costs', { revision: 99, table: DEFAULT_PRICE_TABLE })).rejects.toThrow('not a recent derivation');
  });

  it('sweeps every size of a small catalogue and 25 sizes of a large one', () => {
    expect(sweepSizes(3)).toEqual([0, 1, 2, 3]);
    const big = sweepSizes(480);
    expect(big[0]).toBe(0);
    expect(big[big.length - 1]).toBe(480);
    expect(big).toHaveLength(25);
  });
});
