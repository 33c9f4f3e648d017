// The run of a scenario's steps (run.ts lines 127-205, issue 35): each step's row and record (where it
// started and ended, its time, its error), the load row, and a run played in pieces (as the incremental
// derivation plays it) giving the same timeline as one played at once.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { playSteps, runScenario, startConversation, timelineOf } from './run';
import type { Timeline } from './timeline';
import { layer, parsed, run, scenarioText, turn } from './test-kit';

const LAYER = layer({ a: { enable: '"on"' }, d: { enable: '"on"', source: '"mcp.gone.x"' }, b: { enable: '"discoverable"', summary: 'bravo' } });
const BODY = [
  turn('jp q one', []),
  '[[steps]]\ncommand = "jp q \'unclosed"\nelapsed = "1m"\n',
  '[[steps]]\ncommand = "jp config set --id conversation.tools.a.enable=off"\nelapsed = 30\n',
  turn('jp q -x four', []),
  turn('jp q five', []),
].join('\n');
const UNKNOWN_OPTION =
  'unknown option `-x` for `jp q`; accepted: -t/--tool/--tools [NAME], -T/--no-tool/--no-tools [NAME], -u/--tool-use NAME, -U/--no-tool-use, --cfg KEY=VALUE, --cfg KEY:=JSON, and -- before a query that starts with `-` (column 6)';

const rows = (t: Timeline): unknown[] => t.entries.map((e) => (e.kind === 'step' ? { kind: e.kind, step: e.step, command: e.command, position: e.position, error: e.error } : e));

describe('the steps of a run', () => {
  // Run inside each test, not when the file is collected: Stryker activates a mutant for the tests only.
  const played = (): Timeline => run({ layer: LAYER, body: BODY });

  it('each step\'s row: where it started, and the error of a command that failed', () => {
    const t = played();
    expect(rows(t)).toEqual([
      { kind: 'base', position: 0 },
      { kind: 'warning', message: 'MCP server `gone` is not defined, so this tool is not available: `d`', position: 0 },
      { kind: 'step', step: 1, command: 'jp q one', position: 0, error: undefined },
      { kind: 'turn', step: 1, query: 'one', position: 0 },
      { kind: 'request', step: 1, cycle: 1, request: 0, position: 0 },
      { kind: 'reply', step: 1, cycle: 1, text: 'done', position: 0 },
      { kind: 'step', step: 2, command: "jp q 'unclosed", position: 0, error: 'unterminated single quote (column 6)' },
      { kind: 'step', step: 3, command: 'jp config set --id conversation.tools.a.enable=off', position: 0, error: undefined },
      { kind: 'delta', step: 3, position: 1 },
      { kind: 'step', step: 4, command: 'jp q -x four', position: 1, error: UNKNOWN_OPTION },
      { kind: 'step', step: 5, command: 'jp q five', position: 1, error: undefined },
      { kind: 'turn', step: 5, query: 'five', position: 1 },
      { kind: 'request', step: 5, cycle: 1, request: 1, position: 1 },
      { kind: 'reply', step: 5, cycle: 1, text: 'done', position: 1 },
    ]);
    // The load row is the last before the first step: here the load warning.
    expect(t.loadEntry).toBe(1);
    expect(run({ layer: layer({ a: { enable: '"on"' } }), body: turn('jp q one', []) }).loadEntry).toBe(0);
  });

  it('each step\'s record: its rows, the position it left, the time summed over `elapsed`, its error, its layers and sets', () => {
    const t = played();
    expect(t.steps.map((s) => ({ step: s.step, entry: s.entry, lastEntry: s.lastEntry, position: s.position, time: s.time, registered: s.registered, error: s.error }))).toEqual([
      { step: 1, entry: 2, lastEntry: 5, position: 0, time: 0, registered: true, error: undefined },
      { step: 2, entry: 6, lastEntry: 6, position: 0, time: 60, registered: true, error: 'unterminated single quote (column 6)' },
      { step: 3, entry: 7, lastEntry: 8, position: 1, time: 90, registered: true, error: undefined },
      { step: 4, entry: 9, lastEntry: 9, position: 1, time: 90, registered: true, error: UNKNOWN_OPTION },
      { step: 5, entry: 10, lastEntry: 13, position: 1, time: 90, registered: true, error: undefined },
    ]);
    for (const s of t.steps) {
      expect(s.layers).toEqual([{ name: 'workspace', text: `${LAYER}\n` }]);
      expect(s.sets).toEqual(t.setsAt(s.position));
    }
    expect(t.steps[0]?.sets.permitted).toEqual(['a', 'b', 'describe_tools', 'search_tools']);
    expect(t.steps[2]?.sets.permitted).toEqual(['b', 'describe_tools', 'search_tools']);
  });

  it('the timeline: the scenario\'s name and policy, the load diagnostics, the states and sets at a position', () => {
    const t = played();
    const named = run(`name = "named"\n\n[policy]\nranking = "substring"\n\n[[layers]]\nname = "w"\ntext = '''\n[conversation.tools.nosource]\nenable = "on"\n'''\n\n${turn('jp q one', [])}`);
    expect(named.name).toBe('named');
    expect(named.policy.ranking).toBe('substring');
    expect(named.diagnostics.map((d) => [d.code, d.layer, d.line])).toEqual([['missing-source', 'w', 1]]);
    expect([...t.statesAt(1).values()].map((s) => [s.name, s.enable.availability.value])).toEqual([
      ['a', 'off'],
      ['d', 'on'],
      ['b', 'discoverable'],
    ]);
    expect(t.finalLayers).toEqual([{ name: 'workspace', text: `${LAYER}\n` }]);
    expect(t.statesAt(0).get('a')?.enable.availability.value).toBe('on');
    expect(t.setsAt(0).permitted).toEqual(['a', 'b', 'describe_tools', 'search_tools']);
  });
});

