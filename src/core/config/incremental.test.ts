// The incremental layer parse equals a whole parse (issue 32.2): after random edits (insertions,
// deletions, replacements at random offsets, with text that makes and breaks headers, quotes,
// multi-line strings, brackets and arrays of tables) of real layers (../shared/data, the layers of the
// conformance scenarios) and generated catalogues, the LoadedLayer (config with every origin's span,
// diagnostics with line and column) is deep-equal to loadLayer of the new text, Map orders included.
// Then what a consumer may rely on: which tools an edit re-read, and which objects stay ===.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layerText } from '../../../bench/check-scale';
import { generateCatalogue } from '../../../bench/search-fixtures';
import { generate as multilineCatalogue } from '../../../bench/toml-parse';
import { LayerCache } from '../turn/caches';
import type { EditHow, LayerState } from './incremental';
import { AnchoredSpan } from './anchors';
import { ChunkedText } from './chunked-text';
import { applyTextChanges, changedRange, composeRanges, editLayer, layerChange, layerTool, layerToolCount, loadLayerIncremental, loadLayerState, noteTextEdit } from './incremental';
import type { Layer, LoadedLayer } from './layer';
import { loadLayer, readLayer } from './layer';
import { parseToml, RunReopened } from './toml';

const shared = resolve(import.meta.dirname, '../../../../shared');

function tomlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tomlFiles(path));
    else if (name.endsWith('.toml')) out.push(path);
  }
  return out;
}

/** Every layer under test: JP's own config files, the conformance scenarios' layers, generated catalogues. */
const corpus: readonly Layer[] = (() => {
  const layers: Layer[] = tomlFiles(join(shared, 'data')).map((path) => ({ name: path.slice(shared.length + 1), text: readFileSync(path, 'utf8') }));
  for (const path of tomlFiles(join(shared, 'conformance'))) {
    const layerTables = parseToml(readFileSync(path, 'utf8')).root.entries.get('layers')?.value;
    if (layerTables?.kind !== 'table-array') continue;
    for (const t of layerTables.items) {
      const name = t.entries.get('name')?.value;
      const text = t.entries.get('text')?.value;
      if (name?.kind === 'string' && text?.kind === 'string') layers.push({ name: name.value, text: text.value });
    }
  }
  layers.push({ name: 'catalogue-40', text: layerText(generateCatalogue(40)) });
  layers.push({ name: 'catalogue-300', text: layerText(generateCatalogue(300, 7)) });
  layers.push({ name: 'multiline-30', text: multilineCatalogue(30) });
  layers.push({ name: 'catalogue-40-crlf', text: `\ufeff${layerText(generateCatalogue(40, 3)).replace(/\n/g, '\r\n')}` });
  // Tables the incremental parse must leave to a whole parse, around ones it may re-read: a tool defined
  // by dotted keys, one whose tables are apart, '*' between tools, a reserved name, servers between tools.
  layers.push({
    name: 'mixed',
    text: [
      'extends = ["a.toml", { path = "b.toml", strategy = "sideways" }]',
      'conversation.tools.dotted.summary = "from the root"',
      '[conversation.tools.a]',
      'source = "local"',
      'summary = "A"',
      '[conversation.tools.b]',
      'source = "mcp.srv"',
      'enable = { availability = "discoverable", allow_toggle = "never" }',
      '[conversation.tools.a.parameters.p]',
      'type = "string"',
      "[conversation.tools.'*']",
      'enable = "on"',
      'run = "sometimes"',
      '[providers.mcp.srv]',
      'command = "srv"',
      '[conversation.tools.describe_tools]',
      '[conversation.tools.c]',
      'source = "local"',
      'summary = """',
      '[not.a.header]',
      '"""',
      'access = { x = 1 }',
      '[conversation.tools.c.parameters.q]',
      'type = 5',
      '[providers.mcp.other]',
      'optional = true',
      '',
    ].join('\n'),
  });
  return layers;
})();

