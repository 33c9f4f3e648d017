import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EMPTY_DOC, scenarioDocFromText, writeScenario, tomlMultiline, tomlString } from './doc';
import type { ScenarioDoc } from './doc';
import { checkScenario } from './report';
import { parseToml } from '../config/toml';
import { toPlain } from '../config/toml-ast';

const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared'), 'conformance');
const files = readdirSync(dir).filter((f) => f.endsWith('.toml'));

describe('scenario documents', () => {
  for (const file of files) {
    it(`${file} survives read → write → check with the same results`, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const host = { readFile: (p: string) => readFileSync(join(dir, p), 'utf8') };
      const doc = scenarioDocFromText(text, host);
      expect(doc.ok).toBe(true);
      if (!doc.ok) return;
      const written = writeScenario(doc.doc);
      const original = checkScenario(file, text, host);
      const again = checkScenario(file, written, host);
      expect(again.fileErrors).toEqual([]);
      expect(again.passed).toBe(original.passed);
      expect(again.failures).toEqual(original.failures);
      // Writing is stable: a second round trip gives the same bytes.
      const doc2 = scenarioDocFromText(written, host);
      expect(doc2.ok && writeScenario(doc2.doc)).toBe(written);
    });
  }

  it.each([
    ['plain', 'a = 1\n'],
    ["ends with a quote'", "x = 'y'"],
    ["has ''' inside", "a = '''b'''\n"],
    ['control \u0001 char', 'bell\u0007\n'],
    ['backslash \\ and "quotes"', 'c:\\path "q"\n'],
  ])('multi-line strings round-trip: %s', (_label, s) => {
    const parsed = parseToml(`v = ${tomlMultiline(s)}`);
    expect(parsed.errors).toEqual([]);
    expect((toPlain(parsed.root) as { v: string }).v).toBe(s);
    const basic = parseToml(`v = ${tomlString(s)}`);
    expect((toPlain(basic.root) as { v: string }).v).toBe(s);
  });
});

describe('a server tool keeps every tools/list field through save and open', () => {
  it('outputSchema, annotations (title, openWorldHint, idempotentHint), execution, icons and _meta round-trip', () => {
    const tool = {
      name: 'w',
      title: 'W',
      description: 'd',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { c: { type: 'number' } } },
      annotations: { title: 'Weather', openWorldHint: true, idempotentHint: false },
      execution: { taskSupport: 'optional' },
      icons: [{ src: 'x' }],
      _meta: { 'a/b': 1 },
    };
    const doc: ScenarioDoc = { ...EMPTY_DOC, servers: [{ name: 's', status: 'running', tools: [tool] }] };
    const back = scenarioDocFromText(writeScenario(doc));
    expect(back.ok && back.doc.servers[0]?.tools).toEqual([tool]);
  });
});

describe("a call's `asked` (what a server asked while the call ran for real)", () => {
  it('round-trips through save and open, and does not change the check', () => {
    const base = `[[steps]]\ncommand = "jp q hi"\n\n  [[steps.cycles]]\n\n    [[steps.cycles.calls]]\n    tool = "ask"\n    args = {}\n    result = "answered"\n`;
    const asked = `${base}    asked = [{ kind = "elicitation", message = "Which colour?", action = "accept", content = { colour = "green", count = 3 } }, { kind = "sampling", action = "decline" }]\n`;
    const host = { readFile: () => '' };
    const doc = scenarioDocFromText(asked, host);
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    const call = doc.doc.steps[0]?.cycles[0]?.calls[0];
    expect(call?.asked).toEqual([
      { kind: 'elicitation', message: 'Which colour?', action: 'accept', content: { colour: 'green', count: 3 } },
      { kind: 'sampling', action: 'decline' },
    ]);
    const written = writeScenario(doc.doc);
    const again = scenarioDocFromText(written, host);
    expect(again.ok && again.doc.steps[0]?.cycles[0]?.calls[0]?.asked).toEqual(call?.asked);
    expect(checkScenario('a.toml', written, host).failures).toEqual(checkScenario('a.toml', base, host).failures);
  });

  it('says what is wrong with an `asked` that is not a list of tables', () => {
    const r = checkScenario('a.toml', `[[steps]]\ncommand = "jp q hi"\n\n  [[steps.cycles]]\n\n    [[steps.cycles.calls]]\n    tool = "ask"\n    asked = "yes"\n`, { readFile: () => '' });
    expect(r.fileErrors.map((e) => e.message)).toEqual([expect.stringContaining('asked must be a list of tables')]);
  });
});
