// The worker's copy of the document (issue 32.1): typed changes applied equal the edited text, a
// wrong base asks for a resync, and a layer-only edit derives the same view as the whole document.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScenario, scenarioDocFromText, writeScenario } from '../core';
import type { ScenarioDoc } from '../core';
import { applyChanges, docFromSource, DocumentSender, editsBetween, isFileOfferMessage, isResync, keepsSurrogatesPaired, NO_SOURCE, offerFile, openedFrom, parsedLayerText, takeFileOffers, WorkerDocument } from './document';
import type { FileOfferMessage } from './document';
import type { DocOrigin, LayerChange } from './document';
import { DeriveHost } from './host';

const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');

function doc(text: string): ScenarioDoc {
  const d = scenarioDocFromText(text);
  if (!d.ok) throw new Error(d.errors[0]?.message);
  return d.doc;
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const PIECES = ['', 'a', 'x', ' ', '\n', '"on"', 'enable = "off"\n', '[conversation.tools.t]\n', "'''", '\ud83d\ude00', '#', '\\'];

/**
 * One editor event's changes as Monaco reports them: non-overlapping ranges, each offset into the
 * text before the event, listed from the last to the first (a multi-cursor edit).
 */
function randomEvent(text: string, next: (n: number) => number): LayerChange[] {
  const count = 1 + next(4);
  const cuts = new Set<number>();
  for (let i = 0; i < count * 2; i++) cuts.add(next(text.length + 1));
  const points = [...cuts].sort((a, b) => a - b);
  const changes: LayerChange[] = [];
  for (let i = 0; i + 1 < points.length || (i === 0 && points.length === 1); i += 2) {
    const start = points[i] ?? 0;
    const end = next(3) === 0 ? start : (points[i + 1] ?? start);
    changes.push({ rangeOffset: start, rangeLength: end - start, text: PIECES[next(PIECES.length)] ?? '' });
  }
  return changes.reverse();
}

/** The edited text, built independently: the untouched stretches and the inserts, front to back. */
function spliced(text: string, changes: readonly LayerChange[]): string {
  const ascending = [...changes].sort((a, b) => a.rangeOffset - b.rangeOffset);
  let out = '';
  let at = 0;
  for (const c of ascending) {
    out += text.slice(at, c.rangeOffset) + c.text;
    at = c.rangeOffset + c.rangeLength;
  }
  return out + text.slice(at);
}

describe('applyChanges', () => {
  it('applies one change, several in Monaco\'s order, and any order of the same changes', () => {
    expect(applyChanges('enable = "on"', [{ rangeOffset: 10, rangeLength: 2, text: 'off' }])).toBe('enable = "off"');
    const changes = [
      { rangeOffset: 6, rangeLength: 0, text: 'Z' },
      { rangeOffset: 0, rangeLength: 1, text: 'XY' },
    ];
    expect(applyChanges('abcdefgh', changes)).toBe('XYbcdefZgh');
    expect(applyChanges('abcdefgh', [...changes].reverse())).toBe('XYbcdefZgh');
  });

  it('refuses a change that does not fit the text, as a resync', () => {
    let error: unknown;
    try {
      applyChanges('abc', [{ rangeOffset: 2, rangeLength: 5, text: '' }]);
    } catch (e) {
      error = e;
    }
    expect(isResync(error)).toBe(true);
  });

  it('equals the edited text for random Monaco-style change lists (property)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      let text = demoText.slice(next(200), 200 + next(600));
      for (let event = 0; event < 12; event++) {
        const changes = randomEvent(text, next);
        const expected = spliced(text, changes);
        text = applyChanges(text, changes);
        expect(text, `seed ${seed}, event ${event}`).toBe(expected);
      }
    }
  });
});

