// Parsing one scenario step's command line: `jp q` / `jp query` and `jp config set`.
// The result keeps source spans so errors and provenance can point at the words
// that caused them. Semantics (what a directive does to a tool) live elsewhere.
import { checkJson } from './json';
import { spanColumns, splitShellWords, wordSubspan } from './shell';
import type { ShellWord, Span } from './shell';

export type { Span };

/** One `--cfg` (or `jp config set`) assignment. */
export interface CfgAssignment {
  /** The key split on `.`; a `'*'` segment is normalised to `*` (the defaults key). */
  readonly path: readonly string[];
  /** `path` joined with `.`. */
  readonly key: string;
  /** The raw value text after `=` / `:=`. */
  readonly value: string;
  /** `KEY:=JSON` (the value is valid JSON) rather than `KEY=VALUE` (a string). */
  readonly json: boolean;
  /** The `KEY=VALUE` text. */
  readonly span: Span;
  readonly keySpan: Span;
  readonly valueSpan: Span;
}

/** `-t [NAME]` (enable) or `-T [NAME]` (disable); no name means bulk. */
export interface Directive {
  readonly kind: 'enable' | 'disable';
  readonly name?: string;
  /** The flag and its value. */
  readonly span: Span;
  /** The name alone (present iff `name` is). */
  readonly nameSpan?: Span;
}

/**
 * Forced tool use. `-U` / `-u false` → none, bare `-u` / `-u true` → required, `-u NAME` → function.
 * The parser never produces `auto` (the default when no flag is given); it exists for callers.
 */
export type ToolUse =
  | { readonly kind: 'auto' }
  | { readonly kind: 'none' }
  | { readonly kind: 'required' }
  | { readonly kind: 'function'; readonly name: string; readonly span: Span; readonly nameSpan?: Span };

export interface QueryCommand {
  readonly kind: 'query';
  /** How the subcommand was spelled. */
  readonly alias: 'q' | 'query';
  /** The positional words joined by one space (`''` when there are none). */
  readonly query: string;
  /** From the first positional word to the last (absent when there are none). */
  readonly querySpan?: Span;
  /** `--cfg` assignments in command-line order. */
  readonly assignments: readonly CfgAssignment[];
  /** `-t` / `-T` in command-line order. */
  readonly directives: readonly Directive[];
  /** The last `-u` / `-U`, when any was given. */
  readonly toolUse?: ToolUse;
}

export type ConfigSetTarget =
  | { readonly kind: 'conversation' }
  /** `span` is the `--layer` option when it was given (the default layer is `workspace`). */
  | { readonly kind: 'layer'; readonly layer: string; readonly span?: Span };

export interface ConfigSetCommand {
  readonly kind: 'config-set';
  readonly target: ConfigSetTarget;
  readonly assignments: readonly CfgAssignment[];
}

export type Command = QueryCommand | ConfigSetCommand;

/** 1-based columns; `endColumn` is exclusive (Monaco's convention). */
export interface CommandError {
  readonly message: string;
  readonly column: number;
  readonly endColumn: number;
}

export type ParseResult = { readonly ok: true; readonly command: Command } | { readonly ok: false; readonly error: CommandError };

export const DEFAULT_LAYER = 'workspace';

export const SUPPORTED_COMMANDS = 'supported: jp q / jp query, jp config set [--id | --layer NAME] KEY=VALUE...';

const QUERY_OPTIONS =
  'accepted: -t/--tool/--tools [NAME], -T/--no-tool/--no-tools [NAME], -u/--tool-use NAME, -U/--no-tool-use, ' +
  '--cfg KEY=VALUE, --cfg KEY:=JSON, and -- before a query that starts with `-`';

const CONFIG_SET_OPTIONS = 'accepted: --id, --layer NAME, and -- before a KEY=VALUE that starts with `-`';

