// Task runs on small hand-made catalogues: the outcome rules (read from a timeline), each policy as a
// function of its input, the categories section, and the summary line the command line prints.
import { describe, expect, it } from 'vitest';
import { makeTool } from '../providers/test-helpers';
import type { AutoCall, AutoInput, AutoTool } from '../model/auto';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { call, layer, run, scenarioText, search, turn } from '../turn/test-kit';
import type { ScenarioSpec, ToolSpec } from '../turn/test-kit';
import { IndexCache, runScenario } from '../turn/run';
import { categoriesOf, matchingCategory, namePrefix } from './categories';
import { taskOutcome } from './outcome';
import { auto, categories, never, request } from './policies';
import { runTasks } from './run';
import { resultsCsv, resultsJsonl, searchRatios, summaryLine } from './summary';
import type { PolicyName, TaskRun } from './types';

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file from the workspace.' },
  deploy_staging: { summary: 'Deploy a branch to the staging environment.' },
  sentry_list_issues: { summary: 'List the error issues Sentry recorded.' },
  lint: { enable: '"off"', summary: 'Lint the code.' },
  admin: { enable: '"on"', summary: 'Administer the workbench.' },
};

function scenarioOf(spec: Partial<ScenarioSpec> = {}): Scenario {
  const p = parseScenario(scenarioText({ policy: { ranking: 'bm25' }, layer: layer(TOOLS), body: '', ...spec }));
  if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
  return p.scenario;
}

const indexCache = new IndexCache();
const runner = (s: Scenario) => runScenario({ scenario: s, indexCache });
const play = (policy: PolicyName, tasks: { query: string; relevant: string[] }[], spec?: Partial<ScenarioSpec>, categoriesOn = false): TaskRun =>
  runTasks(scenarioOf(spec), runner, tasks, { policy, categories: categoriesOn });

