// A provider is one module: its descriptor must be whole, and every list of providers the workbench
// keeps (policy choices, price keys, cache rules, tokenizer notes, finding words) follows the registry.
import { describe, expect, it } from 'vitest';
import { POLICY_CHOICES } from '../scenario/policy';
import { descriptorProblems } from './descriptor';
import type { ProviderDescriptor } from './descriptor';
import { DEFAULT_PRICE_TABLE, modelFor, validatePriceTable } from './prices';
import { CACHE_RULES, PRICE_KEYS, PROVIDER_IDS, PROVIDERS, priceKeyOf } from './registry';
import { renderRequest } from './render';
import { PROVIDER_WORDS } from './rules';
import { makeTool } from './test-helpers';
import { TOKENIZER_NOTES } from './tool-tokens';

const PARTS = ['id', 'words', 'render', 'reply', 'names', 'schemaKeywords', 'forced', 'emptyContent', 'checks', 'cache', 'prices', 'tokenizer', 'sdk'] as const;

describe('the registry of provider descriptors', () => {
  it.each(PROVIDERS.map((p) => [p.id, p] as const))('%s: the descriptor has every part', (_id, d) => {
    expect(descriptorProblems(d)).toEqual([]);
    expect(Object.keys(d).sort()).toEqual([...PARTS].sort());
  });

  it.each(PARTS)('a descriptor without its %s is reported, by name', (part) => {
    const whole = PROVIDERS[0] as ProviderDescriptor;
    const { [part]: _dropped, ...missing } = whole;
    expect(descriptorProblems(missing)).toEqual([`${part === 'id' ? 'a provider' : whole.id}: the descriptor has no ${part}`]);
    // A part present with a value of the wrong kind is missing too (an optional part may be undefined).
    const broken = { ...whole, [part]: part === 'checks' || part === 'render' ? 'nothing' : 0 };
    expect(descriptorProblems(broken)).toHaveLength(1);
  });

  it('ids are unique, and every list of providers is the registry\'s', () => {
    expect(new Set(PROVIDER_IDS).size).toBe(PROVIDERS.length);
    expect(POLICY_CHOICES.provider).toEqual(PROVIDER_IDS);
    expect([...CACHE_RULES.keys()]).toEqual(PROVIDER_IDS);
    expect(Object.keys(TOKENIZER_NOTES)).toEqual(PROVIDER_IDS);
    expect(Object.keys(PROVIDER_WORDS)).toEqual(PROVIDER_IDS);
    for (const id of PROVIDER_IDS) expect(CACHE_RULES.get(id)?.provider).toBe(id);
  });

  it('every price key prices at least one model of the default table, and the table knows no other key', () => {
    expect(PRICE_KEYS).toEqual([...new Set(DEFAULT_PRICE_TABLE.models.map((m) => m.provider))]);
    for (const id of PROVIDER_IDS) expect(modelFor(DEFAULT_PRICE_TABLE, id)?.provider).toBe(priceKeyOf(id));
    const row = { id: 'x', provider: 'anthropic-directives', input: 1, cacheRead: 1, cacheWrite: 1, output: 1 };
    expect(validatePriceTable({ date: '2026-12-01', models: [row] })).toEqual({ ok: false, errors: [`models[0].provider: one of ${PRICE_KEYS.join(', ')}`] });
  });

  it.each(PROVIDERS.map((p) => p.id))('%s: renderRequest renders through the descriptor: the tools in order, the user\'s text in the body', (id) => {
    const r = renderRequest({ provider: id, tools: [makeTool('alpha', 'A.'), makeTool('beta', 'B.')], toolChoice: { kind: 'auto' }, system: 'S', messages: [{ kind: 'user', text: 'hello there' }] });
    expect(r.toolNames).toEqual(['alpha', 'beta']);
    expect(r.toolsJson.indexOf('alpha')).toBeLessThan(r.toolsJson.indexOf('beta'));
    expect(r.messagesJson).toContain('hello there');
    expect(JSON.stringify(r.body)).toContain('hello there');
  });
});