/** Thrown inside the parser only; `parseCommand` turns it into a result. */
class CommandSyntaxError {
  constructor(
    readonly message: string,
    readonly span: Span,
  ) {}
}

function bail(message: string, span: Span): never {
  throw new CommandSyntaxError(message, span);
}

function join(a: Span, b: Span): Span {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

const isOptionWord = (value: string): boolean => value.length > 1 && value.startsWith('-');

export function parseCommand(line: string): ParseResult {
  const split = splitShellWords(line);
  if (!split.ok) {
    const { message, column, endColumn } = split.error;
    return { ok: false, error: { message, column, endColumn } };
  }
  try {
    return { ok: true, command: parseWords(split.words, line) };
  } catch (e) {
    if (e instanceof CommandSyntaxError) return { ok: false, error: { message: e.message, ...spanColumns(e.span) } };
    throw e;
  }
}

function parseWords(words: readonly ShellWord[], line: string): Command {
  const [program, sub, third] = words;
  if (program === undefined) bail(`empty command; ${SUPPORTED_COMMANDS}`, { start: 0, end: line.length });
  if (program.value !== 'jp') bail(`unknown command \`${program.value}\`; ${SUPPORTED_COMMANDS}`, program.span);
  if (sub === undefined) bail(`missing subcommand after \`jp\`; ${SUPPORTED_COMMANDS}`, program.span);
  if (sub.value === 'q' || sub.value === 'query') return parseQuery(sub.value, words.slice(2));
  if (sub.value === 'config') {
    if (third === undefined) bail(`missing subcommand after \`jp config\`; ${SUPPORTED_COMMANDS}`, sub.span);
    if (third.value === 'set') return parseConfigSet(third, words.slice(3));
    bail(`unknown command \`jp config ${third.value}\`; ${SUPPORTED_COMMANDS}`, third.span);
  }
  return bail(`unknown command \`jp ${sub.value}\`; ${SUPPORTED_COMMANDS}`, sub.span);
}

/** An option word split into its name and an attached value (`--tool=x`, `-tx`, `-t=x`). */
interface OptionWord {
  readonly name: string;
  /** The attached value, if any. */
  readonly attached?: string;
  /** Index in `word.value` where the attached value starts. */
  readonly attachedAt: number;
}

function splitOption(value: string): OptionWord {
  if (value.startsWith('--')) {
    const eq = value.indexOf('=');
    return eq < 0 ? { name: value, attachedAt: value.length } : { name: value.slice(0, eq), attached: value.slice(eq + 1), attachedAt: eq + 1 };
  }
  const name = value.slice(0, 2);
  if (value.length === 2) return { name, attachedAt: 2 };
  if (value.charAt(2) === '=') return { name, attached: value.slice(3), attachedAt: 3 };
  return { name, attached: value.slice(2), attachedAt: 2 };
}

/** An option's value: the attached one (`--tool=x`, `-tx`), else the next word when it does not start with `-`. */
interface OptionValue {
  readonly value?: string;
  readonly valueSpan?: Span;
  /** The option and its value. */
  readonly span: Span;
  /** Words read after the option's own: 1 when the value was the next word. */
  readonly used: 0 | 1;
}

function optionValue(words: readonly ShellWord[], i: number, opt: OptionWord): OptionValue {
  const word = words[i] as ShellWord;
  if (opt.attached !== undefined) return { value: opt.attached, valueSpan: wordSubspan(word, opt.attachedAt, word.value.length), span: word.span, used: 0 };
  const next = words[i + 1];
  if (next !== undefined && !next.value.startsWith('-')) return { value: next.value, valueSpan: next.span, span: join(word.span, next.span), used: 1 };
  return { span: word.span, used: 0 };
}

/** `-t`/`-T` and their long forms: an empty or missing value means all tools, as in JP. */
function toolDirective(opt: OptionWord, given: OptionValue): Directive {
  const kind = opt.name === '-t' || opt.name === '--tool' || opt.name === '--tools' ? 'enable' : 'disable';
  const { value: name, span } = given;
  return name === undefined || name === '' ? { kind, span } : { kind, name, span, nameSpan: given.valueSpan ?? span };
}

/** `-u` / `--tool-use`: no value or `true` requires a tool call, `false` forbids one, a name requires that tool. */
function toolUseOf(opt: OptionWord, given: OptionValue): ToolUse {
  const { value, span } = given;
  if (value === undefined || value === 'true') return { kind: 'required' };
  if (value === 'false') return { kind: 'none' };
  if (value === '') bail(`\`${opt.name}\` needs a tool name (or true / false)`, span);
  return { kind: 'function', name: value, span, nameSpan: given.valueSpan ?? span };
}

function parseQuery(alias: 'q' | 'query', words: readonly ShellWord[]): QueryCommand {
  const assignments: CfgAssignment[] = [];
  const directives: Directive[] = [];
  const positional: ShellWord[] = [];
  let toolUse: ToolUse | undefined;
  let endOfOptions = false;

  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as ShellWord;
    const v = word.value;
    if (endOfOptions || !isOptionWord(v)) {
      positional.push(word);
      continue;
    }
    if (v === '--') {
      endOfOptions = true;
      continue;
    }
    const opt = splitOption(v);
    switch (opt.name) {
      case '-t':
      case '--tool':
      case '--tools':
      case '-T':
      case '--no-tool':
      case '--no-tools': {
        const given = optionValue(words, i, opt);
        directives.push(toolDirective(opt, given));
        i += given.used;
        break;
      }
      case '-u':
      case '--tool-use': {
        const given = optionValue(words, i, opt);
        toolUse = toolUseOf(opt, given);
        i += given.used;
        break;
      }
      case '-U':
      case '--no-tool-use':
        if (opt.attached !== undefined) bail(`\`${opt.name}\` takes no value`, word.span);
        toolUse = { kind: 'none' };
        break;
      case '--cfg': {
        if (opt.attached !== undefined) {
          assignments.push(parseAssignment(word, opt.attachedAt, '--cfg'));
        } else {
          const next = words[i + 1];
          if (next === undefined || isOptionWord(next.value)) bail('`--cfg` needs KEY=VALUE or KEY:=JSON', word.span);
          assignments.push(parseAssignment(next, 0, '--cfg'));
          i += 1;
        }
        break;
      }
      default:
        bail(`unknown option \`${opt.attached === undefined || v.startsWith('--') ? opt.name : v}\` for \`jp ${alias}\`; ${QUERY_OPTIONS}`, word.span);
    }
  }

  const first = positional[0];
  const last = positional[positional.length - 1];
  const base = { kind: 'query' as const, alias, query: positional.map((w) => w.value).join(' '), assignments, directives };
  const withSpan = first !== undefined && last !== undefined ? { ...base, querySpan: join(first.span, last.span) } : base;
  return toolUse === undefined ? withSpan : { ...withSpan, toolUse };
}

