// Semantics §5 (search_tools) and §8 items 5, 6, 23, 24, row by row, driven
// through small scenarios; plus the argument contract on its own.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { call, check, layer, run, search, turn } from '../turn/test-kit';
import type { ToolSpec } from '../turn/test-kit';
import { bm25 } from './bm25';
import { MAX_LIMIT, MAX_QUERY_LENGTH, resolveLimit, searchTools } from './contract';
import { substring } from './substring';
import type { RankerIndex, SearchDocument, SearchHit } from './types';

const RANKINGS = ['substring', 'bm25'] as const;

/** One search in the first cycle of a one-step scenario; returns that call's record. */
function searchOnce(tools: Record<string, ToolSpec>, args: string, policy: Record<string, string | boolean> = {}, star?: { enable?: string; run?: string }) {
  const t = run({
    policy,
    layer: layer(tools, star),
    body: turn('jp q go', [[`{ tool = "search_tools", args = ${args} }`]]),
  });
  const c = t.calls[0];
  if (!c) throw new Error('no call');
  return { call: c, timeline: t };
}

describe('§5 / §8.5 what search_tools searches: every field, both rankings', () => {
  // Each tool carries the word only in one field. The word is distinct per row.
  const rows: { field: string; tool: ToolSpec; query: string }[] = [
    { field: 'name', tool: {}, query: 'zanzibar' },
    { field: 'parameter_name', tool: { params: { quokka_id: { type: 'string' } } }, query: 'quokka' },
    { field: 'summary', tool: { summary: 'Feeds the marmoset.' }, query: 'marmoset' },
    { field: 'description', tool: { summary: 'Short.', description: 'Long text about the narwhal.' }, query: 'narwhal' },
    { field: 'parameter_description', tool: { params: { p: { summary: 'The okapi to use.' } } }, query: 'okapi' },
    { field: 'parameter_description', tool: { params: { p: { summary: 'Short.', description: 'The wombat in detail.' } } }, query: 'wombat' },
  ];
  for (const ranking of RANKINGS) {
    for (const row of rows) {
      it(`${ranking}: a match only in ${row.field} (${row.query}) is found and attributed`, () => {
        const name = row.field === 'name' ? 'zanzibar_tool' : 'the_tool';
        const { call: c } = searchOnce({ decoy: { summary: 'Nothing relevant.' }, [name]: row.tool }, `{ query = "${row.query}" }`, { ranking });
        expect(c.status).toBe('ok');
        expect(c.search?.returned.map((r) => r.name)).toEqual([name]);
        expect(c.search?.returned[0]?.fields).toContain(row.field);
        expect(c.search?.total).toBe(1);
      });
    }
  }

  it('parameter names come from the resolved schema: an undocumented parameter is still found (RFD: deployment_id)', () => {
    for (const ranking of RANKINGS) {
      const { call: c } = searchOnce({ deploy: { summary: 'Deploy.', params: { deployment_id: { type: 'string' } } } }, '{ query = "deployment_id" }', { ranking });
      expect(c.search?.returned.map((r) => r.name), ranking).toEqual(['deploy']);
      expect(c.search?.returned[0]?.fields, ranking).toContain('parameter_name');
    }
  });

  it('an MCP tool is searched over its merged description and its server-side parameter descriptions (§8.5, §8.23)', () => {
    const body = `
[servers.gh]
tools = [
  { name = "list_runs", description = "List workflow runs. Paginated with a cursor.", inputSchema = { type = "object", properties = { owner = { type = "string", description = "The repository capybara." } } } },
]
${turn('jp q go', [[search('capybara'), search('paginated')]])}`;
    for (const ranking of RANKINGS) {
      const t = run({ policy: { ranking }, layer: layer({ list_runs: { source: '"mcp.gh"' } }), body });
      expect(t.calls[0]?.search?.returned.map((r) => r.name), ranking).toEqual(['list_runs']);
      expect(t.calls[0]?.search?.returned[0]?.fields, ranking).toEqual(['parameter_description']);
      // "Paginated" is in the second sentence: only in the description, not the summary (split_description).
      expect(t.calls[1]?.search?.returned[0]?.fields, ranking).toEqual(['description']);
      expect(t.calls[1]?.search?.returned[0]?.summary).toBe('List workflow runs.');
    }
  });
});

