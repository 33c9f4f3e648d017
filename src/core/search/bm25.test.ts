import { describe, expect, it } from 'vitest';
import { bm25, bm25IndexFromJSON, buildBm25Index } from './bm25';
import { loadIndex } from './minisearch-options';
import { all, doc } from './test-docs';
import type { SearchDocument } from './types';

const tools: SearchDocument[] = [
  doc('github_list_workflow_runs', 0, {
    summary: 'List workflow runs for a repository.',
    description: 'List workflow runs for a repository. Paginated with a cursor.',
    parameterNames: ['owner', 'repo', 'cursor'],
    parameterDescriptions: ['Repository owner', 'Repository name', 'Pagination cursor'],
  }),
  doc('getWeatherForecast', 1, { summary: 'Get the weather forecast for a city.', parameterNames: ['cityName', 'days'] }),
  doc('send-slack-message', 2, { summary: 'Send a message to a Slack channel.', parameterNames: ['channelId', 'text'] }),
  doc('create_invoice', 3, { summary: 'Create an invoice for a customer.', parameterNames: ['customer_id', 'amount'] }),
  doc('search_papers', 4, { summary: 'Search academic papers on arXiv.', parameterNames: ['query', 'max_results'] }),
  doc('convert_docx_to_pdf', 5, { summary: 'Convert a DOCX document to PDF.', parameterNames: ['input_path'] }),
  doc('bing_search', 6, { summary: '使用必应搜索指定的关键词，并返回搜索结果列表', parameterNames: ['query'] }),
  doc('get_s3_object', 7, { summary: 'Download an object from an S3 bucket.', parameterNames: ['bucket', 'key'] }),
  doc('deploy', 8, { summary: 'Deploy a service.', parameterNames: ['deployment_id'] }),
];

describe('bm25 ranks the obvious tool first', () => {
  const index = bm25.build(tools);
  const rows: [string, string][] = [
    ['list workflow runs', 'github_list_workflow_runs'],
    ['workflows', 'github_list_workflow_runs'],
    ['weather forecast', 'getWeatherForecast'],
    ['getWeatherForecast', 'getWeatherForecast'],
    ['forecasts for my city', 'getWeatherForecast'],
    ['post a message on slack', 'send-slack-message'],
    ['send_slack_message', 'send-slack-message'],
    ['billing invoices', 'create_invoice'],
    ['find research papers', 'search_papers'],
    ['docx pdf conversion', 'convert_docx_to_pdf'],
    ['必应搜索', 'bing_search'],
    ['s3 bucket', 'get_s3_object'],
    ['deployment_id', 'deploy'],
    ['paginated', 'github_list_workflow_runs'],
  ];
  for (const [query, best] of rows) {
    it(`${JSON.stringify(query)} → ${best}`, () => {
      expect(index.search(query, { filter: all })[0]?.name).toBe(best);
    });
  }

  it('a query of stop words only finds nothing (and does not throw)', () => {
    expect(index.search('the of and to', { filter: all })).toEqual([]);
    expect(index.search('!!! ...', { filter: all })).toEqual([]);
  });
});

describe('bm25 hits', () => {
  const index = bm25.build(tools);

  it('report the matched fields, best first', () => {
    const [hit] = index.search('repository owner', { filter: all });
    expect(hit?.name).toBe('github_list_workflow_runs');
    expect(hit?.fields).toEqual(['parameter_name', 'summary', 'description', 'parameter_description']);
    expect(index.search('cursor', { filter: all })[0]?.fields).toEqual(['parameter_name', 'description', 'parameter_description']);
  });

  it('a summary inside the description is reported for its own terms only', () => {
    // "Paginated" is in the second sentence; "Pagination cursor" stems alike.
    expect(index.search('paginated', { filter: all })[0]?.fields).toEqual(['description', 'parameter_description']);
    expect(index.search('runs', { filter: all })[0]?.fields).toEqual(['name', 'summary', 'description']);
  });

  it('respect the filter', () => {
    const hits = index.search('search', { filter: (n) => n !== 'search_papers' });
    expect(hits.map((h) => h.name)).not.toContain('search_papers');
    expect(hits.length).toBeGreaterThan(0);
  });

  it('scores descend; equal scores keep config order, not array order', () => {
    const twins = [doc('b', 1, { summary: 'identical words' }), doc('a', 0, { summary: 'identical words' })];
    const hits = bm25.build(twins).search('identical', { filter: all });
    expect(hits.map((h) => h.name)).toEqual(['a', 'b']);
    const scores = index.search('search papers message', { filter: all }).map((h) => h.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
  });

  it('hits are plain data', () => {
    const [hit] = index.search('invoice', { filter: all });
    expect({ ...hit }).toEqual(JSON.parse(JSON.stringify(hit)));
    expect(Object.keys(hit ?? {})).toEqual(['name', 'score', 'fields']);
  });

  it('an empty catalogue finds nothing', () => {
    expect(bm25.build([]).search('anything', { filter: all })).toEqual([]);
  });
});

describe('bm25 serialization', () => {
  it('an index loaded from JSON (same options module) ranks like the original', () => {
    const built = buildBm25Index(tools);
    const json = JSON.stringify(built.miniSearch);
    const loaded = bm25IndexFromJSON(json, tools);
    for (const query of ['weather', 'message slack', 'search', 'paginated cursor']) {
      expect(loaded.search(query, { filter: all })).toEqual(built.search(query, { filter: all }));
    }
    expect(loadIndex(json).documentCount).toBe(tools.length);
  });
});
