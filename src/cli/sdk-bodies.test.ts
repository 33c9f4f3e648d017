// Issue 18 acceptance: every request of every scenario in scenarios/ and ../shared/conformance/,
// rendered under every provider, type-checked against the request type of the provider's official
// SDK. Bodies JP itself sends wrong are expected exceptions, each with its reason; every other body
// must type-check, and every expected exception must still fail (so the list stays honest).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderAll, scenarioFiles, typeCheckBodies } from './sdk-bodies';
import type { BodyCase, TypeResult } from './sdk-bodies';
import { PROVIDER_IDS } from '../core/providers/types';
import type { ProviderId } from '../core/providers/types';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const files = scenarioFiles([join(root, 'scenarios'), join(root, '..', 'shared', 'conformance')]);

interface Exception {
  readonly provider: ProviderId;
  readonly reason: string;
  /** Does this body hold what the reason is about? */
  applies(c: BodyCase): boolean;
  /** Is this failing element (a tool, a message) one the reason explains? */
  explains(key: string, json: string): boolean;
}

const DIRECTIVE_BLOCK = /"type":"tool_(availability|addition|removal)"/;

const EXCEPTIONS: readonly Exception[] = [
  {
    provider: 'ollama',
    reason: "JP sends to_parameters_map() as a tool's parameters (ollama.rs:411-429, jp-today §8): the properties map without its type/properties/required wrapper, which Ollama's Tool type does not take. The simulator keeps JP's body; the ollama-parameters rule flags it.",
    applies: (c) => [...c.tools.values()].some((d) => d.parameters.size > 0),
    explains: (key, json) => key === 'tools' && json.includes('"parameters":{"'),
  },
  {
    provider: 'anthropic-directives',
    reason: "The directives mode renders RFD 105's proposed tool_availability / tool_addition / tool_removal content blocks, which no released Anthropic API takes: it simulates a proposal, not today's API.",
    applies: (c) => DIRECTIVE_BLOCK.test(JSON.stringify(c.body)),
    explains: (key, json) => key === 'messages' && DIRECTIVE_BLOCK.test(json),
  },
];

let cases: BodyCase[] = [];
let typed: TypeResult;

beforeAll(() => {
  cases = renderAll(files);
  typed = typeCheckBodies(cases, root);
}, 300_000);

describe('request bodies against the official SDK request types', () => {
  it('covers every scenario file under every provider', () => {
    expect(files.length).toBeGreaterThanOrEqual(29);
    for (const p of PROVIDER_IDS) expect(cases.filter((c) => c.provider === p).length).toBeGreaterThanOrEqual(100);
    // The same requests under every provider.
    const per = PROVIDER_IDS.map((p) => cases.filter((c) => c.provider === p).length);
    expect(new Set(per).size).toBe(1);
  });

  it.each(PROVIDER_IDS)('%s: every body type-checks, or fails for a listed reason and only for it', (provider) => {
    const exceptions = EXCEPTIONS.filter((e) => e.provider === provider);
    const unexplained: string[] = [];
    const stale: string[] = [];
    cases.forEach((c, i) => {
      if (c.provider !== provider) return;
      const failures = typed.failures[i] ?? [];
      const where = `${c.file.slice(root.length - 'scenarios'.length)} request ${c.request + 1}`;
      const excepted = exceptions.filter((e) => e.applies(c));
      if (excepted.length > 0 && failures.length === 0) stale.push(`${where}: expected to fail (${excepted[0]?.reason.slice(0, 60)}…) but type-checks`);
      for (const f of failures) {
        // A body-level failure follows from its elements' when one of them is excepted.
        const ok = f.element ? excepted.some((e) => e.explains(f.element?.key ?? '', f.element?.json ?? '')) : excepted.length > 0;
        if (!ok) unexplained.push(`${where}: ${f.message.split('\n')[0] ?? ''}`);
      }
    });
    expect(unexplained.slice(0, 10)).toEqual([]);
    expect(stale.slice(0, 10)).toEqual([]);
  });

  it('the providers JP renders faithfully are valid by type on every body', () => {
    for (const p of ['anthropic', 'openai', 'google', 'openrouter', 'cerebras', 'llamacpp'] as const) {
      const bad = cases.filter((c, i) => c.provider === p && (typed.failures[i]?.length ?? 0) > 0);
      expect(bad.length, p).toBe(0);
    }
  });
});

describe('provider rules over the same bodies', () => {
  const findings = (provider: ProviderId, file: string) => cases.filter((c) => c.provider === provider && c.file.endsWith(file)).flatMap((c) => c.findings.map((d) => ({ request: c.request, ...d })));

  it('no body carries empty content any more (JP stores no empty reply; same-role turns fold)', () => {
    expect(cases.flatMap((c) => c.findings).filter((d) => d.rule === 'empty-content')).toEqual([]);
  });

  it('mcp-resolution step 4: jira_search is forced while its server is offline, and Anthropic would refuse it', () => {
    const forced = findings('anthropic', 'mcp-resolution.toml').filter((d) => d.rule === 'forced-absent');
    expect(forced.map((d) => [d.severity, d.tool])).toEqual([['error', 'jira_search']]);
    expect(forced[0]?.message).toContain('not in the tools array');
  });

  it('special-names: the names no provider with a rule takes are errors there, and none under Cerebras, Ollama or llama.cpp', () => {
    const names = (p: ProviderId) => [...new Set(findings(p, 'special-names.toml').filter((d) => d.rule.startsWith('tool-name')).map((d) => d.tool))].sort();
    expect(names('anthropic').length).toBeGreaterThan(0);
    expect(names('openai')).toEqual(names('anthropic'));
    for (const p of ['cerebras', 'ollama', 'llamacpp'] as const) expect(names(p)).toEqual([]);
  });

  it('Ollama: every request whose tools have parameters carries the parameters warning', () => {
    const ollama = cases.filter((c) => c.provider === 'ollama');
    for (const c of ollama) {
      const has = [...c.tools.values()].some((d) => d.parameters.size > 0);
      expect(c.findings.some((d) => d.rule === 'ollama-parameters')).toBe(has);
    }
  });
});
