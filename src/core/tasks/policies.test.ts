// The policies at the edges of their decisions: search_tools not offered, a search already made, an
// action that is not a search, an empty categories section.
import { describe, expect, it } from 'vitest';
import type { AutoCall, AutoInput, AutoTool } from '../model/auto';
import { makeTool } from '../providers/test-helpers';
import { categoriesOf } from './categories';
import { auto, categories, never, POLICIES, request } from './policies';

const str = (description: string) => ({ type: 'string', description });
const deploy = makeTool('deploy_staging', 'Deploy a branch to the staging environment.', [{ name: 'branch', schema: str('Branch to deploy.'), required: true }]);
const readFile = makeTool('read_file', 'Read a file from the workspace.', [{ name: 'path', schema: str('Path to read.'), required: true }]);
const searchTool = makeTool('search_tools', 'Search the available tools by keyword.');
const tool = (def: typeof deploy, offered: boolean): AutoTool => ({ name: def.name, offered, definition: def });
const input = (query: string, calls: AutoCall[] = [], searchOffered = true): AutoInput => ({ query, tools: [tool(readFile, true), tool(searchTool, searchOffered), tool(deploy, false)], calls, cycles: calls.length });
const readCall: AutoCall = { tool: 'read_file', status: 'ok', result: 'contents' };
const DEPLOY = 'Deploy the main branch to staging';
const section = categoriesOf([{ name: 'deploy_staging', definition: deploy }, { name: 'deploy_prod', definition: makeTool('deploy_prod', 'Deploy to production.') }]);

describe('the policies at their edges', () => {
  it('a call passes through every policy as it is, with no search limit added', () => {
    for (const p of [never, request, auto, categories]) {
      const a = p(input('read the file README.md'), { limit: 9, categories: section });
      expect(a).toMatchObject({ kind: 'call', tool: 'read_file' });
      expect(a).not.toHaveProperty('limit');
    }
  });

  it('request: with search_tools not offered it cannot search, and answers as the auto model does', () => {
    const a = request(input(DEPLOY, [], false), { limit: 7 });
    expect(a.kind).not.toBe('search');
    expect(request(input(DEPLOY), { limit: 7 })).toMatchObject({ kind: 'search', query: DEPLOY, limit: 7, why: expect.stringContaining('no offered tool covers the request; searching with its own words') as unknown });
  });

  it('request: a call made earlier in the turn is not a search: it does not stop a later search as "searches once only"', () => {
    const a = request(input(DEPLOY, [readCall]), { limit: 7 });
    expect(a.why).not.toContain('searches once only');
  });

  it('categories: an empty section names no categories; a section without a match says so; a hit searches at the run\'s limit', () => {
    expect(categories(input(DEPLOY), { limit: 3, categories: categoriesOf([]) })).toMatchObject({ kind: 'reply', why: expect.stringMatching(/^the system prompt names no categories, so it does not search/u) as unknown });
    expect(categories(input('Summarise the weather forecast'), { limit: 3, categories: section }).why).toMatch(/^the request names no category of the system prompt, so it does not search/u);
    expect(categories(input(DEPLOY), { limit: 4, categories: section })).toMatchObject({ kind: 'search', limit: 4, why: expect.stringMatching(/^the request names the category "deploy" of the system prompt; /u) as unknown });
  });

  it('categories: after a search of its own, it follows the auto model (no second category check)', () => {
    const searched: AutoCall = { tool: 'search_tools', status: 'ok', result: '', search: { query: 'deploy staging', returned: [{ name: 'deploy_staging', status: 'usable' }] } };
    const withSearch = input(DEPLOY, [searched]);
    expect(categories(withSearch, { limit: 3 })).toEqual(auto(withSearch, { limit: 3 }));
  });

  it('the registry holds the four policies by name', () => {
    expect([...POLICIES.keys()]).toEqual(['never', 'request', 'auto', 'categories']);
    expect(POLICIES.get('never')).toBe(never);
  });
});
