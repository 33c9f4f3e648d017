// A layer edit is applied tool by tool (derivation.ts toolChanges and the likeness functions): a tool
// whose table only moved in the text is patched with its new origins, one whose value changed is
// re-resolved, and the rest are kept. What the edit re-did is what Derivation.last reports (a shell's
// status line); what the user sees after it equals a run from scratch.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { Derivation } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import { layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

const tools: Record<string, ToolSpec> = {
  read_file: { summary: 'Reads a file.', params: { path: { summary: 'The path', description: 'Which file to read.' } } },
  list_issues: { summary: 'Lists issues.', enable: '"on"' },
  send_mail: { summary: 'Sends mail.', params: { to: { summary: 'The address' }, body: { summary: 'The text' } } },
  deploy_app: { summary: 'Deploys an app.' },
};
const body = [turn('jp q one', [[search('files', 2)]]), turn('jp q two', [[search('mail', 2)]]), turn('jp q three', [])].join('\n');
const text = layer(tools);
const start = parsed(scenarioText({ layer: text, body }));

/** The scenario with its one layer's text rewritten. */
const edited = (f: (t: string) => string): Scenario => ({ ...start, layers: [{ name: 'workspace', text: f(text) }] });

function digest(s: Scenario, derivation: Derivation): { got: string; want: string } {
  const t = derivation.run({ scenario: s });
  const w = runScenario({ scenario: s });
  return { got: toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false), want: toJson(timelineToJson(w, checkExpectations(s, w), { bodies: true }), false) };
}

/** The stats of a derivation of `next` after one of `start`, its timeline checked against a run from scratch. */
function after(next: Scenario, from: Scenario = start): Derivation['last'] {
  const derivation = new Derivation();
  derivation.run({ scenario: from });
  const { got, want } = digest(next, derivation);
  expect(got).toBe(want);
  return derivation.last;
}

describe('a layer edit, tool by tool', () => {
  it('text moved above every table: each tool patched with its new origins, nothing re-resolved or played again', () => {
    for (const s of [edited((t) => `# moved\n${t}`), edited((t) => t.replace(`[conversation.tools.'*']`, `# moved\n[conversation.tools.'*']`)), edited((t) => t.replace('summary = "The path"', 'summary = "The path"\n# c'))]) {
      expect(after(s)).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 4, stepsReused: 3, replayedFromStep: 4, indexesReindexed: 0, indexBuilds: 0 });
    }
  });

  it("a searched tool's summary or parameter description: that tool re-resolved, the index re-indexed, played again from the first search", () => {
    expect(after(edited((t) => t.replace('Lists issues.', 'Lists open issues.')))).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 1, replayedFromStep: 1 });
    expect(after(edited((t) => t.replace('Which file to read.', 'Which file to open.')))).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0, indexesReindexed: 1, replayedFromStep: 1 });
  });

  it("a parameter added or retyped: that tool's definition changes (re-resolved), the rest kept", () => {
    const added = edited((t) => t.replace('[conversation.tools.deploy_app]', '[conversation.tools.send_mail.parameters.cc]\ntype = "string"\n\n[conversation.tools.deploy_app]'));
    expect(after(added)).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 1, replayedFromStep: 1 });
    // The type is not in the search document: the index is kept, the definition is new.
    const retyped = edited((t) => t.replace(/(parameters\.to\]\ntype = )"string"/, '$1"integer"'));
    expect(retyped.layers[0]?.text).toContain('type = "integer"');
    expect(after(retyped)).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 0, definitionsBuilt: 1 });
    // Back again: the same from the other side.
    expect(after(start, retyped)).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 0 });
    expect(after(start, added)).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 1 });
  });

  it("a tool's availability, allow_toggle or run: that tool re-resolved, no index work, nothing played again when no step reaches it", () => {
    for (const s of [
      edited((t) => t.replace('enable = "on"', 'enable = "off"')),
      edited((t) => t.replace('enable = "on"', 'enable = { availability = "on", allow_toggle = "never" }')),
      edited((t) => t.replace('[conversation.tools.deploy_app]\nsource = "local"', '[conversation.tools.deploy_app]\nsource = "local"\nrun = "ask"')),
    ]) {
      expect(s.layers[0]?.text).not.toBe(text);
      expect(after(s)).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 3, replayedFromStep: 4, indexesReindexed: 0, indexBuilds: 0 });
    }
  });

  it("'*' run changed: every tool inheriting it re-resolved; a tool renamed (the tool list changed): the run starts over", () => {
    expect(after(edited((t) => t.replace(`enable = "discoverable"`, `enable = "discoverable"\nrun = "unattended"`)))).toMatchObject({ restarted: false, toolsReresolved: 4, toolsMoved: 0, replayedFromStep: 1 });
    expect(after(edited((t) => t.replace('[conversation.tools.deploy_app]', '[conversation.tools.deploy_zzz]')))).toMatchObject({ restarted: true, toolsReresolved: 0, stepsReused: 0 });
  });
});

