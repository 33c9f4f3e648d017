// What search_tools searches for one tool (RFD 108 "What it searches"): names and
// parameter names from the resolved schema, the rest from the docs.
import type { SearchDocument } from '../search/types';
import type { ToolDefinition } from './types';

/** A parameter's searchable texts: its summary, and its description unless that repeats the summary. */
export function pushParameterDocs(out: string[], summary: string | undefined, description: string | undefined): void {
  if (summary !== undefined) out.push(summary);
  if (description !== undefined && description !== summary) out.push(description);
}

export function searchDocument(def: ToolDefinition, order: number): SearchDocument {
  const parameterDescriptions: string[] = [];
  for (const p of def.docs.parameters.values()) pushParameterDocs(parameterDescriptions, p.summary, p.description);
  return {
    name: def.name,
    order,
    parameterNames: [...def.parameters.keys()],
    summary: def.docs.summary ?? '',
    description: def.docs.description ?? '',
    parameterDescriptions,
  };
}
