import { describe, expect, it } from 'vitest';
import type { RequestToolView } from '../../derive/labProtocol';
import { fitScore, keywords, nextAutoAction, placeholderArgs, SEARCH_LIMIT } from './autoModel';

const tool = (name: string, summary: string, offered: boolean, params: RequestToolView['params'] = []): RequestToolView => ({ name, summary, offered, kind: 'local', params });

const fsRead = tool('fs_read_file', 'Read a file from the workspace.', true, [{ name: 'path', type: 'string', required: true, description: '' }]);
const search = tool('search_tools', 'Search the available tools by keyword.', true);
const describeTools = tool('describe_tools', 'Get detailed descriptions.', true);
const logs = tool('github_get_job_logs', 'Download the logs of a failed job in a workflow run.', false, [
  { name: 'owner', type: 'string', required: true, description: '' },
  { name: 'repo', type: 'string', required: true, description: '' },
  { name: 'job_id', type: 'integer', required: true, description: '' },
  { name: 'failed_only', type: 'boolean', required: false, description: '' },
]);

describe('keywords', () => {
  it('drops stop words, short words and repeats, keeping order', () => {
    expect(keywords('Why did the last deploy of the API fail? Deploy again!')).toEqual(['deploy', 'api', 'fail']);
  });
  it('handles punctuation and unicode letters', () => {
    expect(keywords('Größe: café-logs')).toEqual(['größe', 'café', 'logs']);
  });
});

describe('fitScore', () => {
  it('matches stems in the name and the summary', () => {
    expect(fitScore(logs, ['logs', 'failed'])).toBe(2);
    expect(fitScore(fsRead, ['deploy'])).toBe(0);
  });
});

describe('placeholderArgs', () => {
  it('gives each required parameter a value of its type', () => {
    expect(placeholderArgs(logs)).toEqual({ owner: '<owner>', repo: '<repo>', job_id: 1 });
  });
});

describe('nextAutoAction', () => {
  it('searches with the keywords when no offered tool fits', () => {
    const a = nextAutoAction({ query: 'Why did the deploy fail?', tools: [fsRead, describeTools, search, logs], calls: [], cycles: 0 });
    expect(a).toMatchObject({ kind: 'search', query: 'deploy fail', limit: SEARCH_LIMIT });
  });

  it('calls an offered tool that fits, without searching', () => {
    const a = nextAutoAction({ query: 'read the file README.md', tools: [fsRead, search], calls: [], cycles: 0 });
    expect(a).toEqual({ kind: 'call', tool: 'fs_read_file', args: { path: '<path>' }, why: 'offered fs_read_file fits the query' });
  });

  it('after a search, calls the best usable match once it is offered', () => {
    const promoted = { ...logs, offered: true };
    const a = nextAutoAction({
      query: 'Why did the deploy fail?',
      tools: [fsRead, search, promoted],
      calls: [{ tool: 'search_tools', status: 'ok', returned: [{ name: 'github_cancel', status: 'unavailable' }, { name: 'github_get_job_logs', status: 'usable' }] }],
      cycles: 1,
    });
    expect(a).toMatchObject({ kind: 'call', tool: 'github_get_job_logs', args: { owner: '<owner>', repo: '<repo>', job_id: 1 } });
  });

  it('replies after a tool call, or when the search found nothing usable', () => {
    expect(nextAutoAction({ query: 'x deploy', tools: [search], calls: [{ tool: 'fs_read_file', status: 'ok' }], cycles: 1 })).toMatchObject({ kind: 'reply' });
    expect(nextAutoAction({ query: 'deploy', tools: [search], calls: [{ tool: 'search_tools', status: 'ok', returned: [] }], cycles: 1 })).toMatchObject({ kind: 'reply', why: 'the search found no usable tool' });
  });

  it('replies when it cannot search', () => {
    expect(nextAutoAction({ query: 'deploy', tools: [fsRead], calls: [], cycles: 0 })).toMatchObject({ kind: 'reply' });
  });

  it('is deterministic', () => {
    const input = { query: 'Why did the deploy fail?', tools: [fsRead, search, logs], calls: [], cycles: 0 };
    expect(nextAutoAction(input)).toEqual(nextAutoAction(input));
  });
});
