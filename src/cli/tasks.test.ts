// `tool-workbench tasks` through main(argv, io): the demo scenario with the project's demo task set,
// a catalogue file made all discoverable, and bad input (exit 2 with one clear line).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { Io } from './main';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const demo = resolve(root, 'src/app/demo-scenario.toml');
const demoTasks = resolve(root, 'scenarios/data/demo-tasks.jsonl');

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

const SUMMARY = /^tasks (\d+): met up front (\d+), met by search (\d+), silent misses (\d+), impossible (\d+); searched in (\d+) of (\d+) tasks?; search rate (\d+)% \(searched in \d+ of the \d+ tasks? a search would have helped\)$/u;

function summaryOf(stdout: string): number[] {
  const last = stdout.trimEnd().split('\n').pop() ?? '';
  const m = SUMMARY.exec(last);
  if (!m) throw new Error(`no summary line: ${last}`);
  return m.slice(1).map(Number);
}

describe('tool-workbench tasks on the demo', () => {
  it('never: every discoverable need is a silent miss, one line each, and the summary ends the output', () => {
    const io = capture();
    expect(main(['tasks', '--scenario', demo, '--tasks', demoTasks, '--policy', 'never'], io)).toBe(0);
    const [n, upFront, bySearch, silent, impossible, searched] = summaryOf(io.stdout());
    expect([n, bySearch, searched]).toEqual([18, 0, 0]);
    expect((upFront ?? 0) + (silent ?? 0) + (impossible ?? 0)).toBe(18);
    expect(io.stdout().split('\n').filter((l) => l.startsWith('silent miss: '))).toHaveLength(silent ?? -1);
    expect(io.stdout()).toContain('policy never (a stand-in, not a real model)');
    expect(io.stdout()).toContain('not in the catalogue: slack_post_message (named by 1 task)');
  });

  it('auto finds more than never; categories searches only with its section in the prompt', () => {
    const of = (...extra: string[]) => {
      const io = capture();
      expect(main(['tasks', '--scenario', demo, '--tasks', demoTasks, ...extra], io)).toBe(0);
      return summaryOf(io.stdout());
    };
    const auto = of();
    expect(auto[2]).toBeGreaterThan(5);
    expect(auto[5]).toBeGreaterThan(5);
    expect(of('--policy', 'categories')[5]).toBe(0);
    expect(of('--policy', 'categories', '--categories')[5]).toBeGreaterThan(0);
  });

  it('--json: the summary, the names the catalogue lacks and every task\'s record', () => {
    const io = capture();
    expect(main(['tasks', '--scenario', demo, '--tasks', demoTasks, '--json', '--policy', 'request', '--limit', '5'], io)).toBe(0);
    const j = JSON.parse(io.stdout()) as { policy: string; limit: number; summary: { tasks: number }; unknownNames: unknown[]; results: { outcome: string; needed: unknown[] }[] };
    expect(j).toMatchObject({ policy: 'request', limit: 5, summary: { tasks: 18 }, unknownNames: [{ name: 'slack_post_message', tasks: 1 }] });
    expect(j.results).toHaveLength(18);
    expect(j.results[9]).toMatchObject({ outcome: 'impossible', needed: [{ name: 'fs_delete_file', state: 'off' }] });
  });
});

describe('tool-workbench tasks on a catalogue file, every tool discoverable', () => {
  it('runs the tasks against the catalogue, resolving names as the server gives them', () => {
    const io = capture({ 't.jsonl': '{"query": "merge the pull request", "relevant": ["merge_pull_request"]}\n{"query": "hello", "relevant": ["nope"]}\n' });
    expect(main(['tasks', '--scenario', resolve(root, 'scenarios/data/github.tools.json'), '--tasks', 't.jsonl', '--policy', 'request'], io)).toBe(0);
    expect(summaryOf(io.stdout())).toEqual([2, 0, 1, 0, 1, 2, 2, 100]);
  });
});

describe('bad input', () => {
  it.each([
    [['tasks'], '--scenario FILE and --tasks FILE.jsonl are required'],
    [['tasks', '--scenario', demo, '--tasks', demoTasks, '--policy', 'gpt'], '--policy takes never, request, auto, categories, got `gpt`'],
    [['tasks', '--scenario', demo, '--tasks', demoTasks, '--limit', '0'], '--limit takes an integer from 1 to 50, got `0`'],
    [['tasks', '--scenario', demo, '--tasks', demoTasks, '--bogus'], 'unknown argument `--bogus`'],
  ])('%j', (argv, message) => {
    const io = capture();
    expect(main(argv, io)).toBe(2);
    expect(io.stderr()).toBe(`tool-workbench tasks: ${message} (tool-workbench tasks --help)\n`);
    expect(io.stdout()).toBe('');
  });

  it('a malformed task line is reported with its line and column, the rest still run, exit 2', () => {
    const io = capture({ 't.jsonl': '{"query": "What is the git status?", "relevant": ["git_status"]}\n{"query": 3}\n{oops\n' });
    expect(main(['tasks', '--scenario', demo, '--tasks', 't.jsonl'], io)).toBe(2);
    expect(io.stderr()).toContain('t.jsonl: line 2: "query" must be a string');
    expect(io.stderr()).toMatch(/t\.jsonl: line 3, column \d+: not JSON/u);
    expect(summaryOf(io.stdout())[0]).toBe(1);
  });

  it('a scenario with an error: its place, exit 2; --help prints the usage', () => {
    const io = capture({ 'bad.toml': 'name = "x"\n[[steps]\n', 't.jsonl': '{"query": "q", "relevant": []}\n' });
    expect(main(['tasks', '--scenario', 'bad.toml', '--tasks', 't.jsonl'], io)).toBe(2);
    expect(io.stderr()).toMatch(/^bad\.toml:2:\d+: /u);
    const help = capture();
    expect(main(['tasks', '--help'], help)).toBe(0);
    expect(help.stdout()).toContain('tool-workbench tasks --scenario FILE --tasks FILE.jsonl');
  });
});
