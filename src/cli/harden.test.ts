// Issue 12, on the command line: hostile and careless files, through `main` and the real node
// reader (nodeIo) on real files in a temporary folder. Each test here failed on main before it:
// a FIFO hung, /dev/zero grew without bound, bad bytes became U+FFFD, a `.jp/out -> elsewhere`
// link was followed, a BOM was "not valid JSON", deep JSON printed a stack trace, an ESC in a
// key reached the terminal, and `check --help` was "unknown option".
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, nodeIo } from './main';
import type { Io } from './main';
import { MAX_INPUT_BYTES } from './read';
import { MAX_JSON_DEPTH } from '../core/input/json';

let dir: string;
const at = (...p: string[]): string => join(dir, ...p);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-harden-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  out: string;
  err: string;
}

/** `main` over the real file system, output captured. */
function run(args: readonly string[], readFile: Io['readFile'] = nodeIo.readFile): Run {
  let out = '';
  let err = '';
  const code = main(args, { out: (t) => void (out += t), err: (t) => void (err += t), readFile });
  return { code, out, err };
}

function write(name: string, content: string | Uint8Array): string {
  const path = at(name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const SCENARIO = `name = "ok"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.grep]
source = "local"
'''
[[steps]]
command = "jp q hi"
[steps.expect]
offered = ["grep", "describe_tools"]
`;

const TOOLS = JSON.stringify({ tools: [{ name: 'list_issues', description: 'List issues.', inputSchema: { type: 'object' } }] });

const latin1 = (text: string): Uint8Array => new Uint8Array([...text].map((c) => c.charCodeAt(0) & 0xff));

/** What must never reach a terminal raw: controls but the newline (and, in data, the tab), C1, bidi overrides. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u;

/** A stack frame as V8 prints one. */
const STACK = /^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$/mu;

describe('files: only regular files, capped, UTF-8 (issue 12, finding 4)', () => {
  it('refuses /dev/zero before reading a byte, with no summary line', () => {
    const r = run(['check', '/dev/zero']);
    expect(r).toEqual({ code: 2, out: '', err: '/dev/zero: cannot read: not a regular file (it is a character device)\n' });
  });

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    const fifo = at('pipe.toml');
    execFileSync('mkfifo', [fifo]);
    for (const args of [['check', fifo], ['import', fifo, '--server', 's'], ['eval', '--catalogue', fifo, '--queries', fifo]]) {
      const r = run(args);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`${fifo}: cannot read: not a regular file (it is a named pipe, a FIFO)\n`);
      expect(r.out).toBe('');
    }
  });

  it('refuses a folder, and a missing file says so; neither prints "0 passed, 0 failed"', () => {
    expect(run(['check', dir])).toEqual({ code: 2, out: '', err: `${dir}: cannot read: not a regular file (it is a folder)\n` });
    expect(run(['check', at('nope.toml')])).toEqual({ code: 2, out: '', err: `${at('nope.toml')}: cannot read: no such file\n` });
  });

  it('still counts the files it could check beside one it could not', () => {
    const ok = write('ok.toml', SCENARIO);
    const r = run(['check', ok, at('nope.toml')]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('1 passed, 0 failed\n');
  });

  it(`refuses a file over ${MAX_INPUT_BYTES / 1024 / 1024} MiB without reading it`, () => {
    const big = write('big.toml', '');
    truncateSync(big, MAX_INPUT_BYTES + 1024 * 1024); // sparse: no disk, no time
    expect(run(['check', big])).toEqual({ code: 2, out: '', err: `${big}: cannot read: the file is 33.0 MB; the command line reads at most 32.0 MB from one file\n` });
    expect(run(['import', big, '--server', 's']).err).toContain('reads at most 32.0 MB');
  });

  it("refuses a scenario's catalogue that is not a regular file, saying why", () => {
    const s = write('cat/s.toml', `name = "x"\n[servers.gh]\ncatalogue = "pipe"\n`);
    execFileSync('mkfifo', [at('cat', 'pipe')]);
    const r = run(['check', s]);
    expect(r).toEqual({ code: 2, out: '', err: `${s}:3:13: cannot read catalogue file \`pipe\` of server \`gh\`: not a regular file (it is a named pipe, a FIFO)\n` });
    writeFileSync(s, `name = "x"\n[servers.gh]\ncatalogue = "/dev/zero"\n`);
    expect(run(['check', s]).err).toContain('`/dev/zero` of server `gh`: not a regular file (it is a character device)');
  });

  it('names the line and column of the first byte that is not UTF-8, in every input', () => {
    const scenario = write('latin1.toml', latin1('name = "x"\ndescription = "café"\n'));
    expect(run(['check', scenario])).toEqual({ code: 2, out: '', err: `${scenario}:2:19: not UTF-8: byte 0xE9 at byte offset 29 does not form a character; save the file as UTF-8\n` });
    const catalogue = write('latin1.json', latin1('{"tools": [{"name": "caf\u00e9"}]}'));
    expect(run(['import', catalogue, '--server', 's']).err).toBe(`${catalogue}:1:25: not UTF-8: byte 0xE9 at byte offset 24 does not form a character; save the file as UTF-8\n`);
    const tools = write('utf8.json', TOOLS);
    const queries = write('latin1.jsonl', latin1('{"query": "x", "relevant": []}\n{"query": "\u00e9"}\n'));
    expect(run(['eval', '--catalogue', tools, '--queries', queries]).err).toBe(`${queries}:2:12: not UTF-8: byte 0xE9 at byte offset 42 does not form a character; save the file as UTF-8\n`);
    write('cat2/bad.json', latin1('{"tools": [\n{"name": "\u00ff"}]}'));
    const s = write('cat2/s.toml', `name = "x"\n[servers.gh]\ncatalogue = "bad.json"\n`);
    expect(run(['check', s]).err).toContain('cannot read catalogue file `bad.json` of server `gh`: line 2, column 11: not UTF-8: byte 0xFF');
  });

  it('reads JSON and TOML files that start with a byte-order mark', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const withBom = (text: string): Uint8Array => new Uint8Array([...bom, ...new TextEncoder().encode(text)]);
    const catalogue = write('bom.json', withBom(TOOLS));
    const r = run(['import', catalogue, '--server', 'gh']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('[conversation.tools.list_issues]');
    expect(run(['check', write('bom.toml', withBom(SCENARIO))])).toEqual({ code: 0, out: '1 passed, 0 failed\n', err: '' });
  });

  it('gives a JSON error its line and column', () => {
    const bad = write('bad.json', '{"tools": [\n  {"name": }\n]}');
    expect(run(['import', bad, '--server', 's'])).toEqual({ code: 2, out: '', err: `${bad}:2:12: not valid JSON: expected a value (an object, an array, a string in double quotes, a number, true, false or null), found \`}\`\n` });
    write('cat3/gh.json', '{"tools": [}');
    const s = write('cat3/s.toml', `name = "x"\n[servers.gh]\ncatalogue = "gh.json"\n`);
    expect(run(['check', s]).err).toBe(`${s}:3:13: catalogue gh.json:1:12: not valid JSON: expected a value (an object, an array, a string in double quotes, a number, true, false or null), found \`}\`\n`);
  });
});

