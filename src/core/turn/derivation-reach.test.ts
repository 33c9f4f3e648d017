// Which step a layer edit replays from (derivation.ts reachOf), step kind by step kind: a step whose
// command, calls or deltas read the tool the edit changed is played again, and so every step after it;
// the steps before it are kept. Each timeline is checked against a run from scratch (what the user
// sees), and Derivation.last (a shell's status line) says from which step the run played again.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { Derivation } from './derivation';
import type { DerivationStats } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import { call, layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

function digest(s: Scenario, t: ReturnType<Derivation['run']>): string {
  return toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false);
}

const tools: Record<string, ToolSpec> = {
  read_file: { summary: 'Reads a file.' },
  list_issues: { summary: 'Lists issues.', enable: '"on"' },
  send_mail: { summary: 'Sends mail.' },
  deploy_app: { summary: 'Deploys an app.' },
};
const catalogue = layer(tools);

/** A scenario of `steps` over the catalogue and an `overrides` layer (the one edited; the steps' spans stay where they were). */
function scenario(steps: readonly string[], overrides: string, opts: { provider?: string; catalogue?: string } = {}): Scenario {
  const s = parsed(scenarioText({ ...(opts.provider ? { policy: { provider: opts.provider } } : {}), layers: [{ name: 'workspace', text: opts.catalogue ?? catalogue }], body: steps.join('\n') }));
  return { ...s, layers: [...s.layers, { name: 'overrides', text: overrides }] };
}

/** Derives `a`, then `b` (the same steps, `overrides` edited); checks b's timeline against a run from scratch, returns the stats. */
function replay(steps: readonly string[], a: string, b: string, opts: { provider?: string; catalogue?: string } = {}): DerivationStats {
  const derivation = new Derivation();
  derivation.run({ scenario: scenario(steps, a, opts) });
  const next = scenario(steps, b, opts);
  expect(digest(next, derivation.run({ scenario: next }))).toBe(digest(next, runScenario({ scenario: next })));
  const last = derivation.last;
  if (!last) throw new Error('no stats');
  return last;
}

// list_issues is "on" (offered, never searched for): its run changes in value, nothing about any search.
const ask = '[conversation.tools.list_issues]\nrun = "ask"\n';
const unattended = '[conversation.tools.list_issues]\nrun = "unattended"\n';

