// Scenario file text → Scenario. The format is a contract
// (design/scenario-format.md): unknown keys are errors with their position, so
// a typo in an expectation cannot pass silently.
import { parseToml } from '../config/toml';
import type { TomlParseOptions } from '../config/toml';
import type { Span, TomlDocument, TomlEntry, TomlTable, TomlValue } from '../config/toml-ast';
import { LineIndex, toPlain } from '../config/toml-ast';
import { parseJsonKeepingFloats } from '../json/parse';
import type { Layer } from '../config/layer';
import { parseMultiServerCatalogue, parseToolsList } from '../catalogue/tools-list';
import { jsonProblemText, parseJson } from '../input/json';
import type { McpToolEntry } from '../catalogue/tools-list';
import { DEFAULT_POLICY, POLICY_CHOICES, POLICY_KEYS, isPolicyValue } from './policy';
import type { Policy, PolicyKey } from './policy';
import { EXPECT_KEYS } from './types';
import { parseDuration } from './duration';
import type {
  ExpectValue,
  ExpectWhere,
  Scenario,
  ScenarioCall,
  ScenarioCycle,
  ScenarioError,
  ScenarioServer,
  ScenarioStep,
  ScenarioWorkspace,
} from './types';

/** What the shell provides: files the scenario names, relative to the scenario file. */
export interface ScenarioHost {
  /** The file's text; undefined when it cannot be read, or the reason (not a regular file, too big, not UTF-8). */
  readFile?(path: string): string | undefined | { readonly error: string };
}

export type ScenarioParse = { ok: true; scenario: Scenario; warnings: ScenarioError[] } | { ok: false; errors: ScenarioError[] };

const TOP_KEYS = ['name', 'description', 'policy', 'layers', 'servers', 'steps', 'load', 'workspace'];
const LAYER_KEYS = ['name', 'text'];
const SERVER_KEYS = ['status', 'catalogue', 'tools', 'url'];
const STEP_KEYS = ['command', 'elapsed', 'cycles', 'expect'];
const CYCLE_KEYS = ['calls', 'reply', 'restart', 'expect'];
const CALL_KEYS = ['tool', 'args', 'writes', 'approved', 'result', 'fail', 'asked', 'expect'];
const WORKSPACE_KEYS = ['path', 'persona'];

class Fail extends Error {}

// A server's inline tools/list is read as plain JSON, so its tree (which at thousands of tools would
// be most of the file's) is never built.
const PARSE_OPTIONS: TomlParseOptions = { plainArrays: new Set(['tools']) };

/** A catalogue file's tools: a tools/list reply, or (with `#SERVER`) one server of the multi-server form. */
function catalogueTools(json: unknown, server: string | undefined): { tools: McpToolEntry[]; errors: string[] } | { error: string } {
  if (server === undefined) return parseToolsList(json);
  const parsed = parseMultiServerCatalogue(json);
  const found = parsed.servers.find((s) => s.name === server);
  if (!found) return { error: `names no server \`${server}\`${parsed.errors[0] ? ` (${parsed.errors[0]})` : ''}` };
  const prefix = `.tools[${JSON.stringify(server)}]`;
  return { tools: found.tools, errors: parsed.errors.filter((e) => e.includes(prefix)) };
}

/** The file's problems as they are found, and the readers of typed values that report them. */
class Reader {
  readonly errors: ScenarioError[] = [];
  readonly warnings: ScenarioError[] = [];
  private readonly index: LineIndex;

  constructor(text: string) {
    this.index = new LineIndex(text);
  }

