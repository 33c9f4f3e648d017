// The config schema as the editor explains it: every key a layer may hold, every
// value `enable`, `availability`, `allow_toggle`, `source` and `run` accept, with
// one-line details for completion lists and markdown for hovers. The semantics
// are the workbench's (semantics.md section 1, RFD 108); the key lists are the
// core's, so a key the core learns shows up here or fails a test.
// Pure: no Monaco, no DOM. Text from the scenario (tool and server names,
// descriptions) is untrusted and always escaped before it goes into markdown.
import { DEFAULTS_KEYS, PARAMETER_KEYS, SHORTHANDS, TOOL_KEYS } from '../core';
import type { ServerDoc } from '../core';

export interface Doc {
  /** One line, for completion lists. */
  readonly detail: string;
  /** Markdown for hovers and completion details. */
  readonly doc: string;
}

export interface CompletionEntry {
  readonly label: string;
  readonly kind: 'key' | 'value' | 'table' | 'snippet';
  readonly insertText: string;
  /** `insertText` is a snippet (`${1:...}` placeholders). */
  readonly snippet?: boolean;
  readonly detail: string;
  readonly doc: string;
  readonly filterText?: string;
  readonly sortText?: string;
  /** Open the completion list again after inserting (a key's `= ` wants its value next). */
  readonly retrigger?: boolean;
  readonly preselect?: boolean;
  readonly deprecated?: boolean;
}

export interface ServerInfo {
  readonly name: string;
  readonly status: string;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

/** The scenario's simulated servers, as completions and hovers use them. */
export function serverInfos(servers: readonly ServerDoc[]): ServerInfo[] {
  return servers.map((s) => ({
    name: s.name,
    status: s.status,
    tools: s.tools.flatMap((t) => (typeof t.name === 'string' ? [{ name: t.name, description: typeof t.description === 'string' ? t.description : '' }] : [])),
  }));
}

const MD_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&]/gu;

/** Untrusted text as literal markdown: every character markdown could act on is escaped. */
export function escapeMarkdown(s: string): string {
  return s.replace(MD_SPECIAL, (c) => `\\${c}`).replace(/\r?\n/gu, ' ');
}