describe('the outcome rules', () => {
  // One turn, no search unless the row says so, read through taskOutcome: each row one rule of decide().
  const ROWS: readonly (readonly [string, string, { hide?: boolean; run?: string; search?: string }, readonly string[], readonly string[]])[] = [
    ['every needed tool offered', 'met-up-front', {}, ['read_file', 'admin'], ['offered', 'offered']],
    ['one needed tool offered, one only discoverable, no search', 'silent-miss', {}, ['read_file', 'deploy_staging'], ['offered', 'discoverable']],
    ['one offered, one discoverable and found', 'met-by-search', { search: 'deploy' }, ['read_file', 'deploy_staging'], ['offered', 'discoverable']],
    ['hide_unapproved and a needed tool that asks: no search can find it', 'impossible', { hide: true }, ['deploy_staging'], ['off']],
    ['hide_unapproved and a needed tool that asks, searched for', 'impossible', { hide: true, search: 'deploy' }, ['deploy_staging'], ['off']],
    ['hide_unapproved and a needed tool that runs unattended: findable', 'silent-miss', { hide: true, run: 'unattended' }, ['deploy_staging'], ['discoverable']],
    ['without hide_unapproved a tool that asks is findable', 'silent-miss', { run: 'ask' }, ['deploy_staging'], ['discoverable']],
  ];
  it.each(ROWS)('%s → %s', (_what, outcome, row, relevant, states) => {
    const tools = { ...TOOLS, deploy_staging: { ...TOOLS.deploy_staging, run: row.run ?? 'ask' } };
    const t = run({ policy: { ranking: 'substring', hide_unapproved: row.hide ?? false }, layer: layer(tools), body: turn('jp q ship it', row.search ? [[search(row.search)]] : []) });
    const o = taskOutcome(t, 1, { query: 'ship it', relevant: [...relevant] });
    expect(o.needed.map((n) => n.state)).toEqual(states);
    expect(o.outcome).toBe(outcome);
    if (outcome === 'met-by-search') expect(o.reason).toBe('search_tools promoted deploy_staging');
  });

  it('a turn that did not start: every needed tool unknown, the step\'s error as the reason', () => {
    const t = run({ policy: { ranking: 'substring' }, layer: layer(TOOLS), body: turn("jp q -u nosuch 'ship it'", []) });
    const o = taskOutcome(t, 1, { query: 'ship it', relevant: ['deploy_staging', 'deploy_staging'] });
    const error = t.steps[0]?.error;
    expect(error).toBeTruthy();
    expect(o).toEqual({
      outcome: 'impossible',
      reason: `the turn did not start: ${error}`,
      needed: [{ name: 'deploy_staging', state: 'unknown', promoted: false, reached: false, called: false }],
      searched: false,
      queries: [],
      error,
    });
  });

  it('a task names an MCP tool by its name on the server: it is the configured tool that imports it', () => {
    const servers = '[servers.srv]\ntools = [ { name = "PDF&URLTool", description = "Read a PDF at a URL.", inputSchema = { type = "object" } }, { name = "other", description = "Other.", inputSchema = { type = "object" } } ]\n';
    const tools = { ...TOOLS, other_tool: { source: '"mcp.srv.other"' }, pdf_url: { source: '"mcp.srv.PDF&URLTool"', summary: 'Read a PDF at a URL.' } };
    const t = run({ policy: { ranking: 'substring' }, layer: layer(tools), body: servers + turn('jp q read it', [[search('pdf')]]) });
    const o = taskOutcome(t, 1, { query: 'read it', relevant: ['PDF&URLTool', 'read_file'] });
    expect(o.needed.map((n) => [n.name, n.asked, n.state])).toEqual([
      ['pdf_url', 'PDF&URLTool', 'discoverable'],
      ['read_file', undefined, 'offered'],
    ]);
    expect(o.needed[0]).toMatchObject({ rank: 1, foundBy: 'pdf', promoted: true, reached: true, called: false });
    expect(o.outcome).toBe('met-by-search');
    expect(o.queries).toEqual(['pdf']);
  });

  it('a needed tool that is off: impossible, and no search ever returns it', () => {
    const r = play('auto', [{ query: 'Lint the code please', relevant: ['lint'] }]).results[0];
    expect(r?.outcome).toBe('impossible');
    expect(r?.needed).toEqual([{ name: 'lint', state: 'off', promoted: false, reached: false, called: false }]);
    expect(r?.reason).toBe('lint is off');
  });

  it('a promotion folded off by an approved write in the same cycle: promoted at rank 1, never offered, a silent miss', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer(TOOLS),
      body: turn('jp q ship it', [[search('deploy'), call('admin', 'writes = ["conversation.tools.deploy_staging.enable=off"], approved = true')]]),
    });
    const o = taskOutcome(t, 1, { query: 'ship it', relevant: ['deploy_staging'] });
    expect(o.outcome).toBe('silent-miss');
    expect(o.needed[0]).toMatchObject({ state: 'discoverable', rank: 1, foundBy: 'deploy', promoted: true, reached: false });
    expect(o.reason).toContain('promoted (rank 1) but never offered');
    expect(o.queries).toEqual(['deploy']);
  });

  it('the same search without the write: met by search, the tool offered in the next request', () => {
    const t = run({ policy: { ranking: 'substring' }, layer: layer(TOOLS), body: turn('jp q ship it', [[search('deploy')]]) });
    expect(taskOutcome(t, 1, { query: 'ship it', relevant: ['deploy_staging'] })).toMatchObject({ outcome: 'met-by-search', searched: true });
  });

  it('a needed tool already offered: met up front, without a search', () => {
    const r = play('auto', [{ query: 'read the file README.md', relevant: ['read_file'] }]).results[0];
    expect(r).toMatchObject({ outcome: 'met-up-front', searched: false, queries: [] });
    expect(r?.needed[0]).toMatchObject({ state: 'offered', reached: true, called: true });
  });

  it('a discoverable tool the model never searches for is a silent miss; the one it finds is met by search', () => {
    const task = { query: 'Deploy the main branch to staging', relevant: ['deploy_staging'] };
    expect(play('never', [task]).results[0]).toMatchObject({ outcome: 'silent-miss', searched: false, reason: 'deploy_staging was discoverable and the model never searched' });
    const found = play('auto', [task]).results[0];
    expect(found).toMatchObject({ outcome: 'met-by-search', searched: true });
    expect(found?.needed[0]).toMatchObject({ rank: 1, promoted: true, reached: true, called: true });
  });

  it('names the catalogue lacks are impossible and reported by name; a tool of a server that is down is impossible', () => {
    const r = play('auto', [{ query: 'deploy', relevant: ['nope'] }, { query: 'deploy again', relevant: ['nope', 'deploy_staging'] }]);
    expect(r.results.map((x) => x.outcome)).toEqual(['impossible', 'impossible']);
    expect(r.unknownNames).toEqual([{ name: 'nope', tasks: 2 }]);
    const down = play('auto', [{ query: 'list the jobs', relevant: ['ci_jobs'] }], {
      layer: layer({ ...TOOLS, ci_jobs: { source: '"mcp.ci"', summary: 'List jobs.' } }),
      body: '[servers.ci]\nstatus = "offline"\ntools = []\n',
    });
    expect(down.results[0]).toMatchObject({ outcome: 'impossible', needed: [{ name: 'ci_jobs', state: 'down' }] });
  });

  it('each task runs on a scratch copy: earlier steps apply, no task sees another task\'s promotion', () => {
    const spec = { body: turn('jp q go', [[search('sentry')]]) };
    const r = play('never', [{ query: 'List the Sentry error issues', relevant: ['sentry_list_issues'] }, { query: 'Deploy to staging', relevant: ['deploy_staging'] }, { query: 'Deploy to staging now', relevant: ['deploy_staging'] }], spec);
    // The scenario's own step promoted sentry_list_issues: offered up front for every task.
    expect(r.results.map((x) => x.outcome)).toEqual(['met-up-front', 'silent-miss', 'silent-miss']);
    const a = play('auto', [{ query: 'Deploy to staging', relevant: ['deploy_staging'] }, { query: 'Deploy to staging', relevant: ['deploy_staging'] }]);
    expect(a.results.map((x) => x.outcome)).toEqual(['met-by-search', 'met-by-search']);
  });

  it('a search_tools call that fails (a query over 1,000 characters) is still a search; the reason says so', () => {
    const long = `Deploy ${'the branch '.repeat(110)}to staging`;
    const r = play('request', [{ query: long, relevant: ['deploy_staging'] }]).results[0];
    expect(r).toMatchObject({ outcome: 'silent-miss', searched: true, queries: [long] });
    expect(r?.reason).toContain('search_tools answered with an error (query is too long');
  });

  it('a request with quotes and dashes is the turn\'s query word for word (quoted for jp q, never read as flags)', () => {
    const r = play('request', [{ query: "it's -u nope \"deploy\" staging", relevant: ['deploy_staging'] }]);
    expect(r.results[0]?.error).toBeUndefined();
    expect(r.results[0]?.queries).toEqual(["it's -u nope \"deploy\" staging"]);
  });
});

