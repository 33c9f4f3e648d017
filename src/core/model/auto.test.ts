import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../catalogue/types';
import { makeTool } from '../providers/test-helpers';
import { fillArguments } from './args';
import type { ParamInfo } from './args';
import { MAX_CYCLES, nextAutoAction, SEARCH_LIMIT } from './auto';
import type { AutoCall, AutoInput, AutoTool } from './auto';
import { actionOf, intentOf, keywords } from './words';

const str = (description: string) => ({ type: 'string', description });
const tool = (def: ToolDefinition, offered: boolean): AutoTool => ({ name: def.name, offered, definition: def });

const fsRead = makeTool('fs_read_file', 'Read a file from the workspace.', [{ name: 'path', schema: str('Path relative to the workspace root.'), required: true }]);
const gitStatus = makeTool('git_status', 'Show the working tree status.');
const jobLogs = makeTool('github_get_job_logs', 'Download the logs of a failed job in a workflow run.', [
  { name: 'owner', schema: str('Repository owner'), required: true },
  { name: 'repo', schema: str('Repository name'), required: true },
  { name: 'job_id', schema: str('The ID of the job') },
]);
const deployStaging = makeTool('deploy_staging', 'Deploy a branch to the staging environment.', [{ name: 'branch', schema: str('Branch to deploy.'), required: true }]);
const linearCreate = makeTool('linear_create_issue', 'Create a Linear issue in a team.', [
  { name: 'team', schema: str('Team key, for example API'), required: true },
  { name: 'title', schema: str('Issue title'), required: true },
  { name: 'description', schema: str('Markdown description') },
]);
const githubCreate = makeTool('github_create_issue', 'Create a new issue in a GitHub repository.', [
  { name: 'owner', schema: str('Repository owner'), required: true },
  { name: 'repo', schema: str('Repository name'), required: true },
  { name: 'title', schema: str('Issue title') },
]);
const search = makeTool('search_tools', 'Search the available tools by keyword and load the matches into context.');

const input = (query: string, tools: AutoTool[], calls: AutoCall[] = [], cycles = calls.length): AutoInput => ({ query, tools, calls, cycles });
const searched = (query: string, returned: [string, 'usable' | 'unavailable'][]): AutoCall => ({
  tool: 'search_tools',
  status: 'ok',
  result: '',
  search: { query, returned: returned.map(([name, status]) => ({ name, status })), total: returned.length },
});

describe('reading a request', () => {
  it.each([
    ['Why did the last deploy of the api fail?', { kind: 'read' }],
    ['Did it raise errors in Sentry?', { kind: 'read' }],
    ['Show me the deploy logs for staging', { kind: 'read' }],
    ['Open a Linear issue for the failing orders test', { kind: 'change', verb: 'create', word: 'open' }],
    ['Deploy main to staging', { kind: 'change', verb: 'deploy', word: 'deploy' }],
    ['please roll back the release', { kind: 'change', verb: 'rollback', word: 'roll' }],
    ['summarise the repo', { kind: 'read' }],
  ])('%s', (request, intent) => {
    expect(intentOf(request)).toEqual(intent);
  });

  it('keeps keywords in order, without stop words, short words or repeats', () => {
    expect(keywords('Why did the last deploy of the API fail? Deploy it quickly!')).toEqual(['deploy', 'api', 'fail', 'quickly']);
    expect(keywords('Größe: café-logs')).toEqual(['größe', 'café', 'logs']);
  });
});

describe('what a tool does', () => {
  it.each([
    [{ name: 'deploy_logs', summary: 'Fetch the logs of the last deploy.' }, { kind: 'read' }],
    [{ name: 'github_rerun_workflow_run', summary: 'Re-run a workflow run.' }, { kind: 'change', verb: 'rerun' }],
    [{ name: 'cargo_check', summary: 'Type-check the Rust workspace.' }, { kind: 'read' }],
    [{ name: 'linear_create_issue', summary: 'A new issue.' }, { kind: 'change', verb: 'create' }],
    [{ name: 'wipe', summary: 'Everything goes.', annotations: { destructiveHint: true } }, { kind: 'change', verb: 'delete' }],
    [{ name: 'delete_cache', summary: 'Delete the cache.', annotations: { readOnlyHint: true } }, { kind: 'read' }],
    [{ name: 'mystery', summary: 'Does things.' }, { kind: 'read' }],
  ])('%j', (t, action) => {
    expect(actionOf(t)).toEqual(action);
  });
});

