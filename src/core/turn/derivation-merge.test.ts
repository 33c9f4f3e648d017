// A one-tool edit of a layer is merged again for that tool alone (derivation.ts, mergedByLayerChange),
// not with the whole merge: field by field, the edited lower layer's value shows where the higher layer
// leaves the field, and the higher layer's override holds where it writes it, with its origin, as a
// derivation from scratch gives.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { loadLayer } from '../config/layer';
import type { Sourced, ToolConfig } from '../config/types';
import { layer, scenario, step } from '../scenario/test-helpers';
import { Derivation } from './derivation';
import { runScenario } from './run';
import type { Timeline } from './timeline';
import { parsed } from './test-kit';

type Read = (t: ToolConfig | undefined) => Sourced<unknown> | undefined;
const p = (t: ToolConfig | undefined) => t?.parameters.get('p');

// [table below the tool, key, the lower layer's value, its edit, the higher layer's value, read]
const ROWS: readonly (readonly [string, string, string, string, string, Read])[] = [
  ['', 'summary', '"a"', '"a2"', '"b"', (t) => t?.summary],
  ['', 'description', '"a"', '"a2"', '"b"', (t) => t?.description],
  ['', 'run', '"ask"', '"edit"', '"skip"', (t) => t?.run],
  ['', 'enable', '"on"', '"off"', '{ availability = "discoverable" }', (t) => t?.enable.availability],
  ['.parameters.p', 'type', '"string"', '"number"', '"integer"', (t) => p(t)?.type],
  ['.parameters.p.items', 'description', '"a"', '"a2"', '"b"', (t) => p(t)?.items?.description],
  ['.parameters.p.properties.x', 'description', '"a"', '"a2"', '"b"', (t) => p(t)?.properties?.get('x')?.description],
  ['.parameters.p.properties.x.properties.y', 'type', '"string"', '"number"', '"integer"', (t) => p(t)?.properties?.get('x')?.properties?.get('y')?.type],
];

const FILLERS = Array.from({ length: 8 }, (_, i) => `[conversation.tools.f${i}]\nsource = "local"\nsummary = "filler ${i}"\n`).join('');

function input(table: string, key: string, lower: string, upper: string | undefined): Scenario {
  const lowerText = `${FILLERS}[conversation.tools.t]\nsource = "local"\nexamples = "e"\n${table ? `[conversation.tools.t${table}]\n` : ''}${key} = ${lower}\n`;
  // The higher layer writes the tool's table either way (a sibling field), so the tool is merged.
  const upperText = `[conversation.tools.t${table}]\n${upper !== undefined ? `${key} = ${upper}` : key === 'summary' ? 'description = "s"' : 'summary = "s"'}\n`;
  return parsed(scenario(layer(lowerText, 'user'), layer(upperText, 'workspace'), step("jp q 'hi'")));
}

function seen(read: Read, t: Timeline): [unknown, string] | undefined {
  const s = read(t.engine.state('t')?.config);
  return s ? [s.value, s.origin.kind === 'layer' ? s.origin.layer : s.origin.kind] : undefined;
}

describe('a one-tool layer edit merges that tool again field by field, the higher layer still winning', () => {
  const cases = ROWS.flatMap((r) => [[`${r[0] || '(tool)'} ${r[1]}: the higher layer overrides`, r, true] as const, [`${r[0] || '(tool)'} ${r[1]}: the higher layer leaves it`, r, false] as const]);
  it.each(cases)('%s', (_, [table, key, lower, edited, upper, read], overridden) => {
    const before = input(table, key, lower, overridden ? upper : undefined);
    const after = input(table, key, edited, overridden ? upper : undefined);
    const derivation = new Derivation();
    derivation.run({ scenario: before });
    const t = derivation.run({ scenario: after });
    // The edit took the one-tool path this test is about, not a whole merge.
    expect(derivation.last).toMatchObject({ restarted: false, layersParsed: 1 });
    const fresh = runScenario({ scenario: after });
    expect(seen(read, t)).toEqual(seen(read, fresh));
    // The value itself: the higher layer's where it writes the field, else the lower layer's edit.
    const want = loadLayer({ name: 'want', text: `[conversation.tools.t${table}]\n${key} = ${overridden ? upper : edited}\n` }).config.tools.get('t');
    expect(seen(read, t)).toEqual([read(want)?.value, overridden ? 'workspace' : 'user']);
  });
});
