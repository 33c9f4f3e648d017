// Tokens over each provider's rendered tools JSON (issue 18 item 4): counted element by element, they
// stay within a token or two per tool of counting the whole rendered string, for every provider.
import { beforeAll, describe, expect, it } from 'vitest';
import { layer, run } from '../turn/test-kit';
import { createTokenCounter } from './tokens';
import type { TokenCounter } from './cost';
import { setTokens } from './cost';
import { tokenBasis, toolElementJson, toolsArrayTokens, toolTokens } from './tool-tokens';
import { PROVIDER_IDS } from './types';

const LAYER = layer(
  {
    read_file: { summary: 'Read a file from the workspace.', params: { path: { required: true, summary: 'Path relative to the workspace root.' } } },
    grep_files: { summary: 'Search file contents with a regular expression.', params: { pattern: { required: true, summary: 'The pattern.' }, glob: { summary: 'Only files matching this glob.' } } },
    deploy: { summary: 'Deploy a service to an environment.', params: { environment: { required: true, summary: 'Target environment, e.g. staging.' } } },
    git_status: { summary: 'Show the working tree status.' },
  },
  { enable: '"on"' },
);
let counter: TokenCounter;

beforeAll(async () => {
  counter = await createTokenCounter();
});

describe('tokens over the rendered tools JSON', () => {
  it.each(PROVIDER_IDS.filter((p) => p !== 'anthropic-directives'))('%s: the count of the whole rendered tools JSON; elements are the body\'s own', (provider) => {
    const t = run({ policy: { ranking: 'substring', provider }, layer: LAYER, body: '[[steps]]\ncommand = "jp q go"' });
    const r = t.requests.find((x) => x.array.length > 3);
    expect(r).toBeDefined();
    if (!r) return;
    const rendered = r.rendered();
    const defs = rendered.toolNames.map((n) => r.definitions.get(n)).filter((d) => d !== undefined);
    expect(`[${defs.map((d, i) => toolElementJson(provider, d, i === defs.length - 1)).join(',')}]`).toBe(rendered.toolsJson);
    expect(toolsArrayTokens(defs, provider, counter)).toBe(counter.count(rendered.toolsJson));
    // Element by element (past EXACT_LIMIT tools), about 2 tokens per tool away from the whole count.
    const elementwise = defs.reduce((n, d, i) => n + toolTokens(d, provider, counter, i === defs.length - 1), 0) + 2 + defs.length - 1;
    expect(Math.abs(elementwise - counter.count(rendered.toolsJson))).toBeLessThanOrEqual(2 * defs.length);
    const summed = toolsArrayTokens(defs, provider, counter);
    // The old figure (name + description + schema) is a different quantity: it ignores the shape.
    expect(setTokens(defs, counter)).not.toBe(summed);
  });

  it('labels say estimate and which tokenizer, and why', () => {
    for (const p of PROVIDER_IDS) {
      const b = tokenBasis(p, 'o200k_base');
      expect(b.label).toBe(`estimate: o200k_base over the ${p} tools JSON`);
      expect(b.why.length).toBeGreaterThan(60);
    }
  });
});
