// The scenario's catalogue as JP config files: one TOML file per layer, as JP
// would load it (workbench-only keys stripped, everything else byte for byte),
// plus `[providers.mcp.NAME]` stubs for the simulated servers and a `config.toml`
// that `extends` the files in layer order. `readJpConfig` reads such files back
// into layers, so a round trip can be checked position by position.
import { parseToml } from '../config/toml';
import type { TomlEntry, TomlTable } from '../config/toml-ast';
import { applySplices, removePair } from '../config/edit-primitives';
import type { Splice } from '../config/edit-primitives';
import { loadLayer } from '../config/layer';
import type { LayerDoc, ScenarioDoc } from '../scenario/doc';
import { tomlKey, tomlString } from '../scenario/doc';

/** Keys the workbench reads that JP of today rejects in a tool table (RFD 055 tool groups). */
export const WORKBENCH_ONLY_TOOL_KEYS: readonly string[] = ['groups'];

export interface JpConfigFile {
  /** A file name, relative to the `.jp/` directory the files go in. */
  readonly path: string;
  readonly text: string;
  /** The scenario layer it came from. */
  readonly layer?: string;
}

export interface StrippedKey {
  readonly layer: string;
  readonly path: string;
}

export interface JpExport {
  readonly files: readonly JpConfigFile[];
  readonly stripped: readonly StrippedKey[];
  /** Keys that could not be stripped in place (a `[...groups]` section); left, with a note. */
  readonly kept: readonly StrippedKey[];
}

const HEADER_START = '# JP config exported by the Tool Catalogue Workbench';
export const SERVERS_FILE = '00-mcp-servers.toml';
export const CONFIG_FILE = 'config.toml';

function fileSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9_-]+/gu, '-').replace(/^-+|-+$/gu, '').slice(0, 48);
  return slug === '' ? 'layer' : slug;
}

function stripLayer(layer: LayerDoc): { text: string; stripped: StrippedKey[]; kept: StrippedKey[] } {
  const doc = parseToml(layer.text);
  const stripped: StrippedKey[] = [];
  const kept: StrippedKey[] = [];
  if (doc.errors.length > 0) return { text: layer.text, stripped, kept };
  const conversation = doc.root.entries.get('conversation')?.value;
  const tools = conversation?.kind === 'table' ? conversation.entries.get('tools')?.value : undefined;
  if (tools?.kind !== 'table') return { text: layer.text, stripped, kept };
  const splices: Splice[] = [];
  for (const [name, entry] of tools.entries) {
    const table = entry.value;
    if (table.kind !== 'table') continue;
    for (const key of WORKBENCH_ONLY_TOOL_KEYS) {
      const e: TomlEntry | undefined = table.entries.get(key);
      if (!e) continue;
      const path = `conversation.tools.${name === '*' ? "'*'" : tomlKey(name)}.${key}`;
      const splice = removePair(layer.text, e, (table as TomlTable).origin === 'inline');
      if (splice) {
        splices.push(splice);
        stripped.push({ layer: layer.name, path });
      } else kept.push({ layer: layer.name, path });
    }
  }
  return { text: splices.length > 0 ? applySplices(layer.text, splices) : layer.text, stripped, kept };
}

function header(doc: ScenarioDoc, what: string, notes: readonly string[]): string {
  const lines = [
    `${HEADER_START} from scenario ${tomlString(doc.name)}.`,
    `# ${what}`,
    ...notes.map((n) => `# ${n}`),
  ];
  return `${lines.join('\n')}\n\n`;
}

