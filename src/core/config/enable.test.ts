// Semantics section 1 (`enable`, availability and allow_toggle), row by row, plus
// the section-8 details it touches (8.20 error texts, 8.21 `--cfg` merging).
// Each table of the document is a table here; each row of it is one test row.
import { describe, expect, it } from 'vitest';
import { assignmentToDelta } from './assign';
import { effectiveEnable } from './effective';
import { lockedWord, mergeEnable } from './enable';
import { loadLayer } from './layer';
import { mergeConfigs } from './merge';
import { EMPTY_CONFIG } from './read';
import { LineIndex } from './toml-ast';
import type { AllowToggle, Availability, Origin, PartialConfig, PartialEnable } from './types';
import { assertPass, layer, scenario, step } from '../scenario/test-helpers';

type Field<T> = T | 'unset';
interface Row {
  /** As written in a layer file. */
  readonly written: string;
  /** The same value as `--cfg` assignments (key suffix after `enable`, operator, value). */
  readonly cfg: readonly string[];
  readonly availability: Field<Availability>;
  readonly allowToggle: Field<AllowToggle>;
}

// Semantics §1 "Accepted forms, in a config layer file and in a `--cfg` value".
const FORMS: readonly Row[] = [
  { written: 'true', cfg: ['=true', ':=true'], availability: 'on', allowToggle: 'any' },
  { written: '"true"', cfg: [':="true"'], availability: 'on', allowToggle: 'any' },
  { written: '"on"', cfg: ['=on', ':="on"'], availability: 'on', allowToggle: 'any' },
  { written: 'false', cfg: ['=false', ':=false'], availability: 'off', allowToggle: 'any' },
  { written: '"false"', cfg: [':="false"'], availability: 'off', allowToggle: 'any' },
  { written: '"off"', cfg: ['=off', ':="off"'], availability: 'off', allowToggle: 'any' },
  { written: '"always"', cfg: ['=always'], availability: 'on', allowToggle: 'never' },
  { written: '"explicit"', cfg: ['=explicit'], availability: 'off', allowToggle: 'if_named' },
  { written: '"discoverable"', cfg: ['=discoverable'], availability: 'discoverable', allowToggle: 'any' },
  { written: '{ availability = "on" }', cfg: [':={"availability":"on"}', '.availability=on'], availability: 'on', allowToggle: 'unset' },
  { written: '{ availability = "off" }', cfg: [':={"availability":"off"}', '.availability=off'], availability: 'off', allowToggle: 'unset' },
  { written: '{ availability = "discoverable" }', cfg: [':={"availability":"discoverable"}', '.availability=discoverable'], availability: 'discoverable', allowToggle: 'unset' },
  { written: '{ allow_toggle = "any" }', cfg: [':={"allow_toggle":"any"}', '.allow_toggle=any'], availability: 'unset', allowToggle: 'any' },
  { written: '{ allow_toggle = "never" }', cfg: [':={"allow_toggle":"never"}', '.allow_toggle=never'], availability: 'unset', allowToggle: 'never' },
  { written: '{ allow_toggle = "if_named" }', cfg: [':={"allow_toggle":"if_named"}', '.allow_toggle=if_named'], availability: 'unset', allowToggle: 'if_named' },
  { written: '{ allow_toggle = "if_named_or_group" }', cfg: [':={"allow_toggle":"if_named_or_group"}', '.allow_toggle=if_named_or_group'], availability: 'unset', allowToggle: 'if_named_or_group' },
  { written: '{ state = true }', cfg: [':={"state":true}', '.state=true', '.state:=true'], availability: 'on', allowToggle: 'unset' },
  { written: '{ state = false }', cfg: [':={"state":false}', '.state=false', '.state:=false'], availability: 'off', allowToggle: 'unset' },
  { written: '{}', cfg: [':={}'], availability: 'unset', allowToggle: 'unset' },
  // Both fields in one table; {discoverable, never} is legal (locked-discoverable).
  { written: '{ availability = "discoverable", allow_toggle = "never" }', cfg: [':={"availability":"discoverable","allow_toggle":"never"}'], availability: 'discoverable', allowToggle: 'never' },
  { written: '{ state = false, allow_toggle = "never" }', cfg: [':={"state":false,"allow_toggle":"never"}'], availability: 'off', allowToggle: 'never' },
];

