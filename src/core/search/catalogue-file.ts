// A catalogue for `eval` and the search lab: a tools/list JSON or a JP config TOML.
import { loadLayer } from '../config/layer';
import { resolveTool } from '../catalogue/resolve';
import { effectiveRun } from '../config/effective';
import { searchDocument } from '../catalogue/search-document';
import { mcpToolToSearchDocument, parseToolsList } from '../catalogue/tools-list';
import type { SearchDocument } from './types';
import { parseJson } from '../input/json';

export type CatalogueDocs = { ok: true; documents: SearchDocument[]; warnings: string[] } | { ok: false; error: string };

/**
 * Which kind a catalogue file is: by its extension, else by its text. A JP config usually opens
 * with a table header (`[conversation.tools.x]`), so a leading `[` alone does not mean JSON.
 */
function isJsonCatalogue(fileName: string, text: string): boolean {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.json')) return true;
  if (lower.endsWith('.toml')) return false;
  const start = text.replace(/^\uFEFF/u, '').trimStart();
  if (start.startsWith('{')) return true;
  if (!start.startsWith('[')) return false;
  return parseJson(text).ok;
}

export function catalogueDocuments(fileName: string, text: string): CatalogueDocs {
  if (isJsonCatalogue(fileName, text)) {
    const read = parseJson(text);
    if (!read.ok) return { ok: false, error: `${read.line}:${read.column}: not valid JSON: ${read.message}` };
    const parsed = parseToolsList(read.value);
    if (parsed.tools.length === 0) return { ok: false, error: parsed.errors[0] ?? 'no tools in the tools/list reply' };
    return { ok: true, documents: parsed.tools.map((t, i) => mcpToolToSearchDocument(t, i)), warnings: parsed.errors };
  }
  const layer = loadLayer({ name: fileName, text });
  const errors = layer.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const d = errors[0];
    return { ok: false, error: `${d?.line ?? 1}:${d?.column ?? 1}: ${d?.message ?? ''}` };
  }
  const documents: SearchDocument[] = [];
  const warnings: string[] = [];
  let order = 0;
  for (const tool of layer.config.tools.values()) {
    const r = resolveTool(tool, effectiveRun(tool, layer.config.defaults), new Map());
    if (r.ok) documents.push(searchDocument(r.definition, order++));
    else warnings.push(r.message);
  }
  return { ok: true, documents, warnings };
}
