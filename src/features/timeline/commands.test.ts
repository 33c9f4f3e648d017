// The palette lists what can run now: the undo of a step deletion only while there is one to undo.
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../../core';
import type { ScenarioDoc } from '../../core';
import { createCommands } from '../../app/commands';
import { createWorkbenchStore } from '../../state/store';

const doc = (commands: string[]): ScenarioDoc => ({ ...EMPTY_DOC, name: 'a', layers: [], servers: [], steps: commands.map((command) => ({ command, cycles: [] })) });
const UNDO = 'timeline.undoDelete';

describe('the palette and the undo of a step deletion', () => {
  it('is not offered with nothing to undo, is offered after a deletion, and goes once the document moved on', async () => {
    const registry = createCommands();
    const store = createWorkbenchStore(doc(['one', 'two']));
    const offered = () => registry.list({ store }).some((c) => c.id === UNDO);
    expect(offered()).toBe(false);

    store.getState().deleteStep(0);
    expect(offered()).toBe(true);
    await registry.run(UNDO, { store });
    expect(store.getState().doc.steps.map((s) => s.command)).toEqual(['one', 'two']);
    expect(offered()).toBe(false);

    store.getState().deleteStep(1);
    expect(offered()).toBe(true);
    store.getState().addStep({ command: 'three', cycles: [] });
    expect(offered()).toBe(false);
  });
});