function parseConfigSet(setWord: ShellWord, words: readonly ShellWord[]): ConfigSetCommand {
  const assignments: CfgAssignment[] = [];
  let conversation: Span | undefined;
  let layer: { name: string; span: Span } | undefined;
  let endOfOptions = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as ShellWord;
    const v = word.value;
    if (endOfOptions || !isOptionWord(v)) {
      assignments.push(parseAssignment(word, 0, 'jp config set'));
      continue;
    }
    if (v === '--') {
      endOfOptions = true;
      continue;
    }
    const opt = splitOption(v);
    if (opt.name === '--id') {
      if (opt.attached !== undefined) bail('`--id` takes no value: it targets the scenario\'s conversation', word.span);
      if (layer !== undefined) bail('`--id` and `--layer` cannot be combined', word.span);
      conversation = word.span;
    } else if (opt.name === '--layer') {
      if (conversation !== undefined) bail('`--id` and `--layer` cannot be combined', word.span);
      if (layer !== undefined) bail('`--layer` is given twice', word.span);
      let name: string;
      let span = word.span;
      if (opt.attached !== undefined) {
        name = opt.attached;
      } else {
        const next = words[i + 1];
        if (next === undefined || next.value.startsWith('-')) bail('`--layer` needs a layer name', word.span);
        name = next.value;
        span = join(word.span, next.span);
        i += 1;
      }
      if (name === '') bail('`--layer` needs a layer name', span);
      layer = { name, span };
    } else {
      bail(`unknown option \`${opt.name.startsWith('--') ? opt.name : v}\` for \`jp config set\`; ${CONFIG_SET_OPTIONS}`, word.span);
    }
  }
  if (assignments.length === 0) {
    const lastWord = words[words.length - 1] ?? setWord;
    bail('`jp config set` needs at least one KEY=VALUE (or KEY:=JSON)', lastWord.span);
  }
  const target: ConfigSetTarget =
    conversation !== undefined
      ? { kind: 'conversation' }
      : layer !== undefined
        ? { kind: 'layer', layer: layer.name, span: layer.span }
        : { kind: 'layer', layer: DEFAULT_LAYER };
  return { kind: 'config-set', target, assignments };
}

