// What search_tools searches for one tool (RFD 108 "What it searches"): names and
// parameter names from the resolved schema, the rest from the docs.
import type { SearchDocument } from '../search/types';
import type { ToolDefinition } from './types';

export function searchDocument(def: ToolDefinition, order: number): SearchDocument {
  const parameterDescriptions: string[] = [];
  for (const p of def.docs.parameters.values()) {
    if (p.summary !== undefined) parameterDescriptions.push(p.summary);
    if (p.description !== undefined && p.description !== p.summary) parameterDescriptions.push(p.description);
  }
  return {
    name: def.name,
    order,
    parameterNames: [...def.parameters.keys()],
    summary: def.docs.summary ?? '',
    description: def.docs.description ?? '',
    parameterDescriptions,
  };
}
