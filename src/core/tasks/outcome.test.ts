// The outcome rules, each read from a hand-written turn: the reason a user reads beside each outcome,
// the rank and query that found a needed tool, and what counts as the task's own turn.
import { describe, expect, it } from 'vitest';
import { call, layer, run, search, turn } from '../turn/test-kit';
import type { ToolSpec } from '../turn/test-kit';
import { taskOutcome } from './outcome';

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file from the workspace.' },
  deploy_staging: { summary: 'Deploy a branch to the staging environment.' },
  deploy_prod: { summary: 'Deploy a branch to the production environment.' },
  sentry_list_issues: { summary: 'List the error issues Sentry recorded.' },
  lint: { enable: '"off"', summary: 'Lint the code.' },
  fmt: { enable: '"off"', summary: 'Format the code.' },
  locked: { enable: '{ availability = "discoverable", allow_toggle = "never" }', summary: 'A locked deploy tool.' },
  ci_jobs: { source: '"mcp.ci"', summary: 'List jobs.' },
};
const DOWN = '[servers.ci]\nstatus = "offline"\ntools = []\n';

/** The outcome of `jp q ship it` played with these cycles, as the task's first (and only) turn. */
const outcome = (relevant: string[], cycles: string[][] = [], policy: Record<string, string | boolean> = {}, before = '') => {
  const t = run({ policy: { ranking: 'substring', ...policy }, layer: layer(TOOLS), body: DOWN + before + turn('jp q ship it', cycles) });
  const stepNo = t.steps.length;
  return taskOutcome(t, stepNo, { query: 'ship it', relevant });
};

