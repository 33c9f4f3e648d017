// Layer edits of a tool's own fields, its parameters (items, properties) and the MCP servers, each
// against a run from scratch (what the user sees) and Derivation.last (what the edit re-did: a tool
// whose field only moved is patched with its new origin, one whose value changed is re-resolved; a
// server changed in value starts the run over). derivation.ts's likeness functions decide these.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { Derivation, compareInputs, sameValue } from './derivation';
import type { DerivationInput, DerivationStats } from './derivation';
import { runScenario } from './run';
import type { SimServer } from '../catalogue/resolve';
import { timelineToJson } from './serialize';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import type { Timeline } from './timeline';
import { parsed, scenarioText, search, turn } from './test-kit';

const digest = (s: Scenario, t: Timeline): string => toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false);

/** Where each tool's fields were written, as a run ends: what the workbench shows as a field's source. */
function origins(t: Timeline): string {
  const out: string[] = [];
  for (const st of t.engine.currentStates()) out.push(`${st.name} ${JSON.stringify(st.config)}`);
  return out.join('\n');
}

/** Derives `from`, then `next`; checks next's timeline and origins against a run from scratch; the stats. */
function after(from: Scenario, next: Scenario): DerivationStats {
  const derivation = new Derivation();
  derivation.run({ scenario: from });
  const got = derivation.run({ scenario: next });
  const want = runScenario({ scenario: next });
  expect(digest(next, got)).toBe(digest(next, want));
  expect(origins(got)).toBe(origins(want));
  const last = derivation.last;
  if (!last) throw new Error('no stats');
  return last;
}

const catalogue = `[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.read_file]
source = "local"
summary = "Reads a file."

[conversation.tools.read_file.parameters.path]
type = "string"
summary = "The path."

[conversation.tools.read_file.parameters.files]
type = "array"
items = { type = "object", properties = { name = { type = "string", required = true }, size = { type = "integer" } } }

[conversation.tools.list_issues]
source = "local"
enable = "on"
summary = "Lists issues."
description = "Open and closed ones."

[conversation.tools.send_mail]
source = "local"
summary = "Sends mail."

[providers.mcp.github]
command = "gh-mcp"
optional = true
env = { LEVEL = 1 }
`;
const body = [turn('jp q one', [[search('files', 2)]]), turn('jp q two', [[search('mail', 2)]]), turn('jp q three', [])].join('\n');
const start = parsed(scenarioText({ layer: catalogue, body }));
const edited = (f: (t: string) => string): Scenario => {
  const text = f(catalogue);
  expect(text).not.toBe(catalogue);
  return { ...start, layers: [{ name: 'workspace', text }] };
};