describe('§5 substring order: best field matched, ties in config order', () => {
  // Config order is the reverse of the field order, so config order alone would give the wrong answer.
  const tools: Record<string, ToolSpec> = {
    by_param_desc: { summary: 'x', params: { p: { summary: 'a widget here' } } },
    by_desc: { summary: 'x', description: 'mentions widget' },
    by_summary_b: { summary: 'widget maker' },
    by_summary_a: { summary: 'another widget' },
    by_param: { summary: 'x', params: { widget_count: { type: 'integer' } } },
    widget_tool: { summary: 'x' },
  };
  it('name, then parameter name, then summary (config order within), then description, then parameter description', () => {
    const { call: c } = searchOnce(tools, '{ query = "widget" }', { ranking: 'substring' });
    expect(c.search?.returned.map((r) => r.name)).toEqual(['widget_tool', 'by_param', 'by_summary_b', 'by_summary_a', 'by_desc', 'by_param_desc']);
    expect(c.search?.total).toBe(6);
  });
  it('matching is case-insensitive', () => {
    const { call: c } = searchOnce(tools, '{ query = "WiDgEt" }', { ranking: 'substring' });
    expect(c.search?.total).toBe(6);
  });
  it('limit keeps the best-ranked prefix, and total still counts every match', () => {
    const { call: c } = searchOnce(tools, '{ query = "widget", limit = 2 }', { ranking: 'substring' });
    expect(c.search?.returned.map((r) => r.name)).toEqual(['widget_tool', 'by_param']);
    expect(c.search?.total).toBe(6);
  });
});

describe('§5 / §8.23 substring_match: all_terms and whole_query', () => {
  const tools: Record<string, ToolSpec> = {
    both_in_summary: { summary: 'Restart the payment service.' },
    split_fields: { summary: 'Restart things.', params: { p: { summary: 'Which payment queue.' } } },
    only_restart: { summary: 'Restart a pod.' },
    payment_refund: { summary: 'Refund a charge.' },
  };
  const rows: { mode: string; query: string; returned: string[] }[] = [
    // all_terms: every term must match some field; rank is the best field any term matched.
    { mode: 'all_terms', query: 'restart payment', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: 'payment restart', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: '  payment   ', returned: ['payment_refund', 'both_in_summary', 'split_fields'] },
    { mode: 'all_terms', query: 'refund payment', returned: ['payment_refund'] },
    // whole_query: the query as given, one substring, no trimming.
    { mode: 'whole_query', query: 'restart payment', returned: [] },
    { mode: 'whole_query', query: 'restart the payment', returned: ['both_in_summary'] },
    { mode: 'whole_query', query: ' payment', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'whole_query', query: 'payment ', returned: ['both_in_summary', 'split_fields'] },
    { mode: 'whole_query', query: 'payment s', returned: ['both_in_summary'] },
  ];
  for (const row of rows) {
    it(`${row.mode}: ${JSON.stringify(row.query)} → ${JSON.stringify(row.returned)}`, () => {
      const { call: c } = searchOnce(tools, `{ query = ${JSON.stringify(row.query)} }`, { ranking: 'substring', substring_match: row.mode });
      expect(c.status).toBe('ok');
      expect(c.search?.returned.map((r) => r.name)).toEqual(row.returned);
    });
  }
  it('all_terms: a tool whose terms match in different fields ranks by the best field any term matched', () => {
    const { call: c } = searchOnce(
      { in_summary: { summary: 'alpha beta' }, beta_named: { summary: 'alpha here' } },
      '{ query = "alpha beta" }',
      { ranking: 'substring' },
    );
    expect(c.search?.returned.map((r) => r.name)).toEqual(['beta_named', 'in_summary']);
  });
});

