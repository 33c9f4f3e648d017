// A request's permitted and offered cost comes from a per-position memo moved tool by tool (request.ts
// SetCosts), not from summing its sets. The oracle here is the sum itself: every definition of the
// request's permitted set (and of its offered set), as the request's own definitions map holds them,
// read in any order of requests, over the conformance scenarios and scenarios with promotions, forced
// tools, layer edits, directives and config edits.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionCost } from '../providers/cost';
import { Derivation } from './derivation';
import { runScenario } from './run';
import { layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';
import type { Timeline } from './timeline';

function runText(text: string): Timeline {
  return runScenario({ scenario: parsed(text) });
}

/** The old computation: each name of the set priced by the request's own definition of it. */
function summed(t: Timeline, id: number): { offered: number; permitted: number } {
  const r = t.requests[id];
  if (!r) throw new Error(`no request ${id}`);
  const sum = (names: readonly string[]): number => {
    let total = 0;
    for (const n of names) {
      const d = r.definitions.get(n);
      if (d) total += definitionCost(d);
    }
    return total;
  };
  return { offered: sum(r.sets.offered), permitted: sum(r.sets.permitted) };
}

const conformanceDir = resolve(__dirname, '../../../../shared/conformance');
const conformance = readdirSync(conformanceDir)
  .filter((f) => f.endsWith('.toml'))
  .sort()
  .map((f) => readFileSync(join(conformanceDir, f), 'utf8'));

function generated(n: number, policy: Record<string, string>): string {
  const tools: Record<string, ToolSpec> = {};
  for (let i = 0; i < n; i++) {
    tools[`tool_${i}`] = {
      ...(i % 10 === 0 ? { enable: '"on"' } : i % 13 === 5 ? { enable: '"off"' } : {}),
      summary: `Tool ${i} ${['reads files', 'lists issues', 'deploys apps', 'sends mail'][i % 4]} number ${i}.`,
      ...(i % 7 === 3 ? { params: { target: { summary: `Where it goes ${i}`, description: `The target of tool ${i}, a plain path ${'é'.repeat(i % 3)}.` } } } : {}),
    };
  }
  const steps = [
    turn('jp q one', [[search('files', 3)]]),
    turn('jp q two -T tool_0', [[search('deploys', 2)]]),
    '[[steps]]\ncommand = "jp config set --id conversation.tools.tool_3.enable=on"\n',
    turn('jp q three -t tool_5 -u tool_7', [[search('mail issues', 4)]]),
    '[[steps]]\ncommand = "jp config set conversation.tools.tool_9.summary=Ships"\n',
    '[[steps]]\ncommand = "jp config set --layer base conversation.tools.tool_2.enable=off"\n',
    turn('jp q four -u tool_5', [[search('reads', 2)]]),
    turn('jp q five', []),
  ];
  return scenarioText({ policy: { ranking: 'substring', ...policy }, layers: [{ name: 'base', text: layer(tools) }], body: steps.join('\n') });
}

const POLICIES: Record<string, string>[] = [{}, { promoted_position: 'append' }, { provider: 'anthropic-directives' }, { provider: 'llamacpp' }, { provider: 'openai' }];

describe('a request\'s permitted and offered cost', () => {
  const texts = [...conformance, ...[7, 30, 61].flatMap((n, i) => POLICIES.map((p, j) => generated(n + ((i + j) % 2), p)))];

  it('is the sum of its sets\' definitions, whichever request is read first', () => {
    fc.assert(
      fc.property(fc.nat({ max: texts.length - 1 }), fc.array(fc.nat(), { maxLength: 40 }), (which, order) => {
        const t = runText(texts[which] as string);
        // The memo is read in the order given (then the rest), the oracle on a fresh run.
        const ids = [...new Set([...order.map((k) => k % Math.max(1, t.requests.length)), ...t.requests.map((r) => r.id)])].filter((id) => id < t.requests.length);
        const got = ids.map((id) => ({ id, cost: { ...(t.requests[id]?.cost ?? { offered: -1, permitted: -1 }) } }));
        const fresh = runText(texts[which] as string);
        for (const { id, cost } of got) expect(cost, `request ${id}`).toEqual(summed(fresh, id));
      }),
      { numRuns: 60 },
    );
  });

  it('covers every scenario here with requests whose sets differ', () => {
    let distinct = 0;
    for (const text of texts) {
      const t = runText(text);
      distinct += new Set(t.requests.map((r) => `${r.cost.permitted}/${r.cost.offered}`)).size;
    }
    expect(distinct).toBeGreaterThan(texts.length * 2);
  });
});

describe('a request\'s cost after incremental derivations (forked streams keep the unpatched tools\' states)', () => {
  it('is the sum of its sets\' definitions after each overrides edit', () => {
    const base = generated(61, {});
    const scenario = parsed(base);
    const AVAIL = ['"on"', '"off"', '"discoverable"'];
    fc.assert(
      fc.property(fc.array(fc.record({ tool: fc.nat({ max: 70 }), enable: fc.nat({ max: 2 }) }), { minLength: 1, maxLength: 5 }), (edits) => {
        const derivation = new Derivation();
        derivation.run({ scenario });
        const lines: string[] = [];
        for (const e of edits) {
          lines.push(`[conversation.tools.tool_${e.tool}]\nenable = ${AVAIL[e.enable] ?? '"on"'}\n`);
          const layers = [...scenario.layers, { name: 'overrides', text: lines.join('\n') }];
          const t = derivation.run({ scenario: { ...scenario, layers } });
          for (const r of t.requests) expect({ ...r.cost }, `request ${r.id}`).toEqual(summed(t, r.id));
        }
      }),
      { numRuns: 25 },
    );
  });
});
