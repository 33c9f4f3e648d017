import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { createWorkbenchStore, liveStepUndo } from './store';
import { liveToolListUndo } from './importSlice';

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

describe('a live tool list enters the document only when the user takes it (issue 24.2)', () => {
  const tool = (name: string, description = '') => ({ name, description, inputSchema: { type: 'object' } });
  const withServer = (): ScenarioDoc => ({ ...doc('a', []), servers: [{ name: 'fs', status: 'running', url: 'http://127.0.0.1:1/mcp', tools: [tool('read'), tool('write')] }] });
  const names = (d: ScenarioDoc) => d.servers[0]?.tools.map((t) => t['name']);
  const change = { live: [tool('read'), tool('list')], diff: { added: ['list'], removed: ['write'], changed: [] }, at: 1 };

  it('recording the live list changes nothing in the document', () => {
    const store = createWorkbenchStore(withServer());
    const before = store.getState().revision;
    store.getState().recordServerChange('fs', change);
    expect(names(store.getState().doc)).toEqual(['read', 'write']);
    expect(store.getState().revision).toBe(before);
  });

  it('taking it is one edit, and its undo puts the recorded list back', () => {
    const store = createWorkbenchStore(withServer());
    store.getState().recordServerChange('fs', change);
    const before = store.getState().revision;
    store.getState().takeLiveList('fs');
    expect(names(store.getState().doc)).toEqual(['read', 'list']);
    expect(store.getState().revision).toBe(before + 1);
    expect(liveToolListUndo(store.getState())?.server).toBe('fs');
    store.getState().undoTakeLiveList();
    expect(names(store.getState().doc)).toEqual(['read', 'write']);
    expect(liveToolListUndo(store.getState())).toBeUndefined();
  });

  it('a later edit or a replacement retires the undo', () => {
    const store = createWorkbenchStore(withServer());
    store.getState().recordServerChange('fs', change);
    store.getState().takeLiveList('fs');
    store.getState().setName('renamed');
    store.getState().undoTakeLiveList();
    expect(names(store.getState().doc)).toEqual(['read', 'list']);
    store.getState().takeLiveList('fs');
    store.getState().replaceDoc(withServer(), { kind: 'demo' });
    expect(store.getState().toolListUndo).toBeUndefined();
  });

  it('without a live list there is nothing to take', () => {
    const store = createWorkbenchStore(withServer());
    const before = store.getState().revision;
    store.getState().takeLiveList('fs');
    expect(store.getState().revision).toBe(before);
    expect(names(store.getState().doc)).toEqual(['read', 'write']);
  });
});

describe('the About text of a workspace opened after another (issue 35)', () => {
  it('names the folder opened last, while the text is the one the workbench wrote; an author\'s own text stays', () => {
    const store = createWorkbenchStore(doc('a', []));
    store.getState().openWorkspace({ source: 'proj.zip: proj/.jp', files: {} });
    expect(store.getState().doc.description).toContain('proj.zip');
    store.getState().openWorkspace({ source: '/home/me/proj/.jp', files: {} });
    expect(store.getState().doc.description).toContain('Opened from /home/me/proj/.jp.');
    expect(store.getState().doc.description).not.toContain('proj.zip');

    const own = createWorkbenchStore({ ...doc('b', []), description: 'Our triage setup.', workspace: { path: '.jp' } });
    own.getState().openWorkspace({ source: '/home/me/proj/.jp', files: {} });
    expect(own.getState().doc.description).toBe('Our triage setup.');
  });
});
