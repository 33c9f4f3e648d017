// Provenance must point at the delta that really carries a value, whatever made it.
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario/report';

const SCENARIO = `name = "origins"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"
[conversation.tools.a]
source = "local"
enable = "on"
[conversation.tools.b]
source = "local"
summary = "Bee."
'''
[[steps]]
command = "jp q --cfg conversation.tools.a.run=unattended x"
  [[steps.cycles]]
  calls = [ { tool = "a", args = {}, writes = ["conversation.tools.b.enable=off"], approved = true } ]
  [[steps.cycles]]
  reply = "ok"
[[steps]]
command = "jp q -t b y"
`;

describe('origins of committed values', () => {
  it('a tool write and a directive name their own delta numbers', () => {
    const report = checkScenario('origins.toml', SCENARIO);
    const t = report.timeline;
    if (!t) throw new Error('no timeline');
    const last = t.positions.length - 1;
    const deltas = t.positions.filter((p) => p.event.kind === 'delta');
    expect(deltas.map((p) => (p.event.kind === 'delta' ? p.event.sources : []))).toEqual([['cfg'], ['tool-write'], ['directive']]);
    const afterWrite = t.statesAt(deltas[1]?.index ?? 0).get('b')?.enable.availability.origin;
    expect(afterWrite).toMatchObject({ kind: 'delta', delta: 2, source: 'tool-write' });
    const afterDirective = t.statesAt(last).get('b')?.enable.availability.origin;
    expect(afterDirective).toMatchObject({ kind: 'delta', delta: 3, source: 'directive', detail: '-t b' });
  });
});