describe('a run played in pieces', () => {
  const scenario: Scenario = parsed(scenarioText({ layer: LAYER, body: BODY }));

  it('gives the timeline of one played at once; `after` is told each step played and its time', () => {
    const whole = runScenario({ scenario });
    const { conv, diagnostics } = startConversation({ scenario });
    const loadEntry = conv.entries.length - 1;
    const told: [number, number][] = [];
    playSteps(conv, scenario.steps, 0, 2, (n, time) => told.push([n, time]));
    // Past the last step, playing stops.
    playSteps(conv, scenario.steps, 2, 9, (n, time) => told.push([n, time]));
    expect(told).toEqual([
      [1, 0],
      [2, 60],
      [3, 90],
      [4, 90],
      [5, 90],
    ]);
    const pieces = timelineOf(conv, scenario.name, diagnostics, loadEntry);
    expect(rows(pieces)).toEqual(rows(whole));
    expect(pieces.steps.map((s) => [s.step, s.time, s.position, s.error])).toEqual(whole.steps.map((s) => [s.step, s.time, s.position, s.error]));
    expect(pieces.loadEntry).toBe(whole.loadEntry);
    expect(pieces.finalLayers).toEqual(whole.finalLayers);
    expect(pieces.requests).toHaveLength(whole.requests.length);
    expect(pieces.positions).toHaveLength(whole.positions.length);
  });

  it('a later piece starts its time where the played steps left it', () => {
    const { conv } = startConversation({ scenario });
    playSteps(conv, scenario.steps, 0, 3);
    const told: number[] = [];
    playSteps(conv, scenario.steps, 3, 4, (_, time) => told.push(time));
    expect(told).toEqual([90]);
    expect(conv.steps.map((s) => s.time)).toEqual([0, 60, 90, 90]);
  });
});

describe('an MCP server a layer declares', () => {
  const declared = (name: string): string => `\n[providers.mcp.${name}]\ncommand = "${name}-mcp"\n`;
  const resolution = (t: Timeline, tool: string): string => {
    const r = t.engine.state(tool)?.resolution;
    return r === undefined ? 'none' : r.ok ? 'ok' : r.message;
  };

  it('not defined by the scenario: offline, and its tools\' messages say why', () => {
    const t = run({ layer: layer({ x: { enable: '"on"', source: '"mcp.gh.x"' } }, {}) + declared('gh'), body: turn('jp q one', []) });
    expect(resolution(t, 'x')).toBe('MCP server `gh` is not running (the scenario gives no [servers.gh]), so `x` is not available');
    expect(t.entries.flatMap((e) => (e.kind === 'warning' ? [e.message] : []))).toEqual(['MCP server `gh` is not running, so this tool is not available: `x`']);
  });

  it('defined by the scenario as running: its tools resolve', () => {
    const servers = '[servers.live]\nstatus = "running"\ntools = [ { name = "x", description = "X.", inputSchema = { type = "object" } } ]\n';
    const t = run({ layer: layer({ x: { enable: '"on"', source: '"mcp.live.x"' } }, {}) + declared('live'), body: `${servers}\n${turn('jp q one', [])}` });
    expect(resolution(t, 'x')).toBe('ok');
    expect(t.requests[0]?.array).toEqual(['x', 'describe_tools']);
  });
});