describe('WorkerDocument', () => {
  const demo = doc(demoText);

  it('asks for a resync when it does not hold the base revision, and is left as it was', () => {
    const d = new WorkerDocument();
    expect(() => d.apply(2, { base: 1, edits: [] })).toThrow(/resync/u);
    d.replace(5, demo);
    let error: unknown;
    try {
      d.apply(7, { base: 6, edits: [{ kind: 'layer', layer: 0, changes: [{ rangeOffset: 0, rangeLength: 0, text: '#' }] }] });
    } catch (e) {
      error = e;
    }
    expect(isResync(error)).toBe(true);
    expect(d.revision).toBe(5);
    expect(d.doc).toBe(demo);
    d.apply(6, { base: 5, edits: [{ kind: 'layer', layer: 0, changes: [{ rangeOffset: 0, rangeLength: 0, text: '#' }] }] });
    expect(d.revision).toBe(6);
    expect(d.doc.layers[0]?.text).toBe(`#${demo.layers[0]?.text}`);
  });

  it('a layer edit swaps the text in the parsed scenario without parsing: equal to a whole parse but for spans', () => {
    const d = new WorkerDocument();
    d.replace(1, demo);
    expect(d.parsed.ok).toBe(true);
    expect(d.parses).toBe(1);
    const next = rng(7);
    let revision = 1;
    for (let i = 0; i < 40; i++) {
      const layer = next(demo.layers.length);
      const text = d.doc.layers[layer]?.text ?? '';
      d.apply(revision + 1, { base: revision, edits: [{ kind: 'layer', layer, changes: randomEvent(text, next) }] });
      revision += 1;
      const whole = parseScenario(writeScenario(d.doc));
      const got = d.parsed;
      expect(got.ok && whole.ok).toBe(true);
      if (!got.ok || !whole.ok) return;
      expect(got.scenario.layers).toEqual(whole.scenario.layers);
      expect(got.scenario.policy).toEqual(whole.scenario.policy);
      expect(got.scenario.steps.map((s) => s.command)).toEqual(whole.scenario.steps.map((s) => s.command));
      expect(d.parsedWhole).toBe(false);
    }
    expect(d.parses).toBe(1);
  });

  it('reads a lone surrogate in a layer as the whole parse does (U+FFFD)', () => {
    expect(parsedLayerText('a\ud800b')).toBe('a\ufffdb');
    expect(parsedLayerText('a\ud83d\ude00b')).toBe('a\ud83d\ude00b');
    const d = new WorkerDocument();
    d.replace(1, demo);
    void d.parsed;
    d.apply(2, { base: 1, edits: [{ kind: 'layer', layer: 1, changes: [{ rangeOffset: 0, rangeLength: 0, text: '# \ud800\n' }] }] });
    const whole = parseScenario(writeScenario(d.doc));
    expect(d.parsed.ok && whole.ok && d.parsed.scenario.layers).toEqual(whole.ok && whole.scenario.layers);
  });

  it('a layer edit looks for lone surrogates only where it changed the text, and reads them as the whole text does', () => {
    expect(keepsSurrogatesPaired('ab\ud83d\ude00c', [{ rangeOffset: 0, rangeLength: 1, text: 'x' }])).toBe(true);
    // Cutting a pair, or next to one, or bringing a surrogate: looked at over the whole text.
    expect(keepsSurrogatesPaired('ab\ud83d\ude00c', [{ rangeOffset: 3, rangeLength: 0, text: 'x' }])).toBe(false);
    expect(keepsSurrogatesPaired('ab\ud83d\ude00c', [{ rangeOffset: 2, rangeLength: 1, text: '' }])).toBe(false);
    expect(keepsSurrogatesPaired('ab\ud83d\ude00c', [{ rangeOffset: 4, rangeLength: 0, text: 'x' }])).toBe(false);
    expect(keepsSurrogatesPaired('abc', [{ rangeOffset: 1, rangeLength: 0, text: '\ud83d\ude00' }])).toBe(false);
    const d = new WorkerDocument();
    const base = { ...demo, layers: demo.layers.map((l, i) => (i === 0 ? { name: l.name, text: `# \ud83d\ude00 \ud83d\ude00\n${l.text}` } : l)) };
    d.replace(1, base);
    expect(d.parsed.ok).toBe(true);
    const pieces = ['a', '\ud83d\ude00', '\ud800', '\udc00', '', ' ', '\n# '];
    const next = rng(23);
    let revision = 1;
    for (let i = 0; i < 300; i++) {
      // Mostly one layer, at places around its surrogates.
      const layer = next(4) === 0 ? next(base.layers.length) : 0;
      const text = d.doc.layers[layer]?.text ?? '';
      const near = text.search(/[\ud800-\udfff]/u);
      const at = near >= 0 && next(2) === 0 ? Math.min(text.length, Math.max(0, near - 1 + next(4))) : next(text.length + 1);
      const remove = Math.min(text.length - at, next(3));
      d.apply(revision + 1, { base: revision, edits: [{ kind: 'layer', layer, changes: [{ rangeOffset: at, rangeLength: remove, text: pieces[next(pieces.length)] ?? '' }] }] });
      revision += 1;
      const got = d.parsed;
      expect(got.ok).toBe(true);
      if (!got.ok) return;
      d.doc.layers.forEach((l, k) => expect(got.scenario.layers[k]?.text, `edit ${i + 1}, layer ${k}`).toBe(parsedLayerText(l.text)));
    }
    expect(d.parses).toBe(1);
  });

  it('prepare marks each layer clean or not as a whole look would: edits after it read lone surrogates as the whole text does', () => {
    const d = new WorkerDocument();
    const base = { ...demo, layers: demo.layers.map((l, i) => (i === 0 ? { name: l.name, text: `# \ud800\n${l.text}` } : l)) };
    d.replace(1, base);
    d.prepare();
    expect(d.parses).toBe(1);
    // The same document (its clean layers' texts now the parsed scenario's strings, equal to them).
    expect(d.doc).toEqual(base);
    expect(d.revision).toBe(1);
    const next = rng(5);
    let revision = 1;
    for (let i = 0; i < 60; i++) {
      const layer = next(base.layers.length);
      const text = d.doc.layers[layer]?.text ?? '';
      d.apply(revision + 1, { base: revision, edits: [{ kind: 'layer', layer, changes: randomEvent(text, next) }] });
      revision += 1;
      const got = d.parsed;
      expect(got.ok).toBe(true);
      if (!got.ok) return;
      d.doc.layers.forEach((l, k) => expect(got.scenario.layers[k]?.text, `edit ${i + 1}, layer ${k}`).toBe(parsedLayerText(l.text)));
    }
    expect(d.parses).toBe(1);
  });

  it('a document edit keeps the layers it names by index and parses again', () => {
    const d = new WorkerDocument();
    d.replace(1, demo);
    void d.parsed;
    const { layers, ...rest } = demo;
    const renamed = { ...rest, name: 'renamed', steps: demo.steps.slice(1) };
    d.apply(2, { base: 1, edits: [{ kind: 'doc', doc: renamed, layers: [{ name: 'top', text: '# new\n' }, ...layers.map((l, i) => ({ name: l.name, keep: i }))] }] });
    expect(d.doc).toEqual({ ...renamed, layers: [{ name: 'top', text: '# new\n' }, ...layers] });
    d.doc.layers.slice(1).forEach((l, i) => expect(l).toBe(layers[i]));
    expect(d.parsed.ok).toBe(true);
    expect(d.parses).toBe(2);
    expect(withoutPositions(d.parsed)).toEqual(withoutPositions(parseScenario(writeScenario(d.doc))));
  });

  const conformance = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/conformance');
  const scenarios: [string, ScenarioDoc][] = [
    ['the demo', demo],
    ...readdirSync(conformance).filter((f) => f.endsWith('.toml')).map((f): [string, ScenarioDoc] => [f, doc(readFileSync(resolve(conformance, f), 'utf8'))]),
    ['lone surrogates, a triple quote and control characters in the layers', { ...demo, layers: [{ name: 'odd', text: "a = '''x\ud800'''\u0001\n\udc00" }, ...demo.layers, { name: 'ends', text: "x = 'y'" }] }],
  ];

  it.each(scenarios)('parses %s as a whole parse of the written document does, apart from positions', (_name, d0) => {
    const d = new WorkerDocument();
    d.replace(1, d0);
    const whole = parseScenario(writeScenario(d0));
    expect(withoutPositions(d.parsed)).toEqual(withoutPositions(whole));
    expect(d.parsedWhole).toBe(!whole.ok);
  });

  it('a document that does not parse is parsed whole: its errors name the written document\'s lines', () => {
    // An unknown expectation on the last step's cycle: an error after the layers, at a line they move.
    const bad = { ...demo, steps: [...demo.steps, { ...demo.steps[0]!, cycles: [{ calls: [], expect: { nope: 1 } }] }] } as unknown as ScenarioDoc;
    const whole = parseScenario(writeScenario(bad));
    expect(whole.ok).toBe(false);
    expect(!whole.ok && whole.errors[0]?.line).toBeGreaterThan(writeScenario({ ...bad, steps: [] }).split('\n').length);
    const d = new WorkerDocument();
    d.replace(1, bad);
    expect(d.parsed).toEqual(whole);
    expect(d.parsedWhole).toBe(true);
  });
});

