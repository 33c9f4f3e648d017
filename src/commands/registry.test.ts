import { describe, expect, it } from 'vitest';
import { EMPTY_DOC } from '../core';
import { createWorkbenchStore } from '../state/store';
import { CommandRegistry } from './registry';

describe('the command registry', () => {
  it('lists and runs the commands a source offers for the current state', async () => {
    const store = createWorkbenchStore({ ...EMPTY_DOC, name: 'n', layers: [], servers: [], steps: [] });
    const ran: string[] = [];
    const registry = new CommandRegistry()
      .register({ id: 'fixed', title: 'Fixed', run: () => void ran.push('fixed') })
      .registerSource(({ store: s }) => [{ id: `named.${s.getState().doc.name}`, title: `Named ${s.getState().doc.name}`, run: () => void ran.push(s.getState().doc.name) }]);
    expect(registry.list().map((c) => c.id)).toEqual(['fixed']);
    expect(registry.list({ store }).map((c) => c.id)).toEqual(['fixed', 'named.n']);
    store.getState().setName('m');
    expect(registry.list({ store }).map((c) => c.id)).toEqual(['fixed', 'named.m']);
    await registry.run('named.m', { store });
    expect(ran).toEqual(['m']);
    expect(() => registry.run('named.n', { store })).toThrow(/no command named\.n/u);
  });
});
