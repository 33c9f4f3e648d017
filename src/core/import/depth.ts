// How deep a tool's JSON may nest. Real catalogues nest fewer than 20 levels; every step after
// reading (the importer's schema walk, generating the layer, measuring) recurses, so a schema
// 100,000 levels deep ended in "Maximum call stack size exceeded" instead of a sentence. Text is
// refused at parse time (input/json.ts); this checks values parsed elsewhere (a live server's reply).
import { deeperThan, MAX_JSON_DEPTH } from '../input/json';

/** The deepest nesting of arrays and objects a tool may have: the JSON reader's cap (100 levels). */
export const MAX_TOOL_DEPTH = MAX_JSON_DEPTH;

/** Whether a parsed value nests arrays and objects deeper than `max` (iterative). */
export const nestsDeeperThan = deeperThan;

/** The sentence for the first tool nested past the cap, if any. */
export function tooDeepTool(tools: readonly unknown[], what: string): string | undefined {
  for (const t of tools) {
    if (!nestsDeeperThan(t, MAX_TOOL_DEPTH)) continue;
    const name = typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string' ? (t as { name: string }).name : '(unnamed)';
    return `${what}: the tool ${JSON.stringify(name.slice(0, 80))} nests its JSON more than ${MAX_TOOL_DEPTH} levels deep, which the workbench does not read (real catalogues nest fewer than 20)`;
  }
  return undefined;
}
