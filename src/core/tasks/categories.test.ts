// The categories section a model reads in its system prompt: which category each searchable tool
// falls in, the words that summarise a category, the text itself, and the tools it is built from.
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../catalogue/types';
import { makeTool } from '../providers/test-helpers';
import { parseScenario } from '../scenario/parse';
import { layer, scenarioText, turn } from '../turn/test-kit';
import { runScenario } from '../turn/run';
import { CATEGORIES_HEADING, categoriesOf, categoryToolsAt, matchingCategory, namePrefix } from './categories';
import type { CategoryTool } from './categories';

const t = (name: string, summary: string, more: Partial<CategoryTool> = {}, def: Partial<ToolDefinition> = {}): CategoryTool => ({ name, definition: { ...makeTool(name, summary), ...def }, ...more });
const lines = (tools: CategoryTool[]) => categoriesOf(tools).categories.map((c) => c.line);

describe('namePrefix', () => {
  it('the first word of a name: up to _, - or ., or a lower-to-upper case change', () => {
    expect(['github_list_issues', 'sentry-issues', 'fs.read', 'getFile', 'ResearchFinder', 'HTTPGetUrl', 'v2Api', 'plain'].map(namePrefix)).toEqual([
      'github', 'sentry', 'fs', 'get', 'research', 'httpgeturl', 'v2', 'plain',
    ]);
  });
});

describe('the category of a tool', () => {
  it('a config group wins: a string or the first non-blank string of a list, trimmed; a blank one does not count', () => {
    const s = categoriesOf([
      t('a_one', 'Alpha work.', { groups: '  infra ' }),
      t('a_two', 'Alpha work.', { groups: ['', 3, ' ops ', 'later'] }),
      t('b_one', 'Beta work.', { groups: '   ' }),
      t('b_two', 'Beta work.', { groups: [] }),
      t('c_one', 'Gamma work.', { groups: ['  ', 7] }),
    ]);
    // b is one letter: not a prefix category; a blank group or a list of blanks is no group.
    expect(s.categories.map((c) => [c.kind, c.key, c.tools])).toEqual([
      ['group', 'infra', ['a_one']],
      ['group', 'ops', ['a_two']],
      ['other', 'other', ['b_one', 'b_two', 'c_one']],
    ]);
  });

  it('a prefix is a category when two or more ungrouped tools share it and it has two letters at least', () => {
    const s = categoriesOf([
      t('gh_issue', 'Open an issue.'),
      t('gh_pull', 'Open a pull request.'),
      t('x_one', 'First thing.'),
      t('x_two', 'Second thing.'),
      t('ops_deploy', 'Deploy a service.', { groups: 'infra' }),
      t('ops_restart', 'Restart a service.'),
    ]);
    // x is one letter: no category; ops_deploy is in its group, so ops_restart shares its prefix with no one.
    expect(s.categories.map((c) => [c.kind, c.key, c.tools])).toEqual([
      ['prefix', 'gh', ['gh_issue', 'gh_pull']],
      ['other', 'other', ['x_one', 'x_two', 'ops_restart']],
      ['group', 'infra', ['ops_deploy']],
    ]);
  });

  it('a lone tool of an MCP server is in its server\'s category; a lone local tool in "other"', () => {
    const s = categoriesOf([t('forecast', 'Weather forecasts.', {}, { server: 'meteo' }), t('lonely', 'Does a lonely thing.')]);
    expect(s.categories.map((c) => [c.kind, c.key])).toEqual([['server', 'meteo'], ['other', 'other']]);
  });
});

describe('the words of a category', () => {
  it('the most frequent keywords first, ties in order of first appearance, the key\'s own words and numbers left out, six at most', () => {
    const s = categoriesOf([
      t('db_query', 'Query rows of the table. Report rows.'),
      t('db_insert', 'Insert rows into the table.'),
      t('db_export', 'Export table rows as csv files with ipv6 3dmodel 2024 addresses.'),
    ]);
    const c = s.categories[0];
    // rows and table are in all three tools; then, once each, in order: query, report, insert, export (csv is the
    // seventh; db is the key).
    expect(c?.words).toEqual(['rows', 'table', 'query', 'report', 'insert', 'export']);
    expect(c?.line).toBe('- db (3 tools): rows, table, query, report, insert, export');
    const numbers = categoriesOf([t('zz_a', 'ipv6 3dmodel 2024'), t('zz_b', 'ipv6')]).categories[0];
    expect(numbers?.words).toEqual(['ipv6', '3dmodel']);
  });

  it('a camelCase name counts as its words; a tool\'s summary, else its schema description, else its description', () => {
    const finder = t('ResearchFinder', 'Locate papers.');
    const helper = t('ResearchHelper', 'Assist.');
    expect(categoriesOf([finder, helper]).categories[0]?.words).toEqual(['finder', 'locate', 'papers', 'helper', 'assist']);
    const bySchema = t('zz_a', '', {}, { docs: { parameters: new Map() }, schemaDescription: 'Schema words.' });
    const byDescription = t('zz_b', '', {}, { docs: { description: 'Described here.', parameters: new Map() }, schemaDescription: undefined });
    const summaryFirst = t('zz_c', '', {}, { docs: { summary: 'Summary text.', description: 'Ignored description.', parameters: new Map() }, schemaDescription: 'Ignored schema.' });
    expect(categoriesOf([bySchema, byDescription, summaryFirst]).categories[0]?.words).toEqual(['schema', 'words', 'described', 'summary', 'text']);
  });

  it('a category whose tools say nothing: "no summary"; one tool is "1 tool"', () => {
    const none = t('zz', '', {}, { docs: { parameters: new Map() }, schemaDescription: undefined, server: 'srv' });
    expect(lines([none])).toEqual(['- srv (1 tool): no summary']);
  });
});