/** A parse without its spans, lines and columns (the skeleton's are not the written document's). */
function withoutPositions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutPositions);
  if (typeof v !== 'object' || v === null) return v;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, withoutPositions(x)]));
  return Object.fromEntries(Object.entries(v).filter(([k]) => !/span$/iu.test(k) && k !== 'line' && k !== 'column').map(([k, x]) => [k, withoutPositions(x)]));
}

describe('a derivation from edits', () => {
  const demo = doc(demoText);

  it('a layer-only edit yields the same TimelineView as the whole document derived afresh', () => {
    const host = new DeriveHost();
    host.derive({ doc: demo, revision: 1, entry: null });
    const next = rng(11);
    let current = demo;
    for (let revision = 2; revision <= 12; revision++) {
      const layer = next(current.layers.length);
      const text = current.layers[layer]?.text ?? '';
      // Flip an availability now and then, so the sets change too.
      const on = text.indexOf('"on"');
      const changes: LayerChange[] = on >= 0 && next(2) === 0 ? [{ rangeOffset: on, rangeLength: 4, text: '"off"' }] : randomEvent(text, next);
      current = { ...current, layers: current.layers.map((l, i) => (i === layer ? { ...l, text: applyChanges(l.text, changes) } : l)) };
      const warm = host.derive({ revision, edits: { base: revision - 1, edits: [{ kind: 'layer', layer, changes }] }, entry: null });
      const cold = new DeriveHost().derive({ doc: current, revision, entry: null });
      expect({ ...warm, millis: 0 }, `revision ${revision}`).toEqual({ ...cold, millis: 0 });
    }
  });

  it('prepared ahead (the worker asks it once an opened document is answered), layer edits yield the same TimelineView', async () => {
    const host = new DeriveHost();
    host.derive({ doc: demo, revision: 1, entry: null });
    await host.call('prepare', { revision: 1 });
    // Asked for an older revision it does nothing.
    await host.call('prepare', { revision: 0 });
    const next = rng(12);
    let current = demo;
    for (let revision = 2; revision <= 8; revision++) {
      const layer = next(current.layers.length);
      const changes = randomEvent(current.layers[layer]?.text ?? '', next);
      current = { ...current, layers: current.layers.map((l, i) => (i === layer ? { ...l, text: applyChanges(l.text, changes) } : l)) };
      const warm = host.derive({ revision, edits: { base: revision - 1, edits: [{ kind: 'layer', layer, changes }] }, entry: null });
      const cold = new DeriveHost().derive({ doc: current, revision, entry: null });
      expect({ ...warm, millis: 0 }, `revision ${revision}`).toEqual({ ...cold, millis: 0 });
    }
  });

  it('prepared, the revision holds the document as the parse read it, not the copy the page sent (one catalogue text kept, not two)', async () => {
    const host = new DeriveHost();
    const sent = structuredClone(demo);
    host.derive({ doc: sent, revision: 1, entry: null });
    await host.call('prepare', { revision: 1 });
    const held = (host as unknown as { current: { doc: ScenarioDoc } }).current.doc;
    const parsed = (host as unknown as { document: WorkerDocument }).document.parsed;
    if (!parsed.ok) throw new Error('the demo parses');
    expect(held).not.toBe(sent);
    expect(held).toEqual(sent);
    // Each layer's text is the parse's very string: the received one is let go.
    expect(held.layers.map((l, i) => l.text === parsed.scenario.layers[i]?.text)).toEqual(sent.layers.map(() => true));
    // What the revision answers from its document (the sets rows' links into the layers) is unchanged.
    const cold = new DeriveHost();
    cold.derive({ doc: structuredClone(demo), revision: 1, entry: null });
    const rows = (h: DeriveHost) => h.call('setsWindow', { revision: 1, position: 0, offset: 0, limit: 1000 });
    expect(rows(host)).toEqual(rows(cold));
  });

  it('answers a resync error for edits over a revision it does not hold', () => {
    const host = new DeriveHost();
    host.derive({ doc: demo, revision: 1 });
    let error: unknown;
    try {
      host.derive({ revision: 3, edits: { base: 2, edits: [] } });
    } catch (e) {
      error = e;
    }
    expect(isResync(error)).toBe(true);
  });
});