describe('arguments from the request', () => {
  const p = (name: string, description: string, required = true, type = 'string', extra: Partial<ParamInfo> = {}): ParamInfo => ({ name, type, required, description, ...extra });
  it.each<[string, ParamInfo[], object, string[]]>([
    ['read the file src/orders.rs', [p('path', 'Path to read')], { path: 'src/orders.rs' }, ['request']],
    ['Show me the deploy logs for staging', [p('environment', 'staging or production')], { environment: 'staging' }, ['request']],
    ['List the closed issues', [p('state', 'open, closed or all', false)], { state: 'closed' }, ['request']],
    ['List the issues', [p('state', 'open, closed or all', false)], {}, []],
    ['Open a Linear issue for the failing orders test', [p('team', 'Team key'), p('title', 'Issue title')], { team: '<team>', title: 'Failing orders test' }, ['placeholder', 'request']],
    ["Commit with message 'fix the build'", [p('message', 'The commit message')], { message: 'fix the build' }, ['request']],
    ['Deploy the main branch', [p('branch', 'Branch to deploy')], { branch: 'main' }, ['request']],
    ['Move API-123 to done', [p('issue_id', 'Issue identifier, for example API-123'), p('state', 'Target state name')], { issue_id: 'API-123', state: '<state>' }, ['request', 'placeholder']],
    ['Get job 4711', [p('job_id', 'The job', true, 'integer')], { job_id: 4711 }, ['request']],
    ['anything', [p('n', '', true, 'integer'), p('on', '', true, 'boolean'), p('mode', '', true, 'string', { enum: ['fast', 'slow'] })], { n: 1, on: true, mode: 'fast' }, ['placeholder', 'placeholder', 'placeholder']],
  ])('%s', (request, params, args, from) => {
    const r = fillArguments(request, 'tool', params, keywords(request));
    expect(r.args).toEqual(args);
    expect(r.sources.map((s) => s.from)).toEqual(from);
  });

  it('gives a query parameter the keywords the tool\'s own name lacks', () => {
    expect(fillArguments('Did it raise errors in Sentry?', 'sentry_list_issues', [p('query', 'Sentry search query')], ['raise', 'errors', 'sentry']).args).toEqual({ query: 'raise errors' });
  });
});