const str = (description: string) => ({ type: 'string', description });
const deploy = makeTool('deploy_staging', 'Deploy a branch to the staging environment.', [{ name: 'branch', schema: str('Branch to deploy.'), required: true }]);
const readFile = makeTool('read_file', 'Read a file from the workspace.', [{ name: 'path', schema: str('Path to read.'), required: true }]);
const searchTool = makeTool('search_tools', 'Search the available tools by keyword.');
const tool = (def: typeof deploy, offered: boolean): AutoTool => ({ name: def.name, offered, definition: def });
const input = (query: string, calls: AutoCall[] = []): AutoInput => ({ query, tools: [tool(readFile, true), tool(searchTool, true), tool(deploy, false)], calls, cycles: calls.length });
const searched = (query: string, names: string[]): AutoCall => ({ tool: 'search_tools', status: 'ok', result: '', search: { query, returned: names.map((name) => ({ name, status: 'usable' as const })) } });
const section = categoriesOf([{ name: 'deploy_staging', definition: deploy }, { name: 'deploy_prod', definition: makeTool('deploy_prod', 'Deploy to production.') }]);

describe('the policies', () => {
  it('never: calls a covering offered tool, and never searches', () => {
    expect(never(input('read the file README.md'), { limit: 3 })).toMatchObject({ kind: 'call', tool: 'read_file' });
    const a = never(input('Deploy the main branch to staging'), { limit: 3 });
    expect(a.kind).toBe('reply');
    expect(a.why).toContain('never searches');
  });

  it('request: searches once with the request\'s own words at the run\'s limit, then calls what fits or replies', () => {
    expect(request(input('Deploy the main branch to staging'), { limit: 7 })).toMatchObject({ kind: 'search', query: 'Deploy the main branch to staging', limit: 7 });
    expect(request(input('ok'), { limit: 7 })).toMatchObject({ kind: 'search', query: 'ok' });
    expect(request(input('read the file README.md'), { limit: 7 })).toMatchObject({ kind: 'call', tool: 'read_file' });
    expect(request(input('Deploy the main branch to staging', [searched('Deploy the main branch to staging', [])]), { limit: 7 })).toMatchObject({ kind: 'reply', why: expect.stringContaining('searches once only') as unknown });
  });

  it('auto: the auto model, its searches at the run\'s limit', () => {
    expect(auto(input('Deploy the main branch to staging'), { limit: 5 })).toMatchObject({ kind: 'search', query: 'deploy main branch staging', limit: 5 });
  });

  it('categories: searches only when the request names a category of the prompt\'s section', () => {
    expect(categories(input('Deploy the main branch to staging'), { limit: 3, categories: section })).toMatchObject({ kind: 'search', why: expect.stringContaining('"deploy"') as unknown });
    expect(categories(input('Summarise the weather forecast'), { limit: 3, categories: section })).toMatchObject({ kind: 'reply', why: expect.stringContaining('names no category') as unknown });
    expect(categories(input('Deploy the main branch to staging'), { limit: 3 })).toMatchObject({ kind: 'reply', why: expect.stringContaining('names no categories') as unknown });
  });

  it('each is a function of its input', () => {
    for (const p of [never, request, auto, categories]) {
      const i = input('Deploy the main branch to staging');
      expect(p(i, { limit: 3, categories: section })).toEqual(p(structuredClone(i), { limit: 3, categories: section }));
    }
  });
});