describe("a document opened from a file crosses as the file's bytes", () => {
  const bytesOf = () => new TextEncoder().encode(demoText);

  it('is sent as its bytes once when whole, then as itself (a resync, the worker having refused them or not); as edits after', () => {
    const opened = doc(demoText);
    const bytes = bytesOf();
    openedFrom(opened, bytes);
    const origins = new WeakMap<ScenarioDoc, DocOrigin>();
    const sender = new DocumentSender((d) => origins.get(d));
    expect(sender.update(opened, 1)).toEqual({ source: bytes });
    // The bytes went (transferred away): a resync sends the document itself.
    expect(sender.update(opened, 1, true)).toEqual({ doc: opened });
    const renamed: ScenarioDoc = { ...opened, name: 'renamed' };
    origins.set(renamed, { parent: opened });
    expect('edits' in sender.update(renamed, 2)).toBe(true);
    // A document not opened from a file is sent itself.
    expect(new DocumentSender(() => undefined).update(doc(demoText), 1)).toEqual({ doc: doc(demoText) });
  });

  it('the worker takes the document the page parsed; detached, not UTF-8 or unparsable bytes are a resync for the document itself', () => {
    expect(docFromSource(bytesOf())).toEqual(doc(demoText));
    const refused = (bytes: Uint8Array): string => {
      try {
        docFromSource(bytes);
      } catch (e) {
        expect(isResync(e)).toBe(true);
        expect(e instanceof Error && e.message.startsWith(NO_SOURCE)).toBe(true);
        return e instanceof Error ? e.message : '';
      }
      return 'read';
    };
    const detached = bytesOf();
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    expect(refused(detached)).toMatch(/no bytes/u);
    expect(refused(new Uint8Array([0x6e, 0xff]))).toMatch(/not UTF-8/u);
    expect(refused(new TextEncoder().encode('name = '))).toMatch(/does not parse/u);
  });

  it('derives from the bytes as from the document', () => {
    const fromFile = new DeriveHost().derive({ source: bytesOf(), revision: 1, entry: null });
    const fromDoc = new DeriveHost().derive({ doc: doc(demoText), revision: 1, entry: null });
    expect({ ...fromFile, millis: 0 }).toEqual({ ...fromDoc, millis: 0 });
  });
});