  at(span: Span, message: string): ScenarioError {
    const p = this.index.position(span.start);
    return { message, line: p.line, column: p.column, span };
  }
  error(span: Span, message: string): void {
    this.errors.push(this.at(span, message));
  }
  /** A problem that stops reading the file. */
  fatal(span: Span, message: string): never {
    this.error(span, message);
    throw new Fail(message);
  }
  checkKeys(table: TomlTable, allowed: readonly string[], where: string): void {
    for (const [key, entry] of table.entries) {
      if (!allowed.includes(key)) this.error(entry.keySpan, `unknown key \`${key}\` in ${where}; expected one of ${allowed.join(', ')}`);
    }
  }
  asTable(v: TomlValue, what: string): TomlTable {
    return v.kind === 'table' ? v : this.fatal(v.span, `${what} must be a table`);
  }
  str(e: TomlEntry | undefined, what: string): string | undefined {
    if (!e) return undefined;
    if (e.value.kind !== 'string') return this.fatal(e.value.span, `${what} must be a string`);
    return e.value.value;
  }
  bool(e: TomlEntry | undefined, what: string): boolean | undefined {
    if (!e) return undefined;
    if (e.value.kind !== 'boolean') return this.fatal(e.value.span, `${what} must be true or false`);
    return e.value.value;
  }
  tables(e: TomlEntry | undefined, what: string): TomlTable[] {
    if (!e) return [];
    const v = e.value;
    if (v.kind === 'table-array') return v.items;
    if (v.kind === 'array') return v.items.map((i) => this.asTable(i, `each of ${what}`));
    return this.fatal(v.span, `${what} must be an array of tables ([[${what}]])`);
  }
  /** An `expect` table: only the keys the format allows at `where` (a typo cannot pass silently). */
  expectations(e: TomlEntry | undefined, where: ExpectWhere, label: string): Map<string, ExpectValue> | undefined {
    if (!e) return undefined;
    const t = this.asTable(e.value, `${label}.expect`);
    const allowed = EXPECT_KEYS[where] as readonly string[];
    const out = new Map<string, ExpectValue>();
    for (const [key, entry] of t.entries) {
      if (!allowed.includes(key)) {
        this.error(entry.keySpan, `unknown expectation \`${key}\` on a ${where}; expected one of ${allowed.join(', ')}`);
        continue;
      }
      out.set(key, { value: toPlain(entry.value), span: entry.value.span });
    }
    return out;
  }
}

function readPolicy(r: Reader, entry: TomlEntry | undefined): Policy {
  if (!entry) return DEFAULT_POLICY;
  const t = r.asTable(entry.value, 'policy');
  const p: Record<string, unknown> = { ...DEFAULT_POLICY };
  for (const [key, e] of t.entries) {
    if (!(POLICY_KEYS as string[]).includes(key)) {
      r.error(e.keySpan, `unknown policy \`${key}\`; expected one of ${POLICY_KEYS.join(', ')}`);
      continue;
    }
    const k = key as PolicyKey;
    const v = toPlain(e.value);
    if (!isPolicyValue(k, v)) {
      r.error(e.value.span, `invalid ${key}: ${JSON.stringify(v)}, expected one of ${POLICY_CHOICES[k].map((c) => JSON.stringify(c)).join(', ')}`);
      continue;
    }
    p[k] = v;
  }
  return p as Policy;
}

function readLayers(r: Reader, entry: TomlEntry | undefined): Layer[] {
  const layers: Layer[] = [];
  const seen = new Set<string>();
  for (const t of r.tables(entry, 'layers')) {
    r.checkKeys(t, LAYER_KEYS, 'a layer');
    const name = r.str(t.entries.get('name'), 'layers.name') ?? r.fatal(t.span, 'a layer needs a `name`');
    const text = r.str(t.entries.get('text'), 'layers.text') ?? '';
    if (seen.has(name)) r.error(t.entries.get('name')?.value.span ?? t.span, `duplicate layer name \`${name}\``);
    seen.add(name);
    layers.push({ name, text });
  }
  return layers;
}

/** The tools of a server's `catalogue = "FILE[#SERVER]"`, read through the host. */
function catalogueFileTools(r: Reader, host: ScenarioHost, sname: string, catalogue: string, span: Span): McpToolEntry[] {
  // `FILE#SERVER` names one server of a multi-server catalogue (LiveMCPBench's form).
  const hash = catalogue.lastIndexOf('#');
  const file = hash >= 0 ? catalogue.slice(0, hash) : catalogue;
  const fragment = hash >= 0 ? catalogue.slice(hash + 1) : undefined;
  const content = host.readFile?.(file);
  if (content === undefined || typeof content !== 'string') {
    r.error(span, `cannot read catalogue file \`${catalogue}\` of server \`${sname}\`${content ? `: ${content.error}` : ''}`);
    return [];
  }
  const read = parseJson(content, { parse: parseJsonKeepingFloats });
  if (!read.ok) {
    r.error(span, `catalogue ${jsonProblemText(file, read)}`);
    return [];
  }
  const parsed = catalogueTools(read.value, fragment);
  if ('error' in parsed) {
    r.error(span, `catalogue \`${catalogue}\`: ${parsed.error}`);
    return [];
  }
  for (const msg of parsed.errors) r.warnings.push(r.at(span, `catalogue \`${catalogue}\`: ${msg}`));
  return parsed.tools;
}

