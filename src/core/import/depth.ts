// How deep a tool's JSON may nest. Real catalogues nest fewer than 20 levels; every step after
// reading (the importer's schema walk, generating the layer, measuring) recurses, so a schema
// 100,000 levels deep ended in "Maximum call stack size exceeded" instead of a sentence.

/** The deepest nesting of arrays and objects a tool may have: 100 levels. */
export const MAX_TOOL_DEPTH = 100;

/** Whether a parsed value nests arrays and objects deeper than `max`; iterative, as the value may be very deep. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** The sentence for the first tool nested past the cap, if any. */
export function tooDeepTool(tools: readonly unknown[], what: string): string | undefined {
  for (const t of tools) {
    if (!nestsDeeperThan(t, MAX_TOOL_DEPTH)) continue;
    const name = typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string' ? (t as { name: string }).name : '(unnamed)';
    return `${what}: the tool ${JSON.stringify(name.slice(0, 80))} nests its JSON more than ${MAX_TOOL_DEPTH} levels deep, which the workbench does not read (real catalogues nest fewer than 20)`;
  }
  return undefined;
}