describe('a file offered to the worker ahead of its document', () => {
  const bytesOf = (text = demoText) => new TextEncoder().encode(text);
  const thrown = (f: () => unknown): unknown => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('is handed to the worker client taking offers, numbered; without one the bytes go with the derivation', () => {
    const file = new Blob([demoText]);
    expect(offerFile(file)).toBeUndefined();
    const posted: FileOfferMessage[] = [];
    const stop = takeFileOffers((m) => posted.push(m));
    const a = offerFile(file);
    const b = offerFile(file);
    expect(posted.map((m) => m.file)).toEqual([file, file]);
    expect(posted.every(isFileOfferMessage)).toBe(true);
    expect(isFileOfferMessage({ id: 1, method: 'derive', params: {} })).toBe(false);
    expect(a && b && b.offer > a.offer).toBe(true);
    // The document opened from it crosses as the offer, once; a resync sends the document itself.
    const opened = doc(demoText);
    openedFrom(opened, b ?? { offer: -1 });
    const sender = new DocumentSender(() => undefined);
    expect(sender.update(opened, 1)).toEqual({ offer: b?.offer });
    expect(sender.update(opened, 1, true)).toEqual({ doc: opened });
    stop();
    expect(offerFile(file)).toBeUndefined();
  });

  it('is derived as it arrives: the derivation naming it answers as for the document, playing no step itself', () => {
    const host = new DeriveHost();
    host.offered(1, bytesOf());
    const ahead = host.derive({ offer: 1, revision: 1, entry: null });
    expect(host.stats().stepsPlayed).toBe(0);
    const fromDoc = new DeriveHost().derive({ doc: doc(demoText), revision: 1, entry: null });
    expect({ ...ahead, millis: 0 }).toEqual({ ...fromDoc, millis: 0 });
    // Used up: asked again, the page is to send the document.
    expect(isResync(thrown(() => host.derive({ offer: 1, revision: 2 })))).toBe(true);
  });

  it('leaves the document the worker holds alone until a derivation names it (a keystroke sent meanwhile still applies)', () => {
    const host = new DeriveHost();
    const before = doc(demoText);
    host.derive({ doc: before, revision: 1 });
    host.offered(1, bytesOf(demoText.replace(/^name = .*$/mu, 'name = "offered"')));
    const typed = host.derive({ revision: 2, edits: { base: 1, edits: [{ kind: 'doc', doc: { ...before, layers: undefined } as never, layers: before.layers.map((l, keep) => ({ name: l.name, keep })) }] } });
    expect(typed.name).toBe(before.name);
    expect(host.derive({ offer: 1, revision: 3 }).name).toBe('offered');
  });

  it('a second file offered before the first one was asked for: each derivation takes its own (no resync sends the first document)', () => {
    const host = new DeriveHost();
    host.offered(1, bytesOf(demoText.replace(/^name = .*$/mu, 'name = "first"')));
    host.offered(2, bytesOf(demoText.replace(/^name = .*$/mu, 'name = "second"')));
    expect(host.derive({ offer: 1, revision: 1 }).name).toBe('first');
    expect(host.derive({ offer: 2, revision: 2 }).name).toBe('second');
  });

  it('a file the worker could not read or parse, an older offer than the one held, or another offer is a resync', () => {
    const host = new DeriveHost();
    host.offered(1, undefined);
    expect(isResync(thrown(() => host.derive({ offer: 1, revision: 1 })))).toBe(true);
    host.offered(2, new Uint8Array([0x6e, 0xff]));
    expect(thrown(() => host.derive({ offer: 2, revision: 1 }))).toSatisfy((e: unknown) => e instanceof Error && e.message.startsWith(NO_SOURCE));
    host.offered(4, bytesOf());
    host.offered(3, bytesOf());
    expect(isResync(thrown(() => host.derive({ offer: 3, revision: 1 })))).toBe(true);
    host.offered(5, bytesOf());
    expect(isResync(thrown(() => host.derive({ offer: 6, revision: 1 })))).toBe(true);
  });
});