function readServer(r: Reader, doc: TomlDocument, host: ScenarioHost, sname: string, entry: TomlEntry): ScenarioServer {
  const st = r.asTable(entry.value, `servers.${sname}`);
  r.checkKeys(st, SERVER_KEYS, `servers.${sname}`);
  const status = r.str(st.entries.get('status'), `servers.${sname}.status`) ?? 'running';
  if (status !== 'running' && status !== 'offline') {
    r.error(st.entries.get('status')?.value.span ?? st.span, `invalid status: '${status}', expected "running" or "offline"`);
  }
  const tools: McpToolEntry[] = [];
  const catalogue = r.str(st.entries.get('catalogue'), `servers.${sname}.catalogue`);
  if (catalogue !== undefined) tools.push(...catalogueFileTools(r, host, sname, catalogue, st.entries.get('catalogue')?.value.span ?? st.span));
  const inline = st.entries.get('tools');
  if (inline) {
    if (inline.value.kind !== 'array') r.error(inline.value.span, `servers.${sname}.tools must be an array of tools/list entries`);
    else {
      const parsed = parseToolsList({ tools: doc.plainValues?.get(inline.value) ?? toPlain(inline.value, true) });
      for (const msg of parsed.errors) r.error(inline.value.span, `servers.${sname}.tools: ${msg}`);
      tools.push(...parsed.tools);
    }
  }
  const url = r.str(st.entries.get('url'), `servers.${sname}.url`);
  return {
    name: sname,
    status: status === 'offline' ? 'offline' : 'running',
    ...(catalogue !== undefined ? { catalogue } : {}),
    ...(url !== undefined ? { url } : {}),
    tools,
    span: entry.keySpan,
  };
}

function readServers(r: Reader, doc: TomlDocument, host: ScenarioHost, entry: TomlEntry | undefined): ScenarioServer[] {
  if (!entry) return [];
  const t = r.asTable(entry.value, 'servers');
  return [...t.entries].map(([sname, e]) => readServer(r, doc, host, sname, e));
}

function readCall(r: Reader, k: TomlTable, cwhere: string): ScenarioCall {
  r.checkKeys(k, CALL_KEYS, cwhere);
  const tool = r.str(k.entries.get('tool'), 'calls.tool') ?? r.fatal(k.span, `${cwhere} needs a \`tool\``);
  const argsEntry = k.entries.get('args');
  // Whole floats stay floats: the call's arguments render as JP would write them (1.0).
  const args: unknown = argsEntry ? toPlain(argsEntry.value, true) : Object.create(null);
  const writesEntry = k.entries.get('writes');
  let writes: string[] | undefined;
  if (writesEntry) {
    const v = writesEntry.value;
    if (v.kind !== 'array' || !v.items.every((i) => i.kind === 'string')) r.error(v.span, 'writes must be a list of "KEY=VALUE" strings');
    else writes = v.items.map((i) => (i.kind === 'string' ? i.value : ''));
  }
  const approved = r.bool(k.entries.get('approved'), 'approved');
  const result = r.str(k.entries.get('result'), 'result');
  const fail = r.str(k.entries.get('fail'), 'fail');
  const askedEntry = k.entries.get('asked');
  let asked: unknown[] | undefined;
  if (askedEntry) {
    const v = askedEntry.value;
    if (v.kind !== 'array' || !v.items.every((i) => i.kind === 'table')) r.error(v.span, 'asked must be a list of tables ({ kind = "elicitation", action = "accept", ... })');
    else asked = toPlain(v, true) as unknown[];
  }
  const expect = r.expectations(k.entries.get('expect'), 'call', cwhere);
  return {
    tool,
    args,
    ...(writes ? { writes } : {}),
    ...(approved !== undefined ? { approved } : {}),
    ...(result !== undefined ? { result } : {}),
    ...(fail !== undefined ? { fail } : {}),
    ...(asked ? { asked } : {}),
    ...(expect ? { expect } : {}),
    span: k.span,
  };
}

