// `tool-workbench eval` through main(argv, io), on the MetaTool data set in ../shared (read in
// place, never copied) and on a JP config TOML catalogue.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { Io } from './main';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const metatool = resolve(root, '../shared/data/search-eval/metatool');

function capture(files: Record<string, string> = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readFile: (p) => files[p] ?? readFileSync(p, 'utf8'),
    stdout: () => out,
    stderr: () => err,
  };
}

interface Row {
  readonly recall: readonly number[];
  readonly mrr: number;
  readonly misses: number;
}

/** The summary table: header `ranking recall@1 recall@5 recall@10 MRR misses`, then one row per ranking. */
function table(stdout: string): { header: string[]; rows: Map<string, Row> } {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('ranking'));
  const header = (lines[at] ?? '').trim().split(/\s+/);
  const rows = new Map<string, Row>();
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') break;
    const [id, ...cells] = line.trim().split(/\s+/);
    const nums = cells.map(Number);
    rows.set(id ?? '', { recall: nums.slice(0, -2), mrr: nums[nums.length - 2] ?? NaN, misses: nums[nums.length - 1] ?? NaN });
  }
  return { header, rows };
}

describe('tool-workbench eval on MetaTool (../shared/data/search-eval/metatool)', () => {
  const catalogue = resolve(metatool, 'catalogue.tools-list.json');

  it('queries.jsonl: recall@1/5/10 and MRR for both rankings side by side; bm25 recall@10 >= 0.70', () => {
    const io = capture();
    const code = main(['eval', '--catalogue', catalogue, '--queries', resolve(metatool, 'queries.jsonl')], io);
    expect(code).toBe(0);
    expect(io.stderr()).toBe('');
    const { header, rows } = table(io.stdout());
    expect(header).toEqual(['ranking', 'recall@1', 'recall@5', 'recall@10', 'MRR', 'misses']);
    expect([...rows.keys()]).toEqual(['substring', 'bm25']);
    // The README's own example: substring's zeros come with their reason (issue 24.9).
    expect(io.stdout()).toContain('note: substring returned no tool for 2062 of 2062 queries: it returns a tool only when every word of the query appears');
    const bm25 = rows.get('bm25') as Row;
    const substring = rows.get('substring') as Row;
    for (const r of [bm25, substring]) {
      expect(r.recall.length).toBe(3);
      for (const x of [...r.recall, r.mrr]) expect(x).toBeGreaterThanOrEqual(0);
      for (const x of [...r.recall, r.mrr]) expect(x).toBeLessThanOrEqual(1);
      // recall@k grows with k.
      expect(r.recall[0]).toBeLessThanOrEqual(r.recall[1] ?? 0);
      expect(r.recall[1]).toBeLessThanOrEqual(r.recall[2] ?? 0);
    }
    // The quality gate of issue 3.
    expect(bm25.recall[2]).toBeGreaterThanOrEqual(0.7);
    expect(bm25.recall[2]).toBeGreaterThan(substring.recall[2] ?? 1);
    expect(io.stdout().startsWith('2062 queries\n')).toBe(true);
    expect(io.stdout()).toContain('misses of bm25 (no relevant tool in the top 10):');
    expect(io.stdout().endsWith('\n')).toBe(true);
  });

  it('multi-queries.jsonl runs too, and --ranking bm25 prints bm25 alone', () => {
    const io = capture();
    expect(main(['eval', '--catalogue', catalogue, '--queries', resolve(metatool, 'multi-queries.jsonl'), '--ranking', 'bm25'], io)).toBe(0);
    const { rows } = table(io.stdout());
    expect([...rows.keys()]).toEqual(['bm25']);
    expect(rows.get('bm25')?.recall[2]).toBeGreaterThan(0.5);
  });
});