const field = <T>(s: { value: T } | undefined): T | 'unset' => (s ? s.value : 'unset');
const ORIGIN: Origin = { kind: 'delta', delta: 1, source: 'cfg', detail: 'test' };

function layerEnable(text: string, tool = 'x'): PartialEnable | undefined {
  const l = loadLayer({ name: 'workspace', text });
  expect(l.diagnostics).toEqual([]);
  return l.config.tools.get(tool)?.enable;
}

function cfgDelta(key: string, rest: string): ReturnType<typeof assignmentToDelta> {
  const colon = rest.indexOf(':=');
  const json = colon >= 0;
  const eq = json ? colon : rest.indexOf('=');
  const suffix = rest.slice(0, eq);
  const value = rest.slice(eq + (json ? 2 : 1));
  return assignmentToDelta({ path: `${key}${suffix}`.split('.'), value, json }, ORIGIN);
}

describe('§1 accepted forms: in a layer file', () => {
  it.each(FORMS)('enable = $written → availability $availability, allow_toggle $allowToggle', (row) => {
    const text = `[conversation.tools.x]\nsource = "local"\nenable = ${row.written}\n`;
    const e = layerEnable(text);
    expect(field(e?.availability)).toBe(row.availability);
    expect(field(e?.allowToggle)).toBe(row.allowToggle);
    // Every value remembers the line and column it was written at (line 3, after `enable = `).
    const index = new LineIndex(text);
    for (const f of [e?.availability, e?.allowToggle]) {
      if (!f) continue;
      expect(f.origin.kind).toBe('layer');
      if (f.origin.kind !== 'layer') continue;
      expect(f.origin.layer).toBe('workspace');
      expect(index.position(f.origin.span.start).line).toBe(3);
      expect(index.position(f.origin.span.start).column).toBeGreaterThanOrEqual(10);
    }
  });

  it.each(FORMS.filter((r) => r.written.startsWith('{')))('as a standard table [conversation.tools.x.enable]: $written', (row) => {
    const body = row.written.slice(1, -1).trim().split(', ').filter((s) => s !== '').join('\n');
    const e = layerEnable(`[conversation.tools.x]\nsource = "local"\n[conversation.tools.x.enable]\n${body}\n`);
    expect(field(e?.availability)).toBe(row.availability);
    expect(field(e?.allowToggle)).toBe(row.allowToggle);
  });

  it.each(FORMS)("under '*' too: [conversation.tools.'*'] enable = $written", (row) => {
    const l = loadLayer({ name: 'w', text: `[conversation.tools.'*']\nenable = ${row.written}\n` });
    expect(l.diagnostics).toEqual([]);
    expect(field(l.config.defaults.enable.availability)).toBe(row.availability);
    expect(field(l.config.defaults.enable.allowToggle)).toBe(row.allowToggle);
  });
});

describe('§1 accepted forms: as --cfg KEY=VALUE / KEY:=JSON', () => {
  const rows = FORMS.flatMap((row) => row.cfg.map((cfg) => ({ ...row, cfg })));
  it.each(rows)('--cfg conversation.tools.x.enable$cfg → $availability / $allowToggle', (row) => {
    const r = cfgDelta('conversation.tools.x.enable', row.cfg);
    expect(r.ok ? undefined : r.error).toBeUndefined();
    if (!r.ok) return;
    const e = r.delta.tools.get('x')?.enable;
    expect(field(e?.availability)).toBe(row.availability);
    expect(field(e?.allowToggle)).toBe(row.allowToggle);
    for (const f of [e?.availability, e?.allowToggle]) if (f) expect(f.origin).toBe(ORIGIN);
  });

  it.each(rows)("--cfg conversation.tools.'*'.enable$cfg sets '*'", (row) => {
    const r = cfgDelta("conversation.tools.'*'.enable", row.cfg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.delta.tools.size).toBe(0);
    expect(field(r.delta.defaults.enable.availability)).toBe(row.availability);
    expect(field(r.delta.defaults.enable.allowToggle)).toBe(row.allowToggle);
  });

  it('enable:=null changes nothing (8.21)', () => {
    const r = cfgDelta('conversation.tools.x.enable', ':=null');
    expect(r).toEqual({ ok: true, delta: EMPTY_CONFIG });
  });

  it('--cfg keys outside the simulated config change nothing', () => {
    const r = cfgDelta('assistant.model.id', '=anthropic/claude');
    expect(r).toEqual({ ok: true, delta: EMPTY_CONFIG });
  });
});

