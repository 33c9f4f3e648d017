// The typed shape of a JP config layer (or of a config delta), as far as the
// workbench simulates it. Every value is `Sourced`: it remembers which layer
// line or which delta set it, so the UI can say why a tool is where it is.
import type { Span } from './toml-ast';

export type Availability = 'on' | 'off' | 'discoverable';
export type AllowToggle = 'any' | 'never' | 'if_named' | 'if_named_or_group';
export type RunMode = 'ask' | 'unattended' | 'edit' | 'skip';

export const AVAILABILITIES: readonly Availability[] = ['on', 'off', 'discoverable'];
export const ALLOW_TOGGLES: readonly AllowToggle[] = ['any', 'never', 'if_named', 'if_named_or_group'];
export const RUN_MODES: readonly RunMode[] = ['ask', 'unattended', 'edit', 'skip'];

/** What produced a config delta on the conversation stream. */
export type DeltaSource = 'cfg' | 'directive' | 'config-set' | 'promotion' | 'tool-write';

/** Where a value came from. */
export type Origin =
  | { readonly kind: 'layer'; readonly layer: string; readonly span: Span }
  | {
      readonly kind: 'delta';
      /** 1-based number of the delta on the stream. */
      readonly delta: number;
      readonly source: DeltaSource;
      /** The words that made it, e.g. `-t`, `--cfg conversation.tools.x.enable=on`, `search_tools("deploy")`. */
      readonly detail: string;
    }
  | { readonly kind: 'builtin' }
  | { readonly kind: 'default' };

export interface Sourced<T> {
  readonly value: T;
  readonly origin: Origin;
}

/** `enable` as written: each field may be unset (and then inherits from `'*'`). */
export interface PartialEnable {
  readonly availability?: Sourced<Availability>;
  readonly allowToggle?: Sourced<AllowToggle>;
}

export type ToolSource =
  | { readonly kind: 'local'; readonly tool?: string }
  | { readonly kind: 'builtin'; readonly tool?: string }
  | { readonly kind: 'mcp'; readonly server: string; readonly tool?: string };

export interface ParameterConfig {
  readonly type?: Sourced<string | string[]>;
  readonly required?: Sourced<boolean>;
  readonly summary?: Sourced<string>;
  readonly description?: Sourced<string>;
  readonly examples?: Sourced<unknown>;
  readonly enum?: Sourced<unknown[]>;
  readonly default?: Sourced<unknown>;
  readonly items?: ParameterConfig;
  readonly properties?: ReadonlyMap<string, ParameterConfig>;
}

/** Keys JP knows that the workbench validates and carries but does not simulate. */
export interface PassThrough {
  readonly command?: Sourced<unknown>;
  readonly format?: Sourced<string>;
  readonly result?: Sourced<string>;
  readonly cancellationResponse?: Sourced<string>;
  readonly style?: Sourced<unknown>;
  readonly questions?: Sourced<unknown>;
  readonly options?: Sourced<unknown>;
  readonly access?: Sourced<unknown>;
  readonly groups?: Sourced<unknown>;
}

export interface ToolConfig extends PassThrough {
  readonly name: string;
  readonly source?: Sourced<ToolSource>;
  readonly enable: PartialEnable;
  readonly summary?: Sourced<string>;
  readonly description?: Sourced<string>;
  readonly examples?: Sourced<string>;
  readonly parameters: ReadonlyMap<string, ParameterConfig>;
  readonly run?: Sourced<RunMode>;
  /** Where the tool's table first appeared (its place in config order). */
  readonly declared: Origin;
}

export interface ToolDefaults extends PassThrough {
  readonly enable: PartialEnable;
  readonly run?: Sourced<RunMode>;
}

/** `[providers.mcp.NAME]`: an MCP server JP would start. */
export interface McpServerConfig {
  readonly name: string;
  readonly declared: Origin;
  readonly optional?: boolean;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** One `extends` entry: a path or glob relative to the file that names it. */
export interface ExtendsEntry {
  readonly path: string;
  /** JP's `ExtendingStrategy`: `before` (the default) loads the entry before the file, `after` after it. */
  readonly strategy: 'before' | 'after';
  readonly span: Span;
}

/** One layer file, or one delta, parsed. Tools keep config order (insertion order). */
export interface PartialConfig {
  readonly defaults: ToolDefaults;
  readonly tools: ReadonlyMap<string, ToolConfig>;
  readonly mcpServers: ReadonlyMap<string, McpServerConfig>;
  /** `extends = [...]` of a layer file (used by workspace loading): every entry's path, in file order. */
  readonly extends?: Sourced<readonly string[]>;
  /** The same entries with their load strategy and position (`{ path, strategy = "after" }` loads after the file). */
  readonly extendsEntries?: readonly ExtendsEntry[];
  /** `config_load_paths = [...]` of a layer file (used by workspace loading). */
  readonly configLoadPaths?: Sourced<readonly string[]>;
}

export type Severity = 'error' | 'warning' | 'info';

/** A problem with a position. `line`/`column` are 1-based; `layer` names the file. */
export interface Diagnostic {
  readonly severity: Severity;
  readonly message: string;
  readonly layer?: string;
  readonly span?: Span;
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  /** A machine-readable code, e.g. `enable-both-keys`, for quick fixes. */
  readonly code?: string;
}

/** The effective value of one enable field, and why. */
export interface EffectiveField<T> {
  readonly value: T;
  /** `tool`: the tool's own value; `defaults`: `'*'`; `fallback`: on / any. */
  readonly from: 'tool' | 'defaults' | 'fallback';
  readonly origin: Origin;
}

export interface EffectiveEnable {
  readonly availability: EffectiveField<Availability>;
  readonly allowToggle: EffectiveField<AllowToggle>;
}
