// Where a tool's fields were written (derivation.ts originLikeness): a field whose text moved only at
// one end is "moved" (its tool patched with the new origins, nothing re-resolved), a field whose text
// did not move is "the same" (its tool kept), and a table moved into another layer is a change (its
// origins name another layer: re-resolved). Read through Derivation.last, each timeline checked
// against a run from scratch.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import { Derivation } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import { parsed, scenarioText, search, turn } from './test-kit';

function digest(s: Scenario, t: ReturnType<Derivation['run']>): string {
  return toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false);
}

function after(next: Scenario, from: Scenario): Derivation['last'] {
  const derivation = new Derivation();
  derivation.run({ scenario: from });
  const got = derivation.run({ scenario: next });
  const want = runScenario({ scenario: next });
  expect(digest(next, got)).toBe(digest(next, want));
  expect(got.diagnostics).toEqual(want.diagnostics);
  return derivation.last;
}

const body = [turn('jp q one', [[search('deploy', 2)]]), turn('jp q two', [])].join('\n');

describe('a field written at another place in the same layer', () => {
  // deploy_app's last field ends the layer: an edit there moves nothing after it.
  const text = `[conversation.tools.'*']\nenable = "discoverable"\n\n[conversation.tools.read_file]\nsource = "local"\nsummary = "Reads a file."\n\n[conversation.tools.deploy_app]\nsource = "local"\nsummary = "Deploys an app."\n\n[conversation.tools.deploy_app.parameters.env]\ntype = "string"\n# x\nenum = ["dev", "prod"]\n`;
  const start = parsed(scenarioText({ layer: text, body }));
  const edited = (from: string, to: string): Scenario => {
    expect(text).toContain(from);
    return { ...start, layers: [{ name: 'workspace', text: text.replace(from, to) }] };
  };

  it('its end moved, its start not (a space inside the array): the tool moved, nothing re-resolved', () => {
    expect(after(edited('enum = ["dev", "prod"]', 'enum = [ "dev", "prod"]'), start)).toMatchObject({ restarted: false, toolsMoved: 1, toolsReresolved: 0 });
  });

  it('its start moved, its end not (a comment above it shortened, spaces added inside it): the tool moved, nothing re-resolved', () => {
    expect(after(edited('# x\nenum = ["dev", "prod"]', '#\nenum = [  "dev", "prod"]'), start)).toMatchObject({ restarted: false, toolsMoved: 1, toolsReresolved: 0 });
  });

  it('the same place (spaces moved inside the line, its ends kept): nothing moved or re-resolved', () => {
    expect(after(edited('enum = ["dev", "prod"]', 'enum=  ["dev", "prod"]'), start)).toMatchObject({ restarted: false, toolsMoved: 0, toolsReresolved: 0 });
  });
});

describe("a tool's table moved into another layer", () => {
  const base = `[conversation.tools.'*']\nenable = "discoverable"\n\n[conversation.tools.read_file]\nsource = "local"\nsummary = "Reads a file."\n`;
  const deploy = `[conversation.tools.deploy_app]\nsource = "local"\nsummary = "Deploys an app."\n`;
  const two = (workspace: string, top: string): Scenario => parsed(scenarioText({ layers: [{ name: 'workspace', text: workspace }, { name: 'top', text: top }], body }));

  it('its origins name the other layer: re-resolved, not taken as moved; and back', () => {
    // The tool order is kept (deploy_app still second), so the edit is applied tool by tool.
    const below = two(`${base}\n${deploy}`, '# top\n');
    const above = two(base, `# top\n${deploy}`);
    expect(after(above, below)).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0 });
    expect(after(below, above)).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0 });
  });

  it('at the same offsets in the other layer: still a change, re-resolved', () => {
    // The table at offset 0 of either layer above the one with '*': only the layer name tells its origins apart.
    const three = (workspace: string, top: string): Scenario =>
      parsed(scenarioText({ layers: [{ name: 'lower', text: base }, { name: 'workspace', text: workspace }, { name: 'top', text: top }], body }));
    const down = three(deploy, '');
    const up = three('', deploy);
    expect(after(up, down)).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0 });
    expect(after(down, up)).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0 });
  });
});

describe("an MCP server's table changed in the shape of a value", () => {
  const text = `[conversation.tools.read_file]\nsource = "local"\nsummary = "Reads a file."\n\n[providers.mcp.github]\ncommand = "gh-mcp"\nenv = { A = "1" }\n`;
  const start = parsed(scenarioText({ layer: text, body }));
  const edit = (from: string, to: string): Scenario => ({ ...start, layers: [{ name: 'workspace', text: text.replace(from, to) }] });

  it('a table turned into an array, empty or not: the run starts over, as for any change of the servers', () => {
    expect(after(edit('env = { A = "1" }', 'env = ["A"]'), start)).toMatchObject({ restarted: true });
    const empty = edit('env = { A = "1" }', 'env = {}');
    expect(after(edit('env = { A = "1" }', 'env = []'), empty)).toMatchObject({ restarted: true });
    // The same table only moved: applied tool by tool.
    expect(after(edit('[providers.mcp.github]', '# servers\n[providers.mcp.github]'), start)).toMatchObject({ restarted: false });
  });
});