describe('§1 effective value of each field, separately: tool, else \'*\', else on / any', () => {
  // [tool's enable, '*' enable, effective availability (from), effective allow_toggle (from)]
  const rows: readonly [string, string, string, string][] = [
    ['', '', 'on (fallback)', 'any (fallback)'],
    ['"off"', '', 'off (tool)', 'any (tool)'],
    ['', '"discoverable"', 'discoverable (defaults)', 'any (defaults)'],
    ['', '"explicit"', 'off (defaults)', 'if_named (defaults)'],
    ['{ availability = "on" }', '"explicit"', 'on (tool)', 'if_named (defaults)'],
    ['{ allow_toggle = "never" }', '"discoverable"', 'discoverable (defaults)', 'never (tool)'],
    ['{ availability = "discoverable" }', '{ allow_toggle = "never" }', 'discoverable (tool)', 'never (defaults)'],
    ['{ availability = "discoverable" }', '', 'discoverable (tool)', 'any (fallback)'],
    ['{ allow_toggle = "if_named" }', '', 'on (fallback)', 'if_named (tool)'],
    ['{ state = false }', '{ allow_toggle = "if_named_or_group" }', 'off (tool)', 'if_named_or_group (defaults)'],
    ['{}', '"always"', 'on (defaults)', 'never (defaults)'],
    ['{}', '{ availability = "off" }', 'off (defaults)', 'any (fallback)'],
    ['"discoverable"', '{ allow_toggle = "never" }', 'discoverable (tool)', 'any (tool)'],
    ['"always"', '"discoverable"', 'on (tool)', 'never (tool)'],
  ];
  it.each(rows)('tool %s over \'*\' %s → %s, %s', (tool, defaults, availability, allow) => {
    const text =
      (defaults ? `[conversation.tools.'*']\nenable = ${defaults}\n` : '') +
      `[conversation.tools.x]\nsource = "local"\n${tool ? `enable = ${tool}\n` : ''}`;
    const l = loadLayer({ name: 'w', text });
    expect(l.diagnostics).toEqual([]);
    const eff = effectiveEnable(l.config.tools.get('x'), l.config.defaults);
    expect(`${eff.availability.value} (${eff.availability.from})`).toBe(availability);
    expect(`${eff.allowToggle.value} (${eff.allowToggle.from})`).toBe(allow);
    if (eff.availability.from === 'fallback') expect(eff.availability.origin).toEqual({ kind: 'default' });
    else expect(eff.availability.origin.kind).toBe('layer');
  });

  it('an unconfigured tool takes every field from \'*\'', () => {
    const l = loadLayer({ name: 'w', text: `[conversation.tools.'*']\nenable = "explicit"\n` });
    const eff = effectiveEnable(undefined, l.config.defaults);
    expect([eff.availability.value, eff.allowToggle.value]).toEqual(['off', 'if_named']);
  });
});

