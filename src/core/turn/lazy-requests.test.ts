// A request derives its sets, array, definitions and cost on first read, from the states of its
// own position. Whichever request is read first (the checker reads them in run order, a panel in
// any order; under Anthropic directives the run itself reads each one as it is sent), the values are
// the same, through layer edits that reorder tools, forced tools, append and directives.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { layer, run, runAndCheck, scenarioText } from './test-kit';
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

/** Adds expectations to every cycle, so the checker reads each request's array and cost, in run order. */
function checked(step: string): string {
  return step.replace(/^( {2}(?:calls|reply) = .*)$/gm, '$1\n  [steps.cycles.expect]\n  offered_order = ["?"]\n  overhead_chars = { offered = -1 }');
}

const withCycle = (s: string): string => (s.includes('[[steps.cycles]]') ? s : `${s}\n  [[steps.cycles]]\n  reply = "ok"`);

/** What each request derived, read last request first or first request first. */
function snapshot(t: Timeline, order: 'first-to-last' | 'last-to-first'): unknown[] {
  const requests = order === 'first-to-last' ? t.requests : [...t.requests].reverse();
  const read = requests.map((r) => ({
    id: r.id,
    position: r.position,
    sets: r.sets,
    array: r.array,
    cost: r.cost,
    definitions: [...r.definitions.keys()],
    tools: r.rendered().toolsJson,
  }));
  return read.sort((a, b) => a.id - b.id);
}

function runThree(policy: Record<string, string>, steps: readonly string[]): { forward: unknown[]; backward: unknown[]; afterCheck: unknown[] } {
  const layers = [
    { name: 'base', text: BASE },
    { name: 'workspace', text: WORKSPACE },
  ];
  const text = (body: string): string => scenarioText({ policy: { ranking: 'substring', ...policy }, layers, body });
  const plain = text(steps.map(withCycle).join('\n'));
  const withExpectations = runAndCheck(text(steps.map(withCycle).map(checked).join('\n')));
  // The expectations fail on purpose; they only make the checker read every request first.
  expect(withExpectations.expectations.length).toBe(2 * withExpectations.timeline.requests.length);
  expect(withExpectations.expectations.every((e) => !e.pass)).toBe(true);
  return { forward: snapshot(run(plain), 'first-to-last'), backward: snapshot(run(plain), 'last-to-first'), afterCheck: snapshot(withExpectations.timeline, 'last-to-first') };
}

describe('requests derive their sets lazily, from their own position', () => {
  const policies: Record<string, string>[] = [{}, { promoted_position: 'append' }, { provider: 'anthropic-directives' }, { provider: 'llamacpp' }];
  for (const policy of policies) {
    it(`read in any order, or after the checker, the same values: ${JSON.stringify(policy)}`, () => {
      const { forward, backward, afterCheck } = runThree(policy, STEPS);
      expect(backward).toEqual(forward);
      expect(afterCheck).toEqual(forward);
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
          const { forward, backward, afterCheck } = runThree(policy, steps);
          expect(backward).toEqual(forward);
          expect(afterCheck).toEqual(forward);
        },
      ),
      { numRuns: 40 },
    );
  });
});
