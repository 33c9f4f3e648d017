// Test-only helpers: build ToolDefinitions tersely.
import type { JsonSchema, ToolDefinition } from '../catalogue/types';

export interface ParamSpec {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
}

export function makeTool(name: string, description: string | undefined, params: readonly ParamSpec[] = []): ToolDefinition {
  return {
    name,
    kind: 'local',
    backendName: name,
    docs: { description, summary: description, parameters: new Map() },
    schemaDescription: description,
    parameters: new Map(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
    run: 'ask',
  };
}
