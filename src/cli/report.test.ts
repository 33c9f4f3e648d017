// `tool-workbench report` through its command function, with files read from ../shared and the HTML
// written to memory.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { esc } from '../core/report/escape';
import { parseScenario } from '../core/scenario/parse';
import type { Io } from './main';
import { main } from './main';
import { reportCommand } from './report';

const CONFORMANCE = join(__dirname, '..', '..', '..', 'shared', 'conformance');
const conformance = readdirSync(CONFORMANCE).filter((f) => f.endsWith('.toml')).map((f) => join(CONFORMANCE, f));

function run(args: readonly string[], extra: Record<string, string> = {}): { code: number; out: string; err: string; written: Map<string, string> } {
  let out = '';
  let err = '';
  const written = new Map<string, string>();
  const io: Io = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readFile: (p) => extra[p] ?? readFileSync(p, 'utf8'),
  };
  const code = reportCommand(args, io, (p, t) => void written.set(p, t), () => new Date(Date.UTC(2026, 11, 1)));
  return { code, out, err, written };
}

describe('tool-workbench report', () => {
  it('writes one file naming every conformance scenario, with no reference to another host', () => {
    const r = run([...conformance, '--out', 'r.html']);
    expect(r.code).toBe(0);
    const html = r.written.get('r.html') ?? '';
    for (const file of conformance) {
      const parsed = parseScenario(readFileSync(file, 'utf8'));
      if (!parsed.ok) throw new Error(`${file} does not parse`);
      expect(html).toContain(esc(parsed.scenario.name));
    }
    expect(html).not.toMatch(/https?:/u);
    expect(html).toContain('on 2026-12-01T00:00:00Z');
    expect(r.out).toBe(`r.html: ${conformance.length} scenarios, ${r.out.match(/(\d+) passed/u)?.[1] ?? '?'} passed, 0 failed; RFD 108: 28 of 28 rows agree\n`);
  });

  it('exits 1 when an expectation fails and 2 when a file is bad or missing, and still writes the report', () => {
    const failing = 'name = "fails"\n[[layers]]\nname = "w"\ntext = \'\'\'\n[conversation.tools.a]\nsource = "local"\n\'\'\'\n[[steps]]\ncommand = "jp q x"\n[steps.expect]\noffered = []\n';
    expect(run(['f.toml', '--out', 'o.html'], { 'f.toml': failing }).code).toBe(1);
    const bad = run(['b.toml', 'missing.toml', '-o', 'o.html'], { 'b.toml': 'name = ' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('b.toml:1:8:');
    expect(bad.err).toContain('missing.toml:1:1: cannot read');
    expect(bad.written.get('o.html')).toContain('the file does not run');
  });

  it('refuses a call without files or --out, or with an unknown option, and writes nothing', () => {
    for (const args of [['--out', 'o.html'], ['a.toml'], ['a.toml', '--out'], ['a.toml', '--out', 'o.html', '--fast']]) {
      const r = run(args);
      expect(r.code).toBe(2);
      expect(r.written.size).toBe(0);
      expect(r.err).toMatch(/^tool-workbench report: /u);
    }
  });

  it('has a --help of its own and a line in the general usage', () => {
    let out = '';
    const io: Io = { out: (t) => void (out += t), err: () => undefined, readFile: () => '' };
    expect(main(['report', '--help'], io)).toBe(0);
    expect(out).toContain('tool-workbench report FILE... --out report.html');
    out = '';
    main(['--help'], io);
    expect(out).toContain('tool-workbench report FILE...');
  });
});
