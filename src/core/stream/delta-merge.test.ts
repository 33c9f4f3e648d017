// The engine's merge of config deltas over the layers (jp-today 3.3-3.4; semantics 8.2: layers are
// live), field by field: a layer writes a field, two deltas follow, and the newest writer of each
// field wins, with its origin. Each row is played through every path that merges: plain deltas (an
// enable-only delta moves a tool without recomputing it), a layer edit after them (the deltas are
// replayed as the overlay), a fork then a layer edit (the overlay rebuilt from the history), and the
// pending view a directive reads before a delta is committed.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG } from '../config/read';
import type { LoadedLayer } from '../config/layer';
import type { Origin, PartialConfig, Sourced, ToolConfig, ToolDefaults } from '../config/types';
import { StreamEngine } from './engine';

type Read = (tool: ToolConfig | undefined, defaults: ToolDefaults) => Sourced<unknown> | undefined;

interface Row {
  readonly name: string;
  readonly table: string;
  readonly key: string;
  /** What the layer, its edit, the first and the second delta write. */
  readonly values: readonly [string, string, string, string];
  readonly read: Read;
  /** A line of the same table that leaves the row's field alone. */
  readonly sibling: string;
}

const T = 'conversation.tools.t';
const S = "conversation.tools.'*'";
const p = (t: ToolConfig | undefined) => t?.parameters.get('p');

const ROWS: readonly Row[] = [
  { name: 'tool summary', table: T, key: 'summary', values: ['"a"', '"a2"', '"b"', '"c"'], read: (t) => t?.summary, sibling: 'description = "s"' },
  { name: 'tool run', table: T, key: 'run', values: ['"ask"', '"edit"', '"unattended"', '"skip"'], read: (t) => t?.run, sibling: 'summary = "s"' },
  { name: 'tool availability', table: T, key: 'enable', values: ['"off"', '"on"', '"discoverable"', '{ availability = "on" }'], read: (t) => t?.enable.availability, sibling: 'summary = "s"' },
  { name: 'tool allow_toggle', table: T, key: 'enable', values: ['{ allow_toggle = "any" }', '{ allow_toggle = "if_named_or_group" }', '{ allow_toggle = "if_named" }', '{ allow_toggle = "never" }'], read: (t) => t?.enable.allowToggle, sibling: 'summary = "s"' },
  { name: 'parameter type', table: `${T}.parameters.p`, key: 'type', values: ['"string"', '"number"', '"integer"', '"boolean"'], read: (t) => p(t)?.type, sibling: 'summary = "s"' },
  { name: 'items description', table: `${T}.parameters.p.items`, key: 'description', values: ['"a"', '"a2"', '"b"', '"c"'], read: (t) => p(t)?.items?.description, sibling: 'summary = "s"' },
  { name: 'nested property description', table: `${T}.parameters.p.properties.x`, key: 'description', values: ['"a"', '"a2"', '"b"', '"c"'], read: (t) => p(t)?.properties?.get('x')?.description, sibling: 'summary = "s"' },
  { name: 'nested property required', table: `${T}.parameters.p.properties.x.properties.y`, key: 'required', values: ['false', 'true', 'true', 'false'], read: (t) => p(t)?.properties?.get('x')?.properties?.get('y')?.required, sibling: 'summary = "s"' },
  { name: "'*' run", table: S, key: 'run', values: ['"ask"', '"edit"', '"unattended"', '"skip"'], read: (_, d) => d.run, sibling: 'result = "edit"' },
  { name: "'*' result", table: S, key: 'result', values: ['"ask"', '"edit"', '"unattended"', '"skip"'], read: (_, d) => d.result, sibling: 'run = "edit"' },
  { name: "'*' availability", table: S, key: 'enable', values: ['"on"', '"off"', '{ availability = "discoverable" }', '{ availability = "off" }'], read: (_, d) => d.enable.availability, sibling: 'run = "edit"' },
];

// Every text declares the tool (so a '*' row has a tool to recompute); a delta writes nothing but its
// line, so a delta that writes only enable takes the engine's enable-only path.
const text = (row: Row, line: string, layer = false): string =>
  `[${T}]\n${layer ? 'source = "local"\n' : ''}${row.table === T ? '' : `[${row.table}]\n`}${line}\n`;
const layerOf = (name: string, t: string): LoadedLayer => {
  const l = loadLayer({ name, text: t });
  expect(l.diagnostics).toEqual([]);
  return l;
};
const delta = (name: string, t: string): PartialConfig => layerOf(name, t).config;
const event = (step: number) => ({ sources: ['cfg' as const], detail: '', step });

/** The value a reader sees and the layer (or delta, loaded as one) that wrote it. */
function seen(read: Read, tool: ToolConfig | undefined, defaults: ToolDefaults): [unknown, string] | undefined {
  const s = read(tool, defaults);
  if (!s) return undefined;
  return [s.value, s.origin.kind === 'layer' ? s.origin.layer : s.origin.kind];
}