describe('the categories section', () => {
  it('groups by config group, then a shared name prefix, then MCP server, then other; one line each', () => {
    const mk = (name: string, summary: string) => makeTool(name, summary);
    const s = categoriesOf([
      { name: 'github_list_issues', definition: mk('github_list_issues', 'List issues of a repository.') },
      { name: 'github_create_issue', definition: mk('github_create_issue', 'Create an issue in a repository.') },
      { name: 'ResearchFinder', definition: mk('ResearchFinder', 'Find research papers.') },
      { name: 'ResearchHelper', definition: mk('ResearchHelper', 'Help with research papers.') },
      { name: 'weather', definition: { ...mk('weather', 'Weather forecasts.'), server: 'meteo' } },
      { name: 'lonely', definition: mk('lonely', 'Does a lonely thing.') },
      { name: 'ops', definition: mk('ops', 'Operations.'), groups: ['infra'] },
    ]);
    expect(s.categories.map((c) => [c.kind, c.key, c.tools.length])).toEqual([['prefix', 'github', 2], ['prefix', 'research', 2], ['server', 'meteo', 1], ['other', 'other', 1], ['group', 'infra', 1]]);
    expect(s.categories[0]?.line).toBe('- github (2 tools): issues, repository, list, create');
    expect(s.text.split('\n')).toHaveLength(6);
    expect(matchingCategory(s, 'Any papers on this?')?.key).toBe('research');
    expect(matchingCategory(s, 'hello there')).toBeUndefined();
    expect(namePrefix('PDF&URLTool')).toBe('pdf&urltool');
    expect(categoriesOf([]).text).toBe('');
  });

  it('the categories policy searches with the section on, and stays silent without it', () => {
    const task = [{ query: 'Deploy the main branch to staging', relevant: ['deploy_staging'] }];
    expect(play('categories', task, undefined, true).results[0]?.outcome).toBe('met-by-search');
    expect(play('categories', task, undefined, false).results[0]?.outcome).toBe('silent-miss');
  });
});

describe('the summary and exports', () => {
  it('prints the line the issue asks for, with the search rate over the turns a search would have helped', () => {
    const r = play('auto', [
      { query: 'read the file README.md', relevant: ['read_file'] },
      { query: 'Deploy the main branch to staging', relevant: ['deploy_staging'] },
      { query: 'Lint the code please', relevant: ['lint'] },
    ]);
    // Each ratio names its denominator (issue 24.7): all tasks, then the tasks a search would have helped.
    expect(summaryLine(r.summary)).toBe('tasks 3: met up front 1, met by search 1, silent misses 0, impossible 1; searched in 2 of 3 tasks; search rate 100% (searched in 1 of the 1 task a search would have helped)');
    expect(r.summary.searchedWhenHelpful).toBe(1);
    const n = play('never', [{ query: 'Deploy the main branch to staging', relevant: ['deploy_staging'] }]);
    expect(summaryLine(n.summary)).toBe('tasks 1: met up front 0, met by search 0, silent misses 1, impossible 0; searched in 0 of 1 task; search rate 0% (searched in 0 of the 1 task a search would have helped)');
    expect(searchRatios(n.summary, (x) => `${Math.round(x * 100)}%`)).toEqual({
      searched: 'searched in 0 of 1 task',
      rate: 'search rate 0% (searched in 0 of the 1 task a search would have helped)',
    });
  });

  it('exports JSONL (one object a task) and CSV (quoted, formulas defused)', () => {
    const r = play('never', [{ query: '=cmd, "quoted"', relevant: ['deploy_staging'] }]);
    const lines = resultsJsonl(r).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { outcome: string }).outcome)).toEqual(['silent-miss']);
    const csv = resultsCsv(r).split('\r\n');
    expect(csv[0]).toBe('policy,categories,query,relevant,outcome,searched,queries,ranks,states,reason,tokens,all_on_tokens');
    expect(csv[1]?.startsWith('never,false,"\'=cmd, ""quoted""",deploy_staging,silent miss,false,,none,discoverable,')).toBe(true);
  });
});
