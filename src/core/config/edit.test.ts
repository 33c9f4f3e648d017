import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignmentToDelta } from './assign';
import { editLayer, editLayerSplice, setEnableField } from './edit';
import type { EditAssignment } from './edit';
import { applySplices, basicString, formatKey, lineEnd, minimalSplice } from './edit-primitives';
import { effectiveEnable } from './effective';
import { ALLOW_TOGGLE_VALUE_ERROR, AVAILABILITY_VALUE_ERROR, BOTH_KEYS_ERROR, ENABLE_VALUE_ERROR, STATE_VALUE_ERROR, mergeEnable, unknownEnableKeyError } from './enable';
import { loadLayer } from './layer';
import { parseToml } from './toml';
import type { Span, TomlTable } from './toml-ast';
import type { PartialConfig, PartialEnable } from './types';

// ---- helpers ------------------------------------------------------------------------------------

/** Lines joined by LF, with a final newline. */
const L = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** `KEY=VALUE`, or `KEY:=JSON`, split as the CLI splits it (`'*'` kept as written). */
function A(assignment: string): EditAssignment {
  const eq = assignment.indexOf('=');
  const json = assignment[eq - 1] === ':';
  const key = assignment.slice(0, json ? eq - 1 : eq);
  return { path: key.split('.'), value: assignment.slice(eq + 1), json };
}

/** A tool path with an arbitrary name (names may hold dots). */
function T(tool: string, rest: string, value: string, json = false): EditAssignment {
  return { path: ['conversation', 'tools', tool, ...rest.split('.')], value, json };
}

function edit(text: string, ...assignments: (string | EditAssignment)[]): string {
  const r = editLayer(text, assignments.map((a) => (typeof a === 'string' ? A(a) : a)));
  if (!r.ok) throw new Error(r.error);
  return r.text;
}

function editError(text: string, ...assignments: (string | EditAssignment)[]): string {
  const r = editLayer(text, assignments.map((a) => (typeof a === 'string' ? A(a) : a)));
  if (r.ok) throw new Error(`expected an error, got:\n${r.text}`);
  return r.error;
}

function errorsOf(text: string): string[] {
  return loadLayer({ name: 'l', text }).diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
}

function config(text: string): PartialConfig {
  return loadLayer({ name: 'l', text }).config;
}

function effective(text: string, tool: string): { availability: string; allowToggle: string } {
  const c = config(text);
  const e = effectiveEnable(c.tools.get(tool), c.defaults);
  return { availability: e.availability.value, allowToggle: e.allowToggle.value };
}

// ---- conformance 13 -------------------------------------------------------------------------------

const here = path.dirname(fileURLToPath(import.meta.url));
const sharedDir = path.resolve(here, '../../../../shared');

describe('conformance 13: jp config set normalises state', () => {
  const before = L(
    '# Tools for the release flow.',
    '[conversation.tools.deploy]',
    'source = "local"',
    'enable = { state = false }   # off until reviewed',
    '',
    '[conversation.tools.rollback]',
    'source = "local"',
    'enable = { state = false }',
  );
  const after = L(
    '# Tools for the release flow.',
    '[conversation.tools.deploy]',
    'source = "local"',
    'enable = { availability = "discoverable" }   # off until reviewed',
    '',
    '[conversation.tools.rollback]',
    'source = "local"',
    'enable = { state = false }',
  );

  it('gives the exact bytes', () => {
    expect(edit(before, 'conversation.tools.deploy.enable.availability=discoverable')).toBe(after);
    expect(effective(after, 'deploy').availability).toBe('discoverable');
    expect(effective(after, 'rollback').availability).toBe('off');
    expect(errorsOf(after)).toEqual([]);
  });

  it('matches the shared scenario file byte for byte', () => {
    const file = readFileSync(path.join(sharedDir, 'conformance/13-config-set-normalises-state.toml'), 'utf8');
    const doc = parseToml(file);
    expect(doc.errors).toEqual([]);
    const plain = (v: unknown): unknown => v;
    const layers = doc.root.entries.get('layers')?.value;
    const steps = doc.root.entries.get('steps')?.value;
    if (layers?.kind !== 'table-array' || steps?.kind !== 'table-array') throw new Error('unexpected scenario shape');
    const layerText = layers.items[0]?.entries.get('text')?.value;
    const step = steps.items[0] as TomlTable;
    const command = step.entries.get('command')?.value;
    const expectTable = step.entries.get('expect')?.value;
    const expected = expectTable?.kind === 'table' ? expectTable.entries.get('layer_text')?.value : undefined;
    const expectedText = expected?.kind === 'table' ? expected.entries.get('workspace')?.value : undefined;
    if (layerText?.kind !== 'string' || command?.kind !== 'string' || expectedText?.kind !== 'string') throw new Error('unexpected scenario shape');
    const assignment = plain(command.value.replace(/^jp config set /, '')) as string;
    expect(layerText.value).toBe(before);
    expect(edit(layerText.value, assignment)).toBe(expectedText.value);
  });
});

// ---- byte-exact cases ---------------------------------------------------------------------------

interface Case {
  readonly name: string;
  readonly before: string;
  readonly set: readonly (string | EditAssignment)[];
  readonly after: string;
}

const TOOL = '[conversation.tools.x]';

