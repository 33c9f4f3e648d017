// Workspace loading over in-memory `.jp` folders: extends order, globs, persona
// lookup through config_load_paths, and every kind of bad input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario/report';
import type { Diagnostic } from '../config/types';
import { compileGlob, globFiles, normalizePath, parseGlob, withExtension } from './glob';
import { loadWorkspace, WORKSPACE_CODES } from './load';
import type { WorkspaceLoad } from './load';

const ws = (files: Record<string, string>): Map<string, string> => new Map(Object.entries(files));
const names = (r: WorkspaceLoad): string[] => r.layers.map((l) => l.name);
const errors = (r: WorkspaceLoad): Diagnostic[] => r.diagnostics.filter((d) => d.severity === 'error');
const extendsOf = (...paths: string[]): string => `extends = [${paths.map((p) => JSON.stringify(p)).join(', ')}]\n`;

describe('glob matcher', () => {
  it('keeps * and ? within one segment and lets ** match zero or more segments', () => {
    const m = compileGlob('mcp/tools/**/*.toml');
    expect(m('mcp/tools/plan.toml')).toBe(true);
    expect(m('mcp/tools/fs/read_file.toml')).toBe(true);
    expect(m('mcp/tools/a/b/c.toml')).toBe(true);
    expect(m('mcp/tools/fs/read_file.json')).toBe(false);
    expect(m('mcp/other/x.toml')).toBe(false);
    expect(compileGlob('a/*.toml')('a/b/c.toml')).toBe(false);
    expect(compileGlob('a/?.toml')('a/x.toml')).toBe(true);
    expect(compileGlob('a/?.toml')('a/xy.toml')).toBe(false);
    expect(compileGlob('a/[bc].toml')('a/c.toml')).toBe(true);
    expect(compileGlob('a/[!bc].toml')('a/c.toml')).toBe(false);
    expect(compileGlob('a/[a-c]x.toml')('a/bx.toml')).toBe(true);
    expect(compileGlob('**')('any/depth/file.toml')).toBe(true);
    expect(compileGlob('a.b/*.toml')('aXb/c.toml')).toBe(false);
  });

  it('sorts matches as a sorted directory walk does (segment by segment)', () => {
    const paths = ['t/web/fetch.toml', 't/plan.toml', 't/fs/read.toml', 't/fs-extra/x.toml', 't/fs/a/deep.toml', 't/b.json'];
    expect(globFiles('t/**/*.toml', paths)).toEqual(['t/fs/a/deep.toml', 't/fs/read.toml', 't/fs-extra/x.toml', 't/plan.toml', 't/web/fetch.toml']);
  });

  it('agrees with a regular-expression reading of the same glob', () => {
    const seg = fc.constantFrom('a', 'b', 'ab', 'x.toml', 'a.toml');
    const pat = fc.constantFrom('a', 'b', '*', '?', '**', '*.toml', 'a*');
    const last = fc.constantFrom('a', '*', '?', '*.toml', 'a*');
    // Reference: a `**/` segment is any number of whole segments; `*` and `?` stay within a segment.
    const reference = (parts: readonly string[]): RegExp =>
      new RegExp(
        `^${parts
          .map((p, i) =>
            p === '**'
              ? '(?:[^/]+/)*'
              : `${p.replace(/\./g, '\\.').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}${i < parts.length - 1 ? '/' : ''}`,
          )
          .join('')}$`,
      );
    fc.assert(
      fc.property(fc.array(pat, { maxLength: 3 }), last, fc.array(seg, { minLength: 1, maxLength: 4 }), (p, l, s) => {
        const parts = [...p, l];
        const path = s.join('/');
        expect(compileGlob(parts.join('/'))(path)).toBe(reference(parts).test(path));
      }),
    );
  });

  it('matches the pattern that made the regular-expression matcher run past 20 s, at once (issue 12)', () => {
    // Exponential backtracking on main; the star-restart matcher does it in about pattern × name steps.
    const name = `${'a'.repeat(200)}.toml`;
    expect(compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b.toml')(name)).toBe(false);
    expect(compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*.toml')(name)).toBe(true);
    expect(globFiles('**/**/**/**/**/**/**/**/x', [`${'d/'.repeat(200)}y`])).toEqual([]);
  });

  it.each([
    ['[z-a].toml', 1, 'the range `z-a` runs backwards'],
    ['config/[!9-0]x.toml', 9, 'the range `9-0` runs backwards'],
  ])('refuses the malformed pattern %s with the offset of the bad range', (pattern, index, message) => {
    expect(parseGlob(pattern)).toEqual({ ok: false, index, message: expect.stringContaining(message) });
    expect(globFiles(pattern, ['a.toml'])).toEqual({ index, message: expect.stringContaining(message) });
  });

  it('reads brackets as POSIX does: a leading ] is a member, an unclosed [ is literal, astral characters are one', () => {
    expect(compileGlob('[]a].toml')(']/x'.slice(0, 1) + '.toml')).toBe(true);
    expect(compileGlob('[!]a].toml')('b.toml')).toBe(true);
    expect(compileGlob('[!]a].toml')('a.toml')).toBe(false);
    expect(compileGlob('a[b.toml')('a[b.toml')).toBe(true);
    expect(compileGlob('?.toml')('𝄞.toml')).toBe(true);
    expect(compileGlob('[a-c-e].toml')('-.toml')).toBe(true);
  });

  it('agrees with a regular-expression reading on patterns with classes (property)', () => {
    const atom = fc.constantFrom('a', 'b', '-', '*', '?', '[ab]', '[!a]', '[a-c]', '.');
    const name = fc.array(fc.constantFrom('a', 'b', 'c', '-', '.', 'x'), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));
    const toRegExp = (atoms: readonly string[]): RegExp =>
      new RegExp(`^${atoms.map((a) => (a === '*' ? '.*' : a === '?' ? '.' : a.startsWith('[') ? a.replace('[!', '[^') : a.replace('.', '\\.'))).join('')}$`, 'u');
    fc.assert(
      fc.property(fc.array(atom, { maxLength: 6 }), name, (atoms, n) => {
        expect(compileGlob(atoms.join(''))(n)).toBe(toRegExp(atoms).test(n));
      }),
      { seed: 3, numRuns: 1000 },
    );
  });

  it('normalises paths and replaces extensions like Rust', () => {
    expect(normalizePath('config/personas/../skill/./web.toml')).toBe('config/skill/web.toml');
    expect(normalizePath('../x.toml')).toBeUndefined();
    expect(withExtension('config/personas/dev', 'toml')).toBe('config/personas/dev.toml');
    expect(withExtension('a/dev.yml', 'toml')).toBe('a/dev.toml');
  });
});

describe('extends order', () => {
  it('loads extended files before the file, depth first, glob matches sorted', () => {
    const r = loadWorkspace(
      ws({
        'config.toml': extendsOf('base.toml', 'tools/**/*.toml'),
        'base.toml': extendsOf('deep/one.toml'),
        'deep/one.toml': '',
        'tools/zeta.toml': '',
        'tools/alpha/b.toml': '',
        'tools/alpha/a.toml': extendsOf('../../deep/two.toml'),
        'deep/two.toml': '',
        'unrelated.toml': '',
      }),
    );
    expect(names(r)).toEqual(['deep/one.toml', 'base.toml', 'deep/two.toml', 'tools/alpha/a.toml', 'tools/alpha/b.toml', 'tools/zeta.toml', 'config.toml']);
    expect(r.diagnostics).toEqual([]);
  });

  it('loads { path, strategy = "after" } entries after the file', () => {
    const r = loadWorkspace(
      ws({
        'config.toml': 'extends = [{ path = "late.toml", strategy = "after" }, "early.toml", { path = "also-early.toml" }]\n',
        'late.toml': '',
        'early.toml': '',
        'also-early.toml': '',
      }),
    );
    expect(names(r)).toEqual(['early.toml', 'also-early.toml', 'config.toml', 'late.toml']);
    expect(r.diagnostics).toEqual([]);
  });

  it('keeps a file extended twice at its last place in JP\'s order, once', () => {
    // JP: shared, a, shared, b, config. The second merge of `shared` decides, as it does here.
    const r = loadWorkspace(
      ws({
        'config.toml': extendsOf('a.toml', 'b.toml'),
        'a.toml': extendsOf('shared.toml'),
        'b.toml': extendsOf('shared.toml'),
        'shared.toml': '',
      }),
    );
    expect(names(r)).toEqual(['a.toml', 'shared.toml', 'b.toml', 'config.toml']);
  });

  it('matches JP\'s last writer for every key, on any acyclic extends graph', () => {
    // Reference: JP merges each file once per reference (no de-duplication). For keys that a later
    // layer replaces, the last file in that sequence to write a key decides its value.
    const graph = fc.integer({ min: 1, max: 7 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        // Edges only to higher-numbered files: acyclic.
        edges: fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n }),
        writes: fc.array(fc.subarray(['k1', 'k2', 'k3']), { minLength: n, maxLength: n }),
      }),
    );
    fc.assert(
      fc.property(graph, ({ n, edges, writes }) => {
        const name = (i: number): string => (i === 0 ? 'config.toml' : `f${i}.toml`);
        const kids = (i: number): number[] => (edges[i] ?? []).filter((j) => j > i);
        const files: Record<string, string> = {};
        for (let i = 0; i < n; i++) files[name(i)] = extendsOf(...kids(i).map(name));
        const jp = (i: number): number[] => [...kids(i).flatMap(jp), i];
        const lastWriter = (seq: readonly string[], key: string): string | undefined =>
          [...seq].reverse().find((f) => (writes[f === 'config.toml' ? 0 : Number(f.slice(1, -5))] ?? []).includes(key));
        const ours = names(loadWorkspace(ws(files)));
        const theirs = jp(0).map(name);
        expect(new Set(ours)).toEqual(new Set(theirs));
        expect(ours.length).toBe(new Set(ours).size);
        for (const key of ['k1', 'k2', 'k3']) expect(lastWriter(ours, key)).toBe(lastWriter(theirs, key));
      }),
      { numRuns: 1000 },
    );
  });

  it('terminates on any extends graph, cycles included, loading each reachable file once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((n) => fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n })),
        (edges) => {
          const name = (i: number): string => (i === 0 ? 'config.toml' : `f${i}.toml`);
          const files: Record<string, string> = {};
          edges.forEach((e, i) => (files[name(i)] = extendsOf(...e.map(name))));
          const r = loadWorkspace(ws(files));
          const reach = new Set<number>();
          const walk = (i: number): void => {
            if (reach.has(i)) return;
            reach.add(i);
            for (const j of edges[i] ?? []) walk(j);
          };
          walk(0);
          expect(new Set(names(r))).toEqual(new Set([...reach].map(name)));
          expect(names(r).length).toBe(reach.size);
          expect(r.diagnostics.every((d) => d.code === WORKSPACE_CODES.cycle)).toBe(true);
        },
      ),
    );
  });
});