describe("a layer edit keeps the load diagnostics of the tools it did not reach, and derives again those it did", () => {
  // Two tools with a load diagnostic (no source; a name the provider refuses), between and after plain tools.
  const diagnosedText = `${layer({ read_file: { summary: 'Reads a file.' } })}\n[conversation.tools.no_source]\nsummary = "reads files without a source"\n\n${layer({ list_issues: { summary: 'Lists issues.' } }, {})}\n[conversation.tools."bad.name"]\nsource = "local"\nsummary = "lists issues under a refused name"\n`;
  const overrides = { name: 'overrides', text: '[conversation.tools.list_issues]\nenable = "on"\n' };
  const diagnosed = parsed(scenarioText({ layers: [{ name: 'workspace', text: diagnosedText }, overrides], body }));
  const withText = (f: (t: string) => string, o = overrides): Scenario => ({ ...diagnosed, layers: [{ name: 'workspace', text: f(diagnosedText) }, o] });

  it("a line added in the first tool's table moves both diagnostics' lines (a derivation's first edit, texts parsed for the first time)", () => {
    const first = diagnosedText.replace('Reads a file.', 'Reads the first file.');
    const once = (t: string): Scenario => parsed(scenarioText({ layers: [{ name: 'workspace', text: t }], body: '' }));
    const derivation = new Derivation();
    derivation.run({ scenario: once(first) });
    const next = once(first.replace('summary = "Reads the first file."', 'summary = "Reads the first file."\ndescription = "The whole of it."'));
    const lines = derivation.run({ scenario: next }).diagnostics.map((d) => d.line);
    expect(derivation.last?.restarted).toBe(false);
    expect(lines).toEqual([9, 16]);
    expect(lines).toEqual(runScenario({ scenario: next }).diagnostics.map((d) => d.line));
  });

  it('a diagnosed tool turned off in another layer: its diagnostic derived again once, not kept beside the new one', () => {
    const two = (o: string): Scenario => parsed(scenarioText({ layers: [{ name: 'workspace', text: diagnosedText }, { name: 'overrides', text: o }], body: '' }));
    const derivation = new Derivation();
    derivation.run({ scenario: two('[conversation.tools.read_file]\nenable = "on"\n') });
    const next = two('[conversation.tools.no_source]\nenable = "off"\n');
    const got = derivation.run({ scenario: next }).diagnostics;
    // read_file back to its layer's state and no_source turned off: both re-resolved, nothing restarted.
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 2 });
    expect(got.filter((d) => d.message.includes('no_source'))).toHaveLength(1);
    expect(got).toEqual(runScenario({ scenario: next }).diagnostics);
  });

  it('has both diagnostics to begin with', () => {
    const t = runScenario({ scenario: diagnosed });
    expect(t.diagnostics.map((d) => d.message).join('\n')).toMatch(/no_source/);
    expect(t.diagnostics.map((d) => d.message).join('\n')).toMatch(/bad\.name/);
  });

  it('after edits above, between, of and below them, and in another layer, every diagnostic is where a run from scratch puts it', () => {
    const edits: Scenario[] = [
      withText((t) => `# moved\n${t}`),
      withText((t) => t.replace('Reads a file.', 'Reads a whole file.')),
      // A line added above them in another tool's table: their lines move, their tools are the same objects.
      withText((t) => t.replace('summary = "Reads a file."', 'summary = "Reads a file."\ndescription = "The whole of it."')),
      withText((t) => t.replace('summary = "Lists issues."', 'summary = "Lists issues."\ndescription = "Open ones."')),
      withText((t) => t.replace('Lists issues.', 'Lists all the issues.')),
      withText((t) => t.replace('reads files without a source', 'reads files, still without a source')),
      withText((t) => t.replace('[conversation.tools.no_source]\n', '[conversation.tools.no_source]\nsource = "local"\n')),
      withText((t) => t.replace('lists issues under a refused name', 'lists issues')),
      withText((t) => t, { name: 'overrides', text: '[conversation.tools.list_issues]\nenable = "off"\n' }),
      withText((t) => t, { name: 'overrides', text: '[conversation.tools.no_source]\nenable = "off"\n' }),
    ];
    // Each with and without the second layer, with and without steps.
    const variants = edits.flatMap((s) => [s, { ...s, layers: s.layers.slice(0, 1) }, { ...s, layers: s.layers.slice(0, 1), steps: [] }]);
    for (const s of variants) {
      const derivation = new Derivation();
      derivation.run({ scenario: { ...diagnosed, layers: diagnosed.layers.slice(0, s.layers.length), steps: s.steps } });
      const t = derivation.run({ scenario: s });
      expect(derivation.last?.restarted).toBe(false);
      expect(t.diagnostics).toEqual(runScenario({ scenario: s }).diagnostics);
      // A second edit on top of the first reads the diagnostics the first one kept.
      const undone: Scenario = { ...diagnosed, layers: diagnosed.layers.slice(0, s.layers.length), steps: s.steps };
      expect(derivation.run({ scenario: undone }).diagnostics).toEqual(runScenario({ scenario: undone }).diagnostics);
    }
  });
});

