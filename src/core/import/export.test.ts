// Export to JP config and back: the same sets at every position, over every
// conformance scenario and the two real catalogues.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import { parseToml } from '../config/toml';
import { EMPTY_DOC, scenarioDocFromText, writeScenario } from '../scenario/doc';
import type { ScenarioDoc } from '../scenario/doc';
import { checkScenario } from '../scenario/report';
import type { Timeline } from '../turn/timeline';
import { applyImport, buildImport, exportJpConfig, readCatalogue, readJpConfig, startingStep, CONFIG_FILE, SERVERS_FILE } from './index';

const shared = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
const conformance = join(shared, 'conformance');
const catalogues = join(shared, 'data', 'catalogues');

/** Every position's availability per tool and its four sets. */
function fingerprint(t: Timeline): unknown[] {
  return t.positions.map((_, p) => {
    const states = [...t.statesAt(p).values()].map((s) => `${s.name}=${s.enable.availability.value}/${s.enable.allowToggle.value}`);
    const sets = t.setsAt(p);
    return { states, permitted: sets.permitted, offered: sets.offered, searchable: sets.searchable, servers: sets.servers };
  });
}

function roundTrip(doc: ScenarioDoc): ScenarioDoc {
  const out = exportJpConfig(doc);
  // What JP would read: every file parses as TOML.
  for (const f of out.files) expect(parseToml(f.text).errors, f.path).toEqual([]);
  const layers = readJpConfig(out.files);
  return { ...doc, layers };
}

function compare(file: string, doc: ScenarioDoc, host: { readFile?: (p: string) => string | undefined } = {}) {
  const before = checkScenario(file, writeScenario(doc), host);
  const back = roundTrip(doc);
  const after = checkScenario(file, writeScenario(back), host);
  expect(after.fileErrors).toEqual([]);
  if (!before.timeline || !after.timeline) throw new Error('no timeline');
  expect(after.timeline.positions.length).toBe(before.timeline.positions.length);
  expect(fingerprint(after.timeline)).toEqual(fingerprint(before.timeline));
  expect(after.passed).toBe(before.passed);
  return { before, after, back };
}

describe('export to JP config, read back: same sets at every position', () => {
  const files = readdirSync(conformance).filter((f) => f.endsWith('.toml')).sort();
  for (const file of files) {
    it(file, () => {
      const host = { readFile: (p: string) => readFileSync(join(conformance, p), 'utf8') };
      const parsed = scenarioDocFromText(readFileSync(join(conformance, file), 'utf8'), host);
      if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
      const { back } = compare(file, parsed.doc, host);
      // The layers come back byte for byte, under their own names (none of them uses workbench-only keys).
      expect(back.layers.filter((l) => l.name !== 'mcp-servers')).toEqual(parsed.doc.layers);
    });
  }

  for (const file of ['github-mcp-server.tools-list.json', 'livemcpbench-tools.json']) {
    it(`${file}, imported`, () => {
      const r = readCatalogue(readFileSync(join(catalogues, file), 'utf8'), file);
      if (!r.ok) throw new Error(r.errors[0]);
      const base: ScenarioDoc = { ...EMPTY_DOC, layers: [{ name: 'workspace', text: "[conversation.tools.'*']\nrun = \"ask\"\n" }] };
      const result = buildImport(r.catalogue, { policy: { kind: 'discoverable', keep: 8, offDestructive: true }, into: base, ...(r.catalogue.form === 'multi-server' ? {} : { serverNames: ['github'] }) });
      const doc: ScenarioDoc = {
        ...applyImport(base, result),
        steps: [startingStep(result), { command: "jp q 'list files' -t", cycles: [] }, { command: 'jp q again -T', cycles: [] }],
      };
      const { after } = compare(file, doc);
      expect(after.failures).toEqual([]);
    });
  }
});

describe('the exported files', () => {
  const doc: ScenarioDoc = {
    ...EMPTY_DOC,
    name: 'Export me',
    layers: [
      { name: 'user', text: "[conversation.tools.'*']\nenable = \"discoverable\"\ngroups = [\"all\"]\n" },
      {
        name: 'workspace',
        text: '[conversation.tools.gh_issues]\nsource = "mcp.github.list_issues"\ngroups = ["github"]  # RFD 055\nenable = "on"\n\n[conversation.tools]\nfs_read = { source = "local", groups = ["fs"], enable = true }\n\n[providers.mcp.jira]\ntype = "stdio"\ncommand = "jira-mcp"\n',
      },
    ],
    servers: [
      { name: 'github', status: 'running', tools: [{ name: 'list_issues', description: 'List issues.', inputSchema: { type: 'object' } }] },
      { name: 'jira', status: 'offline', tools: [] },
      { name: 'everything', status: 'running', url: 'http://127.0.0.1:3311/mcp', tools: [] },
    ],
  };

  it('servers file, one file per layer, config.toml extending them in order', () => {
    const out = exportJpConfig(doc);
    expect(out.files.map((f) => f.path)).toEqual([SERVERS_FILE, '01-user.toml', '02-workspace.toml', CONFIG_FILE]);
    const config = out.files.find((f) => f.path === CONFIG_FILE)?.text ?? '';
    expect(loadLayer({ name: 'config', text: config }).config.extends?.value).toEqual([SERVERS_FILE, '01-user.toml', '02-workspace.toml']);
  });

  it('servers become [providers.mcp.NAME] stubs with a comment; servers a layer declares are left alone', () => {
    const servers = exportJpConfig(doc).files[0]?.text ?? '';
    const cfg = loadLayer({ name: 's', text: servers }).config;
    expect([...cfg.mcpServers.keys()]).toEqual(['github', 'everything']);
    expect(cfg.mcpServers.get('github')?.raw).toEqual({ type: 'stdio', command: 'github', optional: true });
    expect(cfg.mcpServers.get('everything')?.raw).toEqual({ type: 'stdio', command: 'npx', arguments: ['-y', 'mcp-remote', 'http://127.0.0.1:3311/mcp'], optional: true });
    expect(servers).toContain('# A stub: JP starts MCP servers over stdio; set the command that starts this one.');
  });

  it('workbench-only keys are stripped, the rest is kept byte for byte, and the header says so', () => {
    const out = exportJpConfig(doc);
    expect(out.stripped.map((s) => `${s.layer}: ${s.path}`)).toEqual([
      "user: conversation.tools.'*'.groups",
      'workspace: conversation.tools.gh_issues.groups',
      'workspace: conversation.tools.fs_read.groups',
    ]);
    const ws = out.files.find((f) => f.path === '02-workspace.toml')?.text ?? '';
    expect(ws).not.toMatch(/groups\s*=/u);
    // The pair goes; a comment that trailed it stays, on its own line.
    expect(ws).toContain('[conversation.tools.gh_issues]\nsource = "mcp.github.list_issues"\n# RFD 055\nenable = "on"\n');
    expect(ws).toContain('fs_read = { source = "local", enable = true }');
    expect(ws).toContain('# removed conversation.tools.gh_issues.groups: a workbench-only key JP does not accept');
    for (const f of out.files) {
      const loaded = loadLayer({ name: f.path, text: f.text });
      expect(loaded.diagnostics.filter((d) => d.severity === 'error'), f.path).toEqual([]);
    }
    const back = readJpConfig(out.files);
    expect(back.map((l) => l.name)).toEqual(['mcp-servers', 'user', 'workspace']);
  });
});
