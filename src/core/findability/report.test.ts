// Small hand-made catalogues whose ranks and groups are worked out by hand in the comments:
// substring ranking (a hit ranks by the best field any term matched, ties in config order) is
// the one a reader can follow without a calculator.
import { describe, expect, it } from 'vitest';
import { substring } from '../search/substring';
import { regex } from '../search/regex';
import { bm25 } from '../search/bm25';
import { doc } from '../search/test-docs';
import type { SearchDocument } from '../search/types';
import { atRiskCounts, atRiskWords, compareFindability, findabilityReport, formatFindability, ownQueries, queryFrom } from './index';
import type { FindabilityInput } from './types';

const report = (docs: SearchDocument[], extra: Partial<FindabilityInput> = {}) =>
  findabilityReport({ docs, discoverable: docs.map((d) => d.name), rankers: [substring], ranking: 'substring', ...extra });

describe('queries from a tool\'s own words', () => {
  it('name words, summary, first sentence of the description; the name left out; each once', () => {
    const d = doc('get_weather', 0, { summary: 'Weather now.', description: 'Call get_weather for the weather. It takes a city.' });
    expect(ownQueries(d)).toEqual([
      { kind: 'name', text: 'get weather' },
      { kind: 'summary', text: 'weather now' },
      { kind: 'description', text: 'call for the weather' },
    ]);
    // An MCP tool's summary is its description's first sentence: asked once.
    expect(ownQueries(doc('x_tool', 0, { description: 'Does X. More.', summary: 'Does X.' })).map((q) => q.kind)).toEqual(['name', 'summary']);
  });

  it('punctuation never decides a match, and camelCase splits', () => {
    expect(queryFrom('List issues in a GitHub repository.', 'list_issues')).toBe('list issues in a github repository');
    expect(ownQueries(doc('listIssues', 0)).map((q) => q.text)).toEqual(['list issues']);
  });
});

describe('a tool with an empty description', () => {
  // "notify" (name) ranks notify first (name field) and send_email second (description field).
  const docs = [doc('send_email', 0, { summary: 'Send an email to notify people.' }), doc('notify', 1, { summary: '', description: '' })];

  it('is found by its name alone, and reported hard to find with the reason and a summary to add', () => {
    const t = report(docs).tools.find((x) => x.name === 'notify');
    expect(t?.queries).toEqual([{ kind: 'name', text: 'notify', ranks: [1], beatenBy: [] }]);
    expect(t?.status).toBe('hard');
    // Its own name finds it first every time: the word agrees with those figures (issue 24.8).
    expect([t?.score, t?.best, t?.word]).toEqual([1, 1, 'thinly described']);
    expect(t?.reasons[0]?.code).toBe('no-description');
    expect(t?.fix).toEqual({ kind: 'add-summary', title: expect.stringMatching(/^Add a summary/u), summary: 'Notify.' });
  });

  it('a description of five words or more clears it', () => {
    const after = [docs[0] as SearchDocument, doc('notify', 1, { summary: 'Page the on-call engineer now.' })];
    expect(report(after).tools.find((x) => x.name === 'notify')?.status).toBe('findable');
    const c = compareFindability(report(docs), report(after));
    expect(c.changes).toEqual([
      { name: 'notify', before: { status: 'hard', word: 'thinly described', score: 1, best: 1 }, after: { status: 'findable', word: 'findable', score: 1, best: 1 }, direction: 'better' },
    ]);
  });
});