describe('workspaces stay inside their folder (issue 12, finding 5)', () => {
  const scenario = (folder: string, expect: string): string =>
    write(join(folder, 's.toml'), `name = "w"\n[workspace]\npath = ".jp"\n[[steps]]\ncommand = "jp q hi"\n[steps.expect]\n${expect}\n`);

  it('never follows a symbolic link out of the .jp folder, and says which one it left unread', () => {
    write('secret/stolen.toml', '[conversation.tools.stolen]\nsource = "local"\nenable = "on"\n');
    write('ws1/.jp/config.toml', 'extends = ["out/*.toml", "in/*.toml"]\n');
    write('ws1/.jp/real/mine.toml', '[conversation.tools.mine]\nsource = "local"\nenable = "on"\n');
    symlinkSync(at('secret'), at('ws1/.jp/out'));
    symlinkSync(at('ws1/.jp/real'), at('ws1/.jp/in'));
    symlinkSync('/', at('ws1/.jp/root'));
    const s = scenario('ws1', 'offered = ["mine", "describe_tools"]');
    const r = run(['check', s]);
    expect(r.out).toBe('1 passed, 0 failed\n');
    expect(r.code).toBe(0);
    expect(r.err).toContain(`${s}: warning: out: a symbolic link out of the workspace folder (to ${at('secret')}); not followed`);
    expect(r.err).toContain(`${s}: warning: root: a symbolic link out of the workspace folder (to /); not followed`);
    expect(run(['check', s, '--json']).out).not.toContain('stolen');
  });

  it('matches the glob that ran past 20 s, and reports a malformed one at its character', () => {
    write(`ws2/.jp/${'a'.repeat(200)}.toml`, '');
    write('ws2/.jp/config.toml', 'extends = ["*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b.toml"]\n');
    const s = scenario('ws2', 'offered = ["describe_tools"]');
    expect(run(['check', s])).toEqual({ code: 0, out: '1 passed, 0 failed\n', err: '' });
    write('ws2/.jp/config.toml', 'extends = ["[z-a].toml"]\n');
    const r = run(['check', s]);
    expect(r.code).toBe(1);
    expect(r.err).not.toContain('internal error');
    expect(r.out).toContain(`${s}: layer config.toml 1:14: extends \`[z-a].toml\`: not a valid glob: the range \`z-a\` runs backwards (write \`a-z\`)`);
  });

  it('refuses a workspace file that is not UTF-8, naming the file, line and column', () => {
    write('ws3/.jp/config.toml', latin1('# caf\u00e9\n'));
    const s = scenario('ws3', 'offered = []');
    const r = run(['check', s]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot read');
    expect(r.err).toContain('config.toml:1:6: not UTF-8: byte 0xE9 at byte offset 5');
  });
});

describe('no stack traces, no terminal control (issue 12, finding 6)', () => {
  it('refuses deep JSON with a sentence at the bracket that goes too deep', () => {
    const deep = write('deep.json', `{"tools":[{"name":"deep","inputSchema":${'{"properties":{"x":'.repeat(50_000)}{}${'}}'.repeat(50_000)}}]}`);
    const r = run(['import', deep, '--server', 's']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${deep.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}:1:\\d+: not valid JSON: arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels here`, 'u'));
    expect(r.err).not.toMatch(STACK);
    const nested = write('enum.json', `{"tools":[{"name":"e","inputSchema":{"type":"object","properties":{"p":{"enum":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}}}}]}`);
    const e = run(['import', nested, '--server', 's', '--scenario']);
    expect(e.code).toBe(2);
    expect(e.err).toContain(`nest deeper than ${MAX_JSON_DEPTH} levels`);
    expect(e.err).not.toMatch(STACK);
  });

  it('turns an internal error into one line and exit 2, never a stack trace', () => {
    const r = run(['check', write('ok2.toml', SCENARIO)], () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(r.code).toBe(2);
    const boom = { code: 0, err: '' };
    boom.code = main(['check', at('ok2.toml')], {
      out: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
      err: (t) => void (boom.err += t),
      readFile: nodeIo.readFile,
    });
    expect(boom).toEqual({ code: 2, err: 'tool-workbench: internal error: Maximum call stack size exceeded (a bug in tool-workbench; please report it with the command that caused it)\n' });
  });

  it('escapes control characters in names, keys, messages and file names', () => {
    const title = '\u001b]0;PWNED\u0007';
    // The layer's TOML writes the characters as escapes; the names, values and keys hold them raw.
    const text = `name = "x"
[[layers]]
name = "workspace"
text = '''
[conversation.tools."\\u001b]0;PWNED\\u0007"]
summary = "no source"
[conversation.tools."a\\n0 passed, 0 failed"]
source = "nowhere\\u009b31m"
[conversation.tools.b]
source = "local"
enable = "sometimes\\u202e"
'''
[[steps]]
command = "jp q hi"
[steps.expect]
offered = ["\\u202enothing"]
`;
    const s = write('ctrl.toml', text);
    const r = run(['check', s]);
    const all = r.out + r.err;
    expect(all).not.toMatch(RAW_CONTROL);
    expect(all).toContain('\\u001b]0;PWNED\\u0007');
    expect(all).toContain('a\\n0 passed, 0 failed');
    // One summary line, the real one.
    expect(r.out.split('\n').filter((l) => /^\d+ passed, \d+ failed$/u.test(l))).toEqual(['0 passed, 3 failed']);
    expect(r.err).toContain('warning: layer workspace 3:21: conversation.tools.a\\n0 passed, 0 failed has no `source`');
    expect(r.out).toContain('Unknown tool source: nowhere\\u009b31m');
    // A file name is printed escaped too.
    const named = run(['check', at(`x${title}.toml`)]);
    expect(named.err).toBe(`${at('x\\u001b]0;PWNED\\u0007.toml')}: cannot read: no such file\n`);
    // And in the data outputs: --json and the imported layer keep their newlines and escape the rest.
    const json = run(['check', s, '--json']).out;
    expect(json).not.toMatch(RAW_CONTROL);
    const cat = write('ctrl.json', JSON.stringify({ tools: [{ name: `t${title}\u009b`, description: 'x\u202e', annotations: { title: 'T\u0085' }, inputSchema: { type: 'object' } }] }));
    const imported = run(['import', cat, '--server', 's', '--scenario']);
    expect(imported.code).toBe(0);
    expect(imported.out).not.toMatch(RAW_CONTROL);
    expect(run(['check', write('ctrl-imported.toml', imported.out)])).toMatchObject({ code: 0, out: '2 passed, 0 failed\n' });
  });

  it.each(['check', 'eval', 'import'])('%s --help prints its usage and exits 0', (command) => {
    const r = run([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(new RegExp(`^usage:\\n  tool-workbench ${command} `, 'u'));
    expect(run([command, '-h']).out).toBe(r.out);
  });
});

describe('import --scenario always round-trips through check (issue 12, finding 6)', () => {
  // Tool names as MCP allows them, and the awkward ones: quotes, dots, control and format characters.
  const name = fc.oneof(
    fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/u),
    fc.constantFrom('__proto__', 'constructor', 'a.b', "it's", 'a"b', 'x\u001by', 'tab\tname', 'é✓𝄞', 'rtl\u202e', 'c1\u0085'),
  );
  const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom("'''", '"""', 'a\\', '\u0000', 'line\r\nbreak', '\ud800'));
  const schema = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ type: fc.constantFrom('string', 'number', 'boolean') }),
      fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }) }),
      fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, tie('node'), { maxKeys: 3 }) }),
      fc.record({ type: fc.constant('array'), items: tie('node'), default: fc.constantFrom(null, [], 1.5e300, -0, 2 ** 60) }),
    ),
  }));
  const tool = fc.record({ name, description: text, inputSchema: fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, schema.node, { maxKeys: 3 }) }) });
  /** A schema nested `levels` deep: the deepest a catalogue may be, where TOML's own limit is near. */
  const deepSchema = (levels: number): unknown => {
    let s: unknown = { type: 'string' };
    for (let i = 0; i < levels; i++) s = { type: 'array', items: s };
    return { type: 'object', properties: { p: s } };
  };

  it('prints a scenario that checks clean, for any catalogue the importer accepts', () => {
    const catalogue = at('rt.json');
    const out = at('rt.toml');
    fc.assert(
      fc.property(fc.uniqueArray(tool, { minLength: 1, maxLength: 4, selector: (t) => t.name }), fc.constantFrom('on', 'discoverable', 'per-server'), (tools, policy) => {
        writeFileSync(catalogue, JSON.stringify({ tools }));
        const imported = run(['import', catalogue, '--server', 'srv', '--policy', policy, '--scenario']);
        if (imported.code !== 0) {
          // The only refusals are the importer's own rules, said in a sentence.
          expect(imported.code).toBe(2);
          expect(imported.err).not.toMatch(STACK);
          return;
        }
        writeFileSync(out, imported.out);
        const checked = run(['check', out]);
        expect({ code: checked.code, err: checked.err }).toEqual({ code: 0, err: expect.not.stringContaining('error') });
        expect(checked.out).toMatch(/^2 passed, 0 failed\n$/u);
      }),
      { seed: 12, numRuns: 60 },
    );
    // The deepest schema the importer reads still fits the scenario's TOML.
    writeFileSync(catalogue, JSON.stringify({ tools: [{ name: 'deep', inputSchema: deepSchema(MAX_JSON_DEPTH - 6) }] }));
    const imported = run(['import', catalogue, '--server', 'srv', '--scenario']);
    expect(imported.code).toBe(0);
    writeFileSync(out, imported.out);
    expect(run(['check', out])).toEqual({ code: 0, out: '2 passed, 0 failed\n', err: '' });
  }, 60_000);
});
