// A request derives its sets, array, definitions and cost on first read, from the states of its
// own position. Reading them during the run (an expectation forces it) or after the run must give
// the same values, through layer edits that reorder tools, forced tools, append and directives.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { layer, run, scenarioText } from './test-kit';
import type { Timeline } from './timeline';

const BASE = layer({ base_tool: { summary: 'Base tool.' } }, {});
const WORKSPACE = layer({
  read_file: { enable: '"on"', summary: 'Read a file.' },
  deploy: { summary: 'Deploy it.' },
  lint: { enable: '"off"', summary: 'Lint it.' },
  page: { summary: 'Page someone.' },
});

const STEPS = [
  '[[steps]]\ncommand = "jp q one"\n  [[steps.cycles]]\n  calls = [ { tool = "search_tools", args = { query = "deploy" } } ]\n  [[steps.cycles]]\n  reply = "ok"',
  '[[steps]]\ncommand = "jp q --cfg conversation.tools.newcomer.enable=on two"',
  '[[steps]]\ncommand = "jp config set --layer base conversation.tools.newcomer.enable=discoverable"',
  '[[steps]]\ncommand = "jp q -u lint three"\n  [[steps.cycles]]\n  calls = [ { tool = "search_tools", args = { query = "page" } } ]\n  [[steps.cycles]]\n  reply = "ok"',
  '[[steps]]\ncommand = "jp q -T read_file four"',
  '[[steps]]\ncommand = "jp config set conversation.tools.deploy.summary=Ship"',
  '[[steps]]\ncommand = "jp q five -t"',
];

/** Adds an expectation to every cycle so each request is derived while its position is the newest. */
function eager(step: string): string {
  const withCycles = step.includes('[[steps.cycles]]') ? step : `${step}\n  [[steps.cycles]]\n  reply = "ok"`;
  return withCycles.replace(/^( {2}(?:calls|reply) = .*)$/gm, '$1\n  [steps.cycles.expect]\n  offered_order = ["?"]\n  overhead_chars = { offered = -1 }');
}

function snapshot(t: Timeline): unknown[] {
  return t.requests.map((r) => ({
    position: r.position,
    sets: r.sets,
    array: r.array,
    cost: r.cost,
    definitions: [...r.definitions.keys()],
    tools: r.rendered().toolsJson,
  }));
}

function runBoth(policy: Record<string, string>, steps: readonly string[]): { lazy: unknown[]; eager: unknown[] } {
  const layers = [
    { name: 'base', text: BASE },
    { name: 'workspace', text: WORKSPACE },
  ];
  const lazyRun = run(scenarioText({ policy: { ranking: 'substring', ...policy }, layers, body: steps.map((s) => (s.includes('[[steps.cycles]]') ? s : `${s}\n  [[steps.cycles]]\n  reply = "ok"`)).join('\n') }));
  const eagerRun = run(scenarioText({ policy: { ranking: 'substring', ...policy }, layers, body: steps.map(eager).join('\n') }));
  // The eager run's expectations fail on purpose; they only force the derivation.
  expect(eagerRun.expectations.length).toBe(2 * eagerRun.requests.length);
  expect(eagerRun.requests.length).toBe(lazyRun.requests.length);
  return { lazy: snapshot(lazyRun), eager: snapshot(eagerRun) };
}

describe('requests derive their sets lazily, from their own position', () => {
  const policies: Record<string, string>[] = [{}, { promoted_position: 'append' }, { provider: 'anthropic-directives' }, { provider: 'llamacpp' }];
  for (const policy of policies) {
    it(`read during or after the run, the same values: ${JSON.stringify(policy)}`, () => {
      const { lazy, eager: eagerValues } = runBoth(policy, STEPS);
      expect(lazy).toEqual(eagerValues);
    });
  }

  it('a layer edit that moves a tool changes the order of later requests only', () => {
    const t = run(scenarioText({ policy: { ranking: 'substring' }, layers: [{ name: 'base', text: BASE }, { name: 'workspace', text: WORKSPACE }], body: STEPS.slice(0, 4).join('\n') }));
    const [one, , two, three] = t.requests;
    expect(one?.sets.configured.slice(0, 2)).toEqual(['base_tool', 'read_file']);
    expect(two?.sets.configured.slice(-3)).toEqual(['newcomer', 'describe_tools', 'search_tools']);
    expect(two?.array).toEqual(['read_file', 'deploy', 'newcomer', 'describe_tools', 'search_tools']);
    // After the edit, newcomer sits in the base layer, before the workspace's tools.
    expect(three?.sets.configured.slice(0, 3)).toEqual(['base_tool', 'newcomer', 'read_file']);
    // The --cfg delta still holds newcomer on; only its place in the order moved.
    expect(three?.sets.searchable).toEqual(['base_tool', 'page']);
    expect(three?.array).toEqual(['newcomer', 'read_file', 'deploy', 'lint', 'describe_tools', 'search_tools']);
  });

  it('property: any prefix of the steps, any policy', () => {
    fc.assert(
      fc.property(
        fc.subarray(STEPS, { minLength: 1 }),
        fc.constantFrom<Record<string, string>>({}, { promoted_position: 'append' }, { provider: 'anthropic-directives' }),
        (steps, policy) => {
          const { lazy, eager: eagerValues } = runBoth(policy, steps);
          expect(lazy).toEqual(eagerValues);
        },
      ),
      { numRuns: 40 },
    );
  });
});
