// Effective values over merged layers (semantics §1 "effective value of each field, separately";
// jp-today 3.1-3.2): each enable field is the tool's own, else '*''s, else on / any, each with the
// origin of the line that decided it; `run` is the tool's whole, else '*''s, else `ask` (semantics
// 8.18). One row per combination of who writes the field, played over two layers so the tool and
// '*' may come from different layers.
import { describe, expect, it } from 'vitest';
import { acceptsScope, effectiveEnable, effectiveRun } from './effective';
import { loadLayer } from './layer';
import { mergeConfigs } from './merge';
import type { AllowToggle, Origin, PartialConfig, RunMode } from './types';

const load = (name: string, text: string): PartialConfig => {
  const l = loadLayer({ name, text });
  expect(l.diagnostics).toEqual([]);
  return l.config;
};

/** Where a value was written, as `layer:text at its span` (or the origin's kind). */
function at(origin: Origin, texts: ReadonlyMap<string, string>): string {
  return origin.kind === 'layer' ? `${origin.layer}:${(texts.get(origin.layer) ?? '').slice(origin.span.start, origin.span.end)}` : origin.kind;
}

type Who = 'tool' | 'defaults' | 'none';
type Layer = 'user' | 'workspace';

interface Row {
  /** Who writes the field in each layer (the user layer is the lower). */
  readonly tool?: Layer;
  readonly star?: Layer;
  readonly from: Who | 'fallback';
  readonly where: string;
}

// A tool writes availability "off" (user) or "discoverable" (workspace); '*' writes "on" (user) or "off" (workspace).
const AVAILABILITY_ROWS: readonly Row[] = [
  { from: 'fallback', where: 'default' },
  { tool: 'user', from: 'tool', where: 'user:"off"' },
  { tool: 'workspace', from: 'tool', where: 'workspace:"discoverable"' },
  { star: 'user', from: 'defaults', where: 'user:"on"' },
  { star: 'workspace', from: 'defaults', where: 'workspace:"off"' },
  { tool: 'user', star: 'workspace', from: 'tool', where: 'user:"off"' },
  { tool: 'workspace', star: 'user', from: 'tool', where: 'workspace:"discoverable"' },
];

function texts(row: Row, field: 'availability' | 'allow_toggle' | 'run'): Map<string, string> {
  const toolValue = { availability: { user: '"off"', workspace: '"discoverable"' }, allow_toggle: { user: '"never"', workspace: '"if_named"' }, run: { user: '"edit"', workspace: '"skip"' } };
  const starValue = { availability: { user: '"on"', workspace: '"off"' }, allow_toggle: { user: '"if_named_or_group"', workspace: '"never"' }, run: { user: '"unattended"', workspace: '"edit"' } };
  const line = (v: string): string => (field === 'run' ? `run = ${v}` : `enable = { ${field} = ${v} }`);
  const out = new Map<string, string>();
  for (const layer of ['user', 'workspace'] as const) {
    // Every layer writes the tool's table (its summary), so a layer without the field still has the tool.
    let text = `[conversation.tools.t]\nsummary = "${layer}"\n`;
    if (row.tool === layer) text += `${line(toolValue[field][layer])}\n`;
    if (row.star === layer) text += `[conversation.tools.'*']\n${line(starValue[field][layer])}\n`;
    out.set(layer, text);
  }
  return out;
}

const merged = (t: ReadonlyMap<string, string>): PartialConfig => mergeConfigs(load('user', t.get('user') ?? ''), load('workspace', t.get('workspace') ?? ''));
const label = (r: Row): string => `tool in ${r.tool ?? 'none'}, '*' in ${r.star ?? 'none'}`;

describe('effective enable, each field separately: the tool, else \'*\', else on / any, with the deciding line', () => {
  it.each(AVAILABILITY_ROWS.map((r) => [label(r), r] as const))('availability: %s', (_, row) => {
    const t = texts(row, 'availability');
    const c = merged(t);
    const e = effectiveEnable(c.tools.get('t'), c.defaults);
    const value = row.from === 'fallback' ? 'on' : JSON.parse(row.where.slice(row.where.indexOf(':') + 1)) as string;
    expect([e.availability.value, e.availability.from, at(e.availability.origin, t)]).toEqual([value, row.from, row.where]);
    // The other field is not decided by this one's writers.
    expect([e.allowToggle.value, e.allowToggle.from]).toEqual(['any', 'fallback']);
  });

  // The same rows, with the allow_toggle values texts() writes in place of the availability ones.
  const ALLOW_ROWS: readonly Row[] = AVAILABILITY_ROWS.map((r) => ({
    ...r,
    where: r.where.replace('"off"', '"never"').replace('"discoverable"', '"if_named"').replace('"on"', '"if_named_or_group"'),
  }));
  it.each(ALLOW_ROWS.map((r) => [label(r), r] as const))('allow_toggle: %s', (_, row) => {
    const t = texts(row, 'allow_toggle');
    const c = merged(t);
    const e = effectiveEnable(c.tools.get('t'), c.defaults);
    const value = row.from === 'fallback' ? 'any' : (JSON.parse(row.where.slice(row.where.indexOf(':') + 1)) as AllowToggle);
    expect([e.allowToggle.value, e.allowToggle.from, at(e.allowToggle.origin, t)]).toEqual([value, row.from, row.where]);
    expect([e.availability.value, e.availability.from]).toEqual(['on', 'fallback']);
  });

  it('a tool not configured reads \'*\', then the fallback', () => {
    const c = load('user', `[conversation.tools.'*']\nenable = { allow_toggle = "never" }\n`);
    const e = effectiveEnable(undefined, c.defaults);
    expect([e.availability.value, e.availability.from, e.allowToggle.value, e.allowToggle.from]).toEqual(['on', 'fallback', 'never', 'defaults']);
  });
});

describe('effective run: the tool\'s whole value, else \'*\', else ask', () => {
  // Tool: "edit" (user) or "skip" (workspace); '*': "unattended" (user) or "edit" (workspace).
  const rows: readonly (readonly [Row, RunMode])[] = [
    [{ from: 'fallback', where: '' }, 'ask'],
    [{ tool: 'user', from: 'tool', where: '' }, 'edit'],
    [{ tool: 'workspace', from: 'tool', where: '' }, 'skip'],
    [{ star: 'user', from: 'defaults', where: '' }, 'unattended'],
    [{ star: 'workspace', from: 'defaults', where: '' }, 'edit'],
    [{ tool: 'user', star: 'workspace', from: 'tool', where: '' }, 'edit'],
    [{ tool: 'workspace', star: 'user', from: 'tool', where: '' }, 'skip'],
  ];
  it.each(rows.map(([r, run]) => [label(r), r, run] as const))('%s', (_, row, run) => {
    const c = merged(texts(row, 'run'));
    expect(effectiveRun(c.tools.get('t'), c.defaults)).toBe(run);
  });
});

describe('which directive scope an allow_toggle accepts (semantics §2)', () => {
  const rows: readonly (readonly [AllowToggle, boolean, boolean])[] = [
    ['any', true, true],
    ['never', false, false],
    ['if_named', false, true],
    ['if_named_or_group', false, true],
  ];
  it.each(rows)('%s: bulk %s, named %s', (allow, bulk, named) => {
    expect([acceptsScope(allow, 'bulk'), acceptsScope(allow, 'named')]).toEqual([bulk, named]);
  });
});
