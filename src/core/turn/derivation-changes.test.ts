// A layer edit as a change of some tools (derivation.ts toolChanges and beforeFirstChange): which
// tools are re-resolved, when the run must start over, and from which step a '*' edit replays when a
// step's delta configured a tool no layer names (it inherits '*' from that step on). Each timeline
// is checked against a run from scratch; Derivation.last is what a shell's status line shows.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { Derivation } from './derivation';
import type { DerivationStats } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import type { Timeline } from './timeline';
import { call, layer, parsed, scenarioText, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

const digest = (s: Scenario, t: Timeline): string => toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false);

function after(from: Scenario, next: Scenario): DerivationStats {
  const derivation = new Derivation();
  derivation.run({ scenario: from });
  const got = derivation.run({ scenario: next });
  expect(digest(next, got)).toBe(digest(next, runScenario({ scenario: next })));
  const last = derivation.last;
  if (!last) throw new Error('no stats');
  return last;
}

const tools: Record<string, ToolSpec> = {
  read_file: { summary: 'Reads a file.' },
  list_issues: { summary: 'Lists issues.', enable: '"on"' },
  send_mail: { summary: 'Sends mail.', run: 'ask' },
  deploy_app: { summary: 'Deploys an app.' },
};
const text = layer(tools);
const body = [turn('jp q one', [[call('list_issues')]]), turn('jp q two', [])].join('\n');
const start = parsed(scenarioText({ layer: text, body }));
const edited = (f: (t: string) => string, s: Scenario = start): Scenario => {
  const t = f(text);
  expect(t).not.toBe(text);
  return { ...s, layers: [{ name: 'workspace', text: t }] };
};

describe('a layer edit, tool by tool', () => {
  it("'*' run changed in a layer of its own: the tools inheriting it re-resolved, not the one with its own run", () => {
    const star = (run: string): Scenario => ({ ...start, layers: [{ name: 'workspace', text }, { name: 'star', text: `[conversation.tools.'*']\nrun = "${run}"\n` }] });
    expect(after(star('ask'), star('unattended'))).toMatchObject({ restarted: false, toolsReresolved: 3, toolsMoved: 0 });
  });

  it("an offered tool's examples edited: its definition in the requests is the new one", () => {
    // describe_tools answers with a tool's docs, its usage examples among them.
    const described = parsed(scenarioText({ layer: text, body: [turn('jp q one', [['{ tool = "describe_tools", args = { tools = ["list_issues"] } }']]), turn('jp q two', [])].join('\n') }));
    const withExamples = edited((t) => t.replace('summary = "Lists issues."', 'summary = "Lists issues."\nexamples = "list open bugs"'), described);
    expect(after(described, withExamples)).toMatchObject({ restarted: false, toolsReresolved: 1 });
    const changed: Scenario = { ...withExamples, layers: [{ name: 'workspace', text: withExamples.layers[0]?.text.replace('list open bugs', 'list closed bugs') ?? '' }] };
    expect(after(withExamples, changed)).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it('a tool that can no longer be resolved (an unknown MCP server), or can again: the run starts over (its warning belongs to loading)', () => {
    const lost = edited((t) => t.replace('[conversation.tools.list_issues]\nsource = "local"', '[conversation.tools.list_issues]\nsource = "mcp.nowhere.list_issues"'));
    expect(after(start, lost)).toMatchObject({ restarted: true });
    expect(after(lost, start)).toMatchObject({ restarted: true });
  });
});

describe("a '*' edit and a tool only a step's delta configures", () => {
  // Step 1 configures a layer tool, steps 2 and 3 a tool no layer names (it inherits '*' from step 2 on).
  const steps = [
    turn('jp q one --cfg conversation.tools.read_file.run=ask', []),
    turn('jp q two --cfg conversation.tools.read_file.run=unattended --cfg conversation.tools.extra.source=local', []),
    turn('jp q three --cfg conversation.tools.extra.run=ask', []),
    turn('jp q four', []),
  ].join('\n');
  const s = parsed(scenarioText({ layer: text, body: steps }));

  it("'*' only moved in the text: replayed from the step where that tool first appears, not before", () => {
    expect(after(s, edited((t) => `# moved\n${t}`, s))).toMatchObject({ restarted: false, toolsReresolved: 0, stepsReused: 1, replayedFromStep: 2 });
  });

  it("an edit of another tool (not '*'): nothing of that tool's steps replayed", () => {
    expect(after(s, edited((t) => t.replace('run = "ask"', 'run = "unattended"'), s))).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 4, replayedFromStep: 5 });
  });
});
