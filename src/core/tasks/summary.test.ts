// What a task run prints and exports, from hand-made results (no scenario is run): the counts and the
// search rate, the token totals of a priced run, the names the catalogue lacks, the silent-miss lines,
// the notes under the summary, and the JSONL and CSV a user opens elsewhere.
import { describe, expect, it } from 'vitest';
import { CSV_HEADER, resultsCsv, resultsJsonl, runNotes, silentMissLines, summarize, summaryLine } from './summary';
import type { RunLabels } from './summary';
import type { NeededTool, Outcome, TaskResult } from './types';

let nextIndex = 0;
function result(outcome: Outcome, more: Partial<TaskResult> = {}): TaskResult {
  return {
    index: nextIndex++,
    query: `task ${nextIndex}`,
    relevant: ['deploy_staging'],
    outcome,
    reason: `why ${outcome}`,
    needed: [{ name: 'deploy_staging', state: 'discoverable', promoted: false, reached: false, called: false }],
    searched: false,
    queries: [],
    moves: [],
    ...more,
  };
}

const labels: RunLabels = { policy: 'auto', categories: false, limit: 3, section: { lines: 0, text: '' } };
const need = (name: string, state: NeededTool['state'], rank?: number): NeededTool => ({ name, state, promoted: false, reached: false, called: false, ...(rank !== undefined ? { rank } : {}) });
const tokens = (n: number) => ({ tokens: n, allOnTokens: 10 * n, money: n / 8, allOnMoney: n / 2 });

describe('summarize', () => {
  it('counts each outcome, and the search rate is over the tasks a search would have helped only', () => {
    const s = summarize([
      result('met-up-front', { searched: true }),
      result('met-by-search', { searched: true }),
      result('silent-miss'),
      result('silent-miss'),
      result('impossible', { searched: true }),
    ], labels).summary;
    expect(s.counts).toEqual({ 'met-up-front': 1, 'met-by-search': 1, 'silent-miss': 2, impossible: 1 });
    expect(s.tasks).toBe(5);
    expect(s.searched).toBe(3);
    // Met by search and the two silent misses would have been helped; one of those three searched.
    expect(s.helpedBySearch).toBe(3);
    expect(s.searchRate).toBeCloseTo(1 / 3, 10);
    expect(summaryLine(s)).toBe('tasks 5: met up front 1, met by search 1, silent misses 2, impossible 1; searched in 3 of 5 tasks; search rate 33% (searched in 1 of the 3 tasks a search would have helped)');
  });

  it('no task a search would have helped: the rate is 0, not a division by zero', () => {
    const s = summarize([result('met-up-front', { searched: true }), result('impossible', { searched: true })], labels).summary;
    expect(s.helpedBySearch).toBe(0);
    expect(s.searchRate).toBe(0);
    expect(summaryLine(s)).toContain('searched in 2 of 2 tasks; search rate 0% (searched in 0 of the 0 tasks a search would have helped)');
  });

  it('a priced run adds the tokens and money of the priced tasks, the unpriced ones left out', () => {
    const rs = [result('met-up-front', { tokens: tokens(100) }), result('silent-miss'), result('met-by-search', { tokens: tokens(20) })];
    const s = summarize(rs, { ...labels, priced: 'prices of 2026-12-01' }).summary;
    expect(s.tokens).toEqual({ tokens: 120, allOnTokens: 1200, money: 15, allOnMoney: 60, priced: 'prices of 2026-12-01' });
    // Not priced, or priced with no task that has figures (every turn failed): no totals at all.
    expect(summarize(rs, labels).summary.tokens).toBeUndefined();
    expect(summarize([result('silent-miss')], { ...labels, priced: 'prices of 2026-12-01' }).summary.tokens).toBeUndefined();
  });

  it('names the catalogue lacks: counted per task in order of first mention, a turn that did not start left out', () => {
    const run = summarize([
      result('impossible', { needed: [need('nope', 'unknown'), need('deploy_staging', 'discoverable')] }),
      result('impossible', { needed: [need('gone', 'unknown'), need('nope', 'unknown')] }),
      // Every needed tool of a turn that did not start reads unknown: that is not the catalogue's fault.
      result('impossible', { needed: [need('deploy_staging', 'unknown')], error: 'jp q: unknown option -x' }),
      result('impossible', { needed: [need('off_tool', 'off')] }),
    ], labels);
    expect(run.unknownNames).toEqual([{ name: 'nope', tasks: 2 }, { name: 'gone', tasks: 1 }]);
  });

  it('keeps the run\'s labels', () => {
    const run = summarize([], { policy: 'categories', categories: true, limit: 7, section: { lines: 2, text: 'x', tokens: 9 } });
    expect(run).toMatchObject({ policy: 'categories', categories: true, limit: 7, section: { lines: 2, text: 'x', tokens: 9 }, results: [], unknownNames: [] });
    expect(run.summary).toMatchObject({ tasks: 0, searched: 0, helpedBySearch: 0, searchRate: 0 });
  });
});

