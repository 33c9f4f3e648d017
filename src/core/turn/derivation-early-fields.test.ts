// A layer edit field by field (derivation.ts configLikeness, parameterLikeness, parametersLikeness,
// sourcedLikeness, originLikeness, stateLikeness): a field changed, added or removed re-resolves its
// tool; a table only moved in the text patches its origins and re-resolves nothing. Both directions
// show in Derivation.last (a shell's status line); a change taken as "the same" would keep the old
// state, which the comparison with a run from scratch catches.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import { Derivation } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import { call, parsed, scenarioText, search, turn } from './test-kit';

// A tool with every kind of field (edit_file), between two plain ones.
const text = `[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.read_file]
source = "local"
summary = "Reads a file."

[conversation.tools.edit_file]
source = "local"
summary = "Edits a file."
description = "Writes the changes."
examples = "edit_file(path = 'a')"
run = "ask"
enable = { availability = "discoverable", allow_toggle = "any" }

[conversation.tools.edit_file.parameters.path]
type = "string"
required = true
summary = "The path"
description = "Which file."
enum = ["a", "b"]
default = "a"

[conversation.tools.edit_file.parameters.lines]
type = "array"
summary = "The lines"

[conversation.tools.edit_file.parameters.lines.items]
type = "integer"
summary = "A line"

[conversation.tools.edit_file.parameters.opts]
type = "object"
summary = "Options"

[conversation.tools.edit_file.parameters.opts.properties.force]
type = "boolean"
summary = "Overwrite"

[conversation.tools.edit_file.parameters.opts.properties.quiet]
type = "boolean"
summary = "No output"

[conversation.tools.deploy_app]
source = "local"
summary = "Deploys an app."
`;
const body = [turn('jp q one', [[search('file', 3)], [call('edit_file', 'result = "ok"')]]), turn('jp q two', [[search('deploy', 2)]]), turn('jp q three', [])].join('\n');
const start = parsed(scenarioText({ layer: text, body }));

const edited = (f: (t: string) => string): Scenario => {
  const next = f(text);
  // Each edit must change the text, else the test would compare a run with itself.
  expect(next).not.toBe(text);
  return { ...start, layers: [{ name: 'workspace', text: next }] };
};

function digest(s: Scenario, t: ReturnType<Derivation['run']>): string {
  return toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false);
}

/** Derivation.last of `next` derived after `from`, its timeline and diagnostics checked against a run from scratch. */
function after(next: Scenario, from: Scenario = start): Derivation['last'] {
  const derivation = new Derivation();
  derivation.run({ scenario: from });
  const got = derivation.run({ scenario: next });
  const want = runScenario({ scenario: next });
  expect(digest(next, got)).toBe(digest(next, want));
  expect(got.diagnostics).toEqual(want.diagnostics);
  return derivation.last;
}

