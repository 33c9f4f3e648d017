// What request.ts decides that a user sees in a request: under Anthropic directives, the availability
// messages it appends when a request is sent (the first request announces the offered set, later ones
// only what was added and removed since, nothing when nothing changed), and the system prompt with
// `categories_prompt` (the searchable tools of the design as written, a `groups` entry naming a line).
import { describe, expect, it } from 'vitest';
import { CATEGORIES_HEADING } from '../tasks/categories';
import { SYSTEM_PROMPT } from './request';
import { layer, run, search, turn } from './test-kit';
import type { Timeline } from './timeline';

const TOOLS = layer({
  read_file: { enable: '"on"', summary: 'Read a file.' },
  deploy: { summary: 'Deploy it.' },
  lint: { enable: '"on"', summary: 'Lint it.' },
  page: { summary: 'Page someone.' },
});

describe('availability messages under Anthropic directives', () => {
  it('announce the offered set once, then additions and removals, and nothing when the set is unchanged', () => {
    const t = run({
      policy: { ranking: 'substring', provider: 'anthropic-directives' },
      layer: TOOLS,
      body: [turn('jp q one', [[search('deploy')]]), turn('jp q -T lint -t page two', []), turn('jp q three', [])].join('\n'),
    });
    const blocks = t.requests.map((r) => r.messages.filter((m) => m.kind === 'tool-availability').map((m) => m.blocks));
    const first = [{ type: 'tool_availability', tools: ['read_file', 'lint', 'describe_tools', 'search_tools'] }];
    const promoted = [{ type: 'tool_addition', tools: ['deploy'] }];
    const swapped = [
      { type: 'tool_addition', tools: ['page'] },
      { type: 'tool_removal', tools: ['lint'] },
    ];
    expect(blocks).toEqual([[first], [first, promoted], [first, promoted, swapped], [first, promoted, swapped]]);
    // The fixed array stays every resolvable tool; only the messages move.
    for (const r of t.requests) expect(r.array).toEqual(['read_file', 'deploy', 'lint', 'page', 'describe_tools', 'search_tools']);
  });

  it('leave a tool whose source does not resolve out of the fixed array, on or not', () => {
    const workspace = layer({
      read_file: { enable: '"on"', summary: 'Read a file.' },
      ghost: { enable: '"on"', source: '"mcp.nowhere"', summary: 'Ghost.' },
      ghost_too: { source: '"mcp.nowhere"', summary: 'Ghost too.' },
      deploy: { summary: 'Deploy it.' },
    });
    const t = run({ policy: { ranking: 'substring', provider: 'anthropic-directives' }, layer: workspace, body: turn('jp q one', []) });
    const r = t.requests[0];
    expect(r?.array).toEqual(['read_file', 'deploy', 'describe_tools', 'search_tools']);
    expect([...(r?.definitions.keys() ?? [])]).toEqual(['read_file', 'deploy', 'describe_tools', 'search_tools']);
    expect(r?.rendered().toolsJson).not.toContain('ghost');
  });
});

const systemOf = (t: Timeline): unknown[] => t.requests.map((r) => (r.rendered().body as { system?: unknown }).system);

describe('the system prompt with categories_prompt', () => {
  it('names the searchable tools of the design as written, by group, prefix or "other", on every request', () => {
    const workspace = `${layer({ read_file: { enable: '"on"', summary: 'Read a file.' }, deploy_app: { summary: 'Deploy an app.' }, deploy_site: { summary: 'Deploy a site.' }, page: { summary: 'Page someone.' } })}
[conversation.tools.solo]
source = "local"
summary = "Solo alert."
groups = ["alerts"]
`;
    const spec = { policy: { ranking: 'substring', categories_prompt: true }, layer: workspace, body: turn('jp q one', [[search('deploy')]]) };
    const t = run(spec);
    const text = `${SYSTEM_PROMPT}\n\n${CATEGORIES_HEADING}\n- deploy (2 tools): app, site\n- other (1 tool): page, someone\n- alerts (1 tool): solo`;
    // The promotion of a deploy tool leaves the prompt as it was (read from position 0).
    expect(t.requests[1]?.sets.searchable).not.toContain('deploy_app');
    expect(systemOf(t)).toEqual([text, text]);
    // Whichever request is rendered first (a panel reads the last one first), the same text.
    const backward = run(spec);
    expect(systemOf({ ...backward, requests: [...backward.requests].reverse() })).toEqual([text, text]);
  });

  it('is the plain prompt when nothing is searchable, or without the policy', () => {
    const onOnly = layer({ read_file: { enable: '"on"', summary: 'Read a file.' } });
    expect(systemOf(run({ policy: { ranking: 'substring', categories_prompt: true }, layer: onOnly, body: turn('jp q one', []) }))).toEqual([SYSTEM_PROMPT]);
    expect(systemOf(run({ policy: { ranking: 'substring' }, layer: layer({ deploy: { summary: 'Deploy.' } }), body: turn('jp q one', []) }))).toEqual([SYSTEM_PROMPT]);
  });
});
