// The real test of workspace loading: JP's own `.jp` folder (../shared/data/jp-workspace/.jp),
// opened through the project's scenario `scenarios/jp-workspace.toml` once per persona, must give
// the counts of issue 7. A second, independent reading of the same files (smol-toml, its own
// directory walk, glob and extends code, JP's merge with repeats) must agree with it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseTomlText } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import type { Io } from '../../cli/main';
import { workspaceHost } from '../../cli/workspace';
import { checkScenario } from '../scenario/report';
import type { CheckReport } from '../scenario/report';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const scenariosDir = join(repo, 'scenarios');
const baseFile = join(scenariosDir, 'jp-workspace.toml');
const devFile = join(scenariosDir, 'jp-workspace-dev.toml');
const baseText = readFileSync(baseFile, 'utf8');
const workspacePath = (parseTomlText(baseText) as { workspace: { path: string } }).workspace.path;
const jpFolder = resolve(scenariosDir, workspacePath);

/** Issue 7's table: tools at effective availability `on`, `describe_tools` included. */
const EXPECTED_ON: Readonly<Record<string, number>> = {
  '': 2,
  architect: 38,
  committer: 9,
  default: 2,
  dev: 37,
  po: 2,
  'pr-reviewer': 23,
  'pr-triager': 34,
  'review-triager': 27,
  'rfd-implementor': 37,
  'rfd-reviewer': 22,
  'rfd-triager': 23,
  stager: 20,
  writer: 9,
};
const PERSONAS = Object.keys(EXPECTED_ON);
const RUST_TOOLS = ['rust_crate_readme', 'rust_crate_resource', 'rust_crate_search_items', 'rust_crate_versions', 'rust_crates_search'];

/** The project's scenario with `persona = NAME` added under `[workspace]` (none: as written). */
function scenarioText(persona: string, extra = ''): string {
  if (persona === '') return baseText + extra;
  const text = baseText.replace(/^\[workspace\]$/m, (h) => `${h}\npersona = "${persona}"`);
  expect(text).not.toBe(baseText);
  return text + extra;
}

function check(persona: string, extra = ''): CheckReport {
  return checkScenario(baseFile, scenarioText(persona, extra), { ...workspaceHost(scenariosDir) });
}