/**
 * A value as text, exact enough that equal texts mean deep-equal values: Maps as their entries in order
 * (toStrictEqual ignores Map order, and is slow on a catalogue's), keys in order with undefined ones
 * kept, -0, NaN, and each object's prototype.
 */
function canon(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v !== 'object') return String(v);
  if (v instanceof Map) return `Map{${[...(v as Map<unknown, unknown>)].map(([k, x]) => `${canon(k)}=>${canon(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  // An anchored span (anchors.ts): where it is, as a consumer reads it, and how it is kept.
  if (v instanceof AnchoredSpan) return `Span{${v.start},${v.end}}${canonObject(v)}`;
  return canonObject(v);
}

function canonObject(v: object): string {
  const proto: unknown = Object.getPrototypeOf(v);
  const tag = proto === null ? 'null' : proto === Object.prototype ? '' : String((proto as { constructor?: { name?: string } }).constructor?.name);
  const o = v as Record<string, unknown>;
  return `${tag}{${Object.keys(o).map((k) => `${JSON.stringify(k)}:${canon(o[k])}`).join(',')}}`;
}

function expectSame(got: LoadedLayer, text: string, name: string, label: string): void {
  const a = canon(got);
  const b = canon(loadLayer({ name, text }));
  if (a === b) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  expect(a.slice(Math.max(0, i - 300), i + 200), `${label}: parts at ${i}`).toBe(b.slice(Math.max(0, i - 300), i + 200));
}

/** Text that makes and breaks the structures an edit can cross. */
const SNIPPETS = [
  '\n', ' ', 'x', '"', "'", '"""', "'''", '[', ']', '[[', ']]', '{', '}', ',', '=', '#', '.', '\\', '\r\n', '\t',
  '[conversation.tools.zz]\n', '[conversation.tools.zz.parameters.p]\ntype = "string"\n', '[[conversation.tools.zz.items]]\n',
  "[conversation.tools.'*']\nrun = \"ask\"\n", '[providers.mcp.srv]\ncommand = "x"\n', '[conversation]\n', '[conversation.tools]\n',
  'summary = "typed"\n', 'enable = "on"\n', 'enable = "sometimes"\n', 'enabel = true\n', 'description = """\nline one\n[not.a.header]\n"""\n',
  "notes = '''\n[[also.not]]\n'''\n", 'parameters.q.type = "integer"\n', 'x = [1,\n2,\n]\n', 'x = { a = 1 }\n', 'source = "mcp"\n',
  'extends = ["a.toml"]\n', '\n\n# a comment [x]\n', 'describe_tools = 1\n',
];

interface Edit {
  /** An offset, or (`near`) the `at`-th header's `[` moved by `near`: where runs of tables meet. */
  readonly at: number;
  readonly near?: number;
  readonly remove: number;
  readonly insert: { readonly snippet: string } | { readonly copyFrom: number; readonly length: number };
}

/** An offset anywhere in the text (fc.nat alone leans to small numbers: the first header). */
const anywhere = fc.noBias(fc.nat());

const editArb: fc.Arbitrary<Edit> = fc.record({
  at: anywhere,
  near: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.integer({ min: -3, max: 2 }), weight: 1 }),
  remove: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, fc.nat({ max: 4 }), fc.nat({ max: 60 })),
  insert: fc.oneof(
    fc.record({ snippet: fc.constantFrom(...SNIPPETS) }),
    // What typing mostly is: words.
    { arbitrary: fc.record({ snippet: fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'b', '1', ' ', '_') }) }), weight: 2 },
    fc.record({ snippet: fc.string({ maxLength: 4, unit: fc.constantFrom('a', '"', "'", '[', ']', '\n', '=', ' ', '#', '{', '}', '.', '*') }) }),
    fc.record({ copyFrom: anywhere, length: fc.nat({ max: 80 }) }),
  ),
});