describe("a layer edit of one tool's fields", () => {
  it('the start has no load diagnostics and the edited tool searchable', () => {
    const t = runScenario({ scenario: start });
    expect(t.diagnostics).toEqual([]);
    expect(digest(start, t)).toContain('edit_file');
  });

  it('text inserted above every table: each tool only moved, nothing re-resolved (parameters with items and properties included)', () => {
    expect(after(edited((t) => `# a comment\n${t}`))).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 3, stepsReused: 3 });
    // Above edit_file only: read_file is the same, edit_file and deploy_app moved.
    expect(after(edited((t) => t.replace('[conversation.tools.edit_file]\n', '# edits\n[conversation.tools.edit_file]\n')))).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 2 });
    // Inside the array parameter, above its items: edit_file moved (its later fields' spans), deploy_app too.
    expect(after(edited((t) => t.replace('[conversation.tools.edit_file.parameters.lines.items]', '# items\n[conversation.tools.edit_file.parameters.lines.items]')))).toMatchObject({ restarted: false, toolsReresolved: 0, toolsMoved: 2 });
  });

  const changes: [string, (t: string) => string][] = [
    ['summary changed', (t) => t.replace('Edits a file.', 'Edits one file.')],
    ['description removed', (t) => t.replace('description = "Writes the changes."\n', '')],
    ['examples changed', (t) => t.replace("path = 'a'", "path = 'b'")],
    ['examples removed', (t) => t.replace("examples = \"edit_file(path = 'a')\"\n", '')],
    ['run changed', (t) => t.replace('run = "ask"', 'run = "edit"')],
    ['run removed', (t) => t.replace('run = "ask"\n', '')],
    ['availability changed', (t) => t.replace('availability = "discoverable", allow_toggle', 'availability = "on", allow_toggle')],
    ['allow_toggle changed', (t) => t.replace('allow_toggle = "any"', 'allow_toggle = "never"')],
    ['allow_toggle removed', (t) => t.replace(', allow_toggle = "any"', '')],
    ['parameter type changed', (t) => t.replace('type = "string"', 'type = ["string", "null"]')],
    ['parameter required removed', (t) => t.replace('required = true\n', '')],
    ['parameter summary changed', (t) => t.replace('The path', 'The file path')],
    ['parameter enum changed', (t) => t.replace('["a", "b"]', '["a", "c"]')],
    ['parameter default removed', (t) => t.replace('default = "a"\n', '')],
    ['items changed', (t) => t.replace('A line', 'A line number')],
    ['items removed', (t) => t.replace('[conversation.tools.edit_file.parameters.lines.items]\ntype = "integer"\nsummary = "A line"\n', '')],
    ['a property changed', (t) => t.replace('Overwrite', 'Overwrite it')],
    ['a property removed', (t) => t.replace('[conversation.tools.edit_file.parameters.opts.properties.quiet]\ntype = "boolean"\nsummary = "No output"\n', '')],
    ['a property added', (t) => t.replace('[conversation.tools.deploy_app]', '[conversation.tools.edit_file.parameters.opts.properties.dry]\ntype = "boolean"\n\n[conversation.tools.deploy_app]')],
    ['properties removed', (t) => t.replace(/\[conversation\.tools\.edit_file\.parameters\.opts\.properties\.force\][^]*?(?=\[conversation\.tools\.deploy_app\])/, '')],
    ['a parameter removed', (t) => t.replace('[conversation.tools.edit_file.parameters.opts]\ntype = "object"\nsummary = "Options"\n', '').replace(/\[conversation\.tools\.edit_file\.parameters\.opts\.properties\.[a-z]+\]\ntype = "boolean"\nsummary = "[A-Za-z ]+"\n/g, '')],
    ['a parameter renamed', (t) => t.replaceAll('parameters.opts', 'parameters.options')],
    ['parameters reordered', (t) => t.replace('[conversation.tools.edit_file.parameters.path]\ntype = "string"\nrequired = true\nsummary = "The path"\ndescription = "Which file."\nenum = ["a", "b"]\ndefault = "a"\n\n', '').replace('[conversation.tools.deploy_app]', '[conversation.tools.edit_file.parameters.path]\ntype = "string"\nrequired = true\nsummary = "The path"\ndescription = "Which file."\nenum = ["a", "b"]\ndefault = "a"\n\n[conversation.tools.deploy_app]')],
  ];

  for (const [what, f] of changes) {
    it(`${what}: that tool re-resolved, the others kept; back again the same`, () => {
      const next = edited(f);
      expect(after(next)).toMatchObject({ restarted: false, toolsReresolved: 1 });
      expect(after(start, next)).toMatchObject({ restarted: false, toolsReresolved: 1 });
    });
  }

  const added: [string, (t: string) => string][] = [
    ['a description', (t) => t.replace('summary = "Deploys an app."', 'summary = "Deploys an app."\ndescription = "To production."')],
    ['examples', (t) => t.replace('summary = "Deploys an app."', 'summary = "Deploys an app."\nexamples = "deploy_app()"')],
    ['a run mode', (t) => t.replace('summary = "Deploys an app."', 'summary = "Deploys an app."\nrun = "ask"')],
    ['an availability', (t) => t.replace('summary = "Deploys an app."', 'summary = "Deploys an app."\nenable = "discoverable"')],
    ['an allow_toggle', (t) => t.replace('summary = "Deploys an app."', 'summary = "Deploys an app."\nenable = { allow_toggle = "never" }')],
    ['a parameter', (t) => `${t}\n[conversation.tools.deploy_app.parameters.env]\ntype = "string"\n`],
  ];

  for (const [what, f] of added) {
    it(`${what} added to a plain tool: that tool re-resolved; removed again the same`, () => {
      const next = edited(f);
      expect(after(next)).toMatchObject({ restarted: false, toolsReresolved: 1 });
      expect(after(start, next)).toMatchObject({ restarted: false, toolsReresolved: 1 });
    });
  }

  it('a parameter field added: its tool re-resolved, and removed again', () => {
    for (const field of ['description = "Which lines."', 'required = true', 'default = [1]', 'examples = [[1, 2]]', 'enum = [[1]]']) {
      const next = edited((t) => t.replace('summary = "The lines"', `summary = "The lines"\n${field}`));
      expect(after(next)).toMatchObject({ restarted: false, toolsReresolved: 1 });
      expect(after(start, next)).toMatchObject({ restarted: false, toolsReresolved: 1 });
    }
  });
});