describe('§1 a shorthand sets both fields; a table only what it names (the difference under \'*\' allow_toggle)', () => {
  // '*' sets only allow_toggle; the shorthand carries `any` with it, the table inherits '*'.
  const rows: readonly [string, string, string][] = [
    ['never', 'discoverable', 'locked-discoverable'],
    ['if_named', 'discoverable', ''],
    ['if_named_or_group', 'discoverable', ''],
    ['never', 'off', 'locked-off'],
    ['never', 'on', ''],
  ];
  it.each(rows)("'*' allow_toggle = %s: enable = \"%s\" moves under bulk -t, { availability = \"%s\" } does not", (allow, availability, namedError) => {
    const text = scenario(
      layer(
        `[conversation.tools.'*']\nenable = { allow_toggle = "${allow}" }\n` +
          `[conversation.tools.short]\nsource = "local"\nenable = "${availability}"\n` +
          `[conversation.tools.table]\nsource = "local"\nenable = { availability = "${availability}" }\n`,
      ),
      step('jp q -t', `availability = { short = "on", table = "${availability}" }`),
      // Named: `table` inherits the '*' allow_toggle; only `never` refuses a named move.
      step('jp q -t table', namedError ? `error = ["cannot enable \`table\`", "${namedError}"]` : `availability = { table = "on" }`),
    );
    assertPass(text);
  });

  it('enable = "discoverable" and { availability = "discoverable" } have the same effective value when \'*\' says nothing', () => {
    const l = loadLayer({ name: 'w', text: `[conversation.tools.a]\nenable = "discoverable"\n[conversation.tools.b]\nenable = { availability = "discoverable" }\n` });
    const a = effectiveEnable(l.config.tools.get('a'), l.config.defaults);
    const b = effectiveEnable(l.config.tools.get('b'), l.config.defaults);
    expect([a.availability.value, a.allowToggle.value]).toEqual([b.availability.value, b.allowToggle.value]);
    expect([a.allowToggle.from, b.allowToggle.from]).toEqual(['tool', 'fallback']);
  });
});

describe('§1 layers merge per field for tables; a shorthand in a higher layer overwrites both', () => {
  // [lower layer enable, upper layer enable, merged availability, merged allow_toggle]
  const rows: readonly [string, string, Field<Availability>, Field<AllowToggle>][] = [
    ['{ availability = "off", allow_toggle = "never" }', '{ allow_toggle = "any" }', 'off', 'any'],
    ['{ availability = "off", allow_toggle = "never" }', '{ availability = "discoverable" }', 'discoverable', 'never'],
    ['{ availability = "off", allow_toggle = "never" }', '"on"', 'on', 'any'],
    ['"explicit"', '{ availability = "on" }', 'on', 'if_named'],
    ['"explicit"', '"discoverable"', 'discoverable', 'any'],
    ['"always"', '{}', 'on', 'never'],
    ['{ state = false }', '{ allow_toggle = "if_named" }', 'off', 'if_named'],
    ['{ availability = "discoverable" }', '{ state = true }', 'on', 'unset'],
    ['{ allow_toggle = "never" }', 'true', 'on', 'any'],
    ['"discoverable"', 'false', 'off', 'any'],
    ['', '{ allow_toggle = "never" }', 'unset', 'never'],
    ['{ availability = "discoverable" }', '', 'discoverable', 'unset'],
  ];
  const toolText = (enable: string, extra = ''): string => `[conversation.tools.x]\n${enable ? `enable = ${enable}\n` : ''}${extra}`;

  it.each(rows)('lower %s, upper %s → %s / %s', (lower, upper, availability, allow) => {
    const a = loadLayer({ name: 'user', text: toolText(lower) });
    const b = loadLayer({ name: 'workspace', text: toolText(upper) });
    const merged = mergeConfigs(mergeConfigs(EMPTY_CONFIG, a.config), b.config);
    const e = merged.tools.get('x')?.enable;
    expect(field(e?.availability)).toBe(availability);
    expect(field(e?.allowToggle)).toBe(allow);
    // Provenance: each field names the layer that decided it.
    if (e?.availability?.origin.kind === 'layer') {
      const setByUpper = b.config.tools.get('x')?.enable.availability !== undefined;
      expect(e.availability.origin.layer).toBe(setByUpper ? 'workspace' : 'user');
    }
  });

  it.each(rows)("the same rows for '*': lower %s, upper %s", (lower, upper, availability, allow) => {
    const t = (e: string): string => `[conversation.tools.'*']\n${e ? `enable = ${e}\n` : ''}`;
    const merged = mergeConfigs(loadLayer({ name: 'a', text: t(lower) }).config, loadLayer({ name: 'b', text: t(upper) }).config);
    expect(field(merged.defaults.enable.availability)).toBe(availability);
    expect(field(merged.defaults.enable.allowToggle)).toBe(allow);
  });

  it.each(rows)('end to end, two scenario layers: lower %s, upper %s', (lower, upper, availability) => {
    const effective = availability === 'unset' ? 'on' : availability;
    assertPass(scenario(layer(toolText(lower, 'source = "local"\n'), 'user'), layer(toolText(upper), 'workspace'), step("jp q 'hi'", `availability = { x = "${effective}" }`)));
  });

  it('mergeEnable: an empty upper keeps the lower value itself', () => {
    const lower: PartialEnable = { availability: { value: 'off', origin: ORIGIN } };
    expect(mergeEnable(lower, {})).toBe(lower);
    expect(mergeEnable({}, lower)).toBe(lower);
  });

  it('a tool keeps its first position across layers; other fields of the upper layer replace or merge', () => {
    const a = loadLayer({
      name: 'user',
      text: `[conversation.tools.a]\nsummary = "A"\n[conversation.tools.a.parameters.p]\ntype = "string"\n[conversation.tools.b]\nsummary = "B"\n`,
    });
    const b = loadLayer({
      name: 'workspace',
      text: `[conversation.tools.c]\nsummary = "C"\n[conversation.tools.a]\nsummary = "A2"\n[conversation.tools.a.parameters.q]\ntype = "integer"\n[conversation.tools.a.parameters.p]\nrequired = true\n`,
    });
    const merged = mergeConfigs(a.config, b.config);
    expect([...merged.tools.keys()]).toEqual(['a', 'b', 'c']);
    const ta = merged.tools.get('a');
    expect(ta?.summary?.value).toBe('A2');
    expect([...(ta?.parameters.keys() ?? [])]).toEqual(['p', 'q']);
    expect(ta?.parameters.get('p')?.type?.value).toBe('string');
    expect(ta?.parameters.get('p')?.required?.value).toBe(true);
    expect(ta?.declared.kind === 'layer' && ta.declared.layer).toBe('user');
  });
});

