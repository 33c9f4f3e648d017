import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { createWorkbenchStore } from './store';
import { layerSays, layerToEdit } from './editsSlice';
import type { LayerEditorBridge } from './editsSlice';

const doc = (layers: [string, string][]): ScenarioDoc => ({ ...EMPTY_DOC, layers: layers.map(([name, text]) => ({ name, text })), steps: [], servers: [] });

const USER = "[conversation.tools.'*']\nenable = \"discoverable\"\n";
const WORK = '[conversation.tools.a]\nsource = "local"\nenable = { state = false } # legacy\n\n[conversation.tools.b]\nsource = "local"\n';
const LOCAL = '[conversation.tools.b]\nrun = "ask"\n';

describe('which layer an edit goes to', () => {
  it('what a layer says about a tool', () => {
    expect(layerSays(WORK, 'a')).toBe('availability');
    expect(layerSays(WORK, 'b')).toBe('defines');
    expect(layerSays(USER, 'a')).toBe('nothing');
    expect(layerSays('[conversation.tools]\nc = { enable = "on" }', 'c')).toBe('availability');
    expect(layerSays('[conversation.tools.c]\nenable = { allow_toggle = "never" }', 'c')).toBe('defines');
  });

  it('the layer that sets the availability, else the highest that defines the tool, else the last', () => {
    const layers = doc([['user', USER], ['workspace', WORK], ['local', LOCAL]]).layers;
    expect(layerToEdit(layers, 'a')).toBe(1);
    expect(layerToEdit(layers, 'b')).toBe(2);
    expect(layerToEdit(layers, 'new_tool')).toBe(2);
  });
});

describe('setToolAvailability', () => {
  it('edits the store text through the core\'s format-preserving edit when no editor is loaded', () => {
    const store = createWorkbenchStore(doc([['user', USER], ['workspace', WORK]]));
    const r = store.getState().setToolAvailability('a', 'discoverable');
    expect(r).toEqual({ ok: true, layer: 'workspace', index: 1, changed: true });
    expect(store.getState().doc.layers[1]?.text).toBe(WORK.replace('enable = { state = false } # legacy', 'enable = { availability = "discoverable" } # legacy'));
    expect(store.getState().selectedLayer).toBe(1);
    expect(store.getState().revealRequest).toMatchObject({ index: 1, line: 3, focus: false });
  });

  it('goes through the editor bridge as one splice when the editor is loaded', () => {
    const store = createWorkbenchStore(doc([['workspace', WORK]]));
    const splices: unknown[] = [];
    const bridge: LayerEditorBridge = {
      textOf: (i) => store.getState().doc.layers[i]?.text,
      applySplice: (i, s) => {
        splices.push({ i, ...s });
        return true;
      },
      toolAtCursor: () => undefined,
    };
    store.getState().attachLayerEditor(bridge);
    const r = store.getState().setToolAvailability('b', 'off');
    expect(r.ok).toBe(true);
    expect(splices).toEqual([{ i: 0, start: WORK.length, end: WORK.length, insert: 'enable = { availability = "off" }\n' }]);
    // The editor writes the store itself (through its model's change event): the slice did not.
    expect(store.getState().doc.layers[0]?.text).toBe(WORK);
    store.getState().detachLayerEditor(bridge);
    expect(store.getState().layerEditor).toBeUndefined();
  });

  it('an edit that changes nothing reports changed: false', () => {
    const store = createWorkbenchStore(doc([['user', '[conversation.tools.x]\nenable = { availability = "on" }\n']]));
    const rev = store.getState().revision;
    expect(store.getState().setToolAvailability('x', 'on')).toMatchObject({ ok: true, changed: false });
    expect(store.getState().revision).toBe(rev);
  });

  it('refuses builtins and broken layers with a banner', () => {
    const store = createWorkbenchStore(doc([['user', '[conversation.tools.x\n']]));
    expect(store.getState().setToolAvailability('describe_tools', 'off').ok).toBe(false);
    const r = store.getState().setToolAvailability('x', 'off');
    expect(r.ok).toBe(false);
    expect(store.getState().banner?.kind).toBe('error');
  });

  it('allow_toggle through the same path', () => {
    const store = createWorkbenchStore(doc([['user', '[conversation.tools.x]\nenable = "discoverable"\n']]));
    store.getState().setToolEnableField('x', 'allow_toggle', 'if_named');
    expect(store.getState().doc.layers[0]?.text).toBe('[conversation.tools.x]\nenable = { availability = "discoverable", allow_toggle = "if_named" }\n');
  });
});

describe('revealInLayer', () => {
  it('selects the layer by name and asks the editor for the line', () => {
    const store = createWorkbenchStore(doc([['user', USER], ['workspace', WORK]]));
    expect(store.getState().revealInLayer('workspace', 5, 2)).toBe(true);
    expect(store.getState().selectedLayer).toBe(1);
    const req = store.getState().revealRequest;
    expect(req).toMatchObject({ index: 1, line: 5, column: 2, focus: true });
    store.getState().consumeReveal(req?.seq ?? -1);
    expect(store.getState().revealRequest).toBeUndefined();
    expect(store.getState().revealInLayer('nope', 1)).toBe(false);
  });
});
