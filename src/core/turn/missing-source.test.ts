import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario/report';

describe('a tool without source', () => {
  it('is read as local, with a warning at its declaration', () => {
    const r = checkScenario('ns.toml', `name = "no source"
[[layers]]
name = "workspace"
text = '''
# first line
[conversation.tools.a]
summary = "A."
'''
[[steps]]
command = "jp q x"
[steps.expect]
offered = ["a", "describe_tools"]
`);
    expect(r.failures).toEqual([]);
    const w = r.timeline?.diagnostics.find((d) => d.code === 'missing-source');
    expect(w).toMatchObject({ severity: 'warning', layer: 'workspace', line: 2 });
    expect(w?.message).toContain('no `source`');
  });
});
