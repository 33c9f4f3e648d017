// No runtime import cycle among src/derive's modules (host.ts and tasksHost.ts had one through
// entryView): a cycle makes module evaluation order matter, and the worker's bundle split with it.
// Type-only imports are erased, so they may go both ways.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('./', import.meta.url);

/** The local modules a module imports at runtime (`import type` and all-`type` specifier lists left out). */
function runtimeImports(text: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?'(\.\/[^']+)'/gmu;
  for (const m of text.matchAll(re)) {
    if (m[1]) continue;
    const names = m[2]?.match(/^\{([^}]*)\}$/u)?.[1];
    if (names !== undefined && names.split(',').map((n) => n.trim()).filter((n) => n !== '').every((n) => n.startsWith('type '))) continue;
    out.push(m[3]!.replace(/^\.\//u, '').replace(/\.tsx?$/u, ''));
  }
  return out;
}

function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (!graph.has(m)) continue;
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return found;
}

describe('src/derive imports', () => {
  it('reads runtime imports and leaves type-only ones out', () => {
    const text = [
      "import { a } from './one';",
      "import type { B } from './two';",
      "import { type C, type D } from './three';",
      "import { type E, f } from './four';",
      "export { g } from './five';",
      "export type { H } from './six';",
      "import './seven';",
      "import {\n  i,\n  j,\n} from './eight';",
      "import { k } from '../core';",
    ].join('\n');
    expect(runtimeImports(text)).toEqual(['one', 'four', 'five', 'seven', 'eight']);
  });

  it('finds a cycle when there is one', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('has no runtime cycle', () => {
    const files = readdirSync(dir).filter((f) => /\.tsx?$/u.test(f) && !/\.test\.tsx?$/u.test(f));
    const graph = new Map(files.map((f) => [f.replace(/\.tsx?$/u, ''), runtimeImports(readFileSync(new URL(f, dir), 'utf8'))]));
    expect(graph.get('host')).toContain('tasksHost');
    expect(cycles(graph)).toEqual([]);
  });
});