describe('tool-workbench eval on a JP config TOML catalogue', () => {
  const toml = `
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.deploy_staging]
source = "local"
summary = "Deploy a branch to the staging environment."
[conversation.tools.deploy_staging.parameters.branch]
type = "string"
summary = "Branch to deploy."

[conversation.tools.list_issues]
source = "local"
description = "List the open issues of a repository."

[conversation.tools.page_oncall]
source = "local"
summary = "Page the on-call engineer."
[conversation.tools.page_oncall.parameters.severity]
type = "string"
description = "How urgent it is: low, high or critical."

[conversation.tools.gh_runs]
source = "mcp.github"
summary = "An MCP tool: no server here, so it cannot be resolved."
`;
  const queries = [
    { query: 'deploy to staging', relevant: ['deploy_staging'] },
    { query: 'open issues', relevant: ['list_issues'] },
    { query: 'critical', relevant: ['page_oncall'] },
    { query: 'wake up the on-call person', relevant: ['page_oncall'] },
  ]
    .map((q) => JSON.stringify(q))
    .join('\n');
  const files = { 'jp.toml': toml, 'q.jsonl': `${queries}\n` };

  it('reads the tools of the config file, parameter descriptions included', () => {
    const io = capture(files);
    expect(main(['eval', '--catalogue', 'jp.toml', '--queries', 'q.jsonl', '--k', '1,3'], io)).toBe(0);
    const { header, rows } = table(io.stdout());
    expect(header).toEqual(['ranking', 'recall@1', 'recall@3', 'MRR', 'misses']);
    // substring finds the literal ones: every term of "deploy to staging" is in the summary, "open
    // issues" in the description (the summary of a tool with only a description), "critical" in a
    // parameter description; "wake up the on-call person" is not in any text.
    expect(rows.get('substring')?.recall).toEqual([0.75, 0.75]);
    expect(rows.get('bm25')?.recall[0]).toBe(1);
    expect(rows.get('bm25')?.mrr).toBe(1);
    expect(io.stdout()).toContain('  wake up the on-call person  want page_oncall; got nothing');
    // The MCP tool without a server cannot be resolved: it is left out, and eval says so.
    expect(io.stdout()).not.toContain('gh_runs');
    expect(io.stderr()).toBe('jp.toml: MCP server `github` is not defined, so `gh_runs` is not available\n');
  });

  it('a config file that does not load is an error naming the line', () => {
    const io = capture({ 'bad.toml': '[conversation.tools.x]\nenable = "sometimes"\n', 'q.jsonl': queries });
    expect(main(['eval', '--catalogue', 'bad.toml', '--queries', 'q.jsonl'], io)).toBe(2);
    expect(io.stderr()).toMatch(/^bad\.toml:2:\d+: invalid enable value/);
  });
});

describe('tool-workbench eval arguments', () => {
  const rows: { argv: string[]; err: string }[] = [
    { argv: ['eval'], err: '--catalogue FILE and --queries FILE.jsonl are required' },
    { argv: ['eval', '--catalogue', 'c.json'], err: 'required' },
    { argv: ['eval', '--catalogue', 'c.json', '--queries', 'q.jsonl', '--ranking', 'regex'], err: 'unknown ranking `regex`' },
    { argv: ['eval', '--catalogue', 'c.json', '--queries', 'q.jsonl', '--k', '0,5'], err: '--k takes positive integers' },
    { argv: ['eval', '--bogus'], err: 'unknown argument `--bogus`' },
    { argv: ['eval', '--catalogue', 'missing.json', '--queries', 'q.jsonl'], err: 'missing.json: cannot read: no such file' },
    { argv: ['eval', '--catalogue', 'c.json', '--queries', 'empty.jsonl'], err: 'no queries' },
    { argv: ['eval', '--catalogue', 'notjson.json', '--queries', 'q.jsonl'], err: 'not valid JSON' },
  ];
  const files = {
    'c.json': JSON.stringify({ tools: [{ name: 'a', description: 'A.', inputSchema: { type: 'object' } }] }),
    'q.jsonl': '{"query": "a", "relevant": ["a"]}\n',
    'empty.jsonl': '\n',
    'notjson.json': '{ nope',
  };
  for (const row of rows) {
    it(`${row.argv.slice(1).join(' ') || '(none)'} → exit 2`, () => {
      const io = capture(files);
      expect(main(row.argv, io)).toBe(2);
      expect(io.stderr()).toContain(row.err);
      expect(io.stdout()).toBe('');
    });
  }
  it('bad query lines are reported with their line and column, left out of the report, and exit 2 (issue 12)', () => {
    const io = capture({ ...files, 'mixed.jsonl': '{"query": "a", "relevant": ["a"]}\nnot json\n{"query": 3}\n{"query": "b", "relevant": ["a"],}\n' });
    expect(main(['eval', '--catalogue', 'c.json', '--queries', 'mixed.jsonl'], io)).toBe(2);
    expect(io.stderr()).toContain('mixed.jsonl: line 2, column 1: not JSON: expected a value');
    expect(io.stderr()).toContain('mixed.jsonl: line 3: "query" must be a string');
    expect(io.stderr()).toContain('mixed.jsonl: line 4, column 34: not JSON: a trailing comma before `}`');
    expect(io.stderr()).toContain('mixed.jsonl: 3 malformed lines left out of the report above');
    expect(io.stdout()).toContain('1 queries');
  });
});