describe('§8.21 a --cfg table on enable merges per field, like a layer; a shorthand overwrites both', () => {
  const base = `[conversation.tools.x]\nsource = "local"\nenable = { availability = "off", allow_toggle = "never" }\n`;
  // [assignments (after conversation.tools.x.enable), availability, allow_toggle]
  const rows: readonly [readonly string[], Availability, AllowToggle][] = [
    [[':={"allow_toggle":"any"}'], 'off', 'any'],
    [['.allow_toggle=if_named'], 'off', 'if_named'],
    [[':={"availability":"discoverable"}'], 'discoverable', 'never'],
    [['.state=true'], 'on', 'never'],
    [['=discoverable'], 'discoverable', 'any'],
    [[':=true'], 'on', 'any'],
    [[':=null'], 'off', 'never'],
    [['=always', '.availability=off'], 'off', 'never'],
    [['.availability=discoverable', '=explicit'], 'off', 'if_named'],
  ];
  it.each(rows)('%j over {off, never}', (assignments, availability, allow) => {
    let delta: PartialConfig = EMPTY_CONFIG;
    for (const a of assignments) {
      const r = cfgDelta('conversation.tools.x.enable', a);
      expect(r.ok).toBe(true);
      if (r.ok) delta = mergeConfigs(delta, r.delta);
    }
    const l = loadLayer({ name: 'w', text: base });
    const merged = mergeConfigs(l.config, delta);
    const eff = effectiveEnable(merged.tools.get('x'), merged.defaults);
    expect([eff.availability.value, eff.allowToggle.value]).toEqual([availability, allow]);
  });

  it.each(rows)('end to end: jp q %j', (assignments, availability) => {
    const cfg = assignments.map((a) => `--cfg 'conversation.tools.x.enable${a}'`).join(' ');
    assertPass(scenario(layer(base), step(`jp q ${cfg} hi`, `availability = { x = "${availability}" }`), step("jp q 'later'", `availability = { x = "${availability}" }`)));
  });
});