describe('the reason beside each outcome', () => {
  it('a task that names no tool is met up front', () => {
    expect(outcome([])).toMatchObject({ outcome: 'met-up-front', reason: 'the task names no tool it needs', needed: [] });
  });

  it('every needed tool offered', () => {
    expect(outcome(['read_file'])).toMatchObject({ outcome: 'met-up-front', reason: 'every needed tool was offered when the turn started' });
  });

  it('impossible: the names the catalogue lacks, then the tools that are off (is / are), then the ones whose server is down', () => {
    expect(outcome(['nope', 'read_file', 'gone', 'lint']).reason).toBe('the catalogue has no nope, gone');
    expect(outcome(['lint']).reason).toBe('lint is off');
    expect(outcome(['lint', 'read_file', 'fmt', 'ci_jobs']).reason).toBe('lint, fmt are off');
    expect(outcome(['ci_jobs', 'deploy_staging'])).toMatchObject({ outcome: 'impossible', reason: 'ci_jobs cannot be resolved (its server is down or missing)' });
  });

  it('met by search names only the tools the search promoted, not the ones offered already', () => {
    expect(outcome(['read_file', 'deploy_staging', 'deploy_prod'], [[search('deploy')]]).reason).toBe('search_tools promoted deploy_staging, deploy_prod');
  });

  it('a silent miss gives a reason per missed tool: never searched, searched but not returned', () => {
    expect(outcome(['deploy_staging', 'sentry_list_issues']).reason).toBe('deploy_staging was discoverable and the model never searched; sentry_list_issues was discoverable and the model never searched');
    const o = outcome(['deploy_staging', 'sentry_list_issues'], [[search('sentry')]]);
    expect(o.outcome).toBe('silent-miss');
    expect(o.reason).toBe('deploy_staging was discoverable and no search returned it');
  });

  it('a search that failed explains only the tools no search returned', () => {
    const long = 'x'.repeat(1001);
    const o = outcome(['deploy_staging', 'sentry_list_issues'], [[search(long)], [search('sentry')]]);
    expect(o.queries).toEqual([long, 'sentry']);
    expect(o.reason).toMatch(/^deploy_staging was discoverable and search_tools answered with an error \(query is too long/u);
    expect(o.reason).not.toContain('sentry_list_issues');
    // The failed search need not be the first one.
    const second = outcome(['deploy_staging', 'sentry_list_issues'], [[search('sentry')], [search(long)]]);
    expect(second.reason).toMatch(/^deploy_staging was discoverable and search_tools answered with an error \(query is too long/u);
  });

  it('returned but not promoted (allow_toggle never under never_blocks_promotion): found, unavailable', () => {
    const o = outcome(['locked'], [[search('locked')]], { never_blocks_promotion: true });
    expect(o).toMatchObject({ outcome: 'silent-miss', reason: 'locked came back at rank 1 but was not promoted (found, unavailable)' });
    expect(o.needed[0]).toMatchObject({ rank: 1, foundBy: 'locked', promoted: false, reached: false });
    // A failed search in the same turn does not change why a returned tool was missed.
    const withFailure = outcome(['locked'], [['{ tool = "search_tools", args = { query = "' + 'x'.repeat(1001) + '" } }'], [search('locked')]], { never_blocks_promotion: true });
    expect(withFailure.reason).toBe('locked came back at rank 1 but was not promoted (found, unavailable)');
  });
});

describe('what the rules read', () => {
  it('the rank and query are the first search\'s that returned the tool; promoted when any search returned it usable', () => {
    const o = outcome(['deploy_prod'], [[search('deploy')], [search('production')]]);
    expect(o.needed[0]).toMatchObject({ rank: 2, foundBy: 'deploy', promoted: true, reached: true });
    expect(o.queries).toEqual(['deploy', 'production']);
    const later = outcome(['deploy_prod'], [[search('sentry')], [search('production')]]);
    expect(later.needed[0]).toMatchObject({ rank: 1, foundBy: 'production' });
    // A tool never promoted stays searchable: two searches return it, the first one's rank is kept.
    const twice = outcome(['locked'], [[search('deploy')], [search('locked')]], { never_blocks_promotion: true });
    expect(twice.needed[0]).toMatchObject({ rank: 3, foundBy: 'deploy', promoted: false });
    expect(twice.reason).toBe('locked came back at rank 3 but was not promoted (found, unavailable)');
  });

  it('only the task\'s own turn counts: an earlier turn\'s search and call are not the task\'s', () => {
    const before = turn('jp q earlier', [[search('deploy')], [call('deploy_staging')]]);
    const o = outcome(['deploy_staging'], [], {}, before);
    // Promoted by the earlier turn: offered up front, and this turn neither searched nor called it.
    expect(o).toMatchObject({ outcome: 'met-up-front', searched: false, queries: [] });
    expect(o.needed[0]).toMatchObject({ state: 'offered', called: false, promoted: false });
    expect(Object.keys(o.needed[0] ?? {})).not.toContain('rank');
  });

  it('a search without a query string is still a search, its query read as empty', () => {
    const o = outcome(['deploy_staging'], [['{ tool = "search_tools", args = { q = "deploy" } }'], ['{ tool = "search_tools", args = { query = 7 } }']]);
    expect(o.searched).toBe(true);
    expect(o.queries).toEqual(['', '']);
  });

  it('a task naming a tool by its MCP server name resolves to the configured tool; an unknown name stays as given', () => {
    const servers = '[servers.srv]\ntools = [ { name = "PDF&URLTool", description = "Read a PDF at a URL.", inputSchema = { type = "object" } }, { name = "read_file", description = "Read a remote file.", inputSchema = { type = "object" } } ]\n';
    // remote_read imports the server's read_file; the configured read_file is a local tool of that name.
    const tools = { ...TOOLS, pdf_url: { source: '"mcp.srv.PDF&URLTool"', summary: 'Read a PDF at a URL.' }, remote_read: { source: '"mcp.srv.read_file"' } };
    const t = run({ policy: { ranking: 'substring' }, layer: layer(tools), body: DOWN + servers + turn('jp q go', []) });
    const o = taskOutcome(t, 1, { query: 'go', relevant: ['PDF&URLTool', 'NoSuchTool', 'read_file'] });
    expect(o.needed.map((n) => [n.name, n.asked, n.state])).toEqual([['pdf_url', 'PDF&URLTool', 'discoverable'], ['NoSuchTool', undefined, 'unknown'], ['read_file', undefined, 'offered']]);
    expect(o.reason).toBe('the catalogue has no NoSuchTool');
  });

  it('a step that sent no request (a config step) reads as a turn that did not start, with a reason', () => {
    const t = run({ policy: { ranking: 'substring' }, layer: layer(TOOLS), body: '[[steps]]\ncommand = "jp config set conversation.tools.lint.enable=on"\n' });
    const o = taskOutcome(t, 1, { query: 'x', relevant: ['lint'] });
    expect(o).toMatchObject({ outcome: 'impossible', reason: 'the turn did not start: the turn sent no request', error: 'the turn sent no request' });
    expect(taskOutcome(t, 5, { query: 'x', relevant: ['lint'] }).error).toBe('the turn sent no request');
  });
});
