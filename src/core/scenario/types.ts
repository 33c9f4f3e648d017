// A scenario file (design/scenario-format.md), parsed. Spans point into the
// scenario text so every problem can be reported with its line and column.
import type { Span } from '../config/toml-ast';
import type { Layer } from '../config/layer';
import type { McpToolEntry } from '../catalogue/tools-list';
import type { Policy } from './policy';

export const EXPECT_KEYS = {
  step: [
    'offered', 'permitted', 'searchable', 'servers', 'offered_includes', 'offered_excludes', 'permitted_includes',
    'permitted_excludes', 'availability', 'search_tools', 'error', 'layer_text', 'layer_contains', 'layer_excludes',
  ],
  cycle: [
    'offered', 'permitted', 'searchable', 'servers', 'offered_includes', 'offered_excludes', 'permitted_includes',
    'permitted_excludes', 'offered_order', 'availability', 'search_tools', 'tool_choice', 'cache', 'overhead_chars',
    'provider_warnings', 'cache_tokens', 'cost_usd',
  ],
  call: ['returned', 'returned_includes', 'usable', 'unavailable', 'total', 'status', 'result_contains', 'error'],
  load: ['error'],
} as const;

export type ExpectWhere = keyof typeof EXPECT_KEYS;

export interface ExpectValue {
  readonly value: unknown;
  /** Span of the value in the scenario text. */
  readonly span: Span;
}

/** Expectations in file order, keyed by their key. */
export type Expectations = ReadonlyMap<string, ExpectValue>;

export interface ScenarioCall {
  readonly tool: string;
  /** Arguments as given (plain objects with null prototypes). */
  readonly args: unknown;
  readonly writes?: readonly string[];
  readonly approved?: boolean;
  readonly result?: string;
  readonly fail?: string;
  /**
   * What the server asked the user while the call ran for real (elicitation, sampling) and what the
   * user decided, as plain tables; kept through the file, never read by the simulation.
   */
  readonly asked?: readonly unknown[];
  readonly expect?: Expectations;
  readonly span: Span;
}

export interface ScenarioCycle {
  readonly calls: readonly ScenarioCall[];
  readonly reply?: string;
  readonly restart: boolean;
  readonly expect?: Expectations;
  readonly span: Span;
}

export interface ScenarioStep {
  readonly command: string;
  readonly commandSpan: Span;
  /** Seconds that pass before the step (`elapsed`), so a prompt cache's time-to-live can run out. */
  readonly elapsed?: number;
  readonly cycles: readonly ScenarioCycle[];
  readonly expect?: Expectations;
  readonly span: Span;
}

export interface ScenarioServer {
  readonly name: string;
  readonly status: 'running' | 'offline';
  /** The `catalogue = "..."` path as written, if any. */
  readonly catalogue?: string;
  /** A live server's Streamable HTTP endpoint (the browser connects; the tools are its last list). */
  readonly url?: string;
  readonly tools: readonly McpToolEntry[];
  readonly span: Span;
}

export interface ScenarioWorkspace {
  readonly path: string;
  readonly persona?: string;
  readonly span: Span;
}

export interface Scenario {
  readonly name: string;
  readonly description?: string;
  readonly policy: Policy;
  readonly layers: readonly Layer[];
  readonly servers: readonly ScenarioServer[];
  readonly steps: readonly ScenarioStep[];
  readonly load?: Expectations;
  readonly workspace?: ScenarioWorkspace;
}

/** A problem with the scenario file itself (exit status 2). */
export interface ScenarioError {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly span?: Span;
}