describe('§1 locked forms', () => {
  it.each([
    ['"always"', 'on', 'locked-on'],
    ['{ availability = "on", allow_toggle = "never" }', 'on', 'locked-on'],
    ['{ availability = "off", allow_toggle = "never" }', 'off', 'locked-off'],
    ['{ state = false, allow_toggle = "never" }', 'off', 'locked-off'],
    ['{ availability = "discoverable", allow_toggle = "never" }', 'discoverable', 'locked-discoverable'],
  ] as const)('enable = %s is %s, allow_toggle never: %s', (written, availability, word) => {
    const e = layerEnable(`[conversation.tools.x]\nenable = ${written}\n`);
    expect(field(e?.availability)).toBe(availability);
    expect(field(e?.allowToggle)).toBe('never');
    expect(lockedWord(availability)).toBe(word);
  });
});

describe('§1 / §8.20 errors: text, line and column', () => {
  const FORMS_LIST = '"on", "off", "explicit", "always", "discoverable"';
  // [layer text, every part the message must contain, line, column]
  const rows: readonly [string, string, readonly string[], number, number][] = [
    ['state beside availability', `[conversation.tools.x]\nenable = { state = true, availability = "on" }\n`, ['enable has both `state` and `availability`; keep `availability` (`state` is the legacy spelling)'], 2, 20],
    ['availability beside state', `[conversation.tools.x]\n[conversation.tools.x.enable]\navailability = "on"\nstate = false\n`, ['both `state` and `availability`', 'keep `availability`'], 4, 9],
    ['unknown key in enable', `[conversation.tools.x]\nenable = { availabilty = "on" }\n`, ['unknown key `availabilty` in enable; expected availability, allow_toggle (or the legacy state)'], 2, 26],
    ['unknown key in a standard enable table', `[conversation.tools.x.enable]\nallow = "any"\n`, ['unknown key `allow`', 'availability, allow_toggle'], 2, 9],
    ['bad shorthand string', `[conversation.tools.x]\nsource = "local"\nenable = "sometimes"\n`, [`invalid enable value: 'sometimes', expected a boolean, one of ${FORMS_LIST}, or an { availability, allow_toggle } table`], 3, 10],
    ['bad shorthand case', `[conversation.tools.x]\nenable = "On"\n`, [`invalid enable value: 'On'`, FORMS_LIST], 2, 10],
    ['integer', `[conversation.tools.x]\nenable = 1\n`, [`invalid enable value: '1'`, 'a boolean', FORMS_LIST], 2, 10],
    ['array', `[conversation.tools.x]\n  enable = ["on"]\n`, ['invalid enable value', FORMS_LIST], 2, 12],
    ['bad availability', `[conversation.tools.x]\nenable = { availability = "hidden" }\n`, [`invalid availability: 'hidden'`, '"on", "off", "discoverable"'], 2, 27],
    ['availability as a boolean', `[conversation.tools.x]\nenable = { availability = true }\n`, ['invalid availability', '"on", "off", "discoverable"'], 2, 27],
    ['"always" is not an allow_toggle', `[conversation.tools.x]\nenable = { allow_toggle = "always" }\n`, [`invalid allow_toggle: 'always'`, '"any", "never", "if_named", "if_named_or_group"'], 2, 27],
    ['state not a boolean', `[conversation.tools.x]\nenable = { state = "on" }\n`, [`invalid state: 'on'`, 'true or false'], 2, 20],
    ["bad value under '*'", `[conversation.tools.'*']\nenable = "maybe"\n`, [`invalid enable value: 'maybe'`], 2, 10],
    ['mcp source with no server', `[conversation.tools.x]\nsource = "mcp"\n`, ['MCP tool source must name a server', '`mcp.<server>`'], 2, 10],
    ['mcp source with an empty server', `[conversation.tools.x]\nsource = "mcp."\n`, ['MCP tool source must name a server'], 2, 10],
    ['mcp source with an empty server and a tool', `[conversation.tools.x]\nsource = "mcp..t"\n`, ['MCP tool source must name a server'], 2, 10],
    ['unknown source', `[conversation.tools.x]\nsource = "remote"\n`, ['Unknown tool source: remote', 'builtin, local, mcp'], 2, 10],
    ['duplicate key', `[conversation.tools.x]\nenable = true\nenable = false\n`, ['duplicate key `enable`'], 3, 1],
    ['duplicate key in an inline table', `[conversation.tools.x]\nenable = { state = true, state = false }\n`, ['duplicate key'], 2, 26],
    ['duplicate table', `[conversation.tools.x]\nsource = "local"\n[conversation.tools.x]\n`, ['already defined'], 3, 1],
    ['unknown tool key', `[conversation.tools.x]\nsource = "local"\nenabled = true\n`, ['unknown key `enabled` in conversation.tools.x; expected source, enable, command, summary, description'], 3, 1],
    ["unknown '*' key", `[conversation.tools.'*']\nsummary = "x"\n`, ["unknown key `summary` in conversation.tools.'*'; expected enable, run"], 2, 1],
    ['unknown parameter key', `[conversation.tools.x.parameters.p]\ntype = "string"\nrequird = true\n`, ['unknown key `requird`', 'type, required, summary, description'], 3, 1],
    ['bad run', `[conversation.tools.x]\nrun = "always"\n`, [`invalid run: 'always'`, '"ask", "unattended", "edit", "skip"'], 2, 7],
    ['reserved name', `[conversation.tools.search_tools]\nsource = "local"\n`, ['`search_tools` is a builtin tool name', 'reserved'], 1, 21],
    ['reserved name describe_tools', `[conversation.tools]\ndescribe_tools = { source = "local" }\n`, ['`describe_tools`', 'reserved'], 2, 1],
    ['TOML syntax', `[conversation.tools.x]\nenable = \n`, [], 2, 10],
  ];
  it.each(rows)('%s', (_label, text, parts, line, column) => {
    const l = loadLayer({ name: 'workspace', text });
    const errors = l.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    const d = errors[0];
    for (const p of parts) expect(d?.message).toContain(p);
    expect([d?.line, d?.column]).toEqual([line, column]);
    expect(d?.layer).toBe('workspace');
    expect(d?.endLine).toBeGreaterThanOrEqual(line);
  });

  it('a bad value is skipped: the tool stays, with the value unset', () => {
    const l = loadLayer({ name: 'w', text: `[conversation.tools.x]\nsource = "local"\nenable = "sometimes"\nsummary = "still read"\n` });
    expect(l.config.tools.get('x')?.enable).toEqual({});
    expect(l.config.tools.get('x')?.summary?.value).toBe('still read');
  });

  it('every bad value in a file is reported, each at its own line', () => {
    const l = loadLayer({ name: 'w', text: `[conversation.tools.a]\nenable = "x"\n[conversation.tools.b]\nenable = { foo = 1 }\n[conversation.tools.c]\nsource = "mcp"\n` });
    expect(l.diagnostics.map((d) => d.line)).toEqual([2, 4, 6]);
  });

  // The same texts through --cfg: the key, then the layer's message.
  const cfgRows: readonly [string, string, boolean, readonly string[]][] = [
    ['conversation.tools.x.enable', 'sometimes', false, [`conversation.tools.x.enable: invalid enable value: 'sometimes'`, FORMS_LIST]],
    ['conversation.tools.x.enable', '{"state":true,"availability":"on"}', true, ['enable has both `state` and `availability`; keep `availability`']],
    ['conversation.tools.x.enable', '{"visible":true}', true, ['unknown key `visible` in enable; expected availability, allow_toggle (or the legacy state)']],
    ['conversation.tools.x.enable.visible', 'on', false, ['unknown key `visible` in enable']],
    ['conversation.tools.x.enable.state', 'yes', false, [`invalid state: 'yes', expected true or false`]],
    ['conversation.tools.x.enable.allow_toggle', 'always', false, [`invalid allow_toggle: 'always'`]],
    ['conversation.tools.x.enable.availability', 'hidden', false, [`invalid availability: 'hidden'`]],
    ['conversation.tools.x.enable', '3', true, [`invalid enable value: '3'`]],
    ['conversation.tools.x.enable', '[true]', true, ['invalid enable value']],
    ['conversation.tools.x.enable', '{"state":', true, ['invalid JSON']],
    ['conversation.tools.x.source', 'mcp', false, ['MCP tool source must name a server']],
    ['conversation.tools.search_tools.enable', 'on', false, ['reserved']],
  ];
  it.each(cfgRows)('--cfg %s=%s', (key, value, json, parts) => {
    const r = assignmentToDelta({ path: key.split('.'), value, json }, ORIGIN);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    for (const p of parts) expect(r.error).toContain(p);
  });
});

