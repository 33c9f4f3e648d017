// The sets' rules for the forced tool (`-u`) and for promotions appended to the tools array
// (promoted_position = "append"), on an engine built from one layer: pure, no scenario run.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import { StreamEngine } from './engine';
import { computeSets, isLockedOff } from './sets';

const LAYER = `[conversation.tools.read]
source = "local"
enable = "on"

[conversation.tools.locked]
source = "local"
enable = { state = false, allow_toggle = "never" }

[conversation.tools.plain_off]
source = "local"
enable = "off"

[conversation.tools.deploy]
source = "local"
enable = "discoverable"

[conversation.tools.lint]
source = "local"
enable = "on"
`;
const engine = new StreamEngine([loadLayer({ name: 'w', text: LAYER })], new Map());
const states = () => engine.currentStates();

describe('the forced tool', () => {
  it('an off tool forced with -u is permitted and offered in its config place; one locked off (allow_toggle never) is not', () => {
    const plain = computeSets(states(), { registered: true, forced: 'plain_off' });
    expect(plain.offered).toEqual(['read', 'plain_off', 'lint', 'describe_tools', 'search_tools']);
    expect(plain.permitted).toEqual(['read', 'plain_off', 'deploy', 'lint', 'describe_tools', 'search_tools']);
    const locked = computeSets(states(), { registered: true, forced: 'locked' });
    expect(locked.offered).toEqual(['read', 'lint', 'describe_tools', 'search_tools']);
    expect(locked.permitted).not.toContain('locked');
  });

  it('locked off means off and allow_toggle never, both', () => {
    const byName = new Map([...states()].map((s) => [s.name, s]));
    expect(['read', 'locked', 'plain_off', 'deploy'].map((n) => isLockedOff(byName.get(n) ?? (undefined as never)))).toEqual([false, true, false, false]);
    // On but never toggled: not locked off, and forcing it changes nothing.
    const pinned = new StreamEngine([loadLayer({ name: 'w', text: '[conversation.tools.pinned]\nsource = "local"\nenable = { availability = "on", allow_toggle = "never" }\n' })], new Map());
    expect([...pinned.currentStates()].map(isLockedOff)).toEqual([false]);
    expect(computeSets(pinned.currentStates(), { registered: false, forced: 'pinned' }).offered).toEqual(['pinned', 'describe_tools']);
  });

  it('a forced discoverable tool is offered, never searchable', () => {
    const s = computeSets(states(), { registered: true, forced: 'deploy' });
    expect(s.offered).toContain('deploy');
    expect(s.searchable).toEqual([]);
    expect(computeSets(states(), { registered: true }).searchable).toEqual(['deploy']);
  });
});

describe('appended promotions', () => {
  it('an appended tool leaves its config place and follows the builtins, in commit order', () => {
    const s = computeSets(states(), { registered: true, appended: ['lint', 'read'] });
    expect(s.offered).toEqual(['describe_tools', 'search_tools', 'lint', 'read']);
  });

  it('an appended name that is not offered (off, unknown, discoverable) is left out', () => {
    const s = computeSets(states(), { registered: false, appended: ['plain_off', 'ghost', 'deploy', 'lint'] });
    expect(s.offered).toEqual(['read', 'describe_tools', 'lint']);
  });

  it('without appended tools the order is the config order, then the builtins', () => {
    expect(computeSets(states(), { registered: true }).offered).toEqual(['read', 'lint', 'describe_tools', 'search_tools']);
    expect(computeSets(states(), { registered: true, appended: [] }).offered).toEqual(['read', 'lint', 'describe_tools', 'search_tools']);
  });
});
