// Typing in a layer (issue 32.1): the store takes the editor's changes and a live layer, reads no
// layer text per keystroke, and the derive worker's copy rebuilt from the lineage equals the document.
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { DocumentSender, WorkerDocument } from '../derive/document';
import { docChars } from './history';
import { docSizeEstimate } from './journal';
import { leaveLineage, lineageFloor, originOf } from './lineage';
import { isLiveLayer, plainDoc } from './liveLayer';
import { createWorkbenchStore } from './store';
import { FakeModel } from './testing';

const catalogue = Array.from({ length: 2000 }, (_, i) => `[conversation.tools.t${i}]\nsource = "local"\nenable = "on"\n`).join('\n');
const start: ScenarioDoc = { ...EMPTY_DOC, name: 'typing', layers: [{ name: 'catalogue', text: catalogue }, { name: 'overrides', text: '# mine\n' }], servers: [], steps: [{ command: "jp q 'x'", cycles: [] }] };

describe('typing in a layer', () => {
  it('bumps the revision with a live layer, records the changes, and reads no layer text to do it', () => {
    const store = createWorkbenchStore(start);
    const model = new FakeModel(catalogue);
    const changes = model.type([{ rangeOffset: 10, rangeLength: 0, text: 'x' }]);
    store.getState().typeInLayer(0, changes, model);
    const s = store.getState();
    expect(s.revision).toBe(2);
    expect(isLiveLayer(s.doc.layers[0]!)).toBe(true);
    expect(originOf(s.doc)).toEqual({ parent: start, layer: 0, changes });
    expect(s.doc.layers[1]).toBe(start.layers[1]);
    // What autosave and the journal measure per keystroke never reads the text.
    expect(docChars(s.doc)).toBe(catalogue.length + 1 + start.layers[1]!.text.length);
    docSizeEstimate(s.doc);
    expect(model.reads).toBe(0);
    // Asked for, the text is the model's; a plain copy holds it for good.
    expect(s.doc.layers[0]?.text).toBe(model.text);
    const kept = plainDoc(s.doc);
    model.type([{ rangeOffset: 0, rangeLength: 0, text: '#' }]);
    expect(kept.layers[0]?.text).not.toBe(model.text);
    expect(JSON.parse(JSON.stringify(s.doc)).layers[0].text).toBe(model.text);
  });

  it('the worker rebuilt from what the sender sends equals the store\'s document, keystrokes and other edits mixed', () => {
    const store = createWorkbenchStore(start);
    const models = start.layers.map((l) => new FakeModel(l.text));
    const sender = new DocumentSender(originOf);
    const worker = new WorkerDocument();
    let senderReads = 0;
    const sync = () => {
      const { doc, revision } = store.getState();
      const before = models.reduce((n, m) => n + m.reads, 0);
      const u = sender.update(doc, revision);
      if ('edits' in u) JSON.stringify(u);
      senderReads += models.reduce((n, m) => n + m.reads, 0) - before;
      if ('doc' in u) worker.replace(revision, structuredClone(plainDoc(u.doc)));
      else if ('edits' in u) worker.apply(revision, structuredClone(u.edits));
      else throw new Error('no document here was opened from a file');
      expect(worker.doc).toEqual(plainDoc(doc));
      return u;
    };
    sync();
    const typeAt = (layer: number, offset: number, text: string, remove = 0) => {
      const m = models[layer]!;
      store.getState().typeInLayer(layer, m.type([{ rangeOffset: offset, rangeLength: remove, text }]), m);
    };
    typeAt(1, 0, 'a');
    typeAt(1, 1, 'b');
    expect('edits' in sync()).toBe(true);
    typeAt(0, 5, 'zz', 2);
    store.getState().addStep({ command: "jp q 'y'", cycles: [] });
    typeAt(1, 0, '\n');
    store.getState().setPolicy('provider', 'openai');
    const u = sync();
    expect('edits' in u && u.edits.edits.map((e) => e.kind)).toEqual(['layer', 'doc', 'layer', 'doc']);
    // The catalogue's text does not cross for the step or the policy.
    expect(JSON.stringify(u).length).toBeLessThan(2000);
    // A replacement has no lineage: the document goes whole.
    store.getState().replaceDoc({ ...start, name: 'other' }, { kind: 'test' });
    expect('doc' in sync()).toBe(true);
    // Neither the sender nor what it sends read a typed layer's text (the replacement is a plain document).
    expect(senderReads).toBe(0);
  });

  it('the lineage is dropped above the document the worker holds, and what is sent still rebuilds the document', () => {
    const store = createWorkbenchStore(start);
    const models = start.layers.map((l) => new FakeModel(l.text));
    const sender = new DocumentSender(originOf);
    const worker = new WorkerDocument();
    // As the derive client does: what the worker holds is sent's; the lineage above it is let go.
    const sync = () => {
      const { doc, revision } = store.getState();
      const u = sender.update(doc, revision);
      lineageFloor('worker', doc);
      if ('doc' in u) worker.replace(revision, structuredClone(plainDoc(u.doc)));
      else if ('edits' in u) worker.apply(revision, structuredClone(u.edits));
      else throw new Error('no document here was opened from a file');
      expect(worker.doc).toEqual(plainDoc(doc));
      expect(originOf(doc)).toBeUndefined();
      return u;
    };
    const typeAt = (layer: number, offset: number, text: string) => {
      const m = models[layer]!;
      store.getState().typeInLayer(layer, m.type([{ rangeOffset: offset, rangeLength: 0, text }]), m);
    };
    sync();
    const kinds: string[] = [];
    for (let round = 0; round < 6; round++) {
      const sent = store.getState().doc;
      // Several edits between two sends (a derivation in flight coalesces the keystrokes behind it).
      for (let k = 0; k <= round % 3; k++) typeAt(round % 2, k, String(round));
      if (round === 3) store.getState().setPolicy('provider', 'openai');
      const between = store.getState().doc;
      // The documents typed since the last send still link back to it...
      expect(originOf(between)).toBeDefined();
      const u = sync();
      kinds.push('edits' in u ? 'edits' : 'doc');
      // ...and the one that was sent before keeps no parent.
      expect(originOf(sent)).toBeUndefined();
    }
    expect(kinds).toEqual(['edits', 'edits', 'edits', 'edits', 'edits', 'edits']);
  });

  it('the lineage an older reader still follows is kept until it moves: autosave walks from its last save', () => {
    const store = createWorkbenchStore(start);
    const model = new FakeModel(start.layers[0]!.text);
    const typeAt = (offset: number, text: string) => store.getState().typeInLayer(0, model.type([{ rangeOffset: offset, rangeLength: 0, text }]), model);
    try {
      const saved = store.getState().doc;
      lineageFloor('save', saved);
      typeAt(0, 'a');
      const first = store.getState().doc;
      lineageFloor('worker', first);
      typeAt(1, 'b');
      const second = store.getState().doc;
      lineageFloor('worker', second);
      // The worker moved past `first`, but the save still reads from `saved`: every link down to it stays.
      expect(originOf(second)?.parent).toBe(first);
      expect(originOf(first)?.parent).toBe(saved);
      // The save catches up: the links above it go, the worker's own floor keeps none above it.
      lineageFloor('save', second);
      expect(originOf(second)).toBeUndefined();
      expect(originOf(first)?.parent).toBe(saved);
      typeAt(2, 'c');
      const third = store.getState().doc;
      lineageFloor('worker', third);
      // The save at `second` is now the older floor: `third` keeps its link to it.
      expect(originOf(third)?.parent).toBe(second);
    } finally {
      leaveLineage('save');
    }
  });
});
