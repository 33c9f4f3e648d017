// A scenario as an editable, serializable document: what the workbench's store
// holds and saves. `writeScenario` produces the scenario file that
// `tool-workbench check` runs, and `scenarioDocFromText` reads one back.
import { toolEntryJson } from '../catalogue/tools-list';
import { isJsonFloat } from '../json/serde';
import { parseScenario } from './parse';
import { formatDuration } from './duration';
import type { ScenarioHost } from './parse';
import type { Policy } from './policy';
import { DEFAULT_POLICY, POLICY_KEYS } from './policy';
import type { Expectations, ScenarioError } from './types';
import { CONTROL_CLASS, CONTROL_CLASS_KEEPING_LINES, isControl, unicodeEscape } from '../input/controls';

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

export interface CallDoc {
  tool: string;
  args: { [key: string]: Plain };
  writes?: string[];
  approved?: boolean;
  result?: string;
  fail?: string;
  /** What the server asked while the call ran for real, and what the user decided (kept, never simulated). */
  asked?: { [key: string]: Plain }[];
  expect?: { [key: string]: Plain };
}

export interface CycleDoc {
  calls: CallDoc[];
  reply?: string;
  restart?: boolean;
  expect?: { [key: string]: Plain };
}

export interface StepDoc {
  command: string;
  /** Seconds that pass before the step. */
  elapsed?: number;
  cycles: CycleDoc[];
  expect?: { [key: string]: Plain };
}

export interface ServerDoc {
  name: string;
  status: 'running' | 'offline';
  catalogue?: string;
  /** A live MCP server's Streamable HTTP endpoint; `tools` then hold its last listed tools. */
  url?: string;
  /** Inline tools/list entries. */
  tools: { [key: string]: Plain }[];
}

export interface LayerDoc {
  name: string;
  text: string;
}

export interface ScenarioDoc {
  name: string;
  description?: string;
  policy: Policy;
  layers: LayerDoc[];
  servers: ServerDoc[];
  steps: StepDoc[];
  load?: { [key: string]: Plain };
  workspace?: { path: string; persona?: string };
}

// ---- TOML writing ----

const BARE_KEY = /^[A-Za-z0-9_-]+$/u;

export function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

/** A lone UTF-16 surrogate: no TOML string can hold one (TOML strings are Unicode scalar values). */
const isLoneSurrogate = (ch: string): boolean => ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff;

const NEEDS_ESCAPE = new RegExp(`["\\\\${CONTROL_CLASS}]|\\p{Cs}`, 'u');

// Control and bidirectional format characters are written as escapes, C1 and U+202E included
// (TOML allows them raw, but a terminal showing the file would act on them; input/controls.ts).
export function tomlString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (isControl(ch)) out += unicodeEscape(ch);
    else if (isLoneSurrogate(ch)) out += '\\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

const CONTROL_IN_TEXT = new RegExp(`[${CONTROL_CLASS_KEEPING_LINES}]`, 'u');

/** A multi-line string for layer texts and long prose: literal when it can be, basic otherwise. */
export function tomlMultiline(s: string): string {
  const literalSafe = !s.includes("'''") && !CONTROL_IN_TEXT.test(s) && !/\p{Cs}/u.test(s) && !s.endsWith("'");
  if (literalSafe) return `'''\n${s}'''`;
  let body = '';
  for (const ch of s) {
    if (ch === '\\') body += '\\\\';
    else if (ch === '"') body += '\\"';
    else if (ch === '\n') body += '\n';
    else if (ch === '\t') body += '\t';
    else if (isControl(ch)) body += unicodeEscape(ch);
    else if (isLoneSurrogate(ch)) body += '\\ufffd';
    else body += ch;
  }
  return `"""\n${body}"""`;
}