describe('DocumentSender', () => {
  const demo = doc(demoText);

  it('sends the lineage\'s typed changes and document edits, whole when the lineage does not reach what was sent', () => {
    const origins = new WeakMap<ScenarioDoc, DocOrigin>();
    const sender = new DocumentSender((d) => origins.get(d));
    expect(sender.update(demo, 1)).toEqual({ doc: demo });

    const typed: ScenarioDoc = { ...demo, layers: demo.layers.map((l, i) => (i === 1 ? { ...l, text: `# hi\n${l.text}` } : l)) };
    origins.set(typed, { parent: demo, layer: 1, changes: [{ rangeOffset: 0, rangeLength: 0, text: '# hi\n' }] });
    const stepped: ScenarioDoc = { ...typed, steps: [...typed.steps, { command: "jp q 'x'", cycles: [] }] };
    origins.set(stepped, { parent: typed });
    const update = sender.update(stepped, 3);
    expect('edits' in update && update.edits.base).toBe(1);
    expect('edits' in update && update.edits.edits.map((e) => e.kind)).toEqual(['layer', 'doc']);
    // No layer text crosses for the step: every layer is kept by index.
    expect(JSON.stringify(update)).not.toContain(demo.layers[0]?.text.slice(0, 40));

    const worker = new WorkerDocument();
    worker.replace(1, demo);
    if ('edits' in update) worker.apply(3, update.edits);
    expect(worker.doc).toEqual(stepped);

    const unrelated = doc(demoText);
    expect(sender.update(unrelated, 4)).toEqual({ doc: unrelated });
    expect(sender.update(unrelated, 4, true)).toEqual({ doc: unrelated });
    sender.reset();
    expect(sender.update(unrelated, 5)).toEqual({ doc: unrelated });
    expect(editsBetween(unrelated, unrelated, () => undefined)).toEqual([]);
  });
});
