import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { createWorkbenchStore } from '../state/store';
import { LayerIds, reconcileLayerIds } from './layer-ids';

const doc = (names: string[]): ScenarioDoc => ({ ...EMPTY_DOC, layers: names.map((name) => ({ name, text: `# ${name}\n` })), steps: [], servers: [] });

describe('reconcileLayerIds', () => {
  let n = 0;
  const fresh = () => `n${++n}`;

  it('an edited layer keeps its id; a reorder moves ids with the layers', () => {
    const d0 = doc(['a', 'b', 'c']);
    const s0 = { doc: d0, ids: ['A', 'B', 'C'] };
    const edited = { ...d0, layers: d0.layers.map((l, i) => (i === 1 ? { ...l, text: 'x' } : l)) };
    expect(reconcileLayerIds(s0, edited, fresh)).toEqual(['A', 'B', 'C']);
    const renamed = { ...d0, layers: d0.layers.map((l, i) => (i === 2 ? { ...l, name: 'z' } : l)) };
    expect(reconcileLayerIds(s0, renamed, fresh)).toEqual(['A', 'B', 'C']);
    const reordered = { ...d0, layers: [d0.layers[1], d0.layers[0], d0.layers[2]] as ScenarioDoc['layers'] };
    expect(reconcileLayerIds(s0, reordered, fresh)).toEqual(['B', 'A', 'C']);
  });

  it('removing and adding', () => {
    const d0 = doc(['a', 'b', 'c']);
    const s0 = { doc: d0, ids: ['A', 'B', 'C'] };
    expect(reconcileLayerIds(s0, { ...d0, layers: [d0.layers[0], d0.layers[2]] as ScenarioDoc['layers'] }, fresh)).toEqual(['A', 'C']);
    const added = reconcileLayerIds(s0, { ...d0, layers: [...d0.layers, { name: 'd', text: '' }] }, fresh);
    expect(added.slice(0, 3)).toEqual(['A', 'B', 'C']);
    expect(added[3]).toMatch(/^n/u);
  });

  it('a replaced document gets new ids', () => {
    const s0 = { doc: doc(['a']), ids: ['A'] };
    const ids = reconcileLayerIds(s0, doc(['a']), fresh);
    expect(ids[0]).not.toBe('A');
  });
});

describe('LayerIds over a store', () => {
  it('follows the store through edits, renames, reorders, removals and loads', () => {
    const store = createWorkbenchStore(doc(['user', 'workspace', 'local']));
    const ids = new LayerIds(store);
    const [u, w, l] = ids.all();
    const s = () => store.getState();
    s().setLayerText(1, 'changed');
    s().renameLayer(0, 'me');
    expect(ids.all()).toEqual([u, w, l]);
    s().moveLayer(0, 1);
    expect(ids.all()).toEqual([w, u, l]);
    s().removeLayer(1);
    expect(ids.all()).toEqual([w, l]);
    s().addLayer();
    expect(ids.all().slice(0, 2)).toEqual([w, l]);
    expect(new Set(ids.all()).size).toBe(3);
    s().replaceDoc(doc(['user', 'workspace']), { kind: 'test' });
    expect(ids.all().some((id) => id === w || id === l)).toBe(false);
  });
});