/** The files, in load order: servers first (lowest precedence), then each layer, then config.toml. */
export function exportJpConfig(doc: ScenarioDoc): JpExport {
  const files: JpConfigFile[] = [];
  const stripped: StrippedKey[] = [];
  const kept: StrippedKey[] = [];
  const declared = new Set<string>();
  for (const layer of doc.layers) for (const name of loadLayer(layer).config.mcpServers.keys()) declared.add(name);

  const stubs = doc.servers.filter((s) => !declared.has(s.name));
  if (stubs.length > 0) {
    const body: string[] = [];
    for (const s of stubs) {
      const count = s.catalogue !== undefined ? `the tools of ${s.catalogue}` : `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
      body.push(`# MCP server ${s.name}: simulated in the workbench with ${count}${s.status === 'offline' ? ' (status offline)' : ''}.`);
      if (s.url !== undefined) {
        body.push(`# It was reached over Streamable HTTP at ${s.url.replace(/[\r\n]/gu, ' ')}; JP speaks stdio, so this`);
        body.push('# stub bridges to it with mcp-remote. Check the command before use.');
        body.push(`[providers.mcp.${tomlKey(s.name)}]`, 'type = "stdio"', 'command = "npx"', `arguments = ["-y", "mcp-remote", ${tomlString(s.url)}]`, 'optional = true', '');
      } else {
        body.push('# A stub: JP starts MCP servers over stdio; set the command that starts this one.');
        body.push('# `optional = true` lets JP run without it (a warning) until then.');
        body.push(`[providers.mcp.${tomlKey(s.name)}]`, 'type = "stdio"', `command = ${tomlString(s.name)}`, 'optional = true', '');
      }
    }
    files.push({ path: SERVERS_FILE, text: header(doc, 'The MCP servers the tools below name (source = "mcp.SERVER.TOOL").', []) + body.join('\n') });
  }

  const used = new Set<string>([SERVERS_FILE, CONFIG_FILE]);
  doc.layers.forEach((layer, i) => {
    const s = stripLayer(layer);
    stripped.push(...s.stripped);
    kept.push(...s.kept);
    let path = `${String(i + 1).padStart(2, '0')}-${fileSlug(layer.name)}.toml`;
    for (let k = 2; used.has(path); k++) path = `${String(i + 1).padStart(2, '0')}-${fileSlug(layer.name)}-${k}.toml`;
    used.add(path);
    const notes = [
      `layer: ${tomlString(layer.name)} (${i + 1} of ${doc.layers.length}; later layers take precedence)`,
      ...s.stripped.map((k) => `removed ${k.path}: a workbench-only key JP does not accept`),
      ...s.kept.map((k) => `NOTE ${k.path} is workbench-only; remove it before JP loads this file`),
    ];
    files.push({ path, text: header(doc, 'One config layer.', notes) + s.text, layer: layer.name });
  });

  const extendsList = files.map((f) => tomlString(f.path));
  files.push({
    path: CONFIG_FILE,
    text: `${header(doc, 'Loads the files above in order: extended files load before this one, first listed first.', [])}extends = [\n${extendsList.map((e) => `  ${e},`).join('\n')}\n]\n`,
  });
  return { files, stripped, kept };
}

/**
 * Files written by `exportJpConfig` back into layers: `config.toml`'s `extends` gives the order
 * (else the given order), the header's `layer:` line gives each layer's name (else the file
 * name), and the header itself is dropped so the text is the layer's own.
 */
export function readJpConfig(files: readonly JpConfigFile[]): LayerDoc[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  let order = files.filter((f) => f.path !== CONFIG_FILE).map((f) => f.path);
  const config = byPath.get(CONFIG_FILE);
  if (config) {
    const ext = loadLayer({ name: CONFIG_FILE, text: config.text }).config.extends?.value;
    if (ext) order = ext.filter((p) => byPath.has(p));
  }
  const names = new Set<string>();
  return order.map((path) => {
    const text = byPath.get(path)?.text ?? '';
    let body = text;
    let name = path.replace(/\.toml$/u, '').replace(/^\d+-/u, '');
    if (text.startsWith(HEADER_START)) {
      const end = text.indexOf('\n\n');
      const head = end >= 0 ? text.slice(0, end) : text;
      body = end >= 0 ? text.slice(end + 2) : '';
      const m = /^# layer: ("(?:[^"\\]|\\.)*")/mu.exec(head);
      if (m?.[1]) {
        try {
          name = JSON.parse(m[1]) as string;
        } catch {
          // keep the file name
        }
      }
    }
    for (let k = 2; names.has(name); k++) name = `${name.replace(/-\d+$/u, '')}-${k}`;
    names.add(name);
    return { name, text: body };
  });
}