/** Parse `word.value.slice(from)` as `KEY=VALUE` or `KEY:=JSON`. */
function parseAssignment(word: ShellWord, from: number, where: string): CfgAssignment {
  const v = word.value;
  const text = v.slice(from);
  const whole = wordSubspan(word, from, v.length);
  if (text.startsWith('@')) bail(`\`${where} @FILE\` (a config file) is not supported by the workbench; use KEY=VALUE`, whole);
  if (text.startsWith('{')) bail(`a root JSON object in \`${where}\` is not supported by the workbench; use KEY:=JSON`, whole);
  const eq = text.indexOf('=');
  if (eq < 0) bail(`expected KEY=VALUE or KEY:=JSON, got \`${text}\``, whole);

  let opLen = 1;
  if (eq >= 2 && text.slice(eq - 2, eq) === ':+') opLen = 3;
  else if (eq >= 1 && text.charAt(eq - 1) === '+') opLen = 2;
  else if (eq >= 1 && text.charAt(eq - 1) === ':') opLen = 2;
  const op = text.slice(eq + 1 - opLen, eq + 1);
  const keyEnd = eq + 1 - opLen;
  const opSpan = wordSubspan(word, from + keyEnd, from + eq + 1);
  if (op === '+=' || op === ':+=') bail(`\`KEY${op}VALUE\` (merge into a list or table) is not supported by the workbench`, opSpan);

  const key = text.slice(0, keyEnd);
  const keySpan = wordSubspan(word, from, from + keyEnd);
  if (key === '') bail(`missing key before \`${op}\``, opSpan);
  const raw = key.split('.');
  if (raw.some((segment) => segment === '')) bail(`empty segment in key \`${key}\``, keySpan);
  const path = raw.map((segment) => (segment === "'*'" || segment === '"*"' ? '*' : segment));

  const value = text.slice(eq + 1);
  const valueFrom = from + eq + 1;
  const valueSpan = wordSubspan(word, valueFrom, v.length);
  const json = op === ':=';
  if (json) {
    const check = checkJson(value);
    if (!check.ok) {
      const at = valueFrom + check.offset;
      // The offending character; at the end of the text, its last character (the value may be empty).
      const idx = Math.min(at, v.length - 1);
      const errorSpan = { start: word.charStarts[idx] ?? word.span.start, end: word.charEnds[idx] ?? word.span.end };
      const column = errorSpan.start + 1;
      bail(`invalid JSON after \`${key}:=\` (column ${column}): ${check.message}`, errorSpan);
    }
  }
  return { path, key: path.join('.'), value, json, span: whole, keySpan, valueSpan };
}