describe('§1 tool names are arbitrary strings', () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', '日本語ツール', 'café_é', 'rocket🚀', 'with space', 'a.b'];
  const key = (n: string): string => `"${n}"`;

  it('each is an ordinary tool in the layer, in config order', () => {
    const text = NAMES.map((n, i) => `[conversation.tools.${key(n)}]\nsource = "local"\nenable = ${i % 2 === 0 ? '"discoverable"' : '"off"'}\n`).join('');
    const l = loadLayer({ name: 'w', text });
    expect(l.diagnostics).toEqual([]);
    expect([...l.config.tools.keys()]).toEqual(NAMES);
    for (const [i, n] of NAMES.entries()) {
      expect(l.config.tools.get(n)?.name).toBe(n);
      expect(l.config.tools.get(n)?.enable.availability?.value).toBe(i % 2 === 0 ? 'discoverable' : 'off');
    }
    // Nothing leaked onto a prototype.
    expect(({} as Record<string, unknown>).source).toBeUndefined();
  });

  it('unconfigured, they are not found: no prototype lookup makes them exist', () => {
    const t = scenario(
      layer(`[conversation.tools.real]\nsource = "local"\n`),
      ...['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((n) => step(`jp q -t ${n} hi`, `error = "Tool not found: ${n}"`)),
      step('jp q -u constructor hi', 'error = "Tool not found: constructor"'),
    );
    assertPass(t);
  });

  it('end to end: directives, availability and sets over those names', () => {
    const names = NAMES.filter((n) => n !== 'a.b' && n !== 'with space');
    const text = scenario(
      layer(names.map((n) => `[conversation.tools.${key(n)}]\nsource = "local"\nenable = "discoverable"\n`).join('')),
      step("jp q 'hi'", `searchable = [${names.map(key).join(', ')}]\navailability = { ${names.map((n) => `${key(n)} = "discoverable"`).join(', ')} }`),
      step("jp q -t __proto__ -t constructor -t '日本語ツール' hi", `offered = ["__proto__", "constructor", "日本語ツール", "describe_tools", "search_tools"]\navailability = { "__proto__" = "on", constructor = "on", toString = "discoverable" }`),
      step("jp q -T __proto__ --cfg 'conversation.tools.rocket🚀.enable=off' hi", `availability = { "__proto__" = "off", "rocket🚀" = "off" }`),
      step('jp config set --id conversation.tools.toString.enable=on', `offered_includes = ["toString"]`),
    );
    assertPass(text);
  });

  it('a dotted or spaced name is reachable through a quoted layer key', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools."a.b"]\nsource = "local"\nenable = "off"\n[conversation.tools."with space"]\nsource = "local"\n`),
        step("jp q -t a.b 'hi'", `availability = { "a.b" = "on", "with space" = "on" }`),
        step("jp q -T 'with space' hi", `availability = { "with space" = "off" }\noffered = ["a.b", "describe_tools"]`),
      ),
    );
  });
});
