// Writing a command back as a line (the inverse of parseCommand), so the UI can
// record steps it builds. For every command parseCommand returns,
// parseCommand(formatCommand(c)) equals c except for spans.
import { DEFAULT_LAYER } from './parse';
import type { CfgAssignment, Command } from './parse';
import { quoteShellWord } from './shell';

/** Property names that hold source spans. */
export type SpanKey = 'span' | 'keySpan' | 'valueSpan' | 'nameSpan' | 'querySpan';
const SPAN_KEYS: ReadonlySet<string> = new Set<SpanKey>(['span', 'keySpan', 'valueSpan', 'nameSpan', 'querySpan']);

/** `T` with every span property optional (recursively), for commands built by code rather than parsed. */
export type Unspanned<T> = T extends readonly (infer U)[]
  ? readonly Unspanned<U>[]
  : T extends object
    ? { readonly [K in keyof T as K extends SpanKey ? never : K]: Unspanned<T[K]> } & { readonly [K in keyof T as K extends SpanKey ? K : never]?: T[K] }
    : T;

export type CommandInput = Unspanned<Command>;

/** A deep copy of `value` without span properties (for comparing commands). */
export function stripSpans<T>(value: T): Unspanned<T> {
  if (Array.isArray(value)) return value.map((item: unknown) => stripSpans(item)) as Unspanned<T>;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!SPAN_KEYS.has(k)) out[k] = stripSpans(v);
    }
    return out as Unspanned<T>;
  }
  return value as Unspanned<T>;
}

/**
 * Format one assignment as a single shell word: `KEY=VALUE` or `KEY:=JSON`, with the defaults
 * key written `'*'` (JP's spelling) and other parts quoted only where the shell needs it.
 * Keys cannot hold a segment containing `.`, and a key ending in `:` or `+` cannot be written.
 */
export function formatAssignment(a: Unspanned<CfgAssignment>): string {
  const key = a.path.map((segment) => (segment === '*' ? "'*'" : quoteShellWord(segment))).join('.');
  return `${key}${a.json ? ':=' : '='}${quoteShellWord(a.value)}`;
}

/** Whether the formatted assignment would start with `-` (and so read as an option). */
function startsWithDash(a: Unspanned<CfgAssignment>): boolean {
  return a.path[0]?.startsWith('-') ?? false;
}

export function formatCommand(command: CommandInput): string {
  return command.kind === 'query' ? formatQuery(command) : formatConfigSet(command);
}

function formatQuery(c: Extract<CommandInput, { kind: 'query' }>): string {
  const parts = ['jp', c.alias];
  for (const a of c.assignments) {
    // A key starting with `-` would read as an option after `--cfg `; the attached form keeps it a value.
    if (startsWithDash(a)) parts.push(`--cfg=${formatAssignment(a)}`);
    else parts.push('--cfg', formatAssignment(a));
  }
  /** Whether the last part is a bare `-t`/`-T`, which would take a following query word as its NAME. */
  let bareLast = false;
  for (const d of c.directives) {
    const short = d.kind === 'enable' ? '-t' : '-T';
    const long = d.kind === 'enable' ? '--tool' : '--no-tool';
    if (d.name === undefined || d.name === '') {
      parts.push(short);
      bareLast = true;
    } else if (d.name.startsWith('-')) {
      parts.push(`${long}=${quoteShellWord(d.name)}`);
      bareLast = false;
    } else {
      parts.push(short, quoteShellWord(d.name));
      bareLast = false;
    }
  }
  const tu = c.toolUse;
  if (tu !== undefined && tu.kind !== 'auto') {
    bareLast = false;
    if (tu.kind === 'none') parts.push('-U');
    else if (tu.kind === 'required') parts.push('-u', 'true');
    else if (tu.name.startsWith('-')) parts.push(`--tool-use=${quoteShellWord(tu.name)}`);
    else parts.push('-u', quoteShellWord(tu.name));
  }
  if (c.query !== '') {
    if (bareLast || c.query.startsWith('-')) parts.push('--');
    parts.push(quoteShellWord(c.query));
  }
  return parts.join(' ');
}

function formatConfigSet(c: Extract<CommandInput, { kind: 'config-set' }>): string {
  const parts = ['jp', 'config', 'set'];
  if (c.target.kind === 'conversation') parts.push('--id');
  else if (c.target.layer !== DEFAULT_LAYER) {
    if (c.target.layer.startsWith('-')) parts.push(`--layer=${quoteShellWord(c.target.layer)}`);
    else parts.push('--layer', quoteShellWord(c.target.layer));
  }
  if (c.assignments.some(startsWithDash)) parts.push('--');
  for (const a of c.assignments) parts.push(formatAssignment(a));
  return parts.join(' ');
}