describe('bad input', () => {
  it('reports an extends cycle at the entry that closes it, and still loads every file', () => {
    const r = loadWorkspace(
      ws({
        'config.toml': extendsOf('a.toml', 'ok.toml'),
        'a.toml': extendsOf('b.toml'),
        'b.toml': `# loops\n${extendsOf('a.toml')}`,
        'ok.toml': '',
      }),
    );
    expect(names(r)).toEqual(['b.toml', 'a.toml', 'ok.toml', 'config.toml']);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({
      severity: 'error',
      layer: 'b.toml',
      line: 2,
      column: 12,
      code: WORKSPACE_CODES.cycle,
      message: 'extends cycle: a.toml → b.toml → a.toml; `a.toml` is not loaded again here',
    });
  });

  it('reports a file that extends itself through a glob', () => {
    const r = loadWorkspace(ws({ 'config.toml': extendsOf('*.toml'), 'x.toml': '' }));
    expect(names(r)).toEqual(['x.toml', 'config.toml']);
    expect(r.diagnostics.map((d) => [d.layer, d.code])).toEqual([['config.toml', WORKSPACE_CODES.cycle]]);
  });

  it('reports a missing extended file naming the file that asks for it, and loads the rest', () => {
    const r = loadWorkspace(ws({ 'config.toml': 'x = 1\n' + extendsOf('gone.toml', 'here.toml'), 'here.toml': '' }));
    expect(names(r)).toEqual(['here.toml', 'config.toml']);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', layer: 'config.toml', line: 2, column: 12, code: WORKSPACE_CODES.missing });
    expect(r.diagnostics[0]?.message).toContain('gone.toml');
  });

  it('says nothing about a glob that matches nothing', () => {
    const r = loadWorkspace(ws({ 'config.toml': extendsOf('config.d/**/*', 'none/*.toml') }));
    expect(names(r)).toEqual(['config.toml']);
    expect(r.diagnostics).toEqual([]);
  });

  it('reports an extends path that leaves the folder', () => {
    const r = loadWorkspace(ws({ 'config.toml': extendsOf('../../etc/x.toml') }));
    expect(r.diagnostics.map((d) => d.code)).toEqual([WORKSPACE_CODES.outside]);
  });

  it('reports a malformed file with its syntax error at line:column, and loads the rest', () => {
    const r = loadWorkspace(
      ws({
        'config.toml': extendsOf('bad.toml', 'good.toml'),
        'bad.toml': '[conversation.tools.x]\nsource = "local"\nenable = \n',
        'good.toml': '[conversation.tools.y]\nsource = "local"\n',
      }),
    );
    expect(names(r)).toEqual(['bad.toml', 'good.toml', 'config.toml']);
    const bad = errors(r);
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.every((d) => d.layer === 'bad.toml')).toBe(true);
    expect(bad[0]).toMatchObject({ code: 'syntax', line: 3 });
    expect(bad[0]?.column).toBeGreaterThan(0);
    // The loading diagnostics leave the file's own to whoever loads the layers.
    expect(r.loadDiagnostics).toEqual([]);
  });

  it('reports a malformed glob as a diagnostic at the bad character, not an internal error (issue 12)', () => {
    const r = loadWorkspace(ws({ 'config.toml': 'extends = ["a.toml", "[z-a].toml"]\n', 'a.toml': '' }));
    expect(names(r)).toEqual(['a.toml', 'config.toml']);
    expect(errors(r)).toEqual([
      expect.objectContaining({ layer: 'config.toml', line: 1, column: 24, code: WORKSPACE_CODES.glob, message: 'extends `[z-a].toml`: not a valid glob: the range `z-a` runs backwards (write `a-z`)' }),
    ]);
  });

  it('reports a missing config.toml', () => {
    const r = loadWorkspace(ws({ 'other.toml': '' }));
    expect(r.layers).toEqual([]);
    expect(r.diagnostics.map((d) => [d.layer, d.code])).toEqual([['config.toml', WORKSPACE_CODES.noConfig]]);
  });

  it('reads unknown extends entry keys and strategies as errors', () => {
    const r = loadWorkspace(ws({ 'config.toml': 'extends = [{ path = "a.toml", strategy = "never" }, { pth = "b.toml" }, 3]\n', 'a.toml': '' }));
    expect(names(r)).toEqual(['config.toml']);
    expect(errors(r).map((d) => d.code)).toEqual(['strategy-value', 'unknown-key', 'type', 'type']);
    expect(errors(r).every((d) => d.layer === 'config.toml')).toBe(true);
  });
});

