// describe_tools (jp-today 6.4, semantics 8.17): documents the describable
// (= permitted) set; names outside it are listed, and the call still succeeds.
import type { ToolDefinition } from '../catalogue/types';

export type DescribeResult = { ok: true; text: string } | { ok: false; error: string };

function section(def: ToolDefinition): string {
  const parts: string[] = [`## ${def.name}`];
  if (def.docs.summary !== undefined) parts.push(def.docs.summary);
  if (def.docs.description !== undefined && def.docs.description !== def.docs.summary) parts.push(def.docs.description);
  if (def.docs.examples !== undefined) parts.push(`### Examples\n\n${def.docs.examples}`);
  const params: string[] = [];
  for (const [name, p] of def.docs.parameters) {
    if (p.description === undefined && p.examples === undefined) continue;
    const lines = [`#### \`${name}\``];
    if (p.summary !== undefined) lines.push(p.summary);
    if (p.description !== undefined && p.description !== p.summary) lines.push(p.description);
    if (p.examples !== undefined) lines.push(p.examples);
    params.push(lines.join('\n\n'));
  }
  if (params.length > 0) parts.push(`### Parameters\n\n${params.join('\n\n')}`);
  return parts.join('\n\n');
}

export function describeTools(args: unknown, describable: (name: string) => ToolDefinition | undefined): DescribeResult {
  const tools = typeof args === 'object' && args !== null && Object.hasOwn(args, 'tools') ? (args as { tools: unknown }).tools : undefined;
  if (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')) return { ok: false, error: 'Missing or invalid `tools` parameter.' };
  if (tools.length === 0) return { ok: false, error: 'The `tools` array must not be empty.' };
  const sections: string[] = [];
  const unknown: string[] = [];
  for (const name of tools as string[]) {
    const def = describable(name);
    if (def) sections.push(section(def));
    else unknown.push(name);
  }
  let text = sections.join('\n---\n\n');
  if (unknown.length > 0) text += `${text ? '\n\n' : ''}No additional documentation available for: ${unknown.join(', ')}`;
  return { ok: true, text };
}