describe('a layer edit replays from the first step that reads the changed tool', () => {
  it('its name in a -t directive, past one naming another tool', () => {
    const steps = [turn('jp q one -t send_mail', []), turn('jp q two -t list_issues', []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a bulk directive (every tool), past a step with none', () => {
    const steps = [turn('jp q one', []), turn('jp q two -T', []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a forced tool (-u), past one forcing another tool', () => {
    const steps = [turn('jp q one -u send_mail', []), turn('jp q two -u list_issues', []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a --cfg of the changed tool, past a --cfg of another tool', () => {
    const steps = [turn('jp q one --cfg conversation.tools.deploy_app.run=ask', []), turn('jp q two --cfg conversation.tools.list_issues.enable=off', []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a --cfg that restated the changed tool before the edit (no delta then), past a step with none', () => {
    const steps = [turn('jp q one', []), turn('jp q two --cfg conversation.tools.list_issues.run=ask', []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a --cfg of a key outside a tool table that names a tool further in, past a step with none', () => {
    const steps = [turn('jp q one', []), turn('jp q two --cfg assistant.conversation.tools.deploy_app.x=1', []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a bulk -t that left the changed tool as it was (no delta of it then), past a step with none', () => {
    const steps = [turn('jp q one', []), turn('jp q two -t', []), turn('jp q three', [])];
    expect(replay(steps, ask, `${ask}enable = "off"\n`)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a jp config set on a layer that restated the changed tool before the edit, past a config set on the conversation', () => {
    const steps = ['[[steps]]\ncommand = "jp config set --id conversation.tools.deploy_app.run=ask"\n', '[[steps]]\ncommand = "jp config set --layer overrides conversation.tools.list_issues.run=ask"\n', turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it("a --cfg of '*' (every tool inherits it), past a step with none", () => {
    const steps = [turn('jp q one', []), turn("jp q two --cfg conversation.tools.*.run=ask", []), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a jp config set on a layer (the layers change there), past a config set on the conversation', () => {
    const steps = ['[[steps]]\ncommand = "jp config set --id conversation.tools.deploy_app.run=ask"\n', '[[steps]]\ncommand = "jp config set --layer overrides conversation.tools.deploy_app.run=ask"\n', turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a call of the changed tool, past a command that fails and calls of other tools', () => {
    const steps = ['[[steps]]\ncommand = "ls -la"\n', turn('jp q two', [[call('read_file')]]), turn('jp q three', [[call('list_issues')]]), turn('jp q four', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 2, replayedFromStep: 3 });
  });

  it('a call that writes config (any tool: the write may restate the changed one), past one that writes nothing', () => {
    const steps = [turn('jp q one', [[call('read_file', 'writes = []')]]), turn('jp q two', [[call('read_file', 'writes = ["conversation.tools.deploy_app.run=ask"], approved = true')]]), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a describe_tools call (its answer lists the changed tool), past a call of another tool', () => {
    const steps = [turn('jp q one', [[call('read_file')]]), turn('jp q two', [['{ tool = "describe_tools", args = { tools = ["read_file"] } }']]), turn('jp q three', [])];
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
  });

  it('under anthropic-directives, the first step with a cycle (every request restates the tools), past one without', () => {
    const steps = ['[[steps]]\ncommand = "jp config set --id conversation.tools.deploy_app.run=ask"\n', turn('jp q two', [[call('read_file')]]), turn('jp q three', [])];
    expect(replay(steps, ask, unattended, { provider: 'anthropic-directives' })).toMatchObject({ restarted: false, stepsReused: 1, replayedFromStep: 2 });
    // Under anthropic the same step reads nothing of list_issues.
    expect(replay(steps, ask, unattended)).toMatchObject({ restarted: false, stepsReused: 3, replayedFromStep: 4 });
  });

  it('a search that can find the changed (discoverable) tool, past calls of other tools (not searches)', () => {
    const a = '[conversation.tools.send_mail]\nrun = "ask"\n';
    const b = '[conversation.tools.send_mail]\nrun = "unattended"\n';
    const steps = [turn('jp q one', [[call('list_issues')]]), turn('jp q two', [[search('mail', 2)]]), turn('jp q three', [])];
    expect(replay(steps, a, b)).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 1, replayedFromStep: 2 });
  });

  it('a search after a step changed a definition (the index at load cannot answer it), though the changed tool is never found', () => {
    // list_issues turned off: its definition is the same (run would change it, and so the index).
    const off = `${ask}enable = "off"\n`;
    const steps = [turn('jp q one --cfg conversation.tools.deploy_app.summary=Ships', []), turn('jp q two', [[search('files', 2)]]), turn('jp q three', [])];
    expect(replay(steps, ask, off)).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 0, stepsReused: 1, replayedFromStep: 2 });
    // With no definition changed before it, the search is kept: it cannot find list_issues.
    const kept = [turn('jp q one', []), turn('jp q two', [[search('files', 2)]]), turn('jp q three', [])];
    expect(replay(kept, ask, off)).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 3, replayedFromStep: 4 });
  });
});

describe("a layer edit and search_tools' registration", () => {
  // Every tool "on" but deploy_app: it alone makes search_tools registered.
  const one = layer({ ...tools, deploy_app: { summary: 'Deploys an app.', enable: '"discoverable"' } }, { enable: '"on"' });
  const steps = [turn('jp q one', [[call('list_issues')]]), turn('jp q two', [])];

  it('the last discoverable tool turned on, or the first one made discoverable: registration at load differs, the run starts over', () => {
    const off = '[conversation.tools.deploy_app]\nenable = "on"\n';
    const kept = '[conversation.tools.deploy_app]\nrun = "ask"\n';
    expect(replay(steps, kept, off, { catalogue: one })).toMatchObject({ restarted: true });
    expect(replay(steps, off, kept, { catalogue: one })).toMatchObject({ restarted: true });
  });

  it('one of two discoverable tools turned on: still registered, nothing restarted', () => {
    const two = layer({ ...tools, send_mail: { summary: 'Sends mail.', enable: '"discoverable"' }, deploy_app: { summary: 'Deploys an app.', enable: '"discoverable"' } }, { enable: '"on"' });
    expect(replay(steps, '[conversation.tools.deploy_app]\nrun = "ask"\n', '[conversation.tools.deploy_app]\nenable = "on"\n', { catalogue: two })).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it('registered by a step (a --cfg made a tool discoverable) as before the edit: the steps up to the changed one kept', () => {
    const none = layer(tools, { enable: '"on"' });
    const later = [turn('jp q one --cfg conversation.tools.read_file.run=ask', []), turn('jp q two --cfg conversation.tools.read_file.enable=discoverable', []), turn('jp q three', [[call('list_issues')]]), turn('jp q four', [])];
    expect(replay(later, ask, unattended, { catalogue: none })).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 2, replayedFromStep: 3 });
  });
});