describe('§5 the limit: clamped to 1..50, a non-integer is an error', () => {
  const many: Record<string, ToolSpec> = {};
  for (let i = 0; i < 60; i++) many[`gadget_${String(i).padStart(2, '0')}`] = { summary: 'A gadget.' };
  const rows: { limit: string; returned?: number; error?: string }[] = [
    { limit: '', returned: 10 },
    { limit: ', limit = 0', returned: 1 },
    { limit: ', limit = -7', returned: 1 },
    { limit: ', limit = 1', returned: 1 },
    { limit: ', limit = 10', returned: 10 },
    { limit: ', limit = 37', returned: 37 },
    { limit: ', limit = 50', returned: 50 },
    { limit: ', limit = 51', returned: 50 },
    { limit: ', limit = 100000', returned: 50 },
    { limit: ', limit = 2.5', error: 'limit must be an integer' },
    { limit: ', limit = "5"', error: 'limit must be an integer' },
    { limit: ', limit = true', error: 'limit must be an integer' },
    { limit: ', limit = nan', error: 'limit must be an integer' },
    { limit: ', limit = inf', error: 'limit must be an integer' },
    { limit: ', limit = [5]', error: 'limit must be an integer' },
  ];
  for (const ranking of RANKINGS) {
    for (const row of rows) {
      it(`${ranking}: limit${row.limit || ' omitted'} → ${row.error ?? `${row.returned} results`}`, () => {
        const { call: c, timeline } = searchOnce(many, `{ query = "gadget"${row.limit} }`, { ranking });
        if (row.error !== undefined) {
          expect(c.status).toBe('error');
          expect(c.error).toContain(row.error);
          // An error result promotes nothing.
          expect(timeline.positions.length).toBe(1);
        } else {
          expect(c.status).toBe('ok');
          expect(c.search?.returned.length).toBe(row.returned);
          expect(c.search?.total).toBe(60);
          expect(c.search?.limit).toBe(row.returned);
        }
      });
    }
  }
});

describe('§5 / §8.20 an empty or blank query is an error, never "list everything"', () => {
  for (const query of ['', ' ', '\t', '\n  \t', '\u00a0']) {
    for (const ranking of RANKINGS) {
      it(`${ranking}: ${JSON.stringify(query)}`, () => {
        const { call: c, timeline } = searchOnce({ a: { summary: 'x' }, b: { summary: 'y' } }, `{ query = ${JSON.stringify(query)} }`, { ranking });
        expect(c.status).toBe('error');
        expect(c.error).toBe('query must not be empty');
        expect(c.search).toBeUndefined();
        expect(finalOffered(timeline)).toEqual(['describe_tools', 'search_tools']);
      });
    }
  }
});

function finalOffered(t: ReturnType<typeof run>): readonly string[] {
  return t.setsAt(t.positions.length - 1).offered;
}

describe('§5 / §8.6 what search excludes', () => {
  const tools: Record<string, ToolSpec> = {
    deploy_on: { enable: '"on"', summary: 'Deploy, offered already.' },
    deploy_off: { enable: '"off"', summary: 'Deploy, off.' },
    deploy_found: { summary: 'Deploy, discoverable.' },
    deploy_locked_off: { enable: '{ availability = "off", allow_toggle = "never" }', summary: 'Deploy, locked off.' },
  };
  for (const ranking of RANKINGS) {
    it(`${ranking}: offered and off tools never appear and are not counted`, () => {
      const { call: c } = searchOnce(tools, '{ query = "deploy" }', { ranking });
      expect(c.search?.returned.map((r) => r.name)).toEqual(['deploy_found']);
      expect(c.search?.total).toBe(1);
    });
  }
  it('a tool offered only because it is forced (-u NAME) is not searchable in that invocation', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer({ deploy_a: { summary: 'Deploy a.' }, deploy_b: { summary: 'Deploy b.' } }),
      body: turn('jp q go -u deploy_a', [[search('deploy')]]),
    });
    expect(t.calls[0]?.search?.returned.map((r) => r.name)).toEqual(['deploy_b']);
  });
  it('tools promoted by an earlier call of the same cycle do appear, and are usable (§8.6)', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer({ deploy_staging: { summary: 'Deploy to staging.' } }),
      body: turn('jp q go', [[search('deploy'), search('staging')]]),
    });
    expect(t.calls.map((c) => c.search?.returned.map((r) => [r.name, r.status]))).toEqual([
      [['deploy_staging', 'usable']],
      [['deploy_staging', 'usable']],
    ]);
  });
  it('a tool promoted in an earlier cycle is offered, so a later cycle no longer finds it', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer({ deploy_staging: { summary: 'Deploy to staging.' } }),
      body: turn('jp q go', [[search('deploy')], [search('deploy')]]),
    });
    expect(t.calls[0]?.search?.total).toBe(1);
    expect(t.calls[1]?.search?.total).toBe(0);
    expect(t.calls[1]?.search?.returned).toEqual([]);
  });
  it('searches the cycle-start searchable set: a write earlier in the same cycle does not hide a match', () => {
    const t = run({
      policy: { ranking: 'substring' },
      layer: layer({ admin: { enable: '"on"', summary: 'Admin.' }, deploy: { summary: 'Deploy.' } }),
      body: turn('jp q go', [[call('admin', 'writes = ["conversation.tools.deploy.enable=off"], approved = true'), search('deploy')]]),
    });
    // Found (cycle-start snapshot), but the fold leaves it off: reported unavailable.
    expect(t.calls[1]?.search?.returned.map((r) => [r.name, r.status])).toEqual([['deploy', 'unavailable']]);
    expect(t.calls[1]?.search?.total).toBe(1);
  });
});

