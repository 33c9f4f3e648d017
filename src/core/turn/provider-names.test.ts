// Tool names the provider refuses, at their declaration in the layer (issue 18), and how a check
// treats them: never a failure by themselves, expectable with [load] error and provider_warnings.
import { describe, expect, it } from 'vitest';
import { check, run } from './test-kit';

const LAYER = `[conversation.tools.'*']
enable = "on"

[conversation.tools.read_file]
source = "local"
summary = "Read a file."

[conversation.tools.'has space']
source = "local"
summary = "A name with a space."

[conversation.tools.9lives]
source = "local"
summary = "Starts with a digit."`;

const BODY = '[[steps]]\ncommand = "jp q go"';

describe('provider rules at the tool declaration', () => {
  it('Anthropic: the refused name is an error at its table header, code provider-rule', () => {
    const t = run({ policy: { ranking: 'substring', provider: 'anthropic' }, layer: LAYER, body: BODY });
    const found = t.diagnostics.filter((d) => d.code === 'provider-rule');
    expect(found.map((d) => [d.severity, d.layer, d.line, d.column])).toEqual([['error', 'workspace', 8, 21]]);
    expect(found[0]?.message).toContain('`has space`');
  });

  it('Gemini: a name starting with a digit; no finding for the space-free names it takes', () => {
    const t = run({ policy: { ranking: 'substring', provider: 'google' }, layer: LAYER, body: BODY });
    const found = t.diagnostics.filter((d) => d.code === 'provider-rule').map((d) => d.message);
    expect(found).toHaveLength(2);
    expect(found.some((m) => m.includes('`9lives`') && m.includes('starts with `9`'))).toBe(true);
  });

  it('llama.cpp publishes no name rule: nothing is reported', () => {
    const t = run({ policy: { ranking: 'substring', provider: 'llamacpp' }, layer: LAYER, body: BODY });
    expect(t.diagnostics.filter((d) => d.code === 'provider-rule')).toEqual([]);
  });

  it('a provider finding does not fail the check, and can be expected at load and on the request', () => {
    const plain = check({ policy: { ranking: 'substring', provider: 'anthropic' }, layer: LAYER, body: BODY });
    expect(plain.failures).toEqual([]);
    const expected = check({
      policy: { ranking: 'substring', provider: 'anthropic' },
      layer: LAYER,
      body: `[load]\nerror = "Anthropic refuses the tool name \`has space\`"\n\n[[steps]]\ncommand = "jp q go"\n  [[steps.cycles]]\n  reply = "ok"\n  [steps.cycles.expect]\n  provider_warnings = ["error: Anthropic refuses the tool name \`has space\`"]\n`,
    });
    expect(expected.failures).toEqual([]);
    expect(expected.passed).toBe(2);
  });

  it('provider_warnings = [] expects a request with no finding', () => {
    const report = check({
      policy: { ranking: 'substring', provider: 'anthropic' },
      layer: LAYER,
      body: '[[steps]]\ncommand = "jp q go"\n  [[steps.cycles]]\n  reply = "ok"\n  [steps.cycles.expect]\n  provider_warnings = []\n',
    });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toContain('provider_warnings');
  });
});