/** Untrusted text as an inline code span (backticks cannot end it early). */
export function codeSpan(s: string): string {
  const flat = s.replace(/\r?\n/gu, ' ');
  let fence = '`';
  while (flat.includes(fence)) fence += '`';
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const d = (detail: string, doc: string): Doc => ({ detail, doc: `${doc}` });

// ---- keys ---------------------------------------------------------------------------------------

export type ToolKey = (typeof TOOL_KEYS)[number];
export type DefaultsKey = (typeof DEFAULTS_KEYS)[number];
export type ParameterKey = (typeof PARAMETER_KEYS)[number];

export const TOOL_KEY_DOCS: ReadonlyMap<ToolKey, Doc> = new Map<ToolKey, Doc>([
  ['source', d('where the tool comes from: "local", "builtin", "mcp.SERVER" or "mcp.SERVER.TOOL"', '**source** (required) — where the tool comes from.\n\n- `"local"` (or `"local.T"`): a local tool JP runs with its `command`.\n- `"builtin"` (or `"builtin.T"`): a tool built into JP.\n- `"mcp.SERVER"`: the tool of that name on the MCP server `SERVER`; `"mcp.SERVER.TOOL"` names the server\'s tool explicitly.\n\nA bare `"mcp"` is an error: an MCP tool must name its server.')],
  ['enable', d('availability and allow_toggle: a shorthand ("on", "discoverable", …) or a table', '**enable** — whether the model sees the tool, and which `-t`/`-T` directives may change that.\n\n- A **shorthand** (`"on"`, `"off"`, `true`, `false`, `"always"`, `"explicit"`, `"discoverable"`) sets **both** fields.\n- A **table** `{ availability = …, allow_toggle = … }` sets only the fields it names; an unset field inherits from `[conversation.tools.\'*\']`, else `on` / `any`.\n\nLayers merge per field for tables; a shorthand in a higher layer overwrites both fields.')],
  ['command', d('local tools: the program to run (a string, or { program, args, shell })', '**command** — for local tools only: the program JP runs, as a string (split into program and arguments) or `{ program, args, shell }`. Templated with `{{context}}` and `{{tool}}`. The workbench does not run it.')],
  ['summary', d('the short description sent to the model', '**summary** — the description sent to the model in the tool\'s schema (and searched by `search_tools`). Falls back to `description` when unset.')],
  ['description', d('the full text, for describe_tools', '**description** — the full text, available through `describe_tools` and searched by `search_tools`. For an MCP tool it overrides the server\'s description; `{{description}}` inside it is replaced by the server\'s text.')],
  ['examples', d('usage examples, shown by describe_tools only', '**examples** — usage examples; shown by `describe_tools`, never sent in the tools array.')],
  ['parameters', d('the tool\'s parameters: a table per parameter', '**parameters** — one table per parameter: `[conversation.tools.NAME.parameters.PARAM]` with `type`, `required`, `summary`, … For a local tool this is the whole schema; for an MCP tool it overrides the server\'s parameters one by one (names the server does not declare are dropped).')],
  ['run', d('"ask" | "unattended" | "edit" | "skip" (falls back to \'*\'.run)', '**run** — how a call of this tool runs: `"ask"`, `"unattended"`, `"edit"` or `"skip"`. Unset, the whole value falls back to `[conversation.tools.\'*\'].run` (JP\'s default is `"ask"`). With the `hide_unapproved` policy, tools whose effective `run` is `"ask"` are left out of `search_tools` results.')],
  ['format', d('"ask" | "unattended" (falls back to \'*\', then derives from run)', '**format** — `"ask"` or `"unattended"`. Falls back to `[conversation.tools.\'*\'].format`, then follows `run` (`unattended` → `unattended`, else `ask`). Carried, not simulated.')],
  ['result', d('"unattended" | "ask" | "edit" | "skip" (falls back to \'*\')', '**result** — what happens to the call\'s result: `"unattended"`, `"ask"`, `"edit"` or `"skip"`. Falls back to `[conversation.tools.\'*\'].result` (default `"unattended"`). Carried, not simulated.')],
  ['cancellation_response', d('the text the model gets when the user cancels a call', '**cancellation_response** — the text the model receives when the user cancels the call. Falls back to `[conversation.tools.\'*\']`. Carried, not simulated.')],
  ['style', d('how results are shown: { hidden, inline_results, results_file_link, … }', '**style** — how JP shows the call and its results (`hidden`, `inline_results`, `results_file_link`, `parameters`, `error`). The whole table falls back to `[conversation.tools.\'*\'].style`. Carried, not simulated.')],
  ['questions', d('pre-set answers to the tool\'s questions: id → { target, answer }', '**questions** — answers (and their targets) for questions the tool asks, by id. Carried, not simulated.')],
  ['options', d('free-form options forwarded to the tool', '**options** — a free-form table forwarded to the tool. Carried, not simulated.')],
  ['access', d('local tools: file system access { fs = [ { path, read, write, … } ] }', '**access** — for local tools only: the file system paths the tool may use (`{ fs = [ { path, read, write, … } ] }`). An error on MCP and builtin tools.')],
  ['groups', d('tool groups (RFD 055, not implemented in JP yet)', '**groups** — the tool groups this tool belongs to (proposed by RFD 055, not implemented yet). Until groups exist, `allow_toggle = "if_named_or_group"` behaves as `"if_named"`.')],
]);

export const DEFAULTS_KEY_DOCS: ReadonlyMap<DefaultsKey, Doc> = new Map<DefaultsKey, Doc>([
  ['enable', d('the default availability and allow_toggle of every tool', '**enable** in `[conversation.tools.\'*\']` — each field separately is the default for every tool that does not set it: a tool\'s effective availability is its own, else `\'*\'`\'s, else `on`; likewise `allow_toggle` (else `any`).\n\nA **shorthand** here sets **both** defaults: `enable = "discoverable"` also sets `allow_toggle = "any"` for every tool that does not set its own. Mark a whole MCP server discoverable here, then pull two or three tools up to `on`.')],
  ['run', d('the default run mode of every tool ("ask" in JP)', '**run** in `[conversation.tools.\'*\']` — the run mode of every tool that does not set its own (`"ask"`, `"unattended"`, `"edit"`, `"skip"`). JP requires it; `jp init` writes `run = "ask"`.')],
  ['format', d('the default format of every tool', '**format** in `[conversation.tools.\'*\']` — the default for tools that do not set `format`. Carried, not simulated.')],
  ['result', d('the default result mode of every tool', '**result** in `[conversation.tools.\'*\']` — the default for tools that do not set `result` (JP: `"unattended"`). Carried, not simulated.')],
  ['cancellation_response', d('the default cancellation text', '**cancellation_response** in `[conversation.tools.\'*\']` — the default cancellation text. Carried, not simulated.')],
  ['style', d('the default style of every tool (the whole table)', '**style** in `[conversation.tools.\'*\']` — used whole by every tool that has no `style` of its own. Carried, not simulated.')],
  ['groups', d('tool groups (RFD 055, not implemented in JP yet)', '**groups** — proposed by RFD 055, not implemented yet.')],
]);

export const PARAMETER_KEY_DOCS: ReadonlyMap<ParameterKey, Doc> = new Map<ParameterKey, Doc>([
  ['type', d('JSON Schema type: "string", "integer", "number", "boolean", "array", "object" (or a list)', '**type** — the parameter\'s JSON Schema type, a string or a list of strings. For an MCP tool, yours wins over the server\'s.')],
  ['required', d('true: the model must pass it (default false)', '**required** — `true` when the model must pass this parameter (default `false`). For an MCP tool it can only tighten the server\'s schema, never loosen it.')],
  ['summary', d('the parameter description sent to the model', '**summary** — the parameter\'s description in the schema sent to the model (falls back to `description`). Searched by `search_tools` as a parameter description.')],
  ['description', d('the parameter\'s full description', '**description** — the parameter\'s full text; sent when there is no `summary`. Searched by `search_tools`.')],
  ['examples', d('examples (never sent to the model)', '**examples** — examples for the docs; never sent in the schema.')],
  ['enum', d('the allowed values', '**enum** — the values the parameter accepts; copied into the schema.')],
  ['default', d('the default value', '**default** — the default value; copied into the schema.')],
  ['items', d('for arrays: the schema of each item', '**items** — for `type = "array"`: the schema of each item (the same keys, recursively).')],
  ['properties', d('for objects: a table per property', '**properties** — for `type = "object"`: one table per property (the same keys, recursively); a nested `required` list is built from the children\'s `required`.')],
]);

export type EnableField = 'availability' | 'allow_toggle' | 'state';

export const ENABLE_FIELD_DOCS: ReadonlyMap<EnableField, Doc> = new Map<EnableField, Doc>([
  ['availability', d('"on" | "off" | "discoverable"', '**availability** — whether the model sees the tool.\n\n- `"on"`: offered up front, in the tools array.\n- `"discoverable"`: permitted and searchable, not offered until `search_tools` finds it (the promotion turns it `on`).\n- `"off"`: not offered, not searchable, not callable.\n\nUnset in a table, it inherits from `[conversation.tools.\'*\']`, else `on`.')],
  ['allow_toggle', d('which -t/-T directives may move it: "any" | "never" | "if_named" | "if_named_or_group"', '**allow_toggle** — which CLI directives may change the availability.\n\n- `"any"`: bulk `-t`/`-T` and named `-t NAME`/`-T NAME` (the default).\n- `"if_named"`: only a named directive; a bulk one skips the tool.\n- `"if_named_or_group"`: named (or, once groups exist, group); behaves as `"if_named"` today.\n- `"never"`: locked; a bulk directive skips it, a named one that would move it is an error.\n\nIt never blocks a `search_tools` promotion (unless the `never_blocks_promotion` policy says so). Unset, it inherits from `\'*\'`, else `any`.')],
  ['state', d('legacy alias of availability: true → "on", false → "off"', '**state** — the legacy spelling of `availability`: `true` means `"on"`, `false` means `"off"`. The alias is permanent (old configs and conversation streams say it), but new text should say `availability`.\n\n`state` beside `availability` in one table is an error: keep `availability`. `jp config set` rewrites a `state` it edits into `availability`.')],
]);

// ---- values -------------------------------------------------------------------------------------

const EXPLICIT_VS_DISCOVERABLE =
  '`explicit` and `discoverable` both mean "you have to ask for this first"; they differ in **who** asks: `explicit` withholds the tool until the **user** names it (`-t NAME`), `discoverable` until the **model** finds it with `search_tools`. They compose: `{ availability = "discoverable", allow_toggle = "if_named" }` is a tool the model can find and a bulk `-t` cannot sweep up.';

const TABLE_FORM_NOTE =
  'A shorthand sets **both** fields. The table form `{ availability = … }` sets only availability and keeps `[conversation.tools.\'*\']`\'s `allow_toggle`, so the two differ where `\'*\'` sets `allow_toggle`.';

function shorthandDoc(word: string): Doc {
  const preset = SHORTHANDS.get(word);
  const [a, t] = preset ?? ['on', 'any'];
  const expands = `Expands to \`{ availability = "${a}", allow_toggle = "${t}" }\`.`;
  switch (word) {
    case 'on':
    case 'true':
      return d(`on + any: offered up front`, `**${word === 'true' ? 'true' : '"on"'}** — offered up front, in the tools array; any \`-t\`/\`-T\` may move it.\n\n${expands}\n\n${TABLE_FORM_NOTE}`);
    case 'off':
    case 'false':
      return d(`off + any: not offered, not searchable`, `**${word === 'false' ? 'false' : '"off"'}** — not offered, not searchable, not callable; \`search_tools\` never finds it and a promotion never turns it on. \`-t\` (bulk or named) turns it on.\n\n${expands}\n\n${TABLE_FORM_NOTE}`);
    case 'always':
      return d('on + never: locked on', `**"always"** — locked on: always offered; no directive may turn it off (a named \`-T\` is an error, a bulk \`-T\` skips it).\n\n${expands}\n\n${TABLE_FORM_NOTE}`);
    case 'explicit':
      return d('off + if_named: off until the user names it', `**"explicit"** — off until the **user** names it: \`-t NAME\` turns it on, a bulk \`-t\` skips it.\n\n${expands}\n\n${EXPLICIT_VS_DISCOVERABLE}\n\n${TABLE_FORM_NOTE}`);
    case 'discoverable':
      return d('discoverable + any: found by search_tools, then promoted', `**"discoverable"** — permitted, but not offered up front: the tool is in the searchable set, and when \`search_tools\` returns it, a promotion turns it \`on\` from the next request of the same turn on. A bulk \`-t\` also turns it on.\n\n${expands}\n\n${TABLE_FORM_NOTE}\n\n${EXPLICIT_VS_DISCOVERABLE}`);
    default:
      return d(word, expands);
  }
}

export const ENABLE_SHORTHAND_WORDS = ['on', 'off', 'discoverable', 'explicit', 'always', 'true', 'false'] as const;

export const ENABLE_SHORTHAND_DOCS: ReadonlyMap<string, Doc> = new Map(ENABLE_SHORTHAND_WORDS.map((w) => [w, shorthandDoc(w)]));

export const AVAILABILITY_DOCS: ReadonlyMap<string, Doc> = new Map([
  ['on', d('offered up front', '**availability "on"** — permitted and offered: the tool\'s definition is in every request\'s tools array.')],
  ['discoverable', d('permitted and searchable, offered once found', `**availability "discoverable"** — permitted (callable, describable, its MCP server starts) but not offered: it is in the searchable set, and \`search_tools\` promotes it to \`on\` when it returns it. The saving is prompt tokens.\n\nAs a table field it leaves \`allow_toggle\` unset (inherited from \`'*'\`); the shorthand \`enable = "discoverable"\` also sets \`allow_toggle = "any"\`.\n\n${EXPLICIT_VS_DISCOVERABLE}`)],
  ['off', d('not offered, not searchable, not callable', '**availability "off"** — not permitted: not offered, never in search results, never promoted, not callable.')],
]);

export const ALLOW_TOGGLE_DOCS: ReadonlyMap<string, Doc> = new Map([
  ['any', d('bulk and named -t/-T may move it (default)', '**allow_toggle "any"** — bulk (`-t`, `-T`) and named (`-t NAME`, `-T NAME`) directives may move the tool. The default.')],
  ['never', d('locked: no directive may move it', '**allow_toggle "never"** — locked: a bulk directive skips the tool and a named one that would move it is an error (`cannot enable \\`NAME\\`: this tool is configured as locked-off`). `{ off, never }` is locked-off, `{ on, never }` locked-on, `{ discoverable, never }` locked-discoverable (still promotable by search unless `never_blocks_promotion`).')],
  ['if_named', d('only a named -t NAME / -T NAME may move it', '**allow_toggle "if_named"** — only a named directive (`-t NAME`, `-T NAME`) moves the tool; a bulk `-t`/`-T` skips it. With `availability = "discoverable"`: the model can find it, a bulk `-t` cannot sweep it up.')],
  ['if_named_or_group', d('named or group directives (as if_named until groups exist)', '**allow_toggle "if_named_or_group"** — named or group directives may move it; until tool groups (RFD 055) exist it behaves as `"if_named"`.')],
]);

export const STATE_DOCS: ReadonlyMap<string, Doc> = new Map([
  ['true', d('legacy: availability "on"', '**state = true** — the legacy spelling of `availability = "on"`. Beside `availability` it is an error.')],
  ['false', d('legacy: availability "off"', '**state = false** — the legacy spelling of `availability = "off"`. Beside `availability` it is an error.')],
]);

export const RUN_DOCS: ReadonlyMap<string, Doc> = new Map([
  ['ask', d('ask before each call (JP\'s default)', '**run "ask"** — JP asks the user before running each call. JP\'s usual default (`\'*\'.run = "ask"`). With the `hide_unapproved` policy, such tools are left out of `search_tools` results.')],
  ['unattended', d('run without asking', '**run "unattended"** — calls run without asking the user.')],
  ['edit', d('the user edits the call before it runs', '**run "edit"** — the user edits the call\'s arguments before it runs.')],
  ['skip', d('the call is not run', '**run "skip"** — the call is not run.')],
]);

export const FORMAT_DOCS: ReadonlyMap<string, Doc> = new Map([
  ['ask', d('ask', '**format "ask"**')],
  ['unattended', d('unattended', '**format "unattended"**')],
]);

export const RESULT_DOCS: ReadonlyMap<string, Doc> = new Map([
  ['unattended', d('deliver the result without asking (default)', '**result "unattended"** — the result goes to the model without asking (JP\'s default).')],
  ['ask', d('ask before delivering the result', '**result "ask"** — the user is asked before the result goes to the model.')],
  ['edit', d('the user edits the result first', '**result "edit"** — the user edits the result before it goes to the model.')],
  ['skip', d('the result is not delivered', '**result "skip"** — the result is not sent to the model.')],
]);

const PARAMETER_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'] as const;

// ---- paths --------------------------------------------------------------------------------------

/** What a key path (absolute, segments unquoted) names in a JP config layer. */
export type PathRole =
  | { readonly kind: 'root' }
  | { readonly kind: 'conversation' }
  | { readonly kind: 'tools' }
  | { readonly kind: 'tool'; readonly tool: string }
  | { readonly kind: 'defaults' }
  | { readonly kind: 'tool-key'; readonly tool: string; readonly key: string }
  | { readonly kind: 'defaults-key'; readonly key: string }
  | { readonly kind: 'enable-field'; readonly tool: string; readonly field: string }
  | { readonly kind: 'parameters'; readonly tool: string }
  | { readonly kind: 'parameter'; readonly tool: string; readonly name: string }
  | { readonly kind: 'parameter-key'; readonly tool: string; readonly key: string }
  | { readonly kind: 'providers' }
  | { readonly kind: 'mcp-servers' }
  | { readonly kind: 'mcp-server'; readonly server: string }
  | { readonly kind: 'other' };

/** A parameter's own table, possibly nested (`items`, `properties.X`): the rest after `parameters.NAME`. */
function parameterRole(tool: string, rest: readonly string[]): PathRole {
  // rest = [name, key?, ...]: walk items / properties.X down to the innermost parameter.
  let i = 1;
  for (;;) {
    if (i >= rest.length) return { kind: 'parameter', tool, name: rest[i - 1] ?? '' };
    const k = rest[i] ?? '';
    if (k === 'items') {
      if (i + 1 >= rest.length) return { kind: 'parameter', tool, name: 'items' };
      i += 1;
      continue;
    }
    if (k === 'properties') {
      if (i + 1 >= rest.length) return { kind: 'other' };
      i += 2;
      continue;
    }
    if (i === rest.length - 1) return { kind: 'parameter-key', tool, key: k };
    return { kind: 'other' };
  }
}

export function classifyPath(path: readonly string[]): PathRole {
  if (path.length === 0) return { kind: 'root' };
  const [a, b, c, e, ...rest] = path;
  if (a === 'providers') {
    if (path.length === 1) return { kind: 'providers' };
    if (b === 'mcp' && path.length === 2) return { kind: 'mcp-servers' };
    if (b === 'mcp' && path.length === 3) return { kind: 'mcp-server', server: c ?? '' };
    return { kind: 'other' };
  }
  if (a !== 'conversation') return { kind: 'other' };
  if (path.length === 1) return { kind: 'conversation' };
  if (b !== 'tools') return { kind: 'other' };
  if (path.length === 2) return { kind: 'tools' };
  const tool = c ?? '';
  const defaults = tool === '*';
  if (path.length === 3) return defaults ? { kind: 'defaults' } : { kind: 'tool', tool };
  const key = e ?? '';
  if (path.length === 4) return defaults ? { kind: 'defaults-key', key } : { kind: 'tool-key', tool, key };
  if (key === 'enable' && path.length === 5) return { kind: 'enable-field', tool, field: rest[0] ?? '' };
  if (!defaults && key === 'parameters') {
    if (path.length === 5) return { kind: 'parameter', tool, name: rest[0] ?? '' };
    return parameterRole(tool, rest);
  }
  return { kind: 'other' };
}

// ---- completions --------------------------------------------------------------------------------

const keyEntry = (label: string, doc: Doc, opts: { retrigger?: boolean; deprecated?: boolean; sort?: string } = {}): CompletionEntry => ({
  label,
  kind: 'key',
  insertText: `${label} = `,
  detail: doc.detail,
  doc: doc.doc,
  retrigger: opts.retrigger ?? true,
  ...(opts.deprecated ? { deprecated: true } : {}),
  ...(opts.sort ? { sortText: opts.sort } : {}),
});

const ORDER_TOOL: readonly string[] = ['source', 'enable', 'summary', 'description', 'run', 'parameters'];

/** Keys that may be written in the table at `parent` (an absolute path). */
export function keyCompletions(parent: readonly string[], servers: readonly ServerInfo[] = []): CompletionEntry[] {
  const role = classifyPath(parent);
  switch (role.kind) {
    case 'root':
      return [
        { label: 'conversation', kind: 'key', insertText: 'conversation.tools.', detail: 'conversation.tools: the tool catalogue', doc: 'The tool catalogue lives under `conversation.tools`; usually written as `[conversation.tools.NAME]` tables.', retrigger: true },
      ];
    case 'conversation':
      return [{ label: 'tools', kind: 'key', insertText: 'tools.', detail: 'the tool catalogue', doc: 'One table per tool, plus `\'*\'` for the defaults.', retrigger: true }];
    case 'tools':
      return [
        { label: "'*'", kind: 'key', insertText: "'*' = { ", detail: 'the defaults of every tool', doc: DEFAULTS_TABLE_DOC, filterText: '*' },
        ...toolNameEntries(servers).map((t) => ({ ...t, insertText: `${t.insertText} = { source = "${t.source}" }` })),
      ];
    case 'tool':
      return TOOL_KEYS.map((k) => {
        const doc = TOOL_KEY_DOCS.get(k) as Doc;
        const sort = `${String(ORDER_TOOL.includes(k) ? ORDER_TOOL.indexOf(k) : 10 + TOOL_KEYS.indexOf(k)).padStart(2, '0')}${k}`;
        if (k === 'parameters') return { ...keyEntry(k, doc, { sort }), insertText: 'parameters.', retrigger: false };
        if (k === 'style' || k === 'questions' || k === 'options' || k === 'access') return { ...keyEntry(k, doc, { sort, retrigger: false }), insertText: `${k} = { $0 }`, snippet: true };
        return keyEntry(k, doc, { sort });
      });
    case 'defaults':
      return DEFAULTS_KEYS.map((k) => keyEntry(k, DEFAULTS_KEY_DOCS.get(k) as Doc));
    case 'tool-key':
      if (role.key === 'enable') return enableFieldEntries();
      return [];
    case 'defaults-key':
      if (role.key === 'enable') return enableFieldEntries();
      return [];
    case 'parameters':
      return [];
    case 'parameter':
      return PARAMETER_KEYS.map((k) => keyEntry(k, PARAMETER_KEY_DOCS.get(k) as Doc, { retrigger: k === 'type' || k === 'required' }));
    case 'providers':
      return [{ label: 'mcp', kind: 'key', insertText: 'mcp.', detail: 'MCP servers JP starts', doc: '`[providers.mcp.NAME]`: an MCP server JP would start. The workbench simulates servers from the scenario\'s `[servers.NAME]`.', retrigger: true }];
    case 'mcp-servers':
      return servers.map((s) => ({ label: s.name, kind: 'key' as const, insertText: `${s.name} = { }`, detail: `MCP server (${s.status})`, doc: serverDoc(s) }));
    default:
      return [];
  }
}

function enableFieldEntries(): CompletionEntry[] {
  return [
    keyEntry('availability', ENABLE_FIELD_DOCS.get('availability') as Doc, { sort: '0' }),
    keyEntry('allow_toggle', ENABLE_FIELD_DOCS.get('allow_toggle') as Doc, { sort: '1' }),
    keyEntry('state', ENABLE_FIELD_DOCS.get('state') as Doc, { sort: '9', deprecated: true }),
  ];
}

const DEFAULTS_TABLE_DOC =
  "**`[conversation.tools.'*']`** — the defaults table. Its `enable` fields are the fallback of every tool that does not set its own (each field separately), and its `run` (and `format`, `result`, `style`, …) the fallback of every tool's. Directives (`-t`, `-T`) never change `'*'`.";

function toolDoc(name: string): string {
  return `**\`[conversation.tools.${name}]\`** — the tool ${codeSpan(name)}: its \`source\`, \`enable\`, docs, \`run\` and \`parameters\`.`;
}

function serverDoc(s: ServerInfo): string {
  const list = s.tools.slice(0, 12).map((t) => codeSpan(t.name)).join(', ');
  const more = s.tools.length > 12 ? `, and ${s.tools.length - 12} more` : '';
  return `MCP server ${codeSpan(s.name)} — **${escapeMarkdown(s.status)}**, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}${s.tools.length ? `: ${list}${more}` : ''}.${s.status === 'offline' ? ' Its tools leave the permitted set (an optional server that fails to start).' : ''}`;
}

/** Tools of the scenario's servers, as `[conversation.tools.NAME]` names with their source. */
function toolNameEntries(servers: readonly ServerInfo[]): (CompletionEntry & { source: string })[] {
  const out: (CompletionEntry & { source: string })[] = [];
  const seen = new Set<string>();
  for (const s of servers) {
    for (const t of s.tools) {
      const name = `${s.name}_${t.name}`;
      if (seen.has(name)) continue;
      seen.add(name);
      const bare = /^[A-Za-z0-9_-]+$/u.test(name);
      out.push({
        label: name,
        kind: 'table',
        insertText: bare ? name : JSON.stringify(name),
        detail: `${s.name} · ${t.description.split(/(?<=\.)\s/u)[0] ?? ''}`.slice(0, 100),
        doc: `${codeSpan(t.name)} on MCP server ${codeSpan(s.name)}: ${escapeMarkdown(t.description)}`,
        source: `mcp.${s.name}.${t.name}`,
      });
    }
  }
  return out;
}

/** Segments for a `[header]` after the ones already typed. */
export function headerCompletions(segments: readonly string[], array: boolean, servers: readonly ServerInfo[] = []): CompletionEntry[] {
  if (array) return [];
  const role = classifyPath(segments);
  switch (role.kind) {
    case 'root':
      return [
        { label: 'conversation.tools.NAME', kind: 'snippet', insertText: 'conversation.tools.${1:name}]\nsource = "${2:local}"\nenable = "${3|on,discoverable,off,explicit,always|}"\n', snippet: true, detail: 'a tool table', doc: 'A new tool: `[conversation.tools.NAME]` with its `source` and `enable`.', filterText: 'conversation.tools', sortText: '0' },
        { label: "conversation.tools.'*'", kind: 'snippet', insertText: "conversation.tools.'*']\n", snippet: true, detail: 'the defaults of every tool', doc: DEFAULTS_TABLE_DOC, filterText: 'conversation.tools.*', sortText: '1' },
        { label: 'conversation', kind: 'table', insertText: 'conversation.', detail: 'conversation settings', doc: 'The conversation settings; the tools live in `conversation.tools`.', retrigger: true, sortText: '2' },
        { label: 'providers', kind: 'table', insertText: 'providers.mcp.', detail: 'providers (MCP servers)', doc: '`[providers.mcp.NAME]`: an MCP server JP would start.', retrigger: true, sortText: '3' },
      ];
    case 'conversation':
      return [{ label: 'tools', kind: 'table', insertText: 'tools.', detail: 'the tool catalogue', doc: 'One table per tool, plus `\'*\'` for the defaults.', retrigger: true }];
    case 'tools':
      return [
        { label: "'*'", kind: 'table', insertText: "'*'", detail: 'the defaults of every tool', doc: DEFAULTS_TABLE_DOC, filterText: "'*'", sortText: '0' },
        ...toolNameEntries(servers).map((t) => ({ ...t, sortText: `1${t.label}` })),
      ];
    case 'tool':
      return [
        { label: 'parameters', kind: 'table', insertText: 'parameters.${1:name}', snippet: true, detail: (TOOL_KEY_DOCS.get('parameters') as Doc).detail, doc: (TOOL_KEY_DOCS.get('parameters') as Doc).doc },
        { label: 'enable', kind: 'table', insertText: 'enable', detail: (TOOL_KEY_DOCS.get('enable') as Doc).detail, doc: (TOOL_KEY_DOCS.get('enable') as Doc).doc },
        { label: 'style', kind: 'table', insertText: 'style', detail: (TOOL_KEY_DOCS.get('style') as Doc).detail, doc: (TOOL_KEY_DOCS.get('style') as Doc).doc },
      ];
    case 'defaults':
      return [{ label: 'enable', kind: 'table', insertText: 'enable', detail: (DEFAULTS_KEY_DOCS.get('enable') as Doc).detail, doc: (DEFAULTS_KEY_DOCS.get('enable') as Doc).doc }];
    case 'providers':
      return [{ label: 'mcp', kind: 'table', insertText: 'mcp.', detail: 'MCP servers', doc: 'MCP servers JP starts.', retrigger: true }];
    case 'mcp-servers':
      return servers.map((s) => ({ label: s.name, kind: 'table' as const, insertText: s.name, detail: `MCP server (${s.status})`, doc: serverDoc(s) }));
    default:
      return [];
  }
}

/** Quoted (or not) insert text for a value; inside a string only the word goes in. */
function valueEntry(word: string, doc: Doc, inString: boolean, opts: { bare?: boolean; sort?: string; preselect?: boolean } = {}): CompletionEntry {
  const quoted = opts.bare ? word : `"${word}"`;
  return {
    label: opts.bare || inString ? word : quoted,
    kind: 'value',
    insertText: inString ? word : quoted,
    filterText: inString ? word : `${quoted} ${word}`,
    detail: doc.detail,
    doc: doc.doc,
    ...(opts.sort ? { sortText: opts.sort } : {}),
    ...(opts.preselect ? { preselect: true } : {}),
  };
}

const ENABLE_TABLE_ENTRIES: readonly CompletionEntry[] = [
  {
    label: '{ availability, allow_toggle }',
    kind: 'snippet',
    insertText: '{ availability = "${1|on,discoverable,off|}", allow_toggle = "${2|any,if_named,if_named_or_group,never|}" }',
    snippet: true,
    filterText: '{ availability allow_toggle',
    detail: 'both fields, as a table',
    doc: `**\`{ availability = …, allow_toggle = … }\`** — sets both fields explicitly.\n\n${EXPLICIT_VS_DISCOVERABLE}`,
    sortText: '8a',
  },
  {
    label: '{ availability = … }',
    kind: 'snippet',
    insertText: '{ availability = "${1|discoverable,on,off|}" }',
    snippet: true,
    filterText: '{ availability',
    detail: "availability only; allow_toggle inherits from '*'",
    doc: `**\`{ availability = … }\`** — sets only availability; \`allow_toggle\` stays unset and inherits from \`[conversation.tools.'*']\` (else \`any\`).\n\n${TABLE_FORM_NOTE}`,
    sortText: '8b',
  },
  {
    label: '{ allow_toggle = … }',
    kind: 'snippet',
    insertText: '{ allow_toggle = "${1|if_named,never,any,if_named_or_group|}" }',
    snippet: true,
    filterText: '{ allow_toggle',
    detail: "allow_toggle only; availability inherits from '*'",
    doc: '**`{ allow_toggle = … }`** — sets only `allow_toggle`; availability inherits from `[conversation.tools.\'*\']` (else `on`).',
    sortText: '8c',
  },
];

function sourceEntries(tool: string | undefined, inString: boolean, servers: readonly ServerInfo[]): CompletionEntry[] {
  const out: CompletionEntry[] = [
    valueEntry('local', d('a local tool, run by its command', '**source "local"** — a local tool JP runs with its `command` (`"local.T"` names the backend tool `T`).'), inString, { sort: '0local' }),
    valueEntry('builtin', d('a tool built into JP', '**source "builtin"** — a tool built into JP (`"builtin.T"` names it).'), inString, { sort: '0builtin' }),
  ];
  for (const s of servers) {
    const owns = tool !== undefined && s.tools.some((t) => t.name === tool);
    out.push(
      valueEntry(`mcp.${s.name}`, d(`the tool named like this table on ${s.name} (${s.status})`, `**source "mcp.${escapeMarkdown(s.name)}"** — the tool of this table's name on the MCP server.\n\n${serverDoc(s)}`), inString, { sort: `1${s.name}`, preselect: owns }),
    );
    for (const t of s.tools) {
      const match = tool !== undefined && (tool === t.name || tool === `${s.name}_${t.name}` || tool.endsWith(`_${t.name}`));
      out.push(
        valueEntry(`mcp.${s.name}.${t.name}`, d(`${t.description.split(/(?<=\.)\s/u)[0] ?? ''}`.slice(0, 100) || `tool ${t.name} on ${s.name}`, `**${codeSpan(t.name)}** on MCP server ${codeSpan(s.name)} (${escapeMarkdown(s.status)}): ${escapeMarkdown(t.description)}`), inString, {
          sort: `${match ? '0' : '2'}${s.name}.${t.name}`,
          preselect: match,
        }),
      );
    }
  }
  return out;
}

/** Values for the key at `path` (absolute). `inString`: the cursor is inside quotes. */
export function valueCompletions(path: readonly string[], inString: boolean, servers: readonly ServerInfo[] = []): CompletionEntry[] {
  const role = classifyPath(path);
  const key = role.kind === 'tool-key' || role.kind === 'defaults-key' ? role.key : undefined;
  if (key === 'enable') {
    const words = inString ? ENABLE_SHORTHAND_WORDS.filter((w) => w !== 'true' && w !== 'false') : ENABLE_SHORTHAND_WORDS;
    const entries = words.map((w, i) => {
      const doc = ENABLE_SHORTHAND_DOCS.get(w) as Doc;
      return valueEntry(w, doc, inString, { bare: w === 'true' || w === 'false', sort: `${i}` });
    });
    return inString ? entries : [...entries, ...ENABLE_TABLE_ENTRIES];
  }
  if (role.kind === 'enable-field') {
    if (role.field === 'availability') return [...AVAILABILITY_DOCS].map(([w, doc], i) => valueEntry(w, doc, inString, { sort: `${i}` }));
    if (role.field === 'allow_toggle') return [...ALLOW_TOGGLE_DOCS].map(([w, doc], i) => valueEntry(w, doc, inString, { sort: `${i}` }));
    if (role.field === 'state' && !inString) return [...STATE_DOCS].map(([w, doc], i) => valueEntry(w, doc, false, { bare: true, sort: `${i}` }));
    return [];
  }
  if (key === 'run') return [...RUN_DOCS].map(([w, doc], i) => valueEntry(w, doc, inString, { sort: `${i}` }));
  if (key === 'format') return [...FORMAT_DOCS].map(([w, doc], i) => valueEntry(w, doc, inString, { sort: `${i}` }));
  if (key === 'result') return [...RESULT_DOCS].map(([w, doc], i) => valueEntry(w, doc, inString, { sort: `${i}` }));
  if (role.kind === 'tool-key' && role.key === 'source') return sourceEntries(role.tool, inString, servers);
  if (role.kind === 'parameter-key' && role.key === 'type') {
    return PARAMETER_TYPES.map((t, i) => valueEntry(t, d(`JSON Schema type ${t}`, `JSON Schema type \`${t}\`.`), inString, { sort: `${i}` }));
  }
  if (role.kind === 'parameter-key' && role.key === 'required' && !inString) {
    return [
      valueEntry('true', d('the model must pass it', '`required = true` — the model must pass this parameter.'), false, { bare: true }),
      valueEntry('false', d('optional (the default)', '`required = false` — optional (the default).'), false, { bare: true }),
    ];
  }
  return [];
}

// ---- hovers -------------------------------------------------------------------------------------

/** Markdown for a key or header segment at `path` (the segment's own path). */
export function keyHover(path: readonly string[], servers: readonly ServerInfo[] = []): string | undefined {
  const role = classifyPath(path);
  switch (role.kind) {
    case 'conversation':
      return '**conversation** — conversation settings; the tool catalogue is `conversation.tools`.';
    case 'tools':
      return '**conversation.tools** — the tool catalogue: one table per tool, plus `\'*\'` for the defaults. Tools keep config order (the order of the tools array).';
    case 'defaults':
      return DEFAULTS_TABLE_DOC;
    case 'tool': {
      const owner = servers.find((s) => s.tools.some((t) => `${s.name}_${t.name}` === role.tool || t.name === role.tool));
      return toolDoc(role.tool) + (owner ? `\n\n${serverDoc(owner)}` : '');
    }
    case 'tool-key': {
      const doc = TOOL_KEY_DOCS.get(role.key as ToolKey);
      return doc ? doc.doc : `${codeSpan(role.key)} is not a key JP knows in a tool table (an unknown key is an error). Expected one of: ${TOOL_KEYS.join(', ')}.`;
    }
    case 'defaults-key': {
      const doc = DEFAULTS_KEY_DOCS.get(role.key as DefaultsKey);
      return doc ? doc.doc : `${codeSpan(role.key)} is not a key of \`[conversation.tools.'*']\`. Expected one of: ${DEFAULTS_KEYS.join(', ')}.`;
    }
    case 'enable-field': {
      const doc = ENABLE_FIELD_DOCS.get(role.field as EnableField);
      return doc ? doc.doc : `unknown key ${codeSpan(role.field)} in enable; expected availability, allow_toggle (or the legacy state)`;
    }
    case 'parameter':
      return `**parameter ${codeSpan(role.name)}** of ${codeSpan(role.tool)} — its keys: ${PARAMETER_KEYS.join(', ')}.`;
    case 'parameter-key': {
      const doc = PARAMETER_KEY_DOCS.get(role.key as ParameterKey);
      return doc?.doc;
    }
    case 'providers':
      return '**providers** — `[providers.mcp.NAME]` declares the MCP servers JP starts.';
    case 'mcp-servers':
      return '**providers.mcp** — one table per MCP server.';
    case 'mcp-server': {
      const s = servers.find((x) => x.name === role.server);
      return s ? serverDoc(s) : `MCP server ${codeSpan(role.server)} (not simulated by this scenario: its tools count as offline).`;
    }
    default:
      return undefined;
  }
}

/** Markdown for a value (`text` as read, strings unquoted) of the key at `path`. */
export function valueHover(path: readonly string[], text: string, kind: 'string' | 'boolean' | 'number' | 'other', servers: readonly ServerInfo[] = []): string | undefined {
  const role = classifyPath(path);
  const key = role.kind === 'tool-key' || role.kind === 'defaults-key' ? role.key : undefined;
  if (key === 'enable') {
    if (kind !== 'string' && kind !== 'boolean') return undefined;
    const doc = ENABLE_SHORTHAND_DOCS.get(text);
    const base = doc?.doc ?? `${codeSpan(text)} is not an enable value: expected a boolean, one of "on", "off", "explicit", "always", "discoverable", or an { availability, allow_toggle } table.`;
    return role.kind === 'defaults-key' && doc ? `${base}\n\nHere in \`'*'\`, it is the default of **every** tool that does not set these fields itself.` : base;
  }
  if (role.kind === 'enable-field') {
    if (role.field === 'availability') return AVAILABILITY_DOCS.get(text)?.doc ?? `${codeSpan(text)} is not an availability: expected "on", "off" or "discoverable".`;
    if (role.field === 'allow_toggle') return ALLOW_TOGGLE_DOCS.get(text)?.doc ?? `${codeSpan(text)} is not an allow_toggle: expected "any", "never", "if_named" or "if_named_or_group".`;
    if (role.field === 'state') return STATE_DOCS.get(text)?.doc ?? `\`state\` takes \`true\` or \`false\` (a legacy alias of availability).`;
    return undefined;
  }
  if (key === 'run') return RUN_DOCS.get(text)?.doc;
  if (key === 'format') return FORMAT_DOCS.get(text)?.doc;
  if (key === 'result') return RESULT_DOCS.get(text)?.doc;
  if (role.kind === 'tool-key' && role.key === 'source' && kind === 'string') return sourceHover(text, servers);
  return undefined;
}

function sourceHover(text: string, servers: readonly ServerInfo[]): string {
  const dot = text.indexOf('.');
  const head = dot < 0 ? text : text.slice(0, dot);
  const rest = dot < 0 ? '' : text.slice(dot + 1);
  if (head === 'local') return `**source "local"** — a local tool JP runs with its \`command\`${rest ? `; the backend tool is ${codeSpan(rest)}` : ''}.`;
  if (head === 'builtin') return `**source "builtin"** — a tool built into JP${rest ? `: ${codeSpan(rest)}` : ''}.`;
  if (head === 'mcp') {
    if (!rest) return 'A bare `"mcp"` is an error: use `mcp.<server>` or `mcp.<server>.<tool>`.';
    const d2 = rest.indexOf('.');
    const server = d2 < 0 ? rest : rest.slice(0, d2);
    const tool = d2 < 0 ? undefined : rest.slice(d2 + 1);
    const s = servers.find((x) => x.name === server);
    if (!s) return `MCP server ${codeSpan(server)} is not one of this scenario's servers: its tools are treated as tools of an offline server (not permitted).`;
    const head2 = tool ? `**${codeSpan(tool)}** on MCP server ${codeSpan(server)}` : `The tool named like this table on MCP server ${codeSpan(server)}`;
    const t = tool ? s.tools.find((x) => x.name === tool) : undefined;
    const desc = t ? `\n\n${escapeMarkdown(t.description)}` : tool ? `\n\nThe server does not list ${codeSpan(tool)}: the tool is dropped from the permitted set with a warning.` : '';
    return `${head2}.${desc}\n\n${serverDoc(s)}`;
  }
  return `Unknown tool source ${codeSpan(text)}: must be one of builtin, local, mcp.`;
}
