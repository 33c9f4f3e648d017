import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_TABLE, modelFor, priceDateLabel, validatePriceTable } from './prices';
import { formatDuration, parseDuration } from '../scenario/duration';

describe('the price table', () => {
  it('is dated and valid, with a model for every provider', () => {
    expect(validatePriceTable(JSON.parse(JSON.stringify(DEFAULT_PRICE_TABLE)))).toEqual({ ok: true, table: DEFAULT_PRICE_TABLE });
    for (const p of ['anthropic', 'anthropic-directives', 'openai', 'google', 'openrouter', 'cerebras', 'ollama', 'llamacpp'] as const) expect(modelFor(DEFAULT_PRICE_TABLE, p), p).toBeDefined();
    expect(modelFor(DEFAULT_PRICE_TABLE, 'anthropic-directives')?.provider).toBe('anthropic');
    expect(modelFor(DEFAULT_PRICE_TABLE, 'openai', 'gpt-4.1')?.id).toBe('gpt-4.1');
    expect(modelFor(DEFAULT_PRICE_TABLE, 'openai', 'claude-sonnet-4-5')?.id).toBe('gpt-5');
    expect(priceDateLabel({ ...DEFAULT_PRICE_TABLE, edited: '2026-12-03' })).toBe('prices of 2026-12-01, edited 2026-12-03');
  });
  it.each([
    [null, 'the price table must be an object'],
    [{ date: '1 Dec', models: [] }, 'date: an ISO date'],
    [{ date: '2026-12-01', models: [] }, 'models: a list of at least one model'],
    [{ date: '2026-12-01', models: [{ id: 'x', provider: 'openai', input: -1, cacheRead: 0, cacheWrite: 0, output: 0 }] }, 'models[0].input: a price in USD per million tokens, 0 or more'],
    [{ date: '2026-12-01', models: [{ id: 'x', provider: 'acme', input: 1, cacheRead: 0, cacheWrite: 0, output: 0 }] }, 'models[0].provider: one of'],
    [{ date: '2026-12-01', models: [{ id: 'x', provider: 'openai', input: 1, cacheRead: 0, cacheWrite: 1, output: 2 }, { id: 'x', provider: 'openai', input: 1, cacheRead: 0, cacheWrite: 1, output: 2 }] }, 'models[1].id: openai already has a model named "x"'],
  ])('rejects %j', (value, message) => {
    const r = validatePriceTable(value);
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.errors.join('\n')).toContain(message);
  });
});

describe('durations', () => {
  it.each([
    ['90s', 90],
    ['6m', 360],
    ['1h', 3600],
    ['1h30m', 5400],
    ['45', 45],
    ['2.5', 2.5],
    ['', undefined],
    ['5 minutes', undefined],
    ['m', undefined],
  ])('%j is %s seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });
  it('formats back what it parses', () => {
    for (const s of [0, 59, 60, 90, 360, 3600, 5400, 3661]) expect(parseDuration(formatDuration(s))).toBe(s);
  });
});