describe('two servers with the same operation', () => {
  // The summary query "list issues in a repository" matches both tools by name (list, issues):
  // a tie, config order: github_list_issues 1st, gitlab_list_issues 2nd. Each is the other's rival.
  const docs = [
    doc('github_list_issues', 0, { summary: 'List issues in a repository.' }),
    doc('gitlab_list_issues', 1, { summary: 'List issues in a repository.' }),
    doc('get_weather', 2, { summary: 'Current weather for a city.' }),
  ];
  const servers = new Map([['github_list_issues', 'github'], ['gitlab_list_issues', 'gitlab']]);

  it('ranks worked by hand, and one look-alike group with the words they share', () => {
    const r = report(docs, { servers });
    const gitlab = r.tools.find((t) => t.name === 'gitlab_list_issues');
    expect(gitlab?.server).toBe('gitlab');
    expect(gitlab?.queries.map((q) => [q.text, q.ranks[0], q.beatenBy])).toEqual([
      ['gitlab list issues', 1, []],
      ['list issues in a repository', 2, ['github_list_issues']],
    ]);
    expect(r.lookAlikes).toEqual([{ tools: ['github_list_issues', 'gitlab_list_issues'], shared: ['list', 'issues', 'repository'] }]);
  });

  it('with a limit of 1: half its queries within the limit is still findable; the first beats the rest', () => {
    const t = report(docs, { limit: 1 }).tools.find((x) => x.name === 'gitlab_list_issues');
    expect(t?.status).toBe('findable'); // 1 of 2 queries is exactly HARD_SCORE
    const three = [...docs, doc('gitlab_list_issues_copy', 3, { summary: 'List issues in a repository.' })];
    const copy = report(three, { limit: 1 }).tools.find((x) => x.name === 'gitlab_list_issues_copy');
    // Its name query "gitlab list issues copy" finds only it (rank 1); its summary query matches the
    // three list tools by name (get_weather lacks "list"), so it ranks 3rd in config order.
    expect(copy?.queries.map((q) => q.ranks[0])).toEqual([1, 3]);
    expect(copy?.beatenBy).toEqual(['github_list_issues']);
  });

  it('tools that share no query are no look-alikes', () => {
    expect(report([docs[0] as SearchDocument, docs[2] as SearchDocument]).lookAlikes).toEqual([]);
  });
});

describe('a tool findable only by a parameter name', () => {
  // Name query "cluster apply c" and summary query "apply changes to the cluster" both match the
  // three tools by name: a tie, config order a, b, c; with limit 2, c is unreachable.
  const docs = [
    doc('cluster_apply_a', 0, { summary: 'Apply changes to the cluster.' }),
    doc('cluster_apply_b', 1, { summary: 'Apply changes to the cluster.' }),
    doc('cluster_apply_c', 2, { summary: 'Apply changes to the cluster.', parameterNames: ['kubeconfig'] }),
  ];

  it('is unreachable, with its words shared by the tools above it and its distinctive word in a parameter', () => {
    const r = report(docs, { limit: 2 });
    const c = r.tools.find((t) => t.name === 'cluster_apply_c');
    expect(c?.queries.map((q) => [q.kind, q.text, q.ranks[0]])).toEqual([
      ['name', 'cluster apply c', 3],
      ['summary', 'apply changes to the cluster', 3],
    ]);
    expect(c?.status).toBe('unreachable');
    expect(c?.beatenBy).toEqual(['cluster_apply_a', 'cluster_apply_b']);
    expect(c?.reasons.map((x) => x.code)).toEqual(['shared-words', 'parameter-words']);
    expect(c?.reasons[0]?.words).toEqual(['cluster', 'apply', 'changes']);
    expect(c?.reasons[1]?.words).toEqual(['kubeconfig']);
    expect(r.hardest[0]).toBe('cluster_apply_c');
    // ... and the parameter name alone does find it.
    expect(substring.build(docs).search('kubeconfig', { filter: () => true }).map((h) => h.name)).toEqual(['cluster_apply_c']);
  });

  it('side by side: the regex ranker (pattern "cluster|apply") ranks it 3rd as well; bm25 too', () => {
    const r = findabilityReport({ docs, discoverable: docs.map((d) => d.name), rankers: [substring, bm25, regex], ranking: 'bm25', limit: 2 });
    expect(r.rankings.map((x) => [x.id, x.active, x.findable])).toEqual([['substring', false, 2], ['bm25', true, 2], ['regex', false, 2]]);
    const c = r.tools.find((t) => t.name === 'cluster_apply_c');
    expect(c?.queries[0]?.ranks).toEqual([3, 3, 3]);
    expect(c?.rankings.map((x) => x.found)).toEqual([0, 0, 0]);
  });
});