describe('§5 the response: only returned tools, each with a status, and the total', () => {
  it('the result text lists name, summary and status of each returned tool and the total', () => {
    const { call: c } = searchOnce({ deploy_a: { summary: 'Deploy A.' }, deploy_b: { summary: 'Deploy B.' } }, '{ query = "deploy", limit = 1 }', { ranking: 'substring' });
    expect(JSON.parse(c.result)).toEqual({ tools: [{ name: 'deploy_a', summary: 'Deploy A.', status: 'usable' }], total: 2 });
  });
  it('report_match_count = false: no total in the record nor in the text', () => {
    const { call: c } = searchOnce({ deploy_a: { summary: 'Deploy A.' }, deploy_b: { summary: 'Deploy B.' } }, '{ query = "deploy", limit = 1 }', {
      ranking: 'substring',
      report_match_count: false,
    });
    expect(c.search?.total).toBeUndefined();
    expect(JSON.parse(c.result)).toEqual({ tools: [{ name: 'deploy_a', summary: 'Deploy A.', status: 'usable' }] });
  });
  it('an expectation on `total` fails when the count is not reported', () => {
    const report = check({
      policy: { ranking: 'substring', report_match_count: false },
      layer: layer({ deploy_a: { summary: 'Deploy A.' } }),
      body: turn('jp q go', [['{ tool = "search_tools", args = { query = "deploy" }, expect = { total = 1 } }']]),
    });
    expect(report.failed).toBe(1);
  });
  it('a local tool with only a description has it as its summary (§8.23)', () => {
    const { call: c } = searchOnce({ lonely: { description: 'Only a description. Second sentence.' } }, '{ query = "lonely" }', { ranking: 'substring' });
    expect(c.search?.returned[0]?.summary).toBe('Only a description. Second sentence.');
    expect(c.search?.returned[0]?.fields).toEqual(['name']);
  });
});

describe('§8.24 hide_unapproved', () => {
  const tools: Record<string, ToolSpec> = {
    deploy_ask: { summary: 'Deploy, needs approval.' },
    deploy_free: { run: 'unattended', summary: 'Deploy, runs unattended.' },
    deploy_edit: { run: 'edit', summary: 'Deploy, edit first.' },
  };
  it('false (default): tools needing approval are returned (run defaults to ask, §8.18)', () => {
    const { call: c } = searchOnce(tools, '{ query = "deploy" }', { ranking: 'substring' });
    expect(c.search?.returned.map((r) => r.name)).toEqual(['deploy_ask', 'deploy_free', 'deploy_edit']);
    expect(c.search?.total).toBe(3);
  });
  it('true: run = "ask" tools are removed before matching: never returned, not counted, use none of the limit', () => {
    const { call: c, timeline } = searchOnce(tools, '{ query = "deploy", limit = 1 }', { ranking: 'substring', hide_unapproved: true });
    expect(c.search?.returned.map((r) => r.name)).toEqual(['deploy_free']);
    expect(c.search?.total).toBe(2);
    // The searchable set keeps its section-4 meaning.
    expect(timeline.requests[0]?.sets.searchable).toEqual(['deploy_ask', 'deploy_free', 'deploy_edit']);
  });
  it("true: the effective run comes from '*' too", () => {
    const { call: c } = searchOnce(tools, '{ query = "deploy" }', { ranking: 'bm25', hide_unapproved: true }, { enable: '"discoverable"', run: 'unattended' });
    expect(new Set(c.search?.returned.map((r) => r.name))).toEqual(new Set(['deploy_ask', 'deploy_free', 'deploy_edit']));
  });
});

// ---------------------------------------------------------------------------------------------
// The argument contract on its own (searchTools over any RankerIndex).

class FakeIndex implements RankerIndex {
  queries: string[] = [];
  constructor(private readonly names: readonly string[]) {}
  search(query: string, options: { filter: (n: string) => boolean }): SearchHit[] {
    this.queries.push(query);
    return this.names.filter(options.filter).map((name, i) => ({ name, score: 100 - i, fields: ['name'] }));
  }
}