function readCycle(r: Reader, c: TomlTable, where: string): ScenarioCycle {
  r.checkKeys(c, CYCLE_KEYS, where);
  const calls = r.tables(c.entries.get('calls'), 'steps.cycles.calls').map((k, i) => readCall(r, k, `${where} call ${i + 1}`));
  const reply = r.str(c.entries.get('reply'), 'reply');
  const restart = r.bool(c.entries.get('restart'), 'restart') ?? false;
  const expect = r.expectations(c.entries.get('expect'), 'cycle', where);
  return { calls, ...(reply !== undefined ? { reply } : {}), restart, ...(expect ? { expect } : {}), span: c.span };
}

/** `elapsed`: the time that passes before a step, as seconds or as "90s", "6m", "1h", "1h30m" (so a cache's time-to-live can run out). */
function readElapsed(r: Reader, e: TomlEntry | undefined, stepNo: number): number | undefined {
  if (!e) return undefined;
  const v = e.value;
  const seconds = v.kind === 'integer' || v.kind === 'float' ? Number(v.value) : v.kind === 'string' ? parseDuration(v.value) : undefined;
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    r.error(v.span, `step ${stepNo}: elapsed must be a number of seconds or a duration such as "90s", "6m", "1h" or "1h30m"`);
    return undefined;
  }
  return seconds;
}

function readStep(r: Reader, t: TomlTable, stepNo: number): ScenarioStep {
  r.checkKeys(t, STEP_KEYS, `step ${stepNo}`);
  const cmdEntry = t.entries.get('command');
  const command = r.str(cmdEntry, 'steps.command') ?? r.fatal(t.span, `step ${stepNo} needs a \`command\``);
  const cycles = r.tables(t.entries.get('cycles'), 'steps.cycles').map((c, i) => readCycle(r, c, `step ${stepNo} cycle ${i + 1}`));
  const expect = r.expectations(t.entries.get('expect'), 'step', `step ${stepNo}`);
  const elapsed = readElapsed(r, t.entries.get('elapsed'), stepNo);
  return { command, commandSpan: cmdEntry?.value.span ?? t.span, ...(elapsed !== undefined ? { elapsed } : {}), cycles, ...(expect ? { expect } : {}), span: t.span };
}

function readWorkspace(r: Reader, ws: TomlEntry | undefined): ScenarioWorkspace | undefined {
  if (!ws) return undefined;
  const t = r.asTable(ws.value, 'workspace');
  r.checkKeys(t, WORKSPACE_KEYS, 'workspace');
  const path = r.str(t.entries.get('path'), 'workspace.path') ?? r.fatal(t.span, 'workspace needs a `path`');
  const persona = r.str(t.entries.get('persona'), 'workspace.persona');
  return { path, ...(persona !== undefined ? { persona } : {}), span: ws.keySpan };
}

export function parseScenario(text: string, host: ScenarioHost = {}): ScenarioParse {
  const r = new Reader(text);
  const doc = parseToml(text, PARSE_OPTIONS);
  if (doc.errors.length > 0) return { ok: false, errors: doc.errors.map((e) => r.at(e.span, e.message)) };
  const root = doc.root;
  try {
    r.checkKeys(root, TOP_KEYS, 'the scenario');
    const name = r.str(root.entries.get('name'), 'name') ?? '(unnamed scenario)';
    const description = r.str(root.entries.get('description'), 'description');
    const policy = readPolicy(r, root.entries.get('policy'));
    const layers = readLayers(r, root.entries.get('layers'));
    const servers = readServers(r, doc, host, root.entries.get('servers'));
    const steps = r.tables(root.entries.get('steps'), 'steps').map((t, i) => readStep(r, t, i + 1));
    const load = r.expectations(root.entries.get('load'), 'load', 'load');
    const workspace = readWorkspace(r, root.entries.get('workspace'));
    if (r.errors.length > 0) return { ok: false, errors: r.errors };
    return {
      ok: true,
      warnings: r.warnings,
      scenario: {
        name,
        ...(description !== undefined ? { description } : {}),
        policy,
        layers,
        servers,
        steps,
        ...(load ? { load } : {}),
        ...(workspace ? { workspace } : {}),
      },
    };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, errors: r.errors };
    return { ok: false, errors: [...r.errors, { message: `internal error: ${String(e)}`, line: 1, column: 1 }] };
  }
}
