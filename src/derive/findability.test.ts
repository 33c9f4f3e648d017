// The findability method of the derive host: diagnostics at a hard tool's declaration (line and
// column of its table in the layer), quick fixes, notes per MCP server, the cache, and before/after.
import { describe, expect, it } from 'vitest';
import { scenarioDocFromText } from '../core';
import type { ScenarioDoc } from '../core';
import { DeriveHost } from './host';

const text = (notify: string) => `name = "findability"
[policy]
ranking = "substring"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.send_email]
source = "local"
summary = "Send an email to notify people."

[conversation.tools.notify]
source = "local"
${notify}
[conversation.tools.gh_issues]
source = "mcp.github.list_issues"
'''

[servers.github]
tools = [{ name = "list_issues", description = "Issues.", inputSchema = { type = "object" } }]
`;

function doc(t: string): ScenarioDoc {
  const d = scenarioDocFromText(t);
  if (!d.ok) throw new Error(d.errors[0]?.message);
  return d.doc;
}

describe('derive host: findability', () => {
  it('an information diagnostic at the declaration of a tool with no description, with its quick fix', async () => {
    const host = new DeriveHost();
    host.derive({ doc: doc(text('')), revision: 1 });
    const v = await host.call('findability', { revision: 1 });
    const d = v.diagnostics.find((x) => x.message.includes('`notify`'));
    // [conversation.tools.notify] is line 8 of the layer; the tool's key starts at column 21.
    expect(d).toMatchObject({ severity: 'info', code: 'findability', layer: 'workspace', line: 8, column: 21 });
    expect(d?.message).toContain('it has no summary or description');
    expect(v.fixes).toEqual([expect.objectContaining({ tool: 'notify', layer: 'workspace', line: 8, summary: 'Notify.' })]);
    expect(v.declarations.map((x) => x.tool)).toEqual(['send_email', 'notify', 'gh_issues']);
  });

  it('a note per MCP server for its hard-to-find tools', async () => {
    const host = new DeriveHost();
    host.derive({ doc: doc(text('')), revision: 1 });
    expect((await host.call('findability', { revision: 1 })).servers).toEqual([
      { server: 'github', discoverable: 1, words: '1 thinly described', tools: [expect.objectContaining({ name: 'gh_issues', status: 'hard', word: 'thinly described', reason: expect.stringContaining('only 1 words') })] },
    ]);
  });

  it("a server's note counts and words its tools as the findability report does, and says when none is at risk (issue 24.8)", async () => {
    const host = new DeriveHost();
    host.derive({ doc: doc(text('').replace('description = "Issues."', 'description = "List the issues of a GitHub repository, filtered by state, label or assignee."')), revision: 1 });
    const v = await host.call('findability', { revision: 1 });
    const gh = v.report.tools.find((t) => t.name === 'gh_issues');
    expect(gh?.word).toBe('findable');
    expect(v.servers).toEqual([{ server: 'github', discoverable: 1, words: 'none at risk', tools: [] }]);
  });

  it('a description clears the diagnostic; a pinned report gives the change; an unchanged catalogue comes from the cache', async () => {
    const host = new DeriveHost();
    host.derive({ doc: doc(text('')), revision: 1 });
    const before = await host.call('findability', { revision: 1 });
    host.derive({ doc: doc(text('summary = "Page the on-call engineer about an outage."')), revision: 2 });
    const after = await host.call('findability', { revision: 2, baseline: before.report });
    expect(after.diagnostics.some((x) => x.message.includes('`notify`'))).toBe(false);
    expect(after.comparison?.changes.map((c) => [c.name, c.direction])).toEqual([['notify', 'better']]);
    // The same catalogue again (a step edited, say): the cached report, no work.
    expect((await host.call('findability', { revision: 2 })).millis).toBe(0);
  });

  it('tasks from a JSONL text; bad lines are reported', async () => {
    const host = new DeriveHost();
    host.derive({ doc: doc(text('')), revision: 1 });
    const v = await host.call('findability', { revision: 1, tasks: '{"query": "email the team", "relevant": ["send_email"]}\nnope\n' });
    expect(v.report.tasks).toBe(1);
    expect(v.taskErrors).toEqual([expect.stringMatching(/^line 2, column 1: not JSON/u)]);
  });
});