describe('searchTools contract', () => {
  const names = Array.from({ length: 80 }, (_, i) => `t${i}`);
  const ctx = { filter: () => true, reportMatchCount: true };
  const rows: { args: unknown; error: string }[] = [
    { args: undefined, error: 'arguments must be an object' },
    { args: null, error: 'arguments must be an object' },
    { args: 'deploy', error: 'arguments must be an object' },
    { args: ['deploy'], error: 'arguments must be an object' },
    { args: {}, error: 'query must be a string, and it is missing' },
    { args: { limit: 3 }, error: 'query must be a string, and it is missing' },
    { args: { query: 42 }, error: 'query must be a string, got a number' },
    { args: { query: null }, error: 'query must be a string, got null' },
    { args: { query: { $regex: '.*' } }, error: 'query must be a string, got an object' },
    { args: { query: ['a'] }, error: 'query must be a string, got an array' },
    { args: { query: true }, error: 'query must be a string, got a boolean' },
    { args: { query: '' }, error: 'query must not be empty' },
    { args: { query: ' \t ' }, error: 'query must not be empty' },
    { args: { query: 'x'.repeat(MAX_QUERY_LENGTH + 1) }, error: 'query is too long' },
    { args: { query: 'x'.repeat(10_000) }, error: 'query is too long' },
    { args: { query: 'x', limit: 1.5 }, error: 'limit must be an integer' },
    { args: { query: 'x', limit: '3' }, error: 'limit must be an integer' },
    { args: { query: 'x', limit: Number.NaN }, error: 'limit must be an integer' },
  ];
  for (const row of rows) {
    it(`${JSON.stringify(row.args)?.slice(0, 60) ?? 'undefined'} → ${row.error}`, () => {
      const index = new FakeIndex(names);
      const r = searchTools(index, row.args, ctx);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain(row.error);
      expect(index.queries).toEqual([]);
    });
  }
  it('a query inherited from the prototype is still missing', () => {
    const args = Object.create({ query: 'inherited' }) as object;
    expect(searchTools(new FakeIndex(names), args, ctx)).toMatchObject({ ok: false });
  });
  it('a query of exactly MAX_QUERY_LENGTH characters is accepted', () => {
    expect(searchTools(new FakeIndex(names), { query: 'x'.repeat(MAX_QUERY_LENGTH) }, ctx).ok).toBe(true);
  });
  it('limit null means the default', () => {
    const r = searchTools(new FakeIndex(names), { query: 'x', limit: null }, ctx);
    expect(r.ok && r.hits.length).toBe(10);
  });
  it('exclude removes names before counting', () => {
    const r = searchTools(new FakeIndex(names), { query: 'x' }, { ...ctx, exclude: (n) => n.endsWith('0') });
    expect(r.ok && r.total).toBe(72);
    expect(r.ok && r.hits.every((h) => !h.name.endsWith('0'))).toBe(true);
  });
  it('resolveLimit', () => {
    expect([undefined, null, 0, -1, 1, 50, 51, 1e9].map(resolveLimit)).toEqual([10, 10, 1, 1, 1, 50, 50, 50]);
  });

  it('property: limit bounds the number of results, total counts them all, for both rankers', () => {
    const docs: SearchDocument[] = Array.from({ length: 120 }, (_, i) => ({
      name: `tool_${i}`,
      order: i,
      parameterNames: i % 3 === 0 ? ['owner'] : [],
      summary: `Manage ${['alpha', 'beta', 'gamma'][i % 3]} things number ${i}.`,
      description: `Longer text ${i % 7 === 0 ? 'deploy' : 'other'}.`,
      parameterDescriptions: [],
    }));
    const indexes = [substring.build(docs), bm25.build(docs)];
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('alpha', 'beta things', 'deploy', 'manage', 'number 1', 'tool', 'owner'), fc.string({ minLength: 1, maxLength: 12 })),
        fc.oneof(fc.integer({ min: -100, max: 200 }), fc.constant(undefined)),
        fc.integer({ min: 0, max: 1 }),
        (query, limit, which) => {
          const index = indexes[which] as RankerIndex;
          const r = searchTools(index, limit === undefined ? { query } : { query, limit }, ctx);
          if (query.trim() === '') return !r.ok;
          if (!r.ok) return false;
          const bound = limit === undefined ? 10 : Math.min(MAX_LIMIT, Math.max(1, limit));
          return r.hits.length <= bound && r.hits.length === Math.min(bound, r.total ?? -1) && new Set(r.hits.map((h) => h.name)).size === r.hits.length;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('bm25 searchTop: the first `limit` hits of search, and the count', () => {
  it('property: same names, scores, fields and order as search().slice(0, limit); total = search().length', () => {
    const words = ['deploy', 'staging', 'issue', 'list', 'create', 'user', 'file', 'read', 'weather', 'repo'];
    const docs: SearchDocument[] = Array.from({ length: 300 }, (_, i) => ({
      name: `${words[i % 10]}_${words[(i * 7) % 10]}_${i}`,
      order: i,
      parameterNames: [words[(i * 3) % 10] ?? ''],
      summary: `${words[(i * 5) % 10]} ${words[(i * 3) % 10]} things.`,
      description: `About ${words[i % 7]} and more.`,
      parameterDescriptions: [],
    }));
    const index = bm25.build(docs) as RankerIndex & { searchTop(q: string, o: { filter: (n: string) => boolean }, k: number): { hits: SearchHit[]; total: number } };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words, 'deploying', 'users', 'xyz'), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 5 }),
        (query, limit, mod) => {
          const filter = (name: string): boolean => Number(name.split('_').pop()) % mod !== 0 || mod === 1;
          const all = index.search(query, { filter });
          const top = index.searchTop(query, { filter }, limit);
          expect(top.total).toBe(all.length);
          const plain = (h: SearchHit) => ({ name: h.name, score: h.score, fields: [...h.fields] });
          expect(top.hits.map(plain)).toEqual(all.slice(0, limit).map(plain));
        },
      ),
      { numRuns: 200 },
    );
  });
  it('searchTools uses it, with the same result as a ranker without it', () => {
    const docs: SearchDocument[] = Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, order: i, parameterNames: [], summary: `Deploy thing ${i % 4}.`, description: '', parameterDescriptions: [] }));
    const index = bm25.build(docs);
    const plainIndex: RankerIndex = { search: (q, o) => index.search(q, o) };
    const ctx = { filter: () => true, reportMatchCount: true };
    const a = searchTools(index, { query: 'deploy thing 2', limit: 5 }, ctx);
    const b = searchTools(plainIndex, { query: 'deploy thing 2', limit: 5 }, ctx);
    expect(JSON.parse(JSON.stringify(a))).toEqual(JSON.parse(JSON.stringify(b)));
    expect(a.ok && a.total).toBe(40);
  });
});