describe('tasks', () => {
  const docs = [
    doc('deploy_staging', 0, { summary: 'Deploy a branch to the staging environment.', parameterNames: ['branch'] }),
    doc('run_tests', 1, { summary: 'Run the test suite of a branch.' }),
  ];
  const tasks = [
    { query: 'roll out the main branch to staging', relevant: ['deploy_staging'] },
    { query: 'deploy', relevant: ['deploy_staging', 'missing_tool'] },
  ];

  it('a task that misses its tool makes it hard to find, names the words it lacks, and offers them as a fix', () => {
    const r = report(docs, { tasks });
    const t = r.tools.find((x) => x.name === 'deploy_staging');
    expect(t?.queries.filter((q) => q.kind === 'task').map((q) => [q.text, q.ranks[0]])).toEqual([
      ['roll out the main branch to staging', null],
      ['deploy', 1],
    ]);
    expect(t?.status).toBe('hard');
    // A task misses it: hard to find is the word, even with its own words finding it.
    expect(t?.word).toBe('hard to find');
    expect(t?.reasons.find((x) => x.code === 'task-words')?.words).toEqual(['roll', 'main']);
    expect(t?.fix).toEqual({ kind: 'add-words', title: 'Add the words its tasks use to the summary: roll, main', summary: 'Deploy a branch to the staging environment (roll, main).' });
    expect(r.tasks).toBe(2);
    expect(r.unknownTaskTools).toEqual(['missing_tool']);
  });

  it('with the words added, every query finds it', () => {
    const fixed = [doc('deploy_staging', 0, { summary: 'Deploy a branch to the staging environment (roll, main).', parameterNames: ['branch'] }), docs[1] as SearchDocument];
    // Substring (all terms) would still miss "roll out the main branch to staging": no tool says "out".
    // bm25 ranks by the terms that match, and the new summary holds roll, main, branch, staging.
    const r = findabilityReport({ docs: fixed, discoverable: ['deploy_staging', 'run_tests'], rankers: [bm25], ranking: 'bm25', tasks });
    expect(r.tools.find((x) => x.name === 'deploy_staging')?.status).toBe('findable');
  });
});

describe('the catalogue score and its text', () => {
  it('counts tools within 1, 5 and the limit; tools outside the discoverable set are not reported', () => {
    const docs = [doc('alpha_tool', 0, { summary: 'Does the alpha thing well.' }), doc('beta_tool', 1, { summary: 'Does the beta thing well.' }), doc('on_tool', 2, { summary: 'Always offered.' })];
    const r = findabilityReport({ docs, discoverable: ['alpha_tool', 'beta_tool'], rankers: [substring], ranking: 'substring' });
    expect(r.tools.map((t) => t.name)).toEqual(['alpha_tool', 'beta_tool']);
    expect(r.rankings[0]?.atK).toEqual([{ k: 1, tools: 2 }, { k: 5, tools: 2 }, { k: 10, tools: 2 }]);
    const text = formatFindability(r);
    expect(text).toContain('findable in the top 10: 2 of 2');
    expect(text).toContain('at risk (0)');
  });
});

describe('the words for the tools at risk, one count for every panel (issue 24.8)', () => {
  const t = (word: 'findable' | 'hard to find' | 'thinly described' | 'unreachable') => ({ word });
  it('counts each word once and names only the words it has', () => {
    const tools = [t('thinly described'), t('findable'), t('thinly described'), t('unreachable')];
    expect(atRiskCounts(tools)).toEqual({ 'hard to find': 0, 'thinly described': 2, unreachable: 1, atRisk: 3 });
    expect(atRiskWords(tools)).toBe('2 thinly described · 1 unreachable');
    expect(atRiskWords([t('hard to find')])).toBe('1 hard to find');
  });
  it('says "none at risk" when every tool is findable, never a count of tools search_tools may not find', () => {
    expect(atRiskWords([t('findable'), t('findable')])).toBe('none at risk');
    expect(atRiskWords([])).toBe('none at risk');
  });
  it('agrees with the report: a tool its own words find first, with a thin description, is thinly described', () => {
    const r = report([doc('notify', 0, { summary: 'Notify.' }), doc('send_email', 1, { summary: 'Send an email message to the people on the list.' })]);
    expect(r.tools.find((x) => x.name === 'notify')).toMatchObject({ word: 'thinly described', score: 1, best: 1 });
    expect(atRiskWords(r.tools)).toBe('1 thinly described');
    expect(atRiskCounts(r.tools).atRisk).toBe(r.hardest.length);
  });
});