describe('the printed lines', () => {
  it('one line per silent miss: the request on one line, clipped at 80 characters, the tools it needed and why', () => {
    const exact = 'x'.repeat(80);
    const run = summarize([
      result('silent-miss', { query: 'Deploy\n  the   branch\tto staging ', relevant: ['deploy_staging', 'read_file'], reason: 'deploy_staging was discoverable and the model never searched' }),
      result('met-up-front', { query: 'read it' }),
      result('silent-miss', { query: exact, reason: 'r' }),
      result('silent-miss', { query: `${'y'.repeat(80)}z`, reason: 'r' }),
    ], labels);
    expect(silentMissLines(run)).toEqual([
      'silent miss: Deploy the branch to staging  needs deploy_staging, read_file: deploy_staging was discoverable and the model never searched',
      `silent miss: ${exact}  needs deploy_staging: r`,
      `silent miss: ${'y'.repeat(79)}…  needs deploy_staging: r`,
    ]);
  });

  it('the notes: the policy and limit, the categories section (its lines, tokens, whether it is in the prompt)', () => {
    const off = summarize([], { policy: 'never', categories: false, limit: 5, section: { lines: 1, text: 'x' } });
    expect(runNotes(off)).toEqual([
      'policy never (a stand-in, not a real model); search limit 5; categories section off',
      'categories section: 1 line (not in the prompt; --categories adds it)',
    ]);
    const on = summarize([], { policy: 'categories', categories: true, limit: 3, section: { lines: 4, text: 'x', tokens: 57 } });
    expect(runNotes(on)).toEqual([
      'policy categories (a stand-in, not a real model); search limit 3; categories section in the system prompt',
      'categories section: 4 lines, 57 tokens on every request',
    ]);
  });

  it('the notes of a priced run with unknown names: the token line, then each name with its task count', () => {
    const run = summarize([
      result('met-up-front', { tokens: { tokens: 1234, allOnTokens: 5678, money: 0.012345, allOnMoney: 0.5 } }),
      result('impossible', { needed: [need('nope', 'unknown')] }),
      result('impossible', { needed: [need('nope', 'unknown'), need('gone', 'unknown')] }),
    ], { ...labels, section: { lines: 0, text: '' }, priced: 'prices of 2026-12-01' });
    expect(runNotes(run).slice(1)).toEqual([
      'categories section: 0 lines (not in the prompt; --categories adds it)',
      'tokens 1234 against 5678 with every permitted tool on; $0.0123 against $0.5000 (prices of 2026-12-01)',
      'not in the catalogue: nope (named by 2 tasks)',
      'not in the catalogue: gone (named by 1 task)',
    ]);
  });
});

describe('the exports', () => {
  const full = result('met-by-search', {
    query: 'Deploy it',
    relevant: ['deploy_staging', 'read_file'],
    searched: true,
    queries: ['deploy', 'staging branch'],
    needed: [{ ...need('deploy_staging', 'discoverable', 2), promoted: true, reached: true, called: true }, need('read_file', 'offered')],
    reason: 'search_tools promoted deploy_staging',
    tokens: tokens(40),
  });

  it('JSONL: one object a task with the run\'s policy, tokens and error only when there are some, a newline after each', () => {
    const failed = result('impossible', { error: 'jp q: bad', needed: [need('x', 'unknown')] });
    const run = summarize([full, result('silent-miss'), failed], { ...labels, categories: true });
    const text = resultsJsonl(run);
    expect(text.endsWith('}\n')).toBe(true);
    const rows = text.split('\n').slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      policy: 'auto', categories: true, query: 'Deploy it', relevant: ['deploy_staging', 'read_file'], outcome: 'met-by-search', reason: 'search_tools promoted deploy_staging',
      searched: true, queries: ['deploy', 'staging branch'], needed: full.needed, tokens: tokens(40),
    });
    expect(Object.keys(rows[1] ?? {})).not.toContain('tokens');
    expect(Object.keys(rows[1] ?? {})).not.toContain('error');
    expect(rows[2]).toMatchObject({ outcome: 'impossible', error: 'jp q: bad' });
    expect(resultsJsonl(summarize([], labels))).toBe('');
  });

  it('CSV: a header and a row a task, lists space-separated, queries by " | ", a rank or "none", token columns blank when unpriced', () => {
    const run = summarize([full, result('silent-miss', { query: 'plain', needed: [need('deploy_staging', 'discoverable')] })], labels);
    const lines = resultsCsv(run).split('\r\n');
    expect(lines).toEqual([
      CSV_HEADER.join(','),
      'auto,false,Deploy it,deploy_staging read_file,met by search,true,deploy | staging branch,2 none,discoverable offered,search_tools promoted deploy_staging,40,400',
      'auto,false,plain,deploy_staging,silent miss,false,,none,discoverable,why silent-miss,,',
      '',
    ]);
  });

  it('CSV: only a leading =, +, -, @, tab or return is defused; one inside the text is left as it is', () => {
    const cells = (query: string) => resultsCsv(summarize([result('silent-miss', { query })], labels)).split('\r\n')[1]?.split(',')[2];
    expect(cells('-1 + 2')).toBe("'-1 + 2");
    expect(cells('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(cells('+x')).toBe("'+x");
    expect(cells('deploy-staging = now @home')).toBe('deploy-staging = now @home');
    expect(cells('a\tb')).toBe('a\tb');
  });
});
