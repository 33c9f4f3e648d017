// A tool as the model and the executor see it: resolved from config (local and
// builtin tools) or from an MCP server's tools/list plus config overrides.
import type { RunMode } from '../config/types';

/** A JSON Schema fragment. Built with null prototypes so any property name is safe. */
export type JsonSchema = Record<string, unknown>;

export interface ParameterDocs {
  readonly summary?: string;
  readonly description?: string;
  readonly examples?: string;
}

/** JP's ToolDocs: what describe_tools prints and what search_tools searches. */
export interface ToolDocs {
  readonly summary?: string;
  readonly description?: string;
  readonly examples?: string;
  /** Only parameters that carry documentation (JP's rule). */
  readonly parameters: ReadonlyMap<string, ParameterDocs>;
}

export interface ToolDefinition {
  readonly name: string;
  readonly kind: 'local' | 'builtin' | 'mcp';
  /** For MCP tools: the server, and the tool's name on it. */
  readonly server?: string;
  readonly backendName: string;
  readonly docs: ToolDocs;
  /** JP's schema_description(): summary, else description. What the provider array carries. */
  readonly schemaDescription?: string;
  /** Resolved parameter schemas, by name, in declaration order (from the server for MCP tools). */
  readonly parameters: ReadonlyMap<string, JsonSchema>;
  /** Names of required parameters, in declaration order. */
  readonly required: readonly string[];
  readonly run: RunMode;
  /** MCP annotations, when the server gave them. */
  readonly annotations?: Readonly<Record<string, unknown>>;
}