/** The edit as a Monaco change of `text`. */
function change(text: string, e: Edit): { rangeOffset: number; rangeLength: number; text: string } {
  const headers = e.near === undefined ? [] : [...text.matchAll(/^[ \t]*\[/gm)].map((m) => m.index + m[0].length - 1);
  const header = headers[e.at % Math.max(1, headers.length)];
  const at = header === undefined ? e.at % (text.length + 1) : Math.max(0, Math.min(text.length, header + (e.near ?? 0)));
  const remove = Math.min(e.remove, text.length - at);
  const insert = 'snippet' in e.insert ? e.insert.snippet : text.slice(e.insert.copyFrom % (text.length + 1), (e.insert.copyFrom % (text.length + 1)) + e.insert.length);
  return { rangeOffset: at, rangeLength: remove, text: insert };
}

describe('incremental layer parse equals a whole parse', () => {
  it('has layers of every kind to edit', () => {
    expect(corpus.length).toBeGreaterThan(100);
    expect(corpus.some((l) => l.text.includes('"""'))).toBe(true);
  });

  /** Random edit sequences of random corpus layers, each edit's result compared with a whole parse. */
  function property(layers: readonly Layer[], edit: fc.Arbitrary<Edit>, numRuns: number, seed: number): Record<EditHow, number> {
    const hows: Record<EditHow, number> = { same: 0, table: 0, whole: 0 };
    fc.assert(
      fc.property(anywhere, fc.array(edit, { minLength: 1, maxLength: 6 }), fc.constantFrom('text', 'changes', 'chunks'), fc.integer({ min: 5, max: 200 }), (pick, edits, by, size) => {
        const layer = layers[pick % layers.length] as Layer;
        let state: LayerState = loadLayerState(layer);
        expectSame(state.loaded, layer.text, layer.name, `${layer.name} loaded`);
        // The worker's way (document.ts): the text kept in chunks, the edit noted with them, the new text a rope of them.
        let chunks = ChunkedText.of(layer.text, size);
        edits.forEach((e, n) => {
          const c = change(state.text, e);
          let edit: { readonly state: LayerState; readonly how: EditHow };
          if (by === 'chunks') {
            chunks = chunks.edited([c]);
            noteTextEdit(state.text, chunks.text, { start: c.rangeOffset, oldEnd: c.rangeOffset + c.rangeLength, newEnd: c.rangeOffset + c.text.length }, chunks);
            edit = editLayer(state, chunks.text);
            if (edit.how === 'table') expect(edit.state.chunks).toBe(chunks);
          } else edit = by === 'changes' ? loadLayerIncremental(state, [c]) : editLayer(state, applyTextChanges(state.text, [c]).text);
          hows[edit.how]++;
          state = edit.state;
          expectSame(state.loaded, state.text, layer.name, `${layer.name}, edit ${n + 1} (${edit.how}) ${JSON.stringify(c)}`);
        });
      }),
      { numRuns, seed },
    );
    return hows;
  }

  it('after random edits of real and generated layers (config, spans, diagnostics, line and column)', () => {
    const hows = property(corpus, editArb, 200, 32);
    // Most of these edits break the text (and the ones after them are measured from its last good
    // text); both paths are still taken many times.
    expect(hows.table).toBeGreaterThan(50);
    expect(hows.whole).toBeGreaterThan(200);
  });

  it('after random edits that mostly keep the text valid (words, blanks, newlines, short deletions)', () => {
    const typing: fc.Arbitrary<Edit> = fc.record({
      at: anywhere,
      remove: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, fc.nat({ max: 3 })),
      insert: fc.record({ snippet: fc.string({ maxLength: 5, unit: fc.constantFrom('a', 'b', '1', ' ', '_', '\n', '\n\n') }) }),
    });
    const hows = property(
      corpus.filter((l) => /^\[conversation\.tools\./m.test(l.text)),
      typing,
      200,
      108,
    );
    expect(hows.table).toBeGreaterThan(120);
  });

  it('typing a new key into a catalogue tool, keystroke by keystroke, through the broken states', () => {
    const layer = corpus.find((l) => l.name === 'catalogue-40') as Layer;
    const anchor = layer.text.indexOf('\n', layer.text.indexOf('[conversation.tools.', layer.text.length >> 1)) + 1;
    let state = loadLayerState(layer);
    const type = (at: number, typed: string): EditHow[] =>
      [...typed].map((ch, k) => {
        const edit = loadLayerIncremental(state, [{ rangeOffset: at + k, rangeLength: 0, text: ch }]);
        state = edit.state;
        expectSame(state.loaded, state.text, layer.name, `${JSON.stringify(typed)}, keystroke ${k + 1}`);
        return edit.how;
      });
    // The key and its quotes (Monaco closes the quote): the line is broken until the second quote.
    const line = type(anchor, 'examples = ""\n');
    expect(line.at(-1)).toBe('table');
    // Inside the string every keystroke re-reads the one table.
    const inside = type(anchor + 'examples = "'.length, 'an example, # not a comment, [not a header]');
    expect(inside.every((h) => h === 'table')).toBe(true);
  });
});

describe('a layer read tool by tool as its runs of headers end (releaseRun) equals its tree read whole', () => {
  const same = (layer: Layer, label: string): void => {
    const a = canon(readLayer(layer).loaded);
    const b = canon(readLayer(layer, undefined, false).loaded);
    if (a === b) return;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    expect(a.slice(Math.max(0, i - 300), i + 200), `${label}: parts at ${i}`).toBe(b.slice(Math.max(0, i - 300), i + 200));
  };

  it('on every layer of the corpus and after random edits of them (config, spans, diagnostics in order)', () => {
    for (const layer of corpus) same(layer, layer.name);
    let released = 0;
    let reopened = 0;
    fc.assert(
      fc.property(fc.nat({ max: corpus.length - 1 }), fc.array(editArb, { minLength: 1, maxLength: 3 }), (k, edits) => {
        const layer = corpus[k] as Layer;
        let text = layer.text;
        for (const e of edits) {
          const c = change(text, e);
          text = text.slice(0, c.rangeOffset) + c.text + text.slice(c.rangeOffset + c.rangeLength);
        }
        try {
          parseToml(text, { releaseRun: () => released++ });
        } catch (e) {
          if (!(e instanceof RunReopened)) throw e;
          reopened++;
        }
        same({ name: layer.name, text }, `${layer.name} edited`);
      }),
      { numRuns: 300, seed: 32 },
    );
    // Both ways are taken: tools read as their runs end, and layers whose runs come back read whole.
    expect(released).toBeGreaterThan(300);
    expect(reopened).toBeGreaterThan(5);
  });

  it('reads a released tool once, empties its table in the tree, and refuses a header that reaches it again', () => {
    const text = '[conversation.tools.a]\nsummary = "A"\n[conversation.tools.a.parameters.p]\ntype = "string"\n\n[conversation.tools.b]\nsummary = "B"\n';
    const seen: string[] = [];
    const doc = parseToml(text, { releaseRun: (entry) => seen.push(`${entry.key}:${[...(entry.value.kind === 'table' ? entry.value.entries.keys() : [])].join(',')}`) });
    // a's run ended at b's header, with its whole subtree; b's is still open at the end (read by readConfig).
    expect(seen).toEqual(['a:summary,parameters']);
    const tools = doc.root.entries.get('conversation')?.value;
    const a = tools?.kind === 'table' ? tools.entries.get('tools')?.value : undefined;
    expect(a?.kind === 'table' ? [...a.entries.keys()] : []).toEqual(['a', 'b']);
    const aTable = a?.kind === 'table' ? a.entries.get('a')?.value : undefined;
    expect(aTable?.kind === 'table' ? aTable.entries.size : -1).toBe(0);
    for (const again of ['[conversation.tools.a.parameters.q]\ntype = "string"\n', '[conversation]\ntools.a.summary = "x"\n', '[conversation.tools]\na.enable = "on"\n']) {
      expect(() => parseToml(`${text}${again}`, { releaseRun: () => undefined })).toThrow(RunReopened);
      // The layer still reads as its tree whole does: the duplicate, the dotted key into a, their diagnostics.
      same({ name: 'again', text: `${text}${again}` }, again);
    }
  });
});

describe("a layer's tools Map an edit leaves pending (made when first read)", () => {
  it('reads as a whole parse, whether read at once, after later edits or never; layerTool and layerToolCount agree without making it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.constantFrom('x', '', ' ', '\n'), fc.boolean()), { minLength: 1, maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), (edits, readAt) => {
        const layer = corpus.find((l) => l.name === 'catalogue-300') as Layer;
        let state = loadLayerState(layer);
        const states: LayerState[] = [state];
        const summaries = [...layer.text.matchAll(/^summary = "/gm)].map((m) => m.index + m[0].length);
        edits.forEach(([pick, typed, remove], n) => {
          // Inside a summary string of some tool (an edit read table by table), found again in the current text.
          const at = [...state.text.matchAll(/^summary = "/gm)][pick % summaries.length];
          const offset = (at?.index ?? 0) + (at?.[0].length ?? 0);
          const edit = loadLayerIncremental(state, [{ rangeOffset: offset, rangeLength: remove && state.text[offset] !== '"' ? 1 : 0, text: typed }]);
          state = edit.state;
          states.push(state);
          // Without making the Map: every tool as the whole parse reads it, spans included (this is the newest state).
          const whole = loadLayer({ name: layer.name, text: state.text }).config;
          expect(layerToolCount(state.loaded.config)).toBe(whole.tools.size);
          for (const [name, t] of whole.tools) expect(canon(layerTool(state.loaded.config, name)), name).toBe(canon(t));
          if (readAt.includes(n)) expectSame(state.loaded, state.text, layer.name, `read at once, edit ${n + 1}`);
        });
        expectSame(state.loaded, state.text, layer.name, 'the newest, read after every edit');
        // An older state's spans read the newest text's offsets (anchors.ts); its values and order are its own.
        for (const st of states) {
          const whole = loadLayer({ name: layer.name, text: st.text }).config;
          const got = st.loaded.config.tools;
          expect([...got.keys()]).toEqual([...whole.tools.keys()]);
          for (const [name, t] of whole.tools) expect(got.get(name)?.summary?.value, name).toBe(t.summary?.value);
        }
      }),
      { numRuns: 12, seed: 7 },
    );
  });
});

describe('what a consumer may rely on (layerChange)', () => {
  const text = [
    "[conversation.tools.'*']",
    'enable = "discoverable"',
    '',
    '[conversation.tools.a]',
    'source = "local"',
    'summary = "A"',
    '',
    '[conversation.tools.b]',
    'source = "local"',
    'summary = "B"',
    '',
    '[conversation.tools.b.parameters.p]',
    'type = "string"',
    '',
    '[conversation.tools.c]',
    'source = "local"',
    'summry = "C"',
    '',
    '[providers.mcp.srv]',
    'command = "srv"',
    '',
  ].join('\n');
  const layer: Layer = { name: 'w', text };

  it('a character typed over in b: only b re-read, every other part the same object', () => {
    const state = loadLayerState(layer);
    const at = text.indexOf('"B"') + 1;
    const edit = loadLayerIncremental(state, [{ rangeOffset: at, rangeLength: 1, text: 'Z' }]);
    expect(edit.how).toBe('table');
    const change = layerChange(state.loaded, edit.state.loaded);
    expect(change?.changedTools).toEqual(new Set(['b']));
    expect(layerChange(edit.state.loaded, edit.state.loaded)?.changedTools).toEqual(new Set());
    // Asked about another layer than the one it came from: anything may have changed.
    expect(layerChange(loadLayerState(layer).loaded, edit.state.loaded)).toBeUndefined();
    expect(change?.shift).toBeUndefined();
    const before = state.loaded.config;
    const after = edit.state.loaded.config;
    expect(after.tools.get('b')?.summary?.value).toBe('Z');
    expect(after.tools.get('a')).toBe(before.tools.get('a'));
    expect(after.tools.get('c')).toBe(before.tools.get('c'));
    expect(after.defaults).toBe(before.defaults);
    expect(after.mcpServers).toBe(before.mcpServers);
    expect(edit.state.loaded.diagnostics[0]).toBe(state.loaded.diagnostics[0]);
  });

  it('an insertion in b: every other part the same object, the spans after it read moved', () => {
    const state = loadLayerState(layer);
    const at = text.indexOf('type = "string"');
    const before = state.loaded.config;
    const c0 = before.tools.get('c');
    const span = (o: typeof c0): number => (o?.declared.kind === 'layer' ? o.declared.span.start : -1);
    const cBefore = span(c0);
    const aBefore = span(before.tools.get('a'));
    const server = (): number => {
      const s = before.mcpServers.get('srv')?.declared;
      return s?.kind === 'layer' ? s.span.start : -1;
    };
    const serverBefore = server();
    const edit = loadLayerIncremental(state, [{ rangeOffset: at, rangeLength: 0, text: 'required = true\n' }]);
    expect(edit.how).toBe('table');
    const change = layerChange(state.loaded, edit.state.loaded);
    expect(change?.changedTools).toEqual(new Set(['b']));
    expect(change?.shift).toEqual({ from: at, delta: 16, lines: 1 });
    const after = edit.state.loaded.config;
    expect(after.tools.get('a')).toBe(before.tools.get('a'));
    expect(after.defaults).toBe(before.defaults);
    expect(after.mcpServers).toBe(before.mcpServers);
    // A tool after the edit is the same object; its spans are read through the anchors the edit moved.
    const c1 = after.tools.get('c');
    expect(c1).toBe(c0);
    expect(span(c1)).toBe(cBefore + 16);
    expect(edit.state.text.slice(span(c1), span(c1) + 1)).toBe('c');
    expect(span(after.tools.get('a'))).toBe(aBefore);
    expect(server()).toBe(serverBefore + 16);
    // Diagnostics hold plain positions: those after the edit are moved copies.
    expect(edit.state.loaded.diagnostics[0]?.line).toBe((state.loaded.diagnostics[0]?.line ?? 0) + 1);
    expect(Object.getPrototypeOf(edit.state.loaded.diagnostics[0]?.span)).toBe(Object.prototype);
  });

  it('an edit from an older state of a lineage (whose anchors a later edit moved) parses whole, and equals loadLayer', () => {
    const state = loadLayerState(layer);
    const at = text.indexOf('"B"') + 1;
    const first = loadLayerIncremental(state, [{ rangeOffset: at, rangeLength: 0, text: 'long ' }]);
    expect(first.how).toBe('table');
    const again = loadLayerIncremental(state, [{ rangeOffset: at, rangeLength: 0, text: 'other ' }]);
    expect(again.how).toBe('whole');
    expectSame(again.state.loaded, again.state.text, layer.name, 'from the older state');
    // The newer state still edits table by table, and the positions it reads are its text's.
    const next = loadLayerIncremental(first.state, [{ rangeOffset: first.state.text.indexOf('"C"') + 1, rangeLength: 0, text: 'x' }]);
    expect(next.how).toBe('table');
    expectSame(next.state.loaded, next.state.text, layer.name, 'from the newer state');
  });

  it("an edit in '*' changes every tool; a whole parse says nothing", () => {
    const state = loadLayerState(layer);
    const star = loadLayerIncremental(state, [{ rangeOffset: text.indexOf('"discoverable"'), rangeLength: 14, text: '"on"' }]);
    expect(star.how).toBe('table');
    expect(layerChange(state.loaded, star.state.loaded)?.changedTools).toBe('all');
    const header = loadLayerIncremental(state, [{ rangeOffset: text.indexOf('[conversation.tools.c]'), rangeLength: 0, text: '[conversation.tools.new]\n' }]);
    expect(header.how).toBe('whole');
    expect(layerChange(state.loaded, header.state.loaded)).toBeUndefined();
  });

  it('changedRange and applyTextChanges agree on where texts differ; overlapping changes are refused', () => {
    expect(changedRange('abcdef', 'abXYef')).toEqual({ start: 2, oldEnd: 4, newEnd: 4 });
    expect(changedRange('aaaa', 'aaaaa')).toEqual({ start: 4, oldEnd: 4, newEnd: 5 });
    const long = 'x'.repeat(10_000);
    expect(changedRange(`${long}a${long}`, `${long}bc${long}`)).toEqual({ start: 10_000, oldEnd: 10_001, newEnd: 10_002 });
    // Two changes of one Monaco event, each relative to the text before it.
    expect(applyTextChanges('0123456789', [{ rangeOffset: 8, rangeLength: 1, text: 'EIGHT' }, { rangeOffset: 1, rangeLength: 2, text: '' }])).toEqual({
      text: '034567EIGHT9',
      range: { start: 1, oldEnd: 9, newEnd: 11 },
    });
    expect(() => applyTextChanges('0123', [{ rangeOffset: 1, rangeLength: 2, text: '' }, { rangeOffset: 2, rangeLength: 1, text: '' }])).toThrow(/overlaps/);
    expect(() => applyTextChanges('0123', [{ rangeOffset: 3, rangeLength: 2, text: '' }])).toThrow(/outside/);
  });
});

describe('edits where runs of tables meet', () => {
  const text = ['[conversation.tools.a]', 'source = "local"', '', '[conversation.tools.b]', 'source = "local"', '', '  [conversation.tools.describe_tools]', 'x = 1', ''].join('\n');
  const layer: Layer = { name: 'w', text };
  const reserved = text.indexOf('  [conversation.tools.describe_tools]');
  const cases: readonly { readonly what: string; readonly at: number; readonly remove: number; readonly insert: string; readonly how: EditHow }[] = [
    { what: "the newlines before the next header removed (b's last line runs into it)", at: reserved - 2, remove: 2, insert: '', how: 'whole' },
    { what: 'a comment left open before the next header', at: reserved, remove: 0, insert: '# open ', how: 'whole' },
    { what: "one blank of the next header's indent removed (its diagnostic's column moves)", at: reserved, remove: 1, insert: '', how: 'table' },
    { what: 'the same length and lines, the next header one column left', at: reserved - 2, remove: 4, insert: ' \n\n ', how: 'table' },
    { what: "b's header made an array of tables", at: text.indexOf('[conversation.tools.b]') + 1, remove: 'conversation.tools.b]'.length, insert: '[conversation.tools.b]]', how: 'whole' },
    { what: "b's header renamed to another tool", at: text.indexOf('[conversation.tools.b]') + 20, remove: 1, insert: 'a', how: 'whole' },
    { what: "a key of b's section moved under a header of b's own", at: reserved - 1, remove: 0, insert: '[conversation.tools.b.parameters.p]\ntype = "string"\n', how: 'table' },
  ];
  it.each(cases)('$what: $how', ({ at, remove, insert, how }) => {
    const state = loadLayerState(layer);
    expect(state.loaded.diagnostics.map((d) => d.code)).toEqual(['reserved-name']);
    const edit = loadLayerIncremental(state, [{ rangeOffset: at, rangeLength: remove, text: insert }]);
    expect(edit.how).toBe(how);
    expectSame(edit.state.loaded, edit.state.text, layer.name, 'edit');
  });
});

describe('LayerCache', () => {
  const layer = corpus.find((l) => l.name === 'catalogue-40') as Layer;

  it('composes the ranges of two edits into one that covers both', () => {
    const edit = fc.record({ at: anywhere, remove: fc.nat({ max: 30 }), insert: fc.string({ maxLength: 12 }) });
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), edit, edit, (a, e1, e2) => {
        const one = applyTextChanges(a, [{ rangeOffset: e1.at % (a.length + 1), rangeLength: Math.min(e1.remove, a.length - (e1.at % (a.length + 1))), text: e1.insert }]);
        const b = one.text;
        const two = applyTextChanges(b, [{ rangeOffset: e2.at % (b.length + 1), rangeLength: Math.min(e2.remove, b.length - (e2.at % (b.length + 1))), text: e2.insert }]);
        const c = two.text;
        const r = composeRanges(one.range, two.range);
        expect(c.length - a.length).toBe(r.newEnd - r.oldEnd);
        expect(a.slice(0, r.start)).toBe(c.slice(0, r.start));
        expect(a.slice(r.oldEnd)).toBe(c.slice(r.newEnd));
        const least = changedRange(a, c);
        expect(r.start <= least.start && r.oldEnd >= least.oldEnd && r.newEnd >= least.newEnd).toBe(true);
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('given the whole new text, uses the range a shell noted for it, with the same result as finding it', () => {
    const noted = new LayerCache();
    const found = new LayerCache();
    noted.loadAll([layer]);
    found.loadAll([layer]);
    let text = layer.text;
    for (let k = 0; k < 30; k++) {
      const at = text.indexOf('summary = ', (k * 7919) % text.length) + 11;
      const change = { rangeOffset: at, rangeLength: k % 2, text: k % 3 === 0 ? '' : 'ab' };
      const applied = applyTextChanges(text, [change]);
      noteTextEdit(text, applied.text, applied.range);
      text = applied.text;
      const [a] = noted.loadAll([{ name: layer.name, text }]);
      const [b] = found.loadAll([{ name: layer.name, text: `${text}`.slice(0) }]);
      expect(canon(a)).toBe(canon(b));
      expectSame(a as LoadedLayer, text, layer.name, `keystroke ${k + 1}`);
    }
    expect(noted.tablesReparsed).toBeGreaterThan(20);
  });

  it('counts whole parses and table re-parses; applyChanges and loadAll agree with loadLayer', () => {
    const cache = new LayerCache();
    const [first] = cache.loadAll([layer]);
    expect(cache.parsed).toBe(1);
    const at = layer.text.indexOf('summary = ', layer.text.length >> 1) + 11;
    const typed = cache.applyChanges(layer.name, [{ rangeOffset: at, rangeLength: 0, text: 'typed ' }]);
    expect(cache).toMatchObject({ parsed: 1, tablesReparsed: 1 });
    const text = cache.text(layer.name) ?? '';
    expectSame(typed, text, layer.name, 'applyChanges');
    expect(cache.loadAll([{ name: layer.name, text }])[0]).toBe(typed);
    // A new text given whole: the changed range is found by comparing.
    const again = `${text.slice(0, at)}re${text.slice(at)}`;
    const [retyped] = cache.loadAll([{ name: layer.name, text: again }]);
    expect(cache).toMatchObject({ parsed: 1, tablesReparsed: 2 });
    expectSame(retyped as LoadedLayer, again, layer.name, 'loadAll');
    // Back to the first text: one table again, equal to the first load.
    expect(canon(cache.loadAll([layer])[0])).toBe(canon(first));
    expect(cache).toMatchObject({ parsed: 1, tablesReparsed: 3 });
    // A new header: a whole parse.
    cache.loadAll([{ name: layer.name, text: `${layer.text}\n[conversation.tools.brand_new]\n` }]);
    expect(cache).toMatchObject({ parsed: 2, tablesReparsed: 3 });
    expect(() => cache.applyChanges('nosuch', [])).toThrow(/no layer named 'nosuch'/);
  });
});