/** The expected [field value, writer] when the row's values are read back through `read` from a one-line layer. */
function expected(row: Row, index: 0 | 1 | 2 | 3, writer: string): [unknown, string] {
  const c = delta(writer, text(row, `${row.key} = ${row.values[index]}`));
  const got = seen(row.read, c.tools.get('t'), c.defaults);
  if (!got) throw new Error(`row ${row.name} reads nothing from ${row.values[index]}`);
  return got;
}

interface Play {
  readonly engine: StreamEngine;
  readonly read: () => [unknown, string] | undefined;
}

/** The layer then two deltas; `second`: the second delta writes the field (else only a sibling). */
function play(row: Row, first: boolean, second: boolean): Play {
  const engine = new StreamEngine([layerOf('layer', text(row, `${row.key} = ${row.values[0]}`, true))], new Map());
  engine.applyDelta(delta('d1', text(row, first ? `${row.key} = ${row.values[2]}` : row.sibling)), event(1));
  engine.applyDelta(delta('d2', text(row, second ? `${row.key} = ${row.values[3]}` : row.sibling)), event(2));
  return { engine, read: () => seen(row.read, engine.state('t')?.config, engine.currentDefaults) };
}

const editLayer = (row: Row, engine: StreamEngine): void => {
  engine.replaceLayers([layerOf('layer', text(row, `${row.key} = ${row.values[1]}`, true))], { kind: 'layer-edit', layer: 'layer', detail: '', step: 3 });
};

const cases = ROWS.flatMap((row) =>
  (
    [
      [true, true, 3, 'd2'],
      [true, false, 2, 'd1'],
      [false, true, 3, 'd2'],
      [false, false, 0, 'layer'],
    ] as const
  ).map(([first, second, index, writer]) => [`${row.name}: d1 ${first ? 'writes' : 'leaves'} it, d2 ${second ? 'writes' : 'leaves'} it`, row, first, second, index, writer] as const),
);

describe('config deltas merge over the layers field by field: the newest writer wins, with its origin', () => {
  it.each(cases)('%s', (_, row, first, second, index, writer) => {
    const { read } = play(row, first, second);
    expect(read()).toEqual(expected(row, index, writer));
  });

  it.each(cases)('%s, then the layer is edited', (_, row, first, second, index, writer) => {
    const { engine, read } = play(row, first, second);
    editLayer(row, engine);
    // A field no delta wrote now reads the edited layer's value.
    expect(read()).toEqual(writer === 'layer' ? expected(row, 1, 'layer') : expected(row, index, writer));
  });

  it.each(cases)('%s, then a fork is made and its layer edited', (_, row, first, second, index, writer) => {
    const { engine } = play(row, first, second);
    const fork = engine.forkAt(engine.current.index);
    editLayer(row, fork);
    const got = seen(row.read, fork.state('t')?.config, fork.currentDefaults);
    expect(got).toEqual(writer === 'layer' ? expected(row, 1, 'layer') : expected(row, index, writer));
  });

  // A rebase (the derivation's answer to an edit that moved a tool's lines without changing a value)
  // replays the deltas over the moved layer; it is valid only where no delta touched '*'.
  it.each(cases.filter(([, row]) => row.table !== S))('%s, then rebased on the layer with its lines moved', (_, row, first, second, index, writer) => {
    const { engine } = play(row, first, second);
    const moved = layerOf('layer', `\n\n${text(row, `${row.key} = ${row.values[0]}`, true)}`);
    const base = [moved].reduce((acc, l) => mergeConfigs(acc, l.config), EMPTY_CONFIG);
    const rebased = engine.rebaseAt(engine.current.index, base, engine.statesUnder(base, ['t'], () => false));
    const got = rebased.state('t')?.config;
    expect(seen(row.read, got, rebased.currentDefaults)).toEqual(expected(row, index, writer));
    // Where a delta did not write the field, its origin is the moved line.
    const origin = row.read(got, rebased.currentDefaults)?.origin;
    const movedOrigin = row.read(base.tools.get('t'), base.defaults)?.origin;
    if (writer === 'layer') {
      const start = (o: Origin | undefined): number | undefined => (o?.kind === 'layer' ? o.span.start : undefined);
      expect(start(origin)).toBeDefined();
      expect(start(origin)).toBe(start(movedOrigin));
    }
  });

  it.each(cases)('%s: the pending view of the second delta is what committing it gives', (_, row, first, second, index, writer) => {
    const engine = new StreamEngine([layerOf('layer', text(row, `${row.key} = ${row.values[0]}`, true))], new Map());
    engine.applyDelta(delta('d1', text(row, first ? `${row.key} = ${row.values[2]}` : row.sibling)), event(1));
    const d2 = delta('d2', text(row, second ? `${row.key} = ${row.values[3]}` : row.sibling));
    const pending = seen(row.read, engine.pendingTool('t', d2), engine.pendingDefaults(d2));
    expect(pending).toEqual(expected(row, index, writer));
  });
});