describe('the next action', () => {
  it('searches when an offered tool shares only one word with the request (the issue\'s misfire)', () => {
    const a = nextAutoAction(input('Open a Linear issue for the failing orders test', [tool(fsRead, true), tool(jobLogs, true), tool(search, true)]));
    expect(a).toMatchObject({ kind: 'search', query: 'create linear issue failing orders test', limit: SEARCH_LIMIT });
    expect(a.why).toContain('no offered tool covers the request');
  });

  it('searches a question with its keywords when nothing offered holds them', () => {
    const a = nextAutoAction(input('Why did the last deploy of the api fail?', [tool(fsRead, true), tool(gitStatus, true), tool(search, true), tool(jobLogs, false)]));
    expect(a).toMatchObject({ kind: 'search', query: 'deploy api fail' });
  });

  it('calls an offered tool that covers the request, without a search', () => {
    expect(nextAutoAction(input('read the file README.md', [tool(fsRead, true), tool(search, true)]))).toMatchObject({ kind: 'call', tool: 'fs_read_file', args: { path: 'README.md' } });
    expect(nextAutoAction(input('What is the git status?', [tool(fsRead, true), tool(gitStatus, true), tool(search, true)]))).toMatchObject({ kind: 'call', tool: 'git_status', args: {} });
    const order = nextAutoAction(input('Deploy main to staging', [tool(deployStaging, true), tool(search, true)]));
    expect(order).toMatchObject({ kind: 'call', tool: 'deploy_staging' });
    expect(order.why).toContain('does "deploy", as the request asks');
  });

  it('never answers a question with a tool that changes things, and says why', () => {
    const a = nextAutoAction(input('Why did the last deploy of the api fail?', [tool(fsRead, true), tool(search, true), tool(deployStaging, true), tool(jobLogs, true)], [searched('deploy api fail', [['deploy_staging', 'usable'], ['github_get_job_logs', 'usable']])]));
    expect(a).toMatchObject({ kind: 'call', tool: 'github_get_job_logs', args: { owner: '<owner>', repo: '<repo>' } });
    expect(a.why).toContain('deploy_staging would deploy, which the request did not ask for');
    expect(a.why).toContain('owner, repo placeholders');
  });

  it('after a search, prefers the tool that does what the order says and holds more of its words', () => {
    const a = nextAutoAction(input('Open a Linear issue for the failing orders test', [tool(search, true), tool(githubCreate, true), tool(linearCreate, true)], [searched('create linear issue', [['github_create_issue', 'usable'], ['linear_create_issue', 'usable']])]));
    expect(a).toMatchObject({ kind: 'call', tool: 'linear_create_issue', args: { team: '<team>', title: 'Failing orders test' } });
    expect(a.why).toContain('title from the request; team a placeholder');
  });

  it('does not call a found tool whose promotion was skipped (found, unavailable), nor one not yet offered', () => {
    const a = nextAutoAction(input('Open a Linear issue', [tool(search, true), tool(linearCreate, false)], [searched('create linear issue', [['linear_create_issue', 'unavailable']])]));
    expect(a).toMatchObject({ kind: 'reply' });
  });

  it('searches once more, for one word, when the first search found nothing; then gives up with a reason', () => {
    const tools = [tool(search, true), tool(fsRead, true)];
    expect(nextAutoAction(input('Why did the orders deploy fail?', tools, [searched('orders deploy fail', [])]))).toMatchObject({ kind: 'search', query: 'deploy' });
    expect(nextAutoAction(input('Open a Linear issue', tools, [searched('create linear issue', [])]))).toMatchObject({ kind: 'search', query: 'create' });
    expect(nextAutoAction(input('Why did the orders deploy fail?', tools, [searched('orders deploy fail', []), searched('deploy', [])]))).toEqual({ kind: 'reply', text: 'I found no tool for this request, so I cannot do it.', why: 'the search found nothing' });
  });

  it('replies with what the called tool returned, or its failure', () => {
    const ok: AutoCall = { tool: 'github_get_job_logs', status: 'ok', result: '\nerror[E0308]: mismatched types\nmore' };
    expect(nextAutoAction(input('x', [], [searched('q', []), ok]))).toMatchObject({ kind: 'reply', text: 'From github_get_job_logs: error[E0308]: mismatched types' });
    const failed: AutoCall = { tool: 'deploy_staging', status: 'error', result: 'boom', error: 'boom' };
    expect(nextAutoAction(input('x', [], [failed]))).toMatchObject({ kind: 'reply', text: 'deploy_staging failed: boom' });
  });

  it('replies when it cannot search, when the request says nothing, and when the turn runs long', () => {
    expect(nextAutoAction(input('deploy the api', [tool(fsRead, true)]))).toMatchObject({ kind: 'reply', why: expect.stringContaining('search_tools is not offered') as unknown });
    expect(nextAutoAction(input('hi', [tool(search, true)]))).toMatchObject({ kind: 'reply', why: 'the request has no keywords to act on' });
    expect(nextAutoAction({ ...input('deploy', [tool(search, true)]), cycles: MAX_CYCLES })).toMatchObject({ kind: 'reply', why: `${MAX_CYCLES} cycles reached` });
  });

  it('is a function of its input', () => {
    const i = input('Why did the deploy fail?', [tool(fsRead, true), tool(search, true), tool(jobLogs, false)]);
    expect(nextAutoAction(i)).toEqual(nextAutoAction(structuredClone(i)));
  });
});
