// A task set run against a bare catalogue: the catalogue becomes a scenario with every tool
// discoverable, on the server the caller names (a tools/list reply) or the catalogue's own servers.
import { describe, expect, it } from 'vitest';
import { writeScenario } from '../scenario/doc';
import { parseScenario } from '../scenario/parse';
import { IndexCache, runScenario } from '../turn/run';
import { allDiscoverableDoc } from './catalogue';
import { runTasks } from './run';

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' } });
const destructive = { ...tool('delete_repo', 'Delete a repository.'), annotations: { destructiveHint: true } };
const TOOLS_LIST = JSON.stringify({ tools: [tool('create_issue', 'Create an issue in a repository.'), tool('list_issues', 'List the issues of a repository.'), tool('list_issues', 'A second copy.'), destructive] });

describe('allDiscoverableDoc', () => {
  it('a tools/list reply: every tool discoverable on the server named by the caller, the duplicate a warning', () => {
    const r = allDiscoverableDoc(TOOLS_LIST, 'gh.json', 'github');
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.doc.name).toBe('gh.json, every tool discoverable');
    expect(r.doc.servers.map((s) => [s.name, s.status, s.tools?.map((t) => t.name)])).toEqual([['github', 'running', ['create_issue', 'list_issues', 'delete_repo']]]);
    expect(r.doc.layers).toHaveLength(1);
    const text = r.doc.layers[0]?.text ?? '';
    expect(text).toContain('[conversation.tools.create_issue]\nsource = "mcp.github.create_issue"\nenable = "discoverable"');
    expect(text).toContain('[conversation.tools.list_issues]\nsource = "mcp.github.list_issues"\nenable = "discoverable"');
    // A destructive tool too: a task set asks whether search finds it, so nothing starts off.
    expect(text).toContain('[conversation.tools.delete_repo]\nsource = "mcp.github.delete_repo"\nenable = "discoverable"');
    expect(text).not.toMatch(/enable = "(on|off)"/u);
    expect(text).toContain('# Now 0 on, 3 discoverable, 0 off.');
    expect(r.doc.steps).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/list_issues.*the first is kept$/u);
  });

  it('a multi-server catalogue keeps its own server names; the caller\'s name is not used', () => {
    const multi = JSON.stringify([{ name: 'live', tools: { 'Ant Tools': { tools: [tool('a', 'A thing.')] }, meteo: { tools: [tool('w', 'Weather.')] } } }]);
    const r = allDiscoverableDoc(multi, 'live.json', 'ignored');
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.doc.servers.map((s) => s.name)).toEqual(['ant_tools', 'meteo']);
    expect(r.doc.layers[0]?.text).toContain('source = "mcp.meteo.w"\nenable = "discoverable"');
    expect(r.warnings).toEqual([]);
  });

  it('a file that is no catalogue: its errors, named by the file, and no document', () => {
    expect(allDiscoverableDoc('{"nope": 1}', 'bad.json', 'x')).toEqual({ ok: false, errors: [expect.stringMatching(/^bad\.json: expected a tools\/list reply/u) as unknown] });
    const r = allDiscoverableDoc('{"tools": [{"name": "a"}]}', 'bad.json', 'x');
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.errors).toEqual(['bad.json: tools[0] ("a"): inputSchema must be an object, got nothing']);
  });

  it('the document runs: a model that never searches misses every task, one that searches finds the tool', () => {
    const r = allDiscoverableDoc(TOOLS_LIST, 'gh.json', 'github');
    if (!r.ok) throw new Error(r.errors.join('; '));
    const parsed = parseScenario(writeScenario(r.doc));
    if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
    const indexCache = new IndexCache();
    const run = (policy: 'never' | 'auto') => runTasks(parsed.scenario, (s) => runScenario({ scenario: s, indexCache }), [{ query: 'Create an issue in the repository', relevant: ['create_issue'] }], { policy });
    expect(run('never').results[0]?.outcome).toBe('silent-miss');
    expect(run('auto').results[0]?.outcome).toBe('met-by-search');
  });
});
