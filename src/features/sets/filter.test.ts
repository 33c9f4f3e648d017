import { describe, expect, it } from 'vitest';
import type { SetsRow } from '../../derive/protocol';
import { NO_FILTER, filterRows, isFiltered, serverStatusWord, toggle } from './filter';

const row = (name: string, over: Partial<SetsRow> = {}): SetsRow => ({
  name, order: 0, kind: 'local', availability: 'on', allowToggle: 'any', permitted: true, offered: true, searchable: false, summary: '', run: 'ask', why: '', ...over,
});

const rows = [
  row('build', { summary: 'Build the project.' }),
  row('deploy', { availability: 'discoverable', offered: false, searchable: true, summary: 'Deploy to staging.' }),
  row('gh_issues', { kind: 'mcp', server: 'github', serverStatus: 'running', availability: 'discoverable', offered: false, searchable: true }),
  row('jira', { kind: 'mcp', server: 'jira', serverStatus: 'server-offline', availability: 'discoverable', permitted: false, offered: false }),
  row('rm', { availability: 'off', permitted: false, offered: false }),
  row('search_tools', { kind: 'builtin' }),
];

describe('sets filters', () => {
  it('shows everything without a filter', () => {
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(filterRows(rows, NO_FILTER)).toBe(rows);
  });

  it('ORs within a group and ANDs across groups', () => {
    const f = { ...NO_FILTER, availability: new Set(['discoverable', 'off'] as const), kind: new Set(['mcp'] as const) };
    expect(filterRows(rows, f).map((r) => r.name)).toEqual(['gh_issues', 'jira']);
  });

  it('filters by membership', () => {
    expect(filterRows(rows, { ...NO_FILTER, membership: new Set(['searchable'] as const) }).map((r) => r.name)).toEqual(['deploy', 'gh_issues']);
    expect(filterRows(rows, { ...NO_FILTER, membership: new Set(['offered', 'searchable'] as const) }).map((r) => r.name)).toEqual(['build', 'deploy', 'gh_issues', 'search_tools']);
  });

  it('searches names and summaries, case-insensitively', () => {
    expect(filterRows(rows, { ...NO_FILTER, query: 'STAGING' }).map((r) => r.name)).toEqual(['deploy']);
    expect(filterRows(rows, { ...NO_FILTER, query: 'gh_' }).map((r) => r.name)).toEqual(['gh_issues']);
  });

  it('toggles values and words server status', () => {
    expect([...toggle(toggle(new Set(['on']), 'off'), 'on')]).toEqual(['off']);
    expect(rows.map(serverStatusWord)).toEqual(['local', 'local', 'running', 'server-offline', 'local', 'builtin']);
  });
});