describe('keys the workbench does not simulate', () => {
  it('are kept in the file and read without a diagnostic', () => {
    const text = `inherit = false
config_load_paths = [".jp/config"]
[assistant]
name = "Dev"
tool_choice = "git_commit"
[assistant.model]
id = "opus"
parameters.reasoning.effort = "high"
[[assistant.instructions]]
title = "T"
items = ["a"]
[providers.llm]
anthropic.beta_headers = ["x"]
[providers.llm.aliases]
sonnet = "anthropic/claude-sonnet-5"
[plugins.command.ticket]
run = "unattended"
[style.code]
copy_link = "osc8"
[conversation]
title.generate.auto = false
attachments = ["cmd://date"]
[conversation.inquiry.assistant.model]
id = "haiku"
[conversation.tools]
'*' = { enable = false, run = "unattended" }
x = { source = "local", enable = true, run = "unattended", result = "unattended", style.inline_results = "off" }
[conversation.tools.y]
questions.overwrite_file.answer = true
`;
    const r = loadWorkspace(ws({ 'config.toml': text }));
    expect(r.diagnostics).toEqual([]);
    expect(r.layers[0]?.text).toBe(text);
  });
});

describe('personas', () => {
  const files = {
    'config.toml': `${extendsOf('tools/*.toml')}config_load_paths = [".jp/config/personas", ".jp/config"]\n`,
    'tools/a.toml': '[conversation.tools.a]\nsource = "local"\nenable = false\n',
    'tools/b.toml': '[conversation.tools.b]\nsource = "local"\nenable = false\n',
    'config/skill/a.toml': '[conversation.tools.a]\nenable = true\n',
    'config/personas/dev.toml': `${extendsOf('../skill/a.toml')}[conversation.tools.b]\nenable = true\n`,
    'config/personas/ops.toml': '',
    'config/shared.toml': '',
    'config/personas/notes.md.toml': '',
  };

  it('lists the config files directly in the load paths', () => {
    expect(loadWorkspace(ws(files)).personas).toEqual(['dev', 'notes.md', 'ops', 'shared']);
    expect(loadWorkspace(ws(files)).loadPaths).toEqual(['config', 'config/personas']);
  });

  it('applies a persona like --cfg NAME: above the workspace, its extends first', () => {
    const r = loadWorkspace(ws(files), { persona: 'dev' });
    expect(r.personaFile).toBe('config/personas/dev.toml');
    expect(names(r)).toEqual(['tools/a.toml', 'tools/b.toml', 'config.toml', 'config/skill/a.toml', 'config/personas/dev.toml']);
    expect(r.diagnostics).toEqual([]);
  });

  it('searches the load paths in JP\'s order (each file\'s list sorted), first match wins', () => {
    const r = loadWorkspace(ws({ ...files, 'config/dev.toml': '' }), { persona: 'dev' });
    expect(r.personaFile).toBe('config/dev.toml');
    expect(loadWorkspace(ws(files), { persona: 'personas/ops' }).personaFile).toBe('config/personas/ops.toml');
    expect(loadWorkspace(ws(files), { persona: 'dev.toml' }).personaFile).toBe('config/personas/dev.toml');
  });

  it('gives each tool the file that decided its availability', () => {
    const host = { loadWorkspace: () => ({ layers: loadWorkspace(ws(files), { persona: 'dev' }).layers, diagnostics: [] }) };
    const report = checkScenario('s', 'name = "s"\n[workspace]\npath = "x"\n', host);
    const states = report.timeline?.statesAt(0);
    const origin = (n: string): unknown => states?.get(n)?.enable.availability.origin;
    expect(origin('a')).toMatchObject({ kind: 'layer', layer: 'config/skill/a.toml' });
    expect(origin('b')).toMatchObject({ kind: 'layer', layer: 'config/personas/dev.toml' });
  });

  it('reports an unknown persona with the names on offer, and still loads the workspace', () => {
    const r = loadWorkspace(ws(files), { persona: 'devops' });
    expect(names(r)).toEqual(['tools/a.toml', 'tools/b.toml', 'config.toml']);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', layer: 'config.toml', code: WORKSPACE_CODES.persona, line: 2 });
    expect(r.diagnostics[0]?.message).toBe(
      'unknown persona `devops`: no config file `devops` under the config load paths (config, config/personas); available: dev, notes.md, ops, shared',
    );
  });

  it('says when there are no load paths to search', () => {
    const r = loadWorkspace(ws({ 'config.toml': '' }), { persona: 'dev' });
    expect(r.diagnostics[0]?.message).toBe('unknown persona `dev`: no config file `dev` because the workspace sets no config_load_paths');
  });

  it('warns about a load path outside the .jp folder, and searches the others', () => {
    const r = loadWorkspace(ws({ ...files, 'config.toml': 'config_load_paths = ["personas", ".jp/config/personas"]\n' }), { persona: 'ops' });
    expect(r.personaFile).toBe('config/personas/ops.toml');
    expect(r.diagnostics.map((d) => [d.severity, d.layer, d.code])).toEqual([['warning', 'config.toml', WORKSPACE_CODES.loadPath]]);
  });

  it('honours another folder name', () => {
    const r = loadWorkspace(ws({ ...files, 'config.toml': 'config_load_paths = ["ws/config/personas"]\n' }), { persona: 'ops', folderName: 'ws' });
    expect(r.personaFile).toBe('config/personas/ops.toml');
  });
});