export function tomlValue(v: Plain | undefined): string {
  if (v === null || v === undefined) return '""';
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : v < 0 ? '-inf' : 'nan';
    const text = String(v);
    // An integer TOML cannot hold exactly (beyond 2^53, as a JSON catalogue may carry) is written as the float it is.
    return Number.isSafeInteger(v) || !Number.isInteger(v) || /[e.]/u.test(text) ? text : `${text}.0`;
  }
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{ ${keys.map((k) => `${tomlKey(k)} = ${tomlValue(v[k])}`).join(', ')} }`;
}

function table(lines: string[], header: string, entries: [string, Plain | undefined][]): void {
  lines.push(header);
  for (const [k, v] of entries) if (v !== undefined) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
}

export function writeScenario(doc: ScenarioDoc): string {
  const lines: string[] = [];
  lines.push(`name = ${tomlString(doc.name)}`);
  if (doc.description !== undefined) lines.push(`description = ${doc.description.includes('\n') ? tomlMultiline(doc.description) : tomlString(doc.description)}`);
  const policy = POLICY_KEYS.filter((k) => doc.policy[k] !== DEFAULT_POLICY[k]);
  if (policy.length > 0) {
    lines.push('');
    table(lines, '[policy]', policy.map((k) => [k, doc.policy[k]]));
  }
  if (doc.workspace) {
    lines.push('');
    table(lines, '[workspace]', [['path', doc.workspace.path], ['persona', doc.workspace.persona]]);
  }
  if (doc.load && Object.keys(doc.load).length > 0) {
    lines.push('');
    table(lines, '[load]', Object.entries(doc.load));
  }
  for (const layer of doc.layers) {
    lines.push('', '[[layers]]', `name = ${tomlString(layer.name)}`, `text = ${tomlMultiline(layer.text)}`);
  }
  for (const s of doc.servers) {
    lines.push('', `[servers.${tomlKey(s.name)}]`, `status = ${tomlString(s.status)}`);
    if (s.url !== undefined) lines.push(`url = ${tomlString(s.url)}`);
    if (s.catalogue !== undefined) lines.push(`catalogue = ${tomlString(s.catalogue)}`);
    if (s.tools.length > 0) lines.push(`tools = [\n${s.tools.map((t) => `  ${tomlValue(t)},`).join('\n')}\n]`);
  }
  for (const step of doc.steps) {
    lines.push('', '[[steps]]', `command = ${tomlString(step.command)}`);
    if (step.elapsed !== undefined) lines.push(`elapsed = ${tomlString(formatDuration(step.elapsed))}`);
    for (const cycle of step.cycles) {
      lines.push('', '  [[steps.cycles]]');
      if (cycle.restart) lines.push('  restart = true');
      if (cycle.reply !== undefined) lines.push(`  reply = ${tomlString(cycle.reply)}`);
      if (cycle.expect && Object.keys(cycle.expect).length > 0) {
        lines.push('  [steps.cycles.expect]');
        for (const [k, v] of Object.entries(cycle.expect)) lines.push(`  ${tomlKey(k)} = ${tomlValue(v)}`);
      }
      for (const call of cycle.calls) {
        lines.push('', '    [[steps.cycles.calls]]', `    tool = ${tomlString(call.tool)}`, `    args = ${tomlValue(call.args)}`);
        if (call.writes) lines.push(`    writes = ${tomlValue(call.writes)}`);
        if (call.approved !== undefined) lines.push(`    approved = ${String(call.approved)}`);
        if (call.result !== undefined) lines.push(`    result = ${tomlString(call.result)}`);
        if (call.fail !== undefined) lines.push(`    fail = ${tomlString(call.fail)}`);
        if (call.asked && call.asked.length > 0) lines.push(`    asked = ${tomlValue(call.asked)}`);
        if (call.expect && Object.keys(call.expect).length > 0) lines.push(`    expect = ${tomlValue(call.expect)}`);
      }
    }
    if (step.expect && Object.keys(step.expect).length > 0) {
      lines.push('', '[steps.expect]');
      for (const [k, v] of Object.entries(step.expect)) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
    }
  }
  // The closing newline as one more (empty) line: appended to the joined text it made a rope whose
  // first read flattened it, a second copy of the document (9 MB at 10,000 tools) per whole parse.
  lines.push('');
  return lines.join('\n');
}

// ---- reading back ----

function plain(v: unknown): Plain {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  // The document's values are plain JSON (they are cloned to the UI and stored): a whole float
  // becomes its number here, so the UI writes it back as an integer.
  if (isJsonFloat(v)) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') {
    const out: { [key: string]: Plain } = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: plain((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return null;
}

function expectDoc(e: Expectations | undefined): { [key: string]: Plain } | undefined {
  if (!e) return undefined;
  const out: { [key: string]: Plain } = {};
  for (const [k, v] of e) out[k] = plain(v.value);
  return out;
}

export type DocResult = { ok: true; doc: ScenarioDoc } | { ok: false; errors: ScenarioError[] };

export function scenarioDocFromText(text: string, host: ScenarioHost = {}): DocResult {
  const parsed = parseScenario(text, host);
  if (!parsed.ok) return parsed;
  const s = parsed.scenario;
  const doc: ScenarioDoc = {
    name: s.name,
    ...(s.description !== undefined ? { description: s.description } : {}),
    policy: { ...s.policy },
    layers: s.layers.map((l) => ({ name: l.name, text: l.text })),
    servers: s.servers.map((sv) => ({
      name: sv.name,
      status: sv.status,
      ...(sv.catalogue !== undefined ? { catalogue: sv.catalogue } : {}),
      ...(sv.url !== undefined ? { url: sv.url } : {}),
      // A catalogue file's tools stay in the file; only inline tools are part of the document.
      tools: sv.catalogue !== undefined ? [] : sv.tools.map((t) => toolEntryJson(t) as { [key: string]: Plain }),
    })),
    steps: s.steps.map((st) => {
      const expect = expectDoc(st.expect);
      return {
        command: st.command,
        ...(st.elapsed !== undefined ? { elapsed: st.elapsed } : {}),
        cycles: st.cycles.map((c) => {
          const cexpect = expectDoc(c.expect);
          return {
            calls: c.calls.map((k) => {
              const kexpect = expectDoc(k.expect);
              return {
                tool: k.tool,
                args: (plain(k.args) ?? {}) as { [key: string]: Plain },
                ...(k.writes ? { writes: [...k.writes] } : {}),
                ...(k.approved !== undefined ? { approved: k.approved } : {}),
                ...(k.result !== undefined ? { result: k.result } : {}),
                ...(k.fail !== undefined ? { fail: k.fail } : {}),
                ...(k.asked ? { asked: k.asked.map((a) => plain(a) as { [key: string]: Plain }) } : {}),
                ...(kexpect ? { expect: kexpect } : {}),
              };
            }),
            ...(c.reply !== undefined ? { reply: c.reply } : {}),
            ...(c.restart ? { restart: true } : {}),
            ...(cexpect ? { expect: cexpect } : {}),
          };
        }),
        ...(expect ? { expect } : {}),
      };
    }),
    ...(s.load ? { load: expectDoc(s.load) ?? {} } : {}),
    ...(s.workspace ? { workspace: { path: s.workspace.path, ...(s.workspace.persona !== undefined ? { persona: s.workspace.persona } : {}) } } : {}),
  };
  return { ok: true, doc };
}

export const EMPTY_DOC: ScenarioDoc = {
  name: 'Untitled scenario',
  policy: DEFAULT_POLICY,
  layers: [{ name: 'workspace', text: '' }],
  servers: [],
  steps: [],
};