describe('the section', () => {
  it('the heading and a line per category, in the order of each category\'s first tool', () => {
    const s = categoriesOf([t('lonely', 'Does a lonely thing.'), t('gh_issue', 'Open an issue.'), t('gh_pull', 'Open a pull request.')]);
    expect(s.text).toBe([CATEGORIES_HEADING, '- other (1 tool): lonely, thing', '- gh (2 tools): open, issue, pull, request'].join('\n'));
    expect(s.categories.map((c) => c.tools)).toEqual([['lonely'], ['gh_issue', 'gh_pull']]);
  });

  it('built again when anything it shows changes: a summary, a server, a group', () => {
    const a = t('gh_issue', 'Open an issue.');
    const b = t('gh_pull', 'Open a pull request.');
    expect(lines([a, b])).toEqual(['- gh (2 tools): open, issue, pull, request']);
    expect(lines([a, t('gh_pull', 'Merge a branch.')])).toEqual(['- gh (2 tools): issue, open, pull, merge, branch']);
    expect(lines([t('solo', 'One.'), t('zeta', 'Zed.')])).toEqual(['- other (2 tools): solo, zeta, zed']);
    expect(lines([t('solo', 'One.', {}, { server: 's1' }), t('zeta', 'Zed.')])).toEqual(['- s1 (1 tool): solo', '- other (1 tool): zeta, zed']);
    expect(lines([t('solo', 'One.', {}, { server: 's2' }), t('zeta', 'Zed.')])).toEqual(['- s2 (1 tool): solo', '- other (1 tool): zeta, zed']);
    expect(lines([t('solo', 'One.', { groups: 'g' }), t('zeta', 'Zed.')])).toEqual(['- g (1 tool): solo', '- other (1 tool): zeta, zed']);
    expect(lines([t('solo', 'One.', { groups: 'h' }), t('zeta', 'Zed.')])).toEqual(['- h (1 tool): solo', '- other (1 tool): zeta, zed']);
    expect(lines([a, b])).toEqual(['- gh (2 tools): open, issue, pull, request']);
  });

  it('a request names a category by a word of its key or its summary (by stem); no keywords, no category', () => {
    const s = categoriesOf([t('github_issue', 'Open an issue.'), t('github_pull', 'Open a pull request.'), t('forecast', 'Weather.', {}, { server: 'meteo' })]);
    expect(matchingCategory(s, 'any GitHub news?')?.key).toBe('github');
    expect(matchingCategory(s, 'the weather, please')?.key).toBe('meteo');
    expect(matchingCategory(s, 'pulling requests')?.key).toBe('github');
    expect(matchingCategory(s, 'to be or not')).toBeUndefined();
  });
});

describe('categoryToolsAt', () => {
  const scenario = (body: string) => {
    const p = parseScenario(scenarioText({
      policy: { ranking: 'bm25' },
      layer: layer({
        read_file: { enable: '"on"', summary: 'Read a file.' },
        gh_issue: { summary: 'Open an issue.' },
        gh_pull: { summary: 'Open a pull request.' },
        broken: { source: '"mcp.nowhere.thing"' },
      }).replace('[conversation.tools.gh_issue]\n', '[conversation.tools.gh_issue]\ngroups = ["tracker"]\n'),
      body,
    }));
    if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
    return runScenario({ scenario: p.scenario });
  };

  it('the searchable tools with their definitions and config groups; a tool whose definition does not resolve is left out', () => {
    const tools = categoryToolsAt(scenario(''));
    expect(tools.map((x) => [x.name, x.groups])).toEqual([['gh_issue', ['tracker']], ['gh_pull', undefined]]);
    expect(tools.map((x) => x.definition.docs.summary)).toEqual(['Open an issue.', 'Open a pull request.']);
    expect(Object.keys(tools[1] ?? {})).not.toContain('groups');
  });

  it('at a position, the end by default, clamped to the run', () => {
    const tl = scenario('[[steps]]\ncommand = "jp config set conversation.tools.gh_pull.enable=on"\n' + turn('jp q hi', []));
    expect(categoryToolsAt(tl, 0).map((x) => x.name)).toEqual(['gh_issue', 'gh_pull']);
    expect(categoryToolsAt(tl).map((x) => x.name)).toEqual(['gh_issue']);
    expect(categoryToolsAt(tl, 999).map((x) => x.name)).toEqual(['gh_issue']);
    expect(categoryToolsAt(tl, -5).map((x) => x.name)).toEqual(['gh_issue', 'gh_pull']);
  });
});
