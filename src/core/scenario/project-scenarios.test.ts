// The issue-3 scenarios under scenarios/, checked as `tool-workbench check` does. (Scenarios that
// need a [workspace] are checked by the shell that can load one.)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkScenario } from './report';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scenarios');
const MINE = ['discovery-fold.toml', 'providers-cache.toml', 'search-bad-input.toml'];
const files = readdirSync(dir).filter((f) => MINE.includes(f)).sort();
const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
const check = (f: string, text = read(f)) => checkScenario(f, text, { readFile: (p) => readFileSync(join(dir, p), 'utf8') });

describe('scenarios/', () => {
  it('holds the issue-3 scenarios', () => {
    expect(files).toEqual(MINE);
  });
  for (const file of files) {
    it(`${file} passes`, () => {
      const report = check(file);
      expect(report.fileErrors).toEqual([]);
      expect(report.failures).toEqual([]);
      expect(report.passed).toBeGreaterThan(10);
      // No step ended in an internal error.
      const steps = report.timeline?.entries.filter((e) => e.kind === 'step') ?? [];
      for (const s of steps) expect(s.kind === 'step' ? (s.error ?? '') : '').not.toContain('internal error');
    });
  }

  it('search-bad-input: each bad input is a clear error result, the odd-but-valid ones are literal', () => {
    const text = read('search-bad-input.toml');
    expect(text).toMatch(/query = "(deploy ){1428}abcd"/);
    const t = check('search-bad-input.toml').timeline;
    const first = t?.calls.filter((c) => c.step === 1 && c.cycle === 1) ?? [];
    const byQuery = (q: unknown) => first.find((c) => JSON.stringify((c.args as { query?: unknown }).query) === JSON.stringify(q));
    expect(first[0]?.error).toBe('query must be a string, and it is missing');
    expect(byQuery(42)?.error).toBe('query must be a string, got a number');
    expect(byQuery('(.*)+[')).toMatchObject({ status: 'ok', search: { total: 0 } });
    expect(byQuery('[a-z]+')?.search?.returned.map((r) => r.name)).toEqual(['matcher']);
    const long = first.find((c) => typeof (c.args as { query?: unknown }).query === 'string' && ((c.args as { query: string }).query.length === 10_000));
    expect(long?.status).toBe('error');
    expect(long?.error).toContain('query is too long: 10000 characters');
    expect(byQuery('__proto__')?.search?.returned.map((r) => [r.name, r.status])).toEqual([['__proto__', 'usable']]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('providers-cache: the same layers without directives miss at the discovery', () => {
    const text = read('providers-cache.toml').replace('provider = "anthropic-directives"', 'provider = "anthropic"');
    const report = check('providers-cache.toml', text);
    const cacheFailures = report.failures.filter((f) => f.includes(': cache:'));
    expect(cacheFailures).toEqual([
      'providers-cache.toml: step 1 cycle 2: cache: expected "hit", got "miss"',
      'providers-cache.toml: step 2 cycle 1: cache: expected "hit", got "miss"',
      'providers-cache.toml: step 3 cycle 2: cache: expected "hit", got "miss"',
    ]);
    // Only the fixed array differs: the offered sets and costs are the same.
    expect(report.failures.filter((f) => f.includes('overhead_chars') || f.includes(': offered:'))).toEqual([]);
  });
});
