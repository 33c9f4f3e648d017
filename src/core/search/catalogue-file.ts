// A catalogue for `eval` and the search lab: a tools/list JSON or a JP config TOML.
import { loadLayer } from '../config/layer';
import { resolveTool } from '../catalogue/resolve';
import { effectiveRun } from '../config/effective';
import { searchDocument } from '../catalogue/search-document';
import { mcpToolToSearchDocument, parseToolsList } from '../catalogue/tools-list';
import type { SearchDocument } from './types';

export type CatalogueDocs = { ok: true; documents: SearchDocument[]; warnings: string[] } | { ok: false; error: string };

export function catalogueDocuments(fileName: string, text: string): CatalogueDocs {
  const looksJson = fileName.endsWith('.json') || text.trimStart().startsWith('{') || text.trimStart().startsWith('[');
  if (looksJson) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { ok: false, error: `not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
    const parsed = parseToolsList(value);
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
