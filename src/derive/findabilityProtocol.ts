// The views of the derive method behind the findability panel, the layer editor's findability
// diagnostics and the servers panel's notes (issue 17). Its row in methods.ts routes it to
// findabilityHost.ts.
import type { Diagnostic, FindabilityComparison, FindabilityReport, FindabilityWord } from '../core';

/** Where a tool is declared, for diagnostics, quick fixes and "go to declaration". */
export interface ToolDeclaration {
  readonly tool: string;
  readonly layer: string;
  readonly line: number;
  readonly column: number;
}

/** A quick fix at a tool's declaration: write this summary for it. */
export interface FindabilityFixView extends ToolDeclaration {
  readonly title: string;
  readonly summary: string;
}

/**
 * One MCP server's discoverable tools as the findability report words them, for its card in the
 * servers panel: the same count and words as the findability tab (issue 24.8), and the tools at risk.
 */
export interface ServerFindabilityNote {
  readonly server: string;
  /** Its tools the report asked about (the discoverable ones). */
  readonly discoverable: number;
  /** atRiskWords over them: "2 thinly described", "none at risk". */
  readonly words: string;
  /** Those at risk: hard to find, thinly described or unreachable. */
  readonly tools: readonly { readonly name: string; readonly status: 'hard' | 'unreachable'; readonly word: FindabilityWord; readonly reason: string; readonly beatenBy: readonly string[] }[];
}

export interface FindabilityView {
  readonly revision: number;
  readonly report: FindabilityReport;
  /** Severity information, at the declaration of each hard-to-find tool declared in a layer. */
  readonly diagnostics: readonly Diagnostic[];
  readonly fixes: readonly FindabilityFixView[];
  readonly declarations: readonly ToolDeclaration[];
  readonly servers: readonly ServerFindabilityNote[];
  /** Against the baseline the UI pinned, when it sent one. */
  readonly comparison?: FindabilityComparison;
  /** Lines of the task set that could not be read. */
  readonly taskErrors: readonly string[];
  /** Milliseconds the report took in the worker (0 when it came from the cache). */
  readonly millis: number;
}
