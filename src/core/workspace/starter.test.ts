import { describe, expect, it } from 'vitest';
import { workspaceStarterSteps, workspaceToolNames } from './starter';

describe('the steps a new scenario around a workspace starts with (issue 24.4)', () => {
  it('a workspace without the worked example\'s tools starts with no steps', () => {
    const files = { 'config.toml': '[conversation.tools.notes_search]\nsource = "local"\n' };
    expect([...workspaceToolNames(files)]).toEqual(['notes_search']);
    expect(workspaceStarterSteps(files)).toEqual([]);
  });

  it('one of the two tools is not enough', () => {
    expect(workspaceStarterSteps({ 'a.toml': '[conversation.tools.cargo_test]\nsource = "local"\n' })).toEqual([]);
  });

  it('a workspace that configures every tool the example calls gets it, as a copy of its own', () => {
    const files = {
      'mcp/tools/cargo/test.toml': '[conversation.tools.cargo_test]\nsource = "local"\n',
      'mcp/tools/fs/read_file.toml': '[conversation.tools.fs_read_file]\nsource = "local"\n',
      'notes.md': '[conversation.tools.ignored]\n',
    };
    const [step] = workspaceStarterSteps(files);
    expect(step?.cycles.flatMap((c) => c.calls.map((x) => x.tool))).toEqual(['cargo_test', 'fs_read_file']);
    expect(workspaceStarterSteps(files)[0]).not.toBe(step);
    expect(workspaceToolNames(files).has('ignored')).toBe(false);
  });

  it('a file that does not parse adds no names and does not throw', () => {
    expect(workspaceStarterSteps({ 'config.toml': '[conversation.tools.\n' })).toEqual([]);
  });
});
