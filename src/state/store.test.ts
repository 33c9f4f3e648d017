import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { createWorkbenchStore, liveStepUndo } from './store';

const doc = (name: string, commands: string[]): ScenarioDoc => ({ ...EMPTY_DOC, name, layers: [], servers: [], steps: commands.map((command) => ({ command, cycles: [] })) });
const commands = (d: ScenarioDoc) => d.steps.map((s) => s.command);

describe('the undo of a deleted step (issue 24.1)', () => {
  it('puts the step back where it was while the document is the revision the deletion made', () => {
    const store = createWorkbenchStore(doc('a', ['one', 'two', 'three']));
    store.getState().deleteStep(1);
    expect(commands(store.getState().doc)).toEqual(['one', 'three']);
    expect(liveStepUndo(store.getState())?.index).toBe(1);
    store.getState().undoStepDelete();
    expect(commands(store.getState().doc)).toEqual(['one', 'two', 'three']);
    expect(liveStepUndo(store.getState())).toBeUndefined();
  });

  it('a replacement drops it: undo never inserts into the other document', () => {
    const store = createWorkbenchStore(doc('a', ['one', 'two']));
    store.getState().deleteStep(0);
    store.getState().replaceDoc(doc('b', ['x', 'y', 'z']), { kind: 'demo' });
    expect(store.getState().stepUndo).toBeUndefined();
    store.getState().undoStepDelete();
    expect(commands(store.getState().doc)).toEqual(['x', 'y', 'z']);
  });

  it('any later edit retires it, even when the step count is back where it was', () => {
    const store = createWorkbenchStore(doc('a', ['one', 'two']));
    store.getState().deleteStep(0);
    store.getState().addStep({ command: 'new', cycles: [] });
    expect(liveStepUndo(store.getState())).toBeUndefined();
    store.getState().undoStepDelete();
    expect(commands(store.getState().doc)).toEqual(['two', 'new']);
  });

  it('a replacement also drops the last import\'s undo', () => {
    const store = createWorkbenchStore(doc('a', []));
    store.getState().commitImport({ ...doc('a', []), layers: [{ name: 'imported', text: '' }] }, { layer: 'imported', servers: [] }, 'Imported.');
    expect(store.getState().lastImport).toBeDefined();
    store.getState().replaceDoc({ ...doc('b', []), layers: [{ name: 'imported', text: '# theirs' }] }, { kind: 'demo' });
    expect(store.getState().lastImport).toBeUndefined();
  });

  it('a replacement also drops the open questions\' last flip: its "Flip back" would set the other document\'s switch', () => {
    const store = createWorkbenchStore(doc('a', []));
    store.getState().setLastFlip({ id: 1, key: 'provider', from: 'anthropic', to: 'openai' });
    store.getState().setPolicy('provider', 'openai');
    store.getState().replaceDoc({ ...doc('b', []), policy: { ...EMPTY_DOC.policy, provider: 'openai' } }, { kind: 'demo' });
    expect(store.getState().lastFlip).toBeUndefined();
    // Opening a workspace starts a new document around it: the same.
    store.getState().setLastFlip({ id: 2, key: 'ranking', from: 'bm25', to: 'substring' });
    store.getState().openWorkspace({ source: 'w', files: {} });
    expect(store.getState().lastFlip).toBeUndefined();
  });
});
