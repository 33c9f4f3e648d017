// Scenario file text → Scenario. The format is a contract
// (design/scenario-format.md): unknown keys are errors with their position, so
// a typo in an expectation cannot pass silently.
import { parseToml } from '../config/toml';
import type { TomlParseOptions } from '../config/toml';
import type { Span, TomlEntry, TomlTable, TomlValue } from '../config/toml-ast';
import { LineIndex, toPlain } from '../config/toml-ast';
import type { Layer } from '../config/layer';
import { parseMultiServerCatalogue, parseToolsList } from '../catalogue/tools-list';
import { jsonProblemText, parseJson } from '../input/json';
import type { McpToolEntry } from '../catalogue/tools-list';
import { DEFAULT_POLICY, POLICY_CHOICES, POLICY_KEYS, isPolicyValue } from './policy';
import type { Policy, PolicyKey } from './policy';
import { EXPECT_KEYS } from './types';
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
const STEP_KEYS = ['command', 'cycles', 'expect'];
const CYCLE_KEYS = ['calls', 'reply', 'restart', 'expect'];
const CALL_KEYS = ['tool', 'args', 'writes', 'approved', 'result', 'fail', 'expect'];
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

export function parseScenario(text: string, host: ScenarioHost = {}): ScenarioParse {
  const index = new LineIndex(text);
  const errors: ScenarioError[] = [];
  const warnings: ScenarioError[] = [];
  const at = (span: Span, message: string): ScenarioError => {
    const p = index.position(span.start);
    return { message, line: p.line, column: p.column, span };
  };
  const error = (span: Span, message: string): void => {
    errors.push(at(span, message));
  };
  const fatal = (span: Span, message: string): never => {
    error(span, message);
    throw new Fail(message);
  };

  const doc = parseToml(text, PARSE_OPTIONS);
  if (doc.errors.length > 0) {
    return { ok: false, errors: doc.errors.map((e) => at(e.span, e.message)) };
  }
  const root = doc.root;

  const checkKeys = (table: TomlTable, allowed: readonly string[], where: string): void => {
    for (const [key, entry] of table.entries) {
      if (!allowed.includes(key)) error(entry.keySpan, `unknown key \`${key}\` in ${where}; expected one of ${allowed.join(', ')}`);
    }
  };
  const asTable = (v: TomlValue, what: string): TomlTable => (v.kind === 'table' ? v : fatal(v.span, `${what} must be a table`));
  const str = (e: TomlEntry | undefined, what: string): string | undefined => {
    if (!e) return undefined;
    if (e.value.kind !== 'string') return fatal(e.value.span, `${what} must be a string`);
    return e.value.value;
  };
  const bool = (e: TomlEntry | undefined, what: string): boolean | undefined => {
    if (!e) return undefined;
    if (e.value.kind !== 'boolean') return fatal(e.value.span, `${what} must be true or false`);
    return e.value.value;
  };
  const tables = (e: TomlEntry | undefined, what: string): TomlTable[] => {
    if (!e) return [];
    const v = e.value;
    if (v.kind === 'table-array') return v.items;
    if (v.kind === 'array') return v.items.map((i) => asTable(i, `each of ${what}`));
    return fatal(v.span, `${what} must be an array of tables ([[${what}]])`);
  };
  const expectations = (e: TomlEntry | undefined, where: ExpectWhere, label: string): Map<string, ExpectValue> | undefined => {
    if (!e) return undefined;
    const t = asTable(e.value, `${label}.expect`);
    const allowed = EXPECT_KEYS[where] as readonly string[];
    const out = new Map<string, ExpectValue>();
    for (const [key, entry] of t.entries) {
      if (!allowed.includes(key)) {
        error(entry.keySpan, `unknown expectation \`${key}\` on a ${where}; expected one of ${allowed.join(', ')}`);
        continue;
      }
      out.set(key, { value: toPlain(entry.value), span: entry.value.span });
    }
    return out;
  };

  try {
    checkKeys(root, TOP_KEYS, 'the scenario');
    const name = str(root.entries.get('name'), 'name') ?? '(unnamed scenario)';
    const description = str(root.entries.get('description'), 'description');

    let policy: Policy = DEFAULT_POLICY;
    const policyEntry = root.entries.get('policy');
    if (policyEntry) {
      const t = asTable(policyEntry.value, 'policy');
      const p: Record<string, unknown> = { ...DEFAULT_POLICY };
      for (const [key, entry] of t.entries) {
        if (!(POLICY_KEYS as string[]).includes(key)) {
          error(entry.keySpan, `unknown policy \`${key}\`; expected one of ${POLICY_KEYS.join(', ')}`);
          continue;
        }
        const k = key as PolicyKey;
        const v = toPlain(entry.value);
        if (!isPolicyValue(k, v)) {
          error(entry.value.span, `invalid ${key}: ${JSON.stringify(v)}, expected one of ${POLICY_CHOICES[k].map((c) => JSON.stringify(c)).join(', ')}`);
          continue;
        }
        p[k] = v;
      }
      policy = p as Policy;
    }

    const layers: Layer[] = [];
    const seenLayers = new Set<string>();
    for (const t of tables(root.entries.get('layers'), 'layers')) {
      checkKeys(t, LAYER_KEYS, 'a layer');
      const lname = str(t.entries.get('name'), 'layers.name') ?? fatal(t.span, 'a layer needs a `name`');
      const ltext = str(t.entries.get('text'), 'layers.text') ?? '';
      if (seenLayers.has(lname)) error(t.entries.get('name')?.value.span ?? t.span, `duplicate layer name \`${lname}\``);
      seenLayers.add(lname);
      layers.push({ name: lname, text: ltext });
    }

    const servers: ScenarioServer[] = [];
    const serversEntry = root.entries.get('servers');
    if (serversEntry) {
      const t = asTable(serversEntry.value, 'servers');
      for (const [sname, entry] of t.entries) {
        const st = asTable(entry.value, `servers.${sname}`);
        checkKeys(st, SERVER_KEYS, `servers.${sname}`);
        const status = str(st.entries.get('status'), `servers.${sname}.status`) ?? 'running';
        if (status !== 'running' && status !== 'offline') {
          error(st.entries.get('status')?.value.span ?? st.span, `invalid status: '${status}', expected "running" or "offline"`);
        }
        const tools: McpToolEntry[] = [];
        const catalogue = str(st.entries.get('catalogue'), `servers.${sname}.catalogue`);
        if (catalogue !== undefined) {
          const span = st.entries.get('catalogue')?.value.span ?? st.span;
          // `FILE#SERVER` names one server of a multi-server catalogue (LiveMCPBench's form).
          const hash = catalogue.lastIndexOf('#');
          const file = hash >= 0 ? catalogue.slice(0, hash) : catalogue;
          const fragment = hash >= 0 ? catalogue.slice(hash + 1) : undefined;
          const content = host.readFile?.(file);
          if (content === undefined || typeof content !== 'string') {
            error(span, `cannot read catalogue file \`${catalogue}\` of server \`${sname}\`${content ? `: ${content.error}` : ''}`);
          } else {
            const read = parseJson(content);
            if (!read.ok) error(span, `catalogue ${jsonProblemText(file, read)}`);
            else {
              const json = read.value;
              const parsed = catalogueTools(json, fragment);
              if ('error' in parsed) error(span, `catalogue \`${catalogue}\`: ${parsed.error}`);
              else {
                for (const msg of parsed.errors) warnings.push(at(span, `catalogue \`${catalogue}\`: ${msg}`));
                tools.push(...parsed.tools);
              }
            }
          }
        }
        const inline = st.entries.get('tools');
        if (inline) {
          if (inline.value.kind !== 'array') error(inline.value.span, `servers.${sname}.tools must be an array of tools/list entries`);
          else {
            const parsed = parseToolsList({ tools: doc.plainValues?.get(inline.value) ?? toPlain(inline.value) });
            for (const msg of parsed.errors) error(inline.value.span, `servers.${sname}.tools: ${msg}`);
            tools.push(...parsed.tools);
          }
        }
        const url = str(st.entries.get('url'), `servers.${sname}.url`);
        servers.push({
          name: sname,
          status: status === 'offline' ? 'offline' : 'running',
          ...(catalogue !== undefined ? { catalogue } : {}),
          ...(url !== undefined ? { url } : {}),
          tools,
          span: entry.keySpan,
        });
      }
    }

    const steps: ScenarioStep[] = [];
    let stepNo = 0;
    for (const t of tables(root.entries.get('steps'), 'steps')) {
      stepNo += 1;
      checkKeys(t, STEP_KEYS, `step ${stepNo}`);
      const cmdEntry = t.entries.get('command');
      const command = str(cmdEntry, 'steps.command') ?? fatal(t.span, `step ${stepNo} needs a \`command\``);
      const cycles: ScenarioCycle[] = [];
      let cycleNo = 0;
      for (const c of tables(t.entries.get('cycles'), 'steps.cycles')) {
        cycleNo += 1;
        const where = `step ${stepNo} cycle ${cycleNo}`;
        checkKeys(c, CYCLE_KEYS, where);
        const calls: ScenarioCall[] = [];
        let callNo = 0;
        for (const k of tables(c.entries.get('calls'), 'steps.cycles.calls')) {
          callNo += 1;
          const cwhere = `${where} call ${callNo}`;
          checkKeys(k, CALL_KEYS, cwhere);
          const tool = str(k.entries.get('tool'), 'calls.tool') ?? fatal(k.span, `${cwhere} needs a \`tool\``);
          const argsEntry = k.entries.get('args');
          const args = argsEntry ? toPlain(argsEntry.value) : Object.create(null);
          const writesEntry = k.entries.get('writes');
          let writes: string[] | undefined;
          if (writesEntry) {
            const v = writesEntry.value;
            if (v.kind !== 'array' || !v.items.every((i) => i.kind === 'string')) error(v.span, 'writes must be a list of "KEY=VALUE" strings');
            else writes = v.items.map((i) => (i.kind === 'string' ? i.value : ''));
          }
          const approved = bool(k.entries.get('approved'), 'approved');
          const result = str(k.entries.get('result'), 'result');
          const fail = str(k.entries.get('fail'), 'fail');
          const expect = expectations(k.entries.get('expect'), 'call', cwhere);
          calls.push({
            tool,
            args,
            ...(writes ? { writes } : {}),
            ...(approved !== undefined ? { approved } : {}),
            ...(result !== undefined ? { result } : {}),
            ...(fail !== undefined ? { fail } : {}),
            ...(expect ? { expect } : {}),
            span: k.span,
          });
        }
        const reply = str(c.entries.get('reply'), 'reply');
        const restart = bool(c.entries.get('restart'), 'restart') ?? false;
        const expect = expectations(c.entries.get('expect'), 'cycle', where);
        cycles.push({ calls, ...(reply !== undefined ? { reply } : {}), restart, ...(expect ? { expect } : {}), span: c.span });
      }
      const expect = expectations(t.entries.get('expect'), 'step', `step ${stepNo}`);
      steps.push({ command, commandSpan: cmdEntry?.value.span ?? t.span, cycles, ...(expect ? { expect } : {}), span: t.span });
    }

    const load = expectations(root.entries.get('load'), 'load', 'load');

    let workspace: ScenarioWorkspace | undefined;
    const ws = root.entries.get('workspace');
    if (ws) {
      const t = asTable(ws.value, 'workspace');
      checkKeys(t, WORKSPACE_KEYS, 'workspace');
      const path = str(t.entries.get('path'), 'workspace.path') ?? fatal(t.span, 'workspace needs a `path`');
      const persona = str(t.entries.get('persona'), 'workspace.persona');
      workspace = { path, ...(persona !== undefined ? { persona } : {}), span: ws.keySpan };
    }

    if (errors.length > 0) return { ok: false, errors };
    return {
      ok: true,
      warnings,
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
    if (e instanceof Fail) return { ok: false, errors };
    return { ok: false, errors: [...errors, { message: `internal error: ${String(e)}`, line: 1, column: 1 }] };
  }
}