describe('bad input never crashes a run', () => {
  it('a regex-looking query is matched literally, never compiled', () => {
    const tools: Record<string, ToolSpec> = {
      matcher: { summary: 'Match lines against [a-z]+ patterns.' },
      deploy_staging: { summary: 'Deploy.' },
    };
    for (const [query, want] of [
      ['[a-z]+', ['matcher']],
      ['deploy.*', []],
      ['(.*)+[', []],
      ['((a+)+)+$', []],
      ['\\', []],
    ] as const) {
      const { call: c } = searchOnce(tools, `{ query = ${JSON.stringify(query)} }`, { ranking: 'substring', substring_match: 'whole_query' });
      expect(c.status, query).toBe('ok');
      expect(c.search?.returned.map((r) => r.name), query).toEqual(want);
      const b = searchOnce(tools, `{ query = ${JSON.stringify(query)} }`, { ranking: 'bm25' }).call;
      expect(b.status, query).toBe('ok');
    }
  });
  it('a tool named __proto__ is searched, promoted and called like any other', () => {
    const t = run({
      policy: { ranking: 'substring' },
      // A computed key: a literal `__proto__:` would set the object's prototype instead.
      layer: layer({ ['__proto__']: { summary: 'Hostile name.' }, constructor: { summary: 'Hostile too.' } }),
      body: turn('jp q go', [[search('hostile')], [call('__proto__'), call('constructor'), call('toString'), call('hasOwnProperty')]]),
    });
    expect(t.calls[0]?.search?.returned.map((r) => [r.name, r.status])).toEqual([
      ['__proto__', 'usable'],
      ['constructor', 'usable'],
    ]);
    expect(t.calls.slice(1).map((c) => c.status)).toEqual(['ok', 'ok', 'error', 'error']);
    expect(t.calls[3]?.error).toContain("Tool 'toString' is not available");
    expect(t.requests[1]?.array).toEqual(['__proto__', 'constructor', 'describe_tools', 'search_tools']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