const cases: readonly Case[] = [
  // -- the value is replaced in place --
  {
    name: 'enable.availability replaces an inline availability in place, comment kept',
    before: L(TOOL, 'enable = { availability = "on" }  # why'),
    set: ['conversation.tools.x.enable.availability=off'],
    after: L(TOOL, 'enable = { availability = "off" }  # why'),
  },
  {
    name: 'enable.allow_toggle replaces in place',
    before: L(TOOL, 'enable = { availability = "on", allow_toggle = "any" }'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { availability = "on", allow_toggle = "never" }'),
  },
  {
    name: 'enable=SHORTHAND replaces a shorthand string',
    before: L(TOOL, 'enable = "on" # c'),
    set: ['conversation.tools.x.enable=discoverable'],
    after: L(TOOL, 'enable = "discoverable" # c'),
  },
  {
    name: 'enable=false writes a boolean',
    before: L(TOOL, 'enable = "on"'),
    set: ['conversation.tools.x.enable=false'],
    after: L(TOOL, 'enable = false'),
  },
  {
    name: 'enable=true over a boolean',
    before: L(TOOL, 'enable = false'),
    set: ['conversation.tools.x.enable=true'],
    after: L(TOOL, 'enable = true'),
  },
  {
    name: 'a shorthand replaces a whole inline table (it sets both fields)',
    before: L(TOOL, 'enable = { state = false, allow_toggle = "never" }   # locked'),
    set: ['conversation.tools.x.enable=explicit'],
    after: L(TOOL, 'enable = "explicit"   # locked'),
  },
  {
    name: 'enable:=JSON boolean and string',
    before: L(TOOL, 'enable = "on"'),
    set: ['conversation.tools.x.enable:=false'],
    after: L(TOOL, 'enable = false'),
  },
  {
    name: 'enable:="always"',
    before: L(TOOL, 'enable = true'),
    set: ['conversation.tools.x.enable:="always"'],
    after: L(TOOL, 'enable = "always"'),
  },
  {
    name: 'enable:=null changes nothing (an unset is not persisted)',
    before: L(TOOL, 'enable = true'),
    set: ['conversation.tools.x.enable:=null'],
    after: L(TOOL, 'enable = true'),
  },
  {
    name: 'enable.state replaces a legacy state in place (the user spelled it)',
    before: L(TOOL, 'enable = { state = false } # c'),
    set: ['conversation.tools.x.enable.state=true'],
    after: L(TOOL, 'enable = { state = true } # c'),
  },
  // -- legacy state is normalised --
  {
    name: 'availability replaces state in place; the spacing as written is kept',
    before: L(TOOL, 'enable = {state=false}'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L(TOOL, 'enable = {availability="discoverable"}'),
  },
  {
    name: 'availability replaces state beside allow_toggle',
    before: L(TOOL, 'enable = { state = true, allow_toggle = "never" }'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L(TOOL, 'enable = { availability = "discoverable", allow_toggle = "never" }'),
  },
  {
    name: 'allow_toggle normalises state to availability and adds itself',
    before: L(TOOL, 'enable = { state = false }   # off until reviewed'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { availability = "off", allow_toggle = "never" }   # off until reviewed'),
  },
  {
    name: 'allow_toggle normalises state = true to "on"',
    before: L(TOOL, 'enable = { allow_toggle = "any", state = true }'),
    set: ['conversation.tools.x.enable.allow_toggle=if_named'],
    after: L(TOOL, 'enable = { allow_toggle = "if_named", availability = "on" }'),
  },
  {
    name: 'state in a [header] enable table, comment kept',
    before: L('[conversation.tools.x.enable]', 'state = false # legacy', 'allow_toggle = "never"'),
    set: ['conversation.tools.x.enable.availability=on'],
    after: L('[conversation.tools.x.enable]', 'availability = "on" # legacy', 'allow_toggle = "never"'),
  },
  {
    name: 'state written as a dotted key in the tool table',
    before: L(TOOL, 'source = "local"', 'enable.state = false   # c', 'run = "ask"'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L(TOOL, 'source = "local"', 'enable.availability = "discoverable"   # c', 'run = "ask"'),
  },
  {
    name: 'enable.state over a table that says availability writes availability (never both keys)',
    before: L(TOOL, 'enable = { availability = "on" }'),
    set: ['conversation.tools.x.enable.state=false'],
    after: L(TOOL, 'enable = { availability = "off" }'),
  },
  {
    name: 'both keys (hand-edited): availability is written and state removed (state first)',
    before: L(TOOL, 'enable = { state = false, availability = "on" }'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L(TOOL, 'enable = { availability = "discoverable" }'),
  },
  {
    name: 'both keys (hand-edited): state last',
    before: L(TOOL, 'enable = { availability = "on", state = false }'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { availability = "on", allow_toggle = "never" }'),
  },
  {
    name: 'both keys in a [header] table: the state line goes, its comment stays',
    before: L('[conversation.tools.x.enable]', 'state = true  # old', 'availability = "on"'),
    set: ['conversation.tools.x.enable.availability=off'],
    after: L('[conversation.tools.x.enable]', '# old', 'availability = "off"'),
  },
  {
    name: 'both keys in a [header] table without a comment: the line goes',
    before: L('[conversation.tools.x.enable]', 'state = true', 'availability = "on"'),
    set: ['conversation.tools.x.enable.availability=off'],
    after: L('[conversation.tools.x.enable]', 'availability = "off"'),
  },
  {
    name: 'a state that is not a boolean is left for the user by allow_toggle',
    before: L(TOOL, 'enable = { state = "yes" }'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { state = "yes", allow_toggle = "never" }'),
  },
  {
    name: '... and replaced by availability',
    before: L(TOOL, 'enable = { state = "yes" }'),
    set: ['conversation.tools.x.enable.availability=on'],
    after: L(TOOL, 'enable = { availability = "on" }'),
  },
  {
    name: 'other tables keep their legacy state',
    before: L('[conversation.tools.a]', 'enable = { state = false }', '[conversation.tools.b]', 'enable = { state = false }'),
    set: ['conversation.tools.b.enable.availability=on'],
    after: L('[conversation.tools.a]', 'enable = { state = false }', '[conversation.tools.b]', 'enable = { availability = "on" }'),
  },
  // -- shorthand expansion --
  {
    name: 'explicit expanded, availability changed',
    before: L(TOOL, 'enable = "explicit"'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L(TOOL, 'enable = { availability = "discoverable", allow_toggle = "if_named" }'),
  },
  {
    name: 'true expanded, allow_toggle changed',
    before: L(TOOL, 'enable = true  # c'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { availability = "on", allow_toggle = "never" }  # c'),
  },
  {
    name: 'always expanded, state written as availability',
    before: L(TOOL, 'enable = "always"'),
    set: ['conversation.tools.x.enable.state=false'],
    after: L(TOOL, 'enable = { availability = "off", allow_toggle = "never" }'),
  },
  {
    name: 'discoverable expanded',
    before: L(TOOL, 'enable = "discoverable"'),
    set: ['conversation.tools.x.enable.availability=on'],
    after: L(TOOL, 'enable = { availability = "on", allow_toggle = "any" }'),
  },
  {
    name: 'a dotted shorthand is expanded in place',
    before: L('[conversation.tools]', 'x.enable = "off" # c'),
    set: ['conversation.tools.x.enable.allow_toggle=if_named'],
    after: L('[conversation.tools]', 'x.enable = { availability = "off", allow_toggle = "if_named" } # c'),
  },
  {
    name: 'an invalid shorthand in the file is replaced by the field',
    before: L(TOOL, 'enable = "maybe"'),
    set: ['conversation.tools.x.enable.availability=on'],
    after: L(TOOL, 'enable = { availability = "on" }'),
  },
  {
    name: 'a shorthand over a [header] enable table is written field-wise (both fields)',
    before: L('[conversation.tools.x.enable]', 'state = false # c'),
    set: ['conversation.tools.x.enable=explicit'],
    after: L('[conversation.tools.x.enable]', 'availability = "off" # c', 'allow_toggle = "if_named"'),
  },
  {
    name: 'a shorthand over a dotted enable is written field-wise',
    before: L(TOOL, '  enable.allow_toggle = "never"', '  run = "ask"'),
    set: ['conversation.tools.x.enable=on'],
    after: L(TOOL, '  enable.allow_toggle = "any"', '  enable.availability = "on"', '  run = "ask"'),
  },
  // -- enable:=JSON object merges field by field --
  {
    name: 'enable:={...} on a tool without enable writes an inline table',
    before: L(TOOL, 'source = "local"'),
    set: ['conversation.tools.x.enable:={"availability":"discoverable","allow_toggle":"never"}'],
    after: L(TOOL, 'source = "local"', 'enable = { availability = "discoverable", allow_toggle = "never" }'),
  },
  {
    name: 'enable:={...} merges into an existing table and normalises state',
    before: L(TOOL, 'enable = { state = false }'),
    set: ['conversation.tools.x.enable:={"allow_toggle":"never"}'],
    after: L(TOOL, 'enable = { availability = "off", allow_toggle = "never" }'),
  },
  {
    name: 'enable:={...} over a shorthand expands it',
    before: L(TOOL, 'enable = "explicit"'),
    set: ['conversation.tools.x.enable:={"availability":"on","other":null}'],
    after: L(TOOL, 'enable = { availability = "on", allow_toggle = "if_named" }'),
  },
  {
    name: 'enable:={} over an existing value changes nothing',
    before: L(TOOL, 'enable = "explicit"'),
    set: ['conversation.tools.x.enable:={}'],
    after: L(TOOL, 'enable = "explicit"'),
  },
  {
    name: 'enable:={} on a tool without enable writes {}',
    before: L(TOOL, 'run = "ask"'),
    set: ['conversation.tools.x.enable:={}'],
    after: L(TOOL, 'run = "ask"', 'enable = {}'),
  },
  // -- keys the table lacks are added --
  {
    name: 'inline: `, key = value` before the closing brace',
    before: L(TOOL, 'enable = { availability = "on" }  # c'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { availability = "on", allow_toggle = "never" }  # c'),
  },
  {
    name: 'inline without spaces',
    before: L(TOOL, 'enable = {availability="on"}'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = {availability="on", allow_toggle = "never"}'),
  },
  {
    name: 'inline `{}` becomes `{ key = value }`',
    before: L(TOOL, 'enable = {}'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { allow_toggle = "never" }'),
  },
  {
    name: 'inline `{ }` becomes `{ key = value }`',
    before: L(TOOL, 'enable = { }'),
    set: ['conversation.tools.x.enable.availability=off'],
    after: L(TOOL, 'enable = { availability = "off" }'),
  },
  {
    name: '[header] enable table: a new line after its last key, indented alike',
    before: L('[conversation.tools.x.enable]', '  availability = "on"   # c', '', '# next', '[conversation.tools.y]'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L('[conversation.tools.x.enable]', '  availability = "on"   # c', '  allow_toggle = "never"', '', '# next', '[conversation.tools.y]'),
  },
  {
    name: 'tool table without enable: a new line after its last key',
    before: L('# top', TOOL, 'source = "local"', 'run = "ask"  # c', '', '[conversation.tools.y]', 'run = "ask"'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L('# top', TOOL, 'source = "local"', 'run = "ask"  # c', 'enable = { availability = "discoverable" }', '', '[conversation.tools.y]', 'run = "ask"'),
  },
  {
    name: 'a tool table with no keys: after the header (and its comment)',
    before: L(`${TOOL}  # empty`, '', '[conversation.tools.y]'),
    set: ['conversation.tools.x.enable=off'],
    after: L(`${TOOL}  # empty`, 'enable = "off"', '', '[conversation.tools.y]'),
  },
  {
    name: 'a tool table with sub-tables: the key goes in its own section',
    before: L(TOOL, 'source = "local"', '', '[conversation.tools.x.parameters.a]', 'type = "string"'),
    set: ['conversation.tools.x.summary=Deploys'],
    after: L(TOOL, 'source = "local"', 'summary = "Deploys"', '', '[conversation.tools.x.parameters.a]', 'type = "string"'),
  },
  {
    name: 'a dotted tool: the new key repeats the prefix',
    before: L('[conversation.tools]', 'x.source = "local"  # c', 'x.run = "ask"', 'y.run = "ask"'),
    set: ['conversation.tools.x.enable.availability=off'],
    after: L('[conversation.tools]', 'x.source = "local"  # c', 'x.run = "ask"', 'x.enable = { availability = "off" }', 'y.run = "ask"'),
  },
  {
    name: 'a dotted enable: the new field repeats the prefix',
    before: L(TOOL, 'enable.availability = "on"', 'run = "ask"'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable.availability = "on"', 'enable.allow_toggle = "never"', 'run = "ask"'),
  },
  {
    name: 'an inline tool',
    before: L('[conversation.tools]', 'x = { source = "local" }  # c'),
    set: ['conversation.tools.x.enable.availability=off'],
    after: L('[conversation.tools]', 'x = { source = "local", enable = { availability = "off" } }  # c'),
  },
  {
    name: 'a dotted enable inside an inline tool',
    before: L('[conversation.tools]', 'x = { enable.state = true, run = "ask" }'),
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L('[conversation.tools]', 'x = { enable.availability = "on", enable.allow_toggle = "never", run = "ask" }'),
  },
  {
    name: 'an inline tools table takes the new tool',
    before: L('[conversation]', 'tools = { y = { run = "ask" } }'),
    set: ['conversation.tools.x.run=unattended'],
    after: L('[conversation]', 'tools = { y = { run = "ask" }, x = { run = "unattended" } }'),
  },
  // -- a missing tool table is appended --
  {
    name: 'missing tool: a new section at the end, after a blank line',
    before: L('[conversation.tools.y]', 'run = "ask"'),
    set: ['conversation.tools.x.enable.availability=discoverable'],
    after: L('[conversation.tools.y]', 'run = "ask"', '', TOOL, 'enable = { availability = "discoverable" }'),
  },
  {
    name: 'missing tool in a file without a final newline',
    before: '[conversation.tools.y]\nrun = "ask"',
    set: ['conversation.tools.x.enable=discoverable'],
    after: L('[conversation.tools.y]', 'run = "ask"', '', TOOL, 'enable = "discoverable"'),
  },
  {
    name: 'missing tool in a file that ends with a blank line',
    before: L('[conversation.tools.y]', 'run = "ask"', ''),
    set: ['conversation.tools.x.enable=on'],
    after: L('[conversation.tools.y]', 'run = "ask"', '', TOOL, 'enable = "on"'),
  },
  {
    name: 'missing tool in an empty file',
    before: '',
    set: ['conversation.tools.x.enable.allow_toggle=never'],
    after: L(TOOL, 'enable = { allow_toggle = "never" }'),
  },
  {
    name: 'missing tool when [conversation] exists',
    before: L('[conversation]', 'title = "t"'),
    set: ['conversation.tools.x.summary=S'],
    after: L('[conversation]', 'title = "t"', '', TOOL, 'summary = "S"'),
  },
  {
    name: 'missing tool when tools is dotted',
    before: L('[conversation]', 'tools.y.enable = "on"'),
    set: ['conversation.tools.x.enable=off'],
    after: L('[conversation]', 'tools.y.enable = "on"', '', TOOL, 'enable = "off"'),
  },
  {
    name: 'a tool that exists only through its [..enable] sub-table gets its own section',
    before: L('[conversation.tools.x.enable]', 'availability = "on"'),
    set: ['conversation.tools.x.run=ask'],
    after: L('[conversation.tools.x.enable]', 'availability = "on"', '', TOOL, 'run = "ask"'),
  },
  {
    name: 'a CRLF file stays CRLF',
    before: '[conversation.tools.x]\r\nenable = { state = false } # c\r\n[conversation.tools.y]\r\n',
    set: ['conversation.tools.x.enable.allow_toggle=never', 'conversation.tools.y.run=ask', 'conversation.tools.z.run=ask'],
    after:
      '[conversation.tools.x]\r\nenable = { availability = "off", allow_toggle = "never" } # c\r\n[conversation.tools.y]\r\nrun = "ask"\r\n\r\n[conversation.tools.z]\r\nrun = "ask"\r\n',
  },
  // -- '*' --
  {
    name: "'*' enable added to its table",
    before: L("[conversation.tools.'*']", 'run = "ask"'),
    set: ['conversation.tools.*.enable=discoverable'],
    after: L("[conversation.tools.'*']", 'run = "ask"', 'enable = "discoverable"'),
  },
  {
    name: "'*' written as '*' in the key",
    before: L("[conversation.tools.'*']", 'enable = "on"'),
    set: ["conversation.tools.'*'.enable=explicit"],
    after: L("[conversation.tools.'*']", 'enable = "explicit"'),
  },
  {
    name: "missing '*' table is appended as [conversation.tools.'*']",
    before: L(TOOL, 'run = "ask"'),
    set: ['conversation.tools.*.enable=discoverable'],
    after: L(TOOL, 'run = "ask"', '', "[conversation.tools.'*']", 'enable = "discoverable"'),
  },
  {
    name: "'*' shorthand expanded and state normalised alike",
    before: L('[conversation.tools."*"]', 'enable = "discoverable"'),
    set: ['conversation.tools.*.enable.allow_toggle=never'],
    after: L('[conversation.tools."*"]', 'enable = { availability = "discoverable", allow_toggle = "never" }'),
  },
  {
    name: "'*' state normalised",
    before: L("[conversation.tools.'*']", 'enable = { state = true }'),
    set: ['conversation.tools.*.enable.availability=off'],
    after: L("[conversation.tools.'*']", 'enable = { availability = "off" }'),
  },
  {
    name: "'*' run replaced in place",
    before: L("[conversation.tools.'*']", 'run = "ask" # default'),
    set: ['conversation.tools.*.run=unattended'],
    after: L("[conversation.tools.'*']", 'run = "unattended" # default'),
  },
  // -- other scalar keys --
  {
    name: 'summary replaced in place',
    before: L(TOOL, 'summary = "old"   # keep'),
    set: ['conversation.tools.x.summary=new'],
    after: L(TOOL, 'summary = "new"   # keep'),
  },
  {
    name: 'a multi-line description replaced by a basic string with escapes',
    before: L(TOOL, 'description = """', 'line one', 'line two"""', 'run = "ask"'),
    set: [T('x', 'description', 'says "hi"\nand\\more\ttab')],
    after: L(TOOL, 'description = "says \\"hi\\"\\nand\\\\more\\ttab"', 'run = "ask"'),
  },
  {
    name: 'source and run added',
    before: L(TOOL, 'summary = "s"'),
    set: ['conversation.tools.x.source=mcp.github', 'conversation.tools.x.run=unattended'],
    after: L(TOOL, 'summary = "s"', 'source = "mcp.github"', 'run = "unattended"'),
  },
  {
    name: 'a literal string value replaced',
    before: L(TOOL, "source = 'local'"),
    set: ['conversation.tools.x.source=builtin'],
    after: L(TOOL, 'source = "builtin"'),
  },
  {
    name: 'parameters.*.required is a boolean',
    before: L(TOOL, 'run = "ask"', '[conversation.tools.x.parameters.a]', 'type = "string"'),
    set: ['conversation.tools.x.parameters.a.required=true'],
    after: L(TOOL, 'run = "ask"', '[conversation.tools.x.parameters.a]', 'type = "string"', 'required = true'),
  },
  // -- quoting of tool names --
  {
    name: '__proto__ is a bare key',
    before: '',
    set: [T('__proto__', 'enable.availability', 'off')],
    after: L('[conversation.tools.__proto__]', 'enable = { availability = "off" }'),
  },
  {
    name: 'constructor, edited where it is',
    before: L('[conversation.tools.constructor]', 'enable = { state = true }'),
    set: [T('constructor', 'enable.availability', 'discoverable')],
    after: L('[conversation.tools.constructor]', 'enable = { availability = "discoverable" }'),
  },
  {
    name: 'a name with a space and a dot is quoted',
    before: L(TOOL),
    set: [T('a b.c', 'enable', 'off')],
    after: L(TOOL, '', '[conversation.tools."a b.c"]', 'enable = "off"'),
  },
  {
    name: 'a name with a quote, a backslash and a control character is escaped',
    before: '',
    set: [T('q"\\\u0001', 'run', 'ask')],
    after: L('[conversation.tools."q\\"\\\\\\u0001"]', 'run = "ask"'),
  },
  {
    name: 'a non-ASCII name is quoted and kept as is',
    before: '',
    set: [T('ünï😀', 'enable', 'true')],
    after: L('[conversation.tools."ünï😀"]', 'enable = true'),
  },
  {
    name: 'an existing quoted table is found (basic string)',
    before: L('[conversation.tools."a b"]', 'enable = "off"'),
    set: [T('a b', 'enable.availability', 'on')],
    after: L('[conversation.tools."a b"]', 'enable = { availability = "on", allow_toggle = "any" }'),
  },
  {
    name: 'an existing quoted table is found (literal string)',
    before: L("[conversation.tools.'x.y']", 'run = "ask"'),
    set: [T('x.y', 'enable', 'always')],
    after: L("[conversation.tools.'x.y']", 'run = "ask"', 'enable = "always"'),
  },
  // -- several assignments apply in order --
  {
    name: 'shorthand then field',
    before: L(TOOL, 'enable = { state = true }'),
    set: ['conversation.tools.x.enable=explicit', 'conversation.tools.x.enable.availability=discoverable'],
    after: L(TOOL, 'enable = { availability = "discoverable", allow_toggle = "if_named" }'),
  },
  {
    name: 'two tools, one new',
    before: L('[conversation.tools.a]', 'enable = { state = false }'),
    set: ['conversation.tools.a.enable.allow_toggle=never', 'conversation.tools.b.enable=discoverable', 'conversation.tools.b.run=ask'],
    after: L('[conversation.tools.a]', 'enable = { availability = "off", allow_toggle = "never" }', '', '[conversation.tools.b]', 'enable = "discoverable"', 'run = "ask"'),
  },
  {
    name: 'a key outside conversation.tools goes in its own section',
    before: L(TOOL, 'run = "ask"'),
    set: ['assistant.model.id=x'],
    after: L(TOOL, 'run = "ask"', '', '[assistant.model]', 'id = "x"'),
  },
  {
    name: 'no assignments, no change',
    before: L(TOOL, 'enable = { state = false } # c'),
    set: [],
    after: L(TOOL, 'enable = { state = false } # c'),
  },
];

describe('editLayer: byte-exact cases', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const out = edit(c.before, ...c.set);
    expect(out).toBe(c.after);
    expect(parseToml(out).errors).toEqual([]);
    // A layer that loaded cleanly still does (normalisation never produces both keys).
    if (errorsOf(c.before).length === 0) expect(errorsOf(out)).toEqual([]);
  });

  it('the edit agrees with the delta the same assignments make (tool b of "two tools, one new")', () => {
    const out = edit(L('[conversation.tools.a]', 'enable = { state = false }'), 'conversation.tools.b.enable=discoverable');
    expect(effective(out, 'b')).toEqual({ availability: 'discoverable', allowToggle: 'any' });
    expect(effective(out, 'a')).toEqual({ availability: 'off', allowToggle: 'any' });
  });
});

// ---- errors -------------------------------------------------------------------------------------

describe('editLayer: errors name the key', () => {
  const base = L(TOOL, 'enable = "on"');

  it('an unknown enable field', () => {
    expect(editError(base, 'conversation.tools.x.enable.foo=1')).toBe(`conversation.tools.x.enable.foo: ${unknownEnableKeyError('foo')}`);
    expect(editError(base, 'conversation.tools.x.enable:={"foo":"on"}')).toContain(unknownEnableKeyError('foo'));
  });

  it('a shorthand that is not one', () => {
    expect(editError(base, 'conversation.tools.x.enable=maybe')).toBe(`conversation.tools.x.enable: ${ENABLE_VALUE_ERROR('maybe')}`);
    expect(editError(base, 'conversation.tools.*.enable=yes')).toBe(`conversation.tools.*.enable: ${ENABLE_VALUE_ERROR('yes')}`);
    expect(editError(base, 'conversation.tools.x.enable:=5')).toContain(ENABLE_VALUE_ERROR('5'));
  });

  it('a bad availability, allow_toggle or state', () => {
    expect(editError(base, 'conversation.tools.x.enable.availability=maybe')).toBe(`conversation.tools.x.enable.availability: ${AVAILABILITY_VALUE_ERROR('maybe')}`);
    expect(editError(base, 'conversation.tools.x.enable.allow_toggle=sometimes')).toBe(`conversation.tools.x.enable.allow_toggle: ${ALLOW_TOGGLE_VALUE_ERROR('sometimes')}`);
    expect(editError(base, 'conversation.tools.x.enable.state=on')).toBe(`conversation.tools.x.enable.state: ${STATE_VALUE_ERROR('on')}`);
  });

  it('both spellings in one JSON object', () => {
    expect(editError(base, 'conversation.tools.x.enable:={"state":false,"availability":"on"}')).toBe(`conversation.tools.x.enable: ${BOTH_KEYS_ERROR}`);
  });

  it('other keys of a tool', () => {
    expect(editError(base, 'conversation.tools.x.run=sometimes')).toMatch(/^conversation\.tools\.x\.run: invalid run: 'sometimes'/);
    expect(editError(base, 'conversation.tools.x.colour=red')).toMatch(/^conversation\.tools\.x\.colour: unknown key `colour` in conversation\.tools\.x/);
    expect(editError(base, 'conversation.tools.x.source=ftp')).toContain('Unknown tool source: ftp');
    expect(editError(base, 'conversation.tools.describe_tools.enable=on')).toContain('reserved');
  });

  it('bad JSON and bad keys', () => {
    expect(editError(base, 'conversation.tools.x.enable:={')).toMatch(/^conversation\.tools\.x\.enable: invalid JSON value: /);
    expect(editError(base, 'conversation..x=1')).toBe('conversation..x: invalid key');
    expect(editError(base, T('\ud800', 'run', 'ask'))).toContain('lone UTF-16 surrogate');
  });

  it('a layer that does not parse, with line:column', () => {
    expect(editError(L(TOOL, 'enable = {'), 'conversation.tools.x.enable=on')).toBe(
      'the layer does not parse: 2:11: unterminated inline table: expected a key and `}` on the same line (TOML 1.0), found a newline',
    );
  });

  it('the first failing assignment fails the whole edit', () => {
    const r = editLayer(base, [A('conversation.tools.x.enable=off'), A('conversation.tools.x.enable.bad=1')]);
    expect(r).toEqual({ ok: false, error: `conversation.tools.x.enable.bad: ${unknownEnableKeyError('bad')}` });
  });

  it('an array of tables in the way', () => {
    expect(editError(L('[[conversation.tools]]', 'a = 1'), 'conversation.tools.x.run=ask')).toContain('array of tables');
  });
});

// ---- splices --------------------------------------------------------------------------------------

describe('editLayerSplice / setEnableField', () => {
  it('gives the one splice that turns the old text into the new', () => {
    const before = L('# c', TOOL, 'enable = { state = false }   # off until reviewed', '[conversation.tools.y]');
    const r = editLayerSplice(before, A('conversation.tools.x.enable.availability=discoverable'));
    if (!r.ok) throw new Error(r.error);
    expect(r.text).toBe(L('# c', TOOL, 'enable = { availability = "discoverable" }   # off until reviewed', '[conversation.tools.y]'));
    expect(applySplices(before, [r.splice])).toBe(r.text);
    expect(before.slice(r.splice.start, r.splice.end)).toBe('state = false');
    expect(r.splice.insert).toBe('availability = "discoverable"');
  });

  it('setEnableField: a range and a replacement', () => {
    const before = L(TOOL, 'enable = "explicit"');
    const r = setEnableField(before, 'x', 'availability', 'discoverable');
    if (!r.ok) throw new Error(r.error);
    expect(r.text).toBe(L(TOOL, 'enable = { availability = "discoverable", allow_toggle = "if_named" }'));
    expect(before.slice(0, r.range.start) + r.replacement + before.slice(r.range.end)).toBe(r.text);
    expect(before.slice(r.range.start, r.range.end)).toBe('"explicit"');
  });

  it("setEnableField on '*' and on a missing tool", () => {
    const r = setEnableField('', '*', 'allow_toggle', 'never');
    expect(r).toEqual({ ok: true, text: L("[conversation.tools.'*']", 'enable = { allow_toggle = "never" }'), range: { start: 0, end: 0 }, replacement: L("[conversation.tools.'*']", 'enable = { allow_toggle = "never" }') });
    expect(setEnableField('', 'x', 'availability', 'nope')).toEqual({ ok: false, error: `conversation.tools.x.enable.availability: ${AVAILABILITY_VALUE_ERROR('nope')}` });
  });

  it('an edit that changes nothing is an empty splice', () => {
    const before = L(TOOL, 'enable = { availability = "on" }');
    const r = editLayerSplice(before, A('conversation.tools.x.enable.availability=on'));
    expect(r.ok && r.splice.start === r.splice.end && r.splice.insert === '').toBe(true);
  });

  it('minimalSplice never cuts a surrogate pair', () => {
    const s = minimalSplice('a = "😀"', 'a = "😁"');
    expect(s).toEqual({ start: 5, end: 7, insert: '😁' });
  });
});

describe('primitives', () => {
  it('formatKey', () => {
    expect(formatKey('deploy_1-x')).toBe('deploy_1-x');
    expect(formatKey('*')).toBe("'*'");
    expect(formatKey('a.b')).toBe('"a.b"');
    expect(formatKey('')).toBe('""');
    expect(formatKey('é')).toBe('"é"');
  });

  it('basicString round-trips through the parser', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (s) => {
        fc.pre(!/[\ud800-\udfff]/.test(s));
        const doc = parseToml(`k = ${basicString(s)}`);
        expect(doc.errors).toEqual([]);
        const v = doc.root.entries.get('k')?.value;
        expect(v?.kind === 'string' ? v.value : undefined).toBe(s);
      }),
    );
  });
});

// ---- properties ---------------------------------------------------------------------------------

const NAMES = ['deploy', 'rollback', '__proto__', 'constructor', 'a b', 'x.y', 'ünï', 'q"uote', 'run-1', 'Z_9', 'has\ttab'];
const AVAILABILITY = ['on', 'off', 'discoverable'] as const;
const ALLOW = ['any', 'never', 'if_named', 'if_named_or_group'] as const;
const SHORT = ['"on"', '"off"', 'true', 'false', '"always"', '"explicit"', '"discoverable"', '"true"'];

/** The pairs of an `enable` table as `key = value` texts. */
const enablePairs = fc.oneof(
  fc.constant<string[]>([]),
  fc.boolean().map((b) => [`state = ${b}`]),
  fc.constantFrom(...AVAILABILITY).map((a) => [`availability = "${a}"`]),
  fc.constantFrom(...ALLOW).map((t) => [`allow_toggle = "${t}"`]),
  fc.tuple(fc.boolean(), fc.constantFrom(...ALLOW), fc.boolean()).map(([b, t, first]) => (first ? [`state = ${b}`, `allow_toggle = "${t}"`] : [`allow_toggle = "${t}"`, `state = ${b}`])),
  fc.tuple(fc.constantFrom(...AVAILABILITY), fc.constantFrom(...ALLOW)).map(([a, t]) => [`allow_toggle = "${t}"`, `availability = "${a}"`]),
);

type EnableForm =
  | { kind: 'none' }
  | { kind: 'shorthand'; text: string }
  | { kind: 'inline'; pairs: string[]; tight: boolean }
  | { kind: 'dotted'; pairs: string[] }
  | { kind: 'header'; pairs: string[] };

const enableForm: fc.Arbitrary<EnableForm> = fc.oneof(
  fc.constant<EnableForm>({ kind: 'none' }),
  fc.constantFrom(...SHORT).map((text): EnableForm => ({ kind: 'shorthand', text })),
  fc.tuple(enablePairs, fc.boolean()).map(([pairs, tight]): EnableForm => ({ kind: 'inline', pairs, tight })),
  enablePairs.filter((p) => p.length > 0).map((pairs): EnableForm => ({ kind: 'dotted', pairs })),
  enablePairs.map((pairs): EnableForm => ({ kind: 'header', pairs })),
);

interface ToolSpec {
  name: string;
  form: 'header' | 'inline' | 'dotted';
  enable: EnableForm;
  source: boolean;
  run: boolean;
  comment: string | null;
  above: string | null;
}

const comment = fc.option(fc.constantFrom('# off until reviewed', '#c', '# state = true', '# ünï { }'), { nil: null });

const toolSpec = (name: string): fc.Arbitrary<ToolSpec> =>
  fc.record({
    name: fc.constant(name),
    form: fc.constantFrom<ToolSpec['form']>('header', 'inline', 'dotted'),
    enable: enableForm,
    source: fc.boolean(),
    run: fc.boolean(),
    comment,
    above: comment,
  });

const layerSpec = fc
  .uniqueArray(fc.constantFrom(...NAMES), { maxLength: 5 })
  .chain((names) => fc.tuple(fc.tuple(...names.map(toolSpec)), fc.option(enableForm, { nil: null }), fc.constantFrom('\n', '\r\n')));

function inlineEnable(pairs: string[], tight: boolean): string {
  if (tight) return `{${pairs.map((p) => p.replace(' = ', '=')).join(',')}}`;
  return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
}

/** Renders a tool; `header` forms that need a section are returned separately. */
function renderTool(t: ToolSpec, key: string): { lines: string[]; sections: string[][] } {
  const e = t.enable;
  const trail = t.comment ? `   ${t.comment}` : '';
  const fixForm = e.kind === 'header' && t.form !== 'header' ? { ...e, kind: 'inline' as const, tight: false } : e;
  if (t.form === 'inline') {
    const parts: string[] = [];
    if (t.source) parts.push('source = "local"');
    if (fixForm.kind === 'shorthand') parts.push(`enable = ${fixForm.text}`);
    if (fixForm.kind === 'inline') parts.push(`enable = ${inlineEnable(fixForm.pairs, fixForm.tight)}`);
    if (fixForm.kind === 'dotted') parts.push(...fixForm.pairs.map((p) => `enable.${p}`));
    if (t.run) parts.push('run = "ask"');
    return { lines: [`${key} = ${parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`}${trail}`], sections: [] };
  }
  const prefix = t.form === 'dotted' ? `${key}.` : '';
  const body: string[] = [];
  if (t.above) body.push(t.above);
  if (t.source) body.push(`${prefix}source = "local"`);
  if (fixForm.kind === 'shorthand') body.push(`${prefix}enable = ${fixForm.text}${trail}`);
  if (fixForm.kind === 'inline') body.push(`${prefix}enable = ${inlineEnable(fixForm.pairs, fixForm.tight)}${trail}`);
  if (fixForm.kind === 'dotted') body.push(...fixForm.pairs.map((p, i) => `${prefix}enable.${p}${i === 0 ? trail : ''}`));
  if (t.run) body.push(`${prefix}run = "ask"`);
  if (t.form === 'dotted') {
    // A dotted tool needs at least one pair to exist.
    if (!body.some((l) => l.startsWith(prefix))) body.push(`${prefix}run = "ask"`);
    return { lines: body, sections: [] };
  }
  const sections = [[`[conversation.tools.${key}]${t.form === 'header' && !t.source && !t.run ? trail : ''}`, ...body]];
  if (fixForm.kind === 'header') sections.push([`[conversation.tools.${key}.enable]`, ...fixForm.pairs.map((p, i) => `  ${p}${i === 0 ? trail : ''}`)]);
  return { lines: [], sections };
}

function renderLayer(tools: readonly ToolSpec[], defaults: EnableForm | null, nl: string): string {
  const flat: string[] = [];
  const sections: string[][] = [];
  for (const t of tools) {
    const r = renderTool(t, formatKey(t.name));
    flat.push(...r.lines);
    sections.push(...r.sections);
  }
  const out: string[] = ['# A generated layer.'];
  if (flat.length > 0) out.push('[conversation.tools]', ...flat, '');
  if (defaults && defaults.kind !== 'none') {
    const d = defaults.kind === 'shorthand' ? defaults.text : inlineEnable(defaults.kind === 'inline' ? defaults.pairs : defaults.pairs, false);
    out.push("[conversation.tools.'*']", `enable = ${d}  # defaults`, '');
  }
  for (const s of sections) out.push(...s, '');
  return out.join(nl);
}

/** The bytes an edit of `tool`'s enable may touch, in the original text. */
function editRegion(text: string, tool: string): Span {
  const doc = parseToml(text);
  const tools = doc.root.entries.get('conversation')?.value;
  const toolsTable = tools?.kind === 'table' ? tools.entries.get('tools')?.value : undefined;
  const entry = toolsTable?.kind === 'table' ? toolsTable.entries.get(tool) : undefined;
  if (entry === undefined || entry.value.kind !== 'table') return { start: text.length, end: text.length };
  const table = entry.value;
  const dottedRegion = (t: TomlTable): Span => {
    const spans: Span[] = [];
    const collect = (x: TomlTable): void => {
      for (const e of x.entries.values()) {
        if (e.pairSpan) spans.push(e.pairSpan);
        if (e.value.kind === 'table' && e.value.origin === 'dotted') collect(e.value);
      }
    };
    collect(t);
    const start = Math.min(...spans.map((s) => s.start));
    const end = Math.max(...spans.map((s) => s.end));
    return { start, end: lineEnd(text, end) };
  };
  const enable = table.entries.get('enable');
  if (enable) {
    const v = enable.value;
    if (v.kind === 'table' && v.origin === 'header') return { start: v.headerSpan?.start ?? 0, end: v.bodyEnd ?? 0 };
    if (v.kind === 'table' && v.origin === 'dotted') return dottedRegion(v);
    return v.span;
  }
  if (table.origin === 'header') return { start: table.bodyEnd ?? 0, end: table.bodyEnd ?? 0 };
  if (table.origin === 'dotted') return dottedRegion(table);
  return table.span;
}

function enableValues(e: PartialEnable | undefined): { availability?: string; allowToggle?: string } {
  return { availability: e?.availability?.value, allowToggle: e?.allowToggle?.value };
}

describe('properties', () => {
  it('generated layers load cleanly (the generator is sound)', () => {
    fc.assert(
      fc.property(layerSpec, ([tools, defaults, nl]) => {
        const text = renderLayer(tools, defaults, nl);
        expect(parseToml(text).errors).toEqual([]);
        expect(errorsOf(text)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('an availability edit touches only the tool’s enable and yields that availability', () => {
    fc.assert(
      fc.property(
        layerSpec,
        fc.nat(),
        fc.constantFrom(...AVAILABILITY),
        fc.boolean(),
        ([tools, defaults, nl], pick, availability, fresh) => {
          const text = renderLayer(tools, defaults, nl);
          const target = fresh || tools.length === 0 ? 'fresh tool' : (tools[pick % tools.length] as ToolSpec).name;
          const region = editRegion(text, target);
          const r = editLayerSplice(text, T(target, 'enable.availability', availability));
          if (!r.ok) throw new Error(r.error);
          const out = r.text;
          // Every byte outside the tool's enable value is unchanged.
          expect(out.slice(0, region.start)).toBe(text.slice(0, region.start));
          expect(out.length).toBeGreaterThanOrEqual(region.start + (text.length - region.end));
          expect(out.slice(out.length - (text.length - region.end))).toBe(text.slice(region.end));
          expect(applySplices(text, [r.splice])).toBe(out);
          // The edited layer parses, loads without errors, and says what was set.
          expect(parseToml(out).errors).toEqual([]);
          expect(errorsOf(out)).toEqual([]);
          const before = effective(text, target);
          const after = effective(out, target);
          expect(after.availability).toBe(availability);
          expect(after.allowToggle).toBe(before.allowToggle);
          for (const t of tools) if (t.name !== target) expect(effective(out, t.name)).toEqual(effective(text, t.name));
          // The file's newline style is kept.
          if (text.includes('\r\n')) expect(out.replace(/\r\n/g, '')).not.toContain('\n');
        },
      ),
      { numRuns: 400 },
    );
  });

  const enableAssignment = fc.oneof(
    fc.constantFrom('on', 'off', 'true', 'false', 'always', 'explicit', 'discoverable').map((v) => ({ rest: 'enable', value: v, json: false })),
    fc.constantFrom(...AVAILABILITY).map((v) => ({ rest: 'enable.availability', value: v, json: false })),
    fc.constantFrom(...ALLOW).map((v) => ({ rest: 'enable.allow_toggle', value: v, json: false })),
    fc.boolean().map((b) => ({ rest: 'enable.state', value: String(b), json: false })),
    fc
      .record({ availability: fc.option(fc.constantFrom(...AVAILABILITY)), allow_toggle: fc.option(fc.constantFrom(...ALLOW)) })
      .map((o) => ({ rest: 'enable', value: JSON.stringify(o), json: true })),
  );

  it('every enable edit gives the layer merged with the delta the same assignment makes', () => {
    fc.assert(
      fc.property(layerSpec, fc.nat(), fc.constantFrom('tool', 'fresh', '*'), enableAssignment, ([tools, defaults, nl], pick, which, a) => {
        const text = renderLayer(tools, defaults, nl);
        const target = which === '*' ? '*' : which === 'fresh' || tools.length === 0 ? 'fresh tool' : (tools[pick % tools.length] as ToolSpec).name;
        const assignment = T(target, a.rest, a.value, a.json);
        const out = edit(text, assignment);
        expect(errorsOf(out)).toEqual([]);
        const delta = assignmentToDelta(assignment, { kind: 'default' });
        if (!delta.ok) throw new Error(delta.error);
        const old = config(text);
        const now = config(out);
        if (target === '*') {
          expect(enableValues(now.defaults.enable)).toEqual(enableValues(mergeEnable(old.defaults.enable, delta.delta.defaults.enable)));
        } else {
          expect(enableValues(now.tools.get(target)?.enable)).toEqual(enableValues(mergeEnable(old.tools.get(target)?.enable ?? {}, delta.delta.tools.get(target)?.enable ?? {})));
        }
        for (const t of tools) if (t.name !== target) expect(enableValues(now.tools.get(t.name)?.enable)).toEqual(enableValues(old.tools.get(t.name)?.enable));
        if (target !== '*') expect(enableValues(now.defaults.enable)).toEqual(enableValues(old.defaults.enable));
      }),
      { numRuns: 400 },
    );
  });
});