describe('a layer edit of the MCP servers', () => {
  const withServer = `${text}\n[providers.mcp.github]\ncommand = "gh-mcp"\nargs = ["--read-only"]\n`;
  const s = parsed(scenarioText({ layer: withServer, body }));
  const edit = (f: (t: string) => string): Scenario => ({ ...s, layers: [{ name: 'workspace', text: f(withServer) }] });

  it('moved in the text only: applied tool by tool (no restart); changed in value: the run starts over', () => {
    expect(after(edit((t) => t.replace('[providers.mcp.github]', '# the servers\n[providers.mcp.github]')), s)).toMatchObject({ restarted: false });
    expect(after(edit((t) => t.replace('command = "gh-mcp"', 'command = "gh-mcp2"')), s)).toMatchObject({ restarted: true });
    expect(after(edit((t) => t.replace('["--read-only"]', '["--read-only", "--verbose"]')), s)).toMatchObject({ restarted: true });
    expect(after(edit((t) => t.replace('["--read-only"]', '["--write"]')), s)).toMatchObject({ restarted: true });
    expect(after(edit((t) => `${t}optional = true\n`), s)).toMatchObject({ restarted: true });
    expect(after(edit((t) => `${t}\n[providers.mcp.jira]\ncommand = "jira-mcp"\n`), s)).toMatchObject({ restarted: true });
    expect(after(edit((t) => t.replace(/\[providers\.mcp\.github\][^]*$/, '')), s)).toMatchObject({ restarted: true });
  });
});

describe("a tool's source edited", () => {
  it('gives the definition of the new source, as a run from scratch does', () => {
    const s = parsed(scenarioText({ layer: `${text}\n[providers.mcp.github]\ncommand = "gh-mcp"\n`, body: `[servers.github]\nstatus = "running"\ntools = [ { name = "deploy_app", description = "Deploys from GitHub.", inputSchema = { type = "object", properties = { repo = { type = "string" } } } } ]\n\n${body}` }));
    const moved: Scenario = { ...s, layers: s.layers.map((l) => ({ ...l, text: l.text.replace('[conversation.tools.deploy_app]\nsource = "local"', '[conversation.tools.deploy_app]\nsource = "mcp.github.deploy_app"') })) };
    expect(moved.layers[0]?.text).toContain('mcp.github.deploy_app');
    const stats = after(moved, s);
    expect(stats).toMatchObject({ toolsReresolved: 1 });
  });
});