describe("a layer edit of a tool's fields and parameters", () => {
  it('text moved above every table: every tool patched with its new origins (array and object parameters too), nothing re-resolved', () => {
    expect(after(start, edited((t) => `# moved\n${t}`))).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 3, stepsReused: 3 });
    expect(after(start, edited((t) => t.replace('type = "array"', '# an array\ntype = "array"')))).toMatchObject({ restarted: false, toolsReresolved: 0, stepsReused: 3 });
  });

  it('a value written another way (the same string, a longer span from the same start): moved, not re-resolved', () => {
    expect(after(start, edited((t) => t.replace('summary = "Sends mail."', 'summary = """Sends mail."""')))).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 1 });
  });

  it('a value written another way that ends where it ended (it starts elsewhere): moved, not re-resolved', () => {
    const spaced = edited((t) => t.replace('summary = "Sends mail."', 'summary =     "Sends mail."'));
    expect(after(spaced, edited((t) => t.replace('summary = "Sends mail."', 'summary = """Sends mail."""')))).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 1 });
  });

  it('a parameter renamed (the same fields), or an array parameter without its items: that tool re-resolved', () => {
    expect(after(start, edited((t) => t.replace('[conversation.tools.read_file.parameters.path]', '[conversation.tools.read_file.parameters.file_path]')))).toMatchObject({ restarted: false, toolsReresolved: 1 });
    expect(after(start, edited((t) => t.replace(/items = \{.*\n/, '')))).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it("an offered tool's source edited: its new definition is in the requests, as from scratch", () => {
    const server = '[servers.github]\nstatus = "running"\ntools = [ { name = "list_issues", description = "Lists GitHub issues.", inputSchema = { type = "object", properties = { repo = { type = "string" } } } } ]\n';
    const s = parsed(scenarioText({ layer: catalogue, body: `${server}\n${body}` }));
    const moved: Scenario = { ...s, layers: s.layers.map((l) => ({ ...l, text: l.text.replace('[conversation.tools.list_issues]\nsource = "local"', '[conversation.tools.list_issues]\nsource = "mcp.github.list_issues"') })) };
    expect(moved.layers[0]?.text).toContain('mcp.github.list_issues');
    expect(after(s, moved)).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it('a description added to a tool without one, or removed: that tool re-resolved', () => {
    expect(after(start, edited((t) => t.replace('summary = "Sends mail."', 'summary = "Sends mail."\ndescription = "With attachments."')))).toMatchObject({ restarted: false, toolsReresolved: 1, toolsMoved: 0 });
    expect(after(start, edited((t) => t.replace('description = "Open and closed ones."\n', '')))).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it('a field added to or removed from a parameter: that tool re-resolved', () => {
    expect(after(start, edited((t) => t.replace('summary = "The path."', 'summary = "The path."\ndescription = "Relative to the root."')))).toMatchObject({ restarted: false, toolsReresolved: 1 });
    expect(after(start, edited((t) => t.replace('summary = "The path."\n', '')))).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it("an array parameter's items: a property reordered, dropped, retyped or required: that tool re-resolved", () => {
    for (const s of [
      edited((t) => t.replace('name = { type = "string", required = true }, size = { type = "integer" }', 'size = { type = "integer" }, name = { type = "string", required = true }')),
      edited((t) => t.replace(', size = { type = "integer" }', '')),
      edited((t) => t.replace('size = { type = "integer" }', 'size = { type = "number" }')),
      edited((t) => t.replace('size = { type = "integer" }', 'size = { type = "integer", required = true }')),
      edited((t) => t.replace('items = { type = "object", properties', 'items = { type = "object", description = "A file.", properties')),
    ]) {
      expect(after(start, s)).toMatchObject({ restarted: false, toolsReresolved: 1 });
    }
  });

  it("the parameters' order (their tables swapped): that tool re-resolved, its schema in the new order as from scratch (the definition cache compared Maps in any order and kept the old schema)", () => {
    const swapped = edited((t) => {
      const path = '[conversation.tools.read_file.parameters.path]\ntype = "string"\nsummary = "The path."\n\n';
      const files = /\[conversation\.tools\.read_file\.parameters\.files\][^[]*\n\n/.exec(t)?.[0] ?? '';
      expect(files).toContain('items');
      return t.replace(path + files, files + path);
    });
    expect(after(start, swapped)).toMatchObject({ restarted: false, toolsReresolved: 1, definitionsBuilt: 1 });
  });

  it("a field's value moved to another layer at the same place in its text: the tool's origin follows it", () => {
    const a = '[conversation.tools.send_mail]\nsummary = "Mail."\n';
    const two = (b: string): Scenario => ({ ...start, layers: [{ name: 'workspace', text: catalogue }, { name: 'a', text: a }, { name: 'b', text: b }] });
    // Both layers say it at the same offsets; the later one wins, and when it stops saying it, the earlier one does.
    expect(after(two(a), two('[conversation.tools.send_mail]\n#ummary = "Mail."\n'))).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });
});

describe('a layer edit of the MCP servers', () => {
  it('a value changed to one of the same length, a boolean or a number changed, a table made a string: the run starts over', () => {
    for (const s of [
      edited((t) => t.replace('command = "gh-mcp"', 'command = "gh-mcX"')),
      edited((t) => t.replace('optional = true', 'optional = false')),
      edited((t) => t.replace('LEVEL = 1', 'LEVEL = 2')),
      edited((t) => t.replace('env = { LEVEL = 1 }', 'env = "LEVEL"')),
      edited((t) => t.replace('env = { LEVEL = 1 }', 'env = {}')),
    ]) {
      expect(after(start, s)).toMatchObject({ restarted: true });
    }
    const empty = edited((t) => t.replace('env = { LEVEL = 1 }', 'env = {}'));
    expect(after(empty, edited((t) => t.replace('env = { LEVEL = 1 }', 'env = []')))).toMatchObject({ restarted: true });
  });

  it('moved in the text only (its table and its values): applied tool by tool', () => {
    expect(after(start, edited((t) => t.replace('[providers.mcp.github]', '# servers\n[providers.mcp.github]')))).toMatchObject({ restarted: false });
    expect(after(start, edited((t) => t.replace('optional = true', '# optional\noptional = true')))).toMatchObject({ restarted: false });
  });
});

describe('sameValue and compareInputs: values of other kinds', () => {
  it('a plain object is not an array, a Map or a Set, even an empty one', () => {
    expect(sameValue({}, [])).toBe(false);
    expect(sameValue({}, new Map())).toBe(false);
    expect(sameValue({}, new Set())).toBe(false);
    expect(sameValue(true, false)).toBe(false);
    expect(sameValue('ab', 'ac')).toBe(false);
  });

  it('live servers: the same number of other servers is a change (the run starts over)', () => {
    const server = (name: string): SimServer => ({ name, status: 'running', tools: [] }) as unknown as SimServer;
    const a: DerivationInput = { scenario: start, extraServers: [server('one')] };
    expect(compareInputs(a, { scenario: start, extraServers: [server('two')] }).restart).toBe(true);
    expect(compareInputs(a, { scenario: start, extraServers: a.extraServers ?? [] }).restart).toBe(false);
  });
});

describe('load diagnostics of tools in two layers: the edited layer\'s derived again, the other\'s kept, merged in tool order', () => {
  const first = '[conversation.tools.no_source]\nsummary = "reads files without a source"\n\n[conversation.tools.read_file]\nsource = "local"\n\n[conversation.tools.none_either]\nsummary = "neither has one"\n';
  const second = '[conversation.tools.list_issues]\nsource = "local"\n\n[conversation.tools."bad.name"]\nsource = "local"\nsummary = "a name the provider refuses"\n\n[conversation.tools.also_none]\nsummary = "no source either"\n';
  const two = (a: string, b: string): Scenario => parsed(scenarioText({ layers: [{ name: 'first', text: a }, { name: 'second', text: b }], body: '' }));

  it('an edit in either layer gives the diagnostics a run from scratch gives, in its order', () => {
    const base = two(first, second);
    expect(runScenario({ scenario: base }).diagnostics.length).toBe(4);
    for (const next of [
      two(`# above\n${first}`, second),
      two(first.replace('without a source', 'still without a source'), second),
      two(first, `# above\n${second}`),
      // Two edits at once (the layer parsed whole): no_source changed in value, none_either only moved.
      two(`# above\n${first.replace('without a source', 'still without a source')}`, second),
      two(first, second.replace('no source either', 'no source at all')),
    ]) {
      const derivation = new Derivation();
      derivation.run({ scenario: base });
      const got = derivation.run({ scenario: next }).diagnostics;
      expect(derivation.last?.restarted).toBe(false);
      expect(got).toEqual(runScenario({ scenario: next }).diagnostics);
    }
  });

  it("the workspace's own diagnostics stay first after a layer edit", () => {
    const workspace = [{ severity: 'warning' as const, message: 'workspace: an unknown key' }];
    const base = two(first, second);
    const next = two(first.replace('without a source', 'still without a source'), second);
    const derivation = new Derivation();
    derivation.run({ scenario: base, workspaceDiagnostics: workspace });
    const got = derivation.run({ scenario: next, workspaceDiagnostics: workspace }).diagnostics;
    expect(derivation.last?.restarted).toBe(false);
    expect(got[0]?.message).toBe('workspace: an unknown key');
    expect(got).toEqual(runScenario({ scenario: next, workspaceDiagnostics: workspace }).diagnostics);
  });
});
