// `tool-workbench findability` through main(argv, io): a scenario written here, a catalogue from
// ../shared/data read in place, before/after, and bad input.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { Io } from './main';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const github = resolve(root, '../shared/data/catalogues/github-mcp-server.tools-list.json');

function capture(files: Record<string, string> = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readFile: (p) => {
      const f = files[p];
      if (f !== undefined) return f;
      return readFileSync(p, 'utf8');
    },
    stdout: () => out,
    stderr: () => err,
  };
}

const scenario = (notify: string) => `name = "findability"
[policy]
ranking = "substring"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"
[conversation.tools.send_email]
source = "local"
summary = "Send an email to notify people."
[conversation.tools.notify]
source = "local"
${notify}
[conversation.tools.always_on]
source = "local"
enable = "on"
summary = "An offered tool is not searchable."
'''
`;

describe('tool-workbench findability', () => {
  it('a scenario: its discoverable tools under its ranking; an empty description is reported with its fix', () => {
    const io = capture({ 's.toml': scenario('') });
    expect(main(['findability', 's.toml'], io)).toBe(0);
    const out = io.stdout();
    expect(out).toContain("2 discoverable tools; search_tools limit 10; the scenario's ranking: substring");
    expect(out).toMatch(/substring \*/u);
    expect(out).toContain('notify: thinly described, score 100% (1 of 1 query), best rank 1');
    expect(out).toContain('it has no summary or description');
    expect(out).toContain('fix: Add a summary');
    expect(out).not.toContain('always_on');
  });

  it('--before: the tools whose findability changed', () => {
    const io = capture({ 'old.toml': scenario(''), 'new.toml': scenario('summary = "Page the on-call engineer now."') });
    expect(main(['findability', 'new.toml', '--before', 'old.toml', '--json'], io)).toBe(0);
    const json = JSON.parse(io.stdout()) as { comparison: { changes: { name: string; direction: string }[] } };
    expect(json.comparison.changes).toEqual([expect.objectContaining({ name: 'notify', direction: 'better' })]);
  });

  it('a tools/list catalogue: every tool discoverable, three rankings side by side, as JSON', () => {
    const io = capture();
    expect(main(['findability', github, '--json', '--limit', '5'], io)).toBe(0);
    const r = JSON.parse(io.stdout()) as { limit: number; ranking: string; tools: unknown[]; rankings: { id: string; active: boolean }[] };
    expect(r.tools).toHaveLength(117);
    expect(r.limit).toBe(5);
    expect(r.rankings.map((x) => [x.id, x.active])).toEqual([['substring', false], ['bm25', true], ['regex', false]]);
  });

  it('--tasks: the tasks ask for the tools they need; bad lines are reported with their line', () => {
    const io = capture({ 's.toml': scenario('summary = "Page the on-call engineer now."'), 't.jsonl': '{"query": "wake up whoever is on call", "relevant": ["notify"]}\nnot json\n' });
    // The report covers the good line; the bad line fails the run, as in `eval`.
    expect(main(['findability', 's.toml', '--tasks', 't.jsonl', '--ranking', 'bm25'], io)).toBe(2);
    expect(io.stderr()).toContain('t.jsonl: line 2, column 1: not JSON');
    expect(io.stderr()).toContain('t.jsonl: 1 malformed line left out of the report above');
    expect(io.stdout()).toContain('1 tasks');
    expect(io.stdout()).toMatch(/bm25 \*/u);
  });

  it('bad input: a clear error and exit 2, never a stack trace', () => {
    const cases: [string[], string][] = [
      [['findability'], 'name a FILE'],
      [['findability', 'x.json', '--ranking', 'magic'], '--ranking takes substring, bm25, regex'],
      [['findability', 'x.json', '--limit', '0'], '--limit takes an integer from 1 to 50'],
      [['findability', 'x.json', '--wat'], 'unknown option `--wat`'],
      [['findability', 'bad.json'], 'bad.json:1:12: not valid JSON'],
      [['findability', 'bad.toml'], 'bad.toml:2:'],
      [['findability', 'missing.json'], 'missing.json: cannot read'],
    ];
    for (const [argv, message] of cases) {
      const io = capture({ 'bad.json': '{"tools": [', 'bad.toml': '[conversation.tools.x]\nenable = "sometimes"\n' });
      expect(main(argv, io), argv.join(' ')).toBe(2);
      expect(io.stderr()).toContain(message);
      expect(io.stderr()).not.toMatch(/\n\s+at /u);
    }
  });

  it('--help', () => {
    const io = capture();
    expect(main(['findability', '--help'], io)).toBe(0);
    expect(io.stdout()).toMatch(/^usage:\n {2}tool-workbench findability FILE/u);
    expect(io.stdout()).toContain('--before FILE');
  });

  it('control characters in a tool name reach the terminal as escapes', () => {
    const io = capture({ 'evil.json': JSON.stringify({ tools: [{ name: 'evil\u001b]0;PWNED\u0007', description: '', inputSchema: { type: 'object' } }] }) });
    expect(main(['findability', 'evil.json'], io)).toBe(0);
    expect(io.stdout()).not.toContain('\u001b');
    expect(io.stdout()).toContain('evil\\u001b]0;PWNED\\u0007');
  });
});