/** Reading 1: the workbench, through `checkScenario` and the CLI's workspace host. */
function workbenchReading(persona: string): { configured: string[]; on: string[]; offered: string[]; permitted: string[] } {
  const report = check(persona);
  expect(report.fileErrors).toEqual([]);
  const timeline = report.timeline;
  if (!timeline) throw new Error('no timeline');
  expect(timeline.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const states = [...timeline.statesAt(0).values()];
  const sets = timeline.setsAt(0);
  return {
    configured: states.map((s) => s.name),
    on: [...states.filter((s) => s.enable.availability.value === 'on').map((s) => s.name), 'describe_tools'],
    offered: [...sets.offered],
    permitted: [...sets.permitted],
  };
}

// ---- Reading 2: independent of src/core ----

type Toml = Record<string, unknown>;
const tomlCache = new Map<string, Toml>();
function readToml(file: string): Toml {
  let t = tomlCache.get(file);
  if (!t) {
    t = parseTomlText(readFileSync(file, 'utf8')) as Toml;
    tomlCache.set(file, t);
  }
  return t;
}

/** Every file under `dir`, in a sorted depth-first walk (the order Rust's `glob` yields). */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (pattern[i] === '*') re += '[^/]*';
    else if (pattern[i] === '?') re += '[^/]';
    else re += (pattern[i] ?? '').replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** JP's load order for a file: each extends entry's files (loaded the same way) then the file; repeats kept. */
function jpOrder(file: string, depth = 0): string[] {
  expect(depth).toBeLessThan(20);
  const ext = readToml(file).extends;
  const entries = Array.isArray(ext) ? (ext as string[]) : [];
  const before = entries.flatMap((entry) => {
    const target = resolve(dirname(file), entry);
    if (/[*?[]/.test(entry)) {
      const fixed = target.slice(0, target.search(/[*?[]/));
      const re = globToRegExp(target);
      return walk(dirname(`${fixed}x`)).filter((p) => re.test(p));
    }
    return existsSync(target) ? [target] : [];
  });
  return [...before.flatMap((f) => jpOrder(f, depth + 1)), file];
}

type Avail = 'on' | 'off' | 'discoverable';
function enableOf(value: unknown): Avail | undefined {
  if (value === true || value === 'on' || value === 'always') return 'on';
  if (value === false || value === 'off' || value === 'explicit') return 'off';
  if (value === 'discoverable') return 'discoverable';
  if (value && typeof value === 'object') {
    const t = value as { availability?: unknown; state?: unknown };
    if (typeof t.availability === 'string') return enableOf(t.availability);
    if (typeof t.state === 'boolean') return enableOf(t.state);
  }
  return undefined;
}

function independentReading(persona: string): { configured: string[]; on: string[]; sources: Map<string, string> } {
  const workspaceRoot = dirname(jpFolder);
  const config = join(jpFolder, 'config.toml');
  const files = jpOrder(config);
  if (persona !== '') {
    const loadPaths = (readToml(config).config_load_paths as string[]).map((p) => join(workspaceRoot, p));
    const found = loadPaths.map((lp) => join(lp, `${persona}.toml`)).find((p) => existsSync(p));
    if (!found) throw new Error(`no persona ${persona}`);
    files.push(...jpOrder(found));
  }
  const tools = new Map<string, Avail | undefined>();
  const sources = new Map<string, string>();
  let defaults: Avail | undefined;
  for (const file of files) {
    const conversation = readToml(file).conversation as Toml | undefined;
    const table = (conversation?.tools ?? {}) as Record<string, Toml>;
    for (const [name, tool] of Object.entries(table)) {
      const e = enableOf(tool.enable);
      if (name === '*') {
        defaults = e ?? defaults;
        continue;
      }
      tools.set(name, e ?? tools.get(name));
      if (typeof tool.source === 'string') sources.set(name, tool.source);
    }
  }
  const on = [...tools].filter(([, a]) => (a ?? defaults ?? 'on') === 'on').map(([n]) => n);
  return { configured: [...tools.keys()], on: [...on, 'describe_tools'], sources };
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe('JP\'s own workspace', () => {
  it('is where the scenario says', () => {
    expect(existsSync(join(jpFolder, 'config.toml'))).toBe(true);
  });

  it('holds 63 tool definitions in 63 files, 58 local and 5 on the bookworm MCP server', () => {
    const toolFiles = walk(join(jpFolder, 'mcp', 'tools')).filter((f) => f.endsWith('.toml'));
    expect(toolFiles).toHaveLength(63);
    const { sources } = independentReading('');
    expect(sources.size).toBe(63);
    const kinds = [...sources.values()].map((s) => s.split('.')[0]);
    expect(kinds.filter((k) => k === 'local')).toHaveLength(58);
    expect(sorted([...sources].filter(([, s]) => s.startsWith('mcp.bookworm.')).map(([n]) => n))).toEqual(RUST_TOOLS);
  });

  for (const persona of PERSONAS) {
    const label = persona || '(no persona)';
    it(`${label}: ${EXPECTED_ON[persona]} tools on, and both readings agree`, () => {
      const ours = workbenchReading(persona);
      const theirs = independentReading(persona);
      expect(ours.configured).toHaveLength(63);
      expect(sorted(ours.configured)).toEqual(sorted(theirs.configured));
      expect(sorted(ours.on)).toEqual(sorted(theirs.on));
      expect(ours.on).toHaveLength(EXPECTED_ON[persona] ?? -1);
      // Without a bookworm server, the rust_* tools leave the permitted set whatever their availability.
      const onRust = ours.on.filter((n) => RUST_TOOLS.includes(n));
      expect(ours.permitted.filter((n) => RUST_TOOLS.includes(n))).toEqual([]);
      expect(ours.offered).toHaveLength(ours.on.length - onRust.length);
    });
  }

  it('offers dev 32 tools without bookworm, and all 37 when the scenario runs bookworm', () => {
    const without = workbenchReading('dev');
    expect(without.on.filter((n) => RUST_TOOLS.includes(n))).toHaveLength(5);
    expect(without.offered).toHaveLength(32);
    const tools = RUST_TOOLS.map((n) => `{ name = "${n.slice('rust_'.length)}", description = "${n}.", inputSchema = { type = "object" } }`);
    const report = check('dev', `\n[servers.bookworm]\ntools = [\n  ${tools.join(',\n  ')},\n]\n`);
    const sets = report.timeline?.setsAt(0);
    expect(sets?.offered).toHaveLength(37);
    expect(sets?.permitted).toEqual(expect.arrayContaining(RUST_TOOLS));
    expect(sets?.servers).toEqual(['bookworm']);
  });

  it('says which file decided each tool\'s availability', () => {
    const timeline = check('dev').timeline;
    const origin = (name: string): unknown => timeline?.statesAt(0).get(name)?.enable.availability.origin;
    expect(origin('plan')).toMatchObject({ kind: 'layer', layer: 'mcp/tools/plan.toml' });
    expect(origin('git_commit')).toMatchObject({ kind: 'layer', layer: 'mcp/tools/git/commit.toml' });
    expect(origin('fs_read_file')).toMatchObject({ kind: 'layer', layer: 'config/skill/read-files.toml' });
    expect(origin('rust_crates_search')).toMatchObject({ kind: 'layer', layer: 'config/skill/rust-docs.toml' });
    // pr-reviewer's own file turns github_pulls back off after its skills turned it on.
    const pr = check('pr-reviewer').timeline?.statesAt(0);
    expect(pr?.get('github_pulls')?.enable.availability).toMatchObject({ value: 'off', origin: { layer: 'config/personas/pr-reviewer.toml' } });
  });

  it('passes `tool-workbench check` on the project\'s workspace scenarios', () => {
    let out = '';
    let err = '';
    const io: Io = { out: (t) => (out += t), err: (t) => (err += t), readFile: (p) => readFileSync(p, 'utf8') };
    expect(main(['check', baseFile, devFile], io)).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^(\d+) passed, 0 failed\n$/);
    expect(Number(out.split(' ')[0])).toBeGreaterThanOrEqual(8);
  });

  it('fails `tool-workbench check` clearly on an unknown persona or a missing folder', () => {
    let err = '';
    // In-memory scenario files; the host resolves `workspace.path` against the scenario's folder.
    const personaFile = join(scenariosDir, '__persona.toml');
    const files = new Map([
      [personaFile, scenarioText('devops')],
      ['/virtual/missing.toml', 'name = "m"\n[workspace]\npath = "no/such/.jp"\n'],
    ]);
    const io: Io = { out: () => undefined, err: (t) => (err += t), readFile: (p) => files.get(p) ?? readFileSync(p, 'utf8') };
    expect(main(['check', personaFile], io)).toBe(2);
    expect(err).toContain('workspace: unknown persona `devops`');
    expect(err).toContain('available: architect, committer, default, dev, po');
    err = '';
    expect(main(['check', '/virtual/missing.toml'], io)).toBe(2);
    expect(err).toContain('/virtual/missing.toml:2:2: workspace: no such folder');
  });
});
