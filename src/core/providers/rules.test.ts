// The provider rules, one table row per case (issue 18): tool names per provider, a forced tool
// absent from the array, empty content, schema keywords, and JP's Ollama parameters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkToolName, checkToolSchema, nameFindings, nameRule } from './rules';
import { checkRequest } from './request-rules';
import { renderRequest } from './render';
import { makeTool } from './test-helpers';
import { PROVIDER_IDS } from './types';
import type { ConversationMessage, ProviderId } from './types';

type Verdict = 'ok' | 'error' | 'warning';

/** The worst severity among findings. */
function verdict(found: readonly { severity: 'error' | 'warning' }[]): Verdict {
  if (found.some((d) => d.severity === 'error')) return 'error';
  return found.length > 0 ? 'warning' : 'ok';
}

const long = (n: number): string => 'a'.repeat(n);

// Columns: anthropic, anthropic-directives, openai, google, openrouter, cerebras, ollama, llamacpp.
const NAME_TABLE: readonly [string, readonly Verdict[]][] = [
  ['read_file', ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
  ['Read-File_2', ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
  ['überprüfen', ['error', 'error', 'error', 'error', 'error', 'ok', 'ok', 'ok']],
  ['検索', ['error', 'error', 'error', 'error', 'error', 'ok', 'ok', 'ok']],
  ['has space', ['error', 'error', 'error', 'error', 'error', 'ok', 'ok', 'ok']],
  ['git.status', ['error', 'error', 'error', 'ok', 'error', 'ok', 'ok', 'ok']],
  ['ns:tool', ['error', 'error', 'error', 'ok', 'error', 'ok', 'ok', 'ok']],
  ['9lives', ['ok', 'ok', 'ok', 'error', 'ok', 'ok', 'ok', 'ok']],
  ['_private', ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
  ['__proto__', ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
  [long(64), ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
  [long(65), ['error', 'error', 'error', 'warning', 'error', 'ok', 'ok', 'ok']],
  [long(100), ['error', 'error', 'error', 'warning', 'error', 'ok', 'ok', 'ok']],
  [long(128), ['error', 'error', 'error', 'warning', 'error', 'ok', 'ok', 'ok']],
  [long(129), ['error', 'error', 'error', 'error', 'error', 'ok', 'ok', 'ok']],
];

describe('tool names per provider', () => {
  it('the table has a column per provider', () => {
    expect(PROVIDER_IDS).toEqual(['anthropic', 'anthropic-directives', 'openai', 'google', 'openrouter', 'cerebras', 'ollama', 'llamacpp']);
  });

  for (const [name, verdicts] of NAME_TABLE) {
    it.each(PROVIDER_IDS.map((p, i) => [p, verdicts[i] as Verdict] as const))(`${name.length > 20 ? `${name.length} characters` : name} under %s: %s`, (provider, expected) => {
      const found = checkToolName(provider, name);
      expect(verdict(found)).toBe(expected);
      for (const d of found) {
        expect(d.tool).toBe(name);
        expect(d.source.document.length).toBeGreaterThan(20);
        expect(d.message).toContain(name);
      }
    });
  }

  it('names the first character a provider refuses, and the length against the limit', () => {
    expect(checkToolName('anthropic', 'has space')[0]?.message).toContain('a space');
    expect(checkToolName('openai', 'git.status')[0]?.message).toContain('`.`');
    expect(checkToolName('google', '9lives')[0]?.message).toContain('starts with `9`');
    expect(checkToolName('anthropic', long(65))[0]?.message).toContain('65 characters long; the limit is 64');
  });

  it('providers without a published rule have none', () => {
    expect(['cerebras', 'ollama', 'llamacpp'].map((p) => nameRule(p as ProviderId))).toEqual([undefined, undefined, undefined]);
  });
});

const a = makeTool('alpha', 'A.', [{ name: 'x', schema: { type: 'string' }, required: true }]);
const b = makeTool('beta', 'B.');

// Columns as above. Rows: the tools array, then the forced tool.
const FORCED_TABLE: readonly [string, readonly string[], string, readonly Verdict[]][] = [
  ['forced tool in a two-tool array', ['alpha', 'beta'], 'alpha', ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
  ['forced tool absent from a two-tool array', ['alpha', 'beta'], 'jira_search', ['error', 'error', 'error', 'error', 'error', 'error', 'warning', 'warning']],
  ['forced tool absent from a one-tool array', ['alpha'], 'jira_search', ['warning', 'warning', 'error', 'error', 'error', 'error', 'warning', 'warning']],
  ['forced tool with no tools offered', [], 'jira_search', ['warning', 'warning', 'error', 'warning', 'warning', 'warning', 'warning', 'warning']],
];

describe('a forced tool that is not in the tools array', () => {
  const defs = new Map([
    ['alpha', a],
    ['beta', b],
  ]);
  for (const [what, names, forced, verdicts] of FORCED_TABLE) {
    it.each(PROVIDER_IDS.map((p, i) => [p, verdicts[i] as Verdict] as const))(`${what} under %s: %s`, (provider, expected) => {
      const tools = names.map((n) => defs.get(n)).filter((d) => d !== undefined);
      const found = checkRequest({ provider, tools, toolChoice: { kind: 'function', name: forced }, messages: [{ kind: 'user', text: 'go' }] }).filter((d) => d.rule === 'forced-absent');
      expect(verdict(found)).toBe(expected);
      for (const d of found) expect(d.tool).toBe(forced);
    });
  }
});

describe('empty content', () => {
  const conversation: ConversationMessage[] = [
    { kind: 'user', text: 'one' },
    { kind: 'assistant', text: '' },
    { kind: 'user', text: 'two' },
  ];

  it.each(PROVIDER_IDS)('%s: an empty reply sends no assistant message (JP stores no event for it), and nothing is refused', (provider) => {
    const r = renderRequest({ provider, tools: [], toolChoice: { kind: 'auto' }, system: '', messages: conversation });
    expect(r.messagesJson).not.toContain('"assistant"');
    expect(r.messagesJson).not.toContain('"model"');
    expect(checkRequest({ provider, tools: [], toolChoice: { kind: 'auto' }, messages: conversation })).toEqual([]);
  });

  it('Anthropic and Gemini fold the two user turns into one message, as JP folds same-role events', () => {
    const body = (p: ProviderId) => renderRequest({ provider: p, tools: [], toolChoice: { kind: 'auto' }, system: '', messages: conversation }).body as Record<string, unknown[]>;
    expect(body('anthropic').messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }]);
    expect(body('google').contents).toEqual([{ role: 'user', parts: [{ text: 'one' }, { text: 'two' }] }]);
    expect(body('openrouter').messages).toEqual([{ role: 'user', content: 'one' }, { role: 'user', content: 'two' }]);
  });

  // Columns as above: an empty query is an empty text block for Anthropic.
  const EMPTY_TEXT: readonly Verdict[] = ['error', 'error', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'];
  it.each(PROVIDER_IDS.map((p, i) => [p, EMPTY_TEXT[i] as Verdict] as const))('an empty user text under %s: %s', (provider, expected) => {
    const found = checkRequest({ provider, tools: [], toolChoice: { kind: 'auto' }, messages: [{ kind: 'user', text: '' }] });
    expect(verdict(found.filter((d) => d.rule === 'empty-content'))).toBe(expected);
  });
});

describe('schema keywords a provider refuses', () => {
  const oneOf = makeTool('pick', 'Pick.', [{ name: 'choice', schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }]);
  const named = makeTool('named', 'A parameter called oneOf.', [{ name: 'x', schema: { type: 'object', properties: { oneOf: { type: 'string' } } } }]);
  // Columns as above.
  const TABLE: readonly Verdict[] = ['ok', 'ok', 'error', 'ok', 'error', 'ok', 'ok', 'ok'];
  it.each(PROVIDER_IDS.map((p, i) => [p, TABLE[i] as Verdict] as const))('oneOf under %s: %s', (provider, expected) => {
    const found = checkToolSchema(provider, oneOf);
    expect(verdict(found)).toBe(expected);
    if (expected === 'error') expect(found[0]?.message).toContain('`oneOf` at choice/oneOf');
  });

  it.each(PROVIDER_IDS)('a parameter named oneOf is no keyword (%s)', (provider) => {
    expect(checkToolSchema(provider, named)).toEqual([]);
  });
});

describe("JP's Ollama parameters", () => {
  it.each(PROVIDER_IDS)('%s: a warning only for Ollama, only when a tool has parameters', (provider) => {
    const found = checkRequest({ provider, tools: [a, b], toolChoice: { kind: 'auto' }, messages: [] }).filter((d) => d.rule === 'ollama-parameters');
    expect(verdict(found)).toBe(provider === 'ollama' ? 'warning' : 'ok');
    if (provider === 'ollama') expect(found[0]?.message).toContain('1 tool (`alpha`)');
    expect(checkRequest({ provider, tools: [b], toolChoice: { kind: 'auto' }, messages: [] })).toEqual([]);
  });
});

describe('a clean tool name', () => {
  // checkToolName answers a name without findings by one test of the whole name; nameFindings reads
  // it character by character and is what a name with findings gets.
  const nameArb = fc.oneof(
    fc.string({ maxLength: 80, unit: fc.constantFrom('a', 'Z', '0', '9', '_', '-', '.', ':', ' ', 'é', '検', '\u{1F600}') }),
    fc.string({ minLength: 55, maxLength: 140, unit: fc.constantFrom('a', 'b', '_') }),
    fc.string({ maxLength: 30 }),
  );
  it.each(PROVIDER_IDS)('%s: checkToolName finds what nameFindings finds, for any name', (provider) => {
    fc.assert(
      fc.property(nameArb, (name) => {
        expect(checkToolName(provider, name)).toEqual(nameFindings(provider, name));
      }),
      { numRuns: 400 },
    );
  });
});
