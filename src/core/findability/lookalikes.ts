// Look-alikes: tools that outrank each other for each other's queries (the same operation on
// several servers, `list_x` against `search_x`). A rival of a tool on one of its own queries is a
// tool ranked above it (within the limit), or tied with it in score; two tools are look-alikes when
// each is the other's rival; groups are the connected look-alikes, with the words they share.
import type { SearchDocument } from '../search/types';
import type { Asked, ToolWords } from './tool-words';
import type { LookAlikeGroup } from './types';

const SHARED_SHOWN = 8;

export function lookAlikeGroups(targets: readonly SearchDocument[], asked: ReadonlyMap<string, readonly Asked[]>, words: ReadonlyMap<string, ToolWords>): LookAlikeGroup[] {
  const rivals = new Map<string, Set<string>>();
  for (const d of targets) {
    const set = new Set<string>();
    for (const a of asked.get(d.name) ?? []) {
      for (const n of a.above) set.add(n);
      for (const n of a.tied) set.add(n);
    }
    set.delete(d.name);
    rivals.set(d.name, set);
  }
  const index = new Map(targets.map((d, i) => [d.name, i]));
  const parent = targets.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      const p = parent[i] as number;
      parent[i] = parent[p] as number;
      i = p;
    }
    return i;
  };
  const paired = new Set<number>();
  for (const d of targets) {
    const a = index.get(d.name) as number;
    for (const other of rivals.get(d.name) ?? []) {
      const b = index.get(other);
      if (b === undefined || !rivals.get(other)?.has(d.name)) continue;
      paired.add(a).add(b);
      parent[find(a)] = find(b);
    }
  }
  const groups = new Map<number, string[]>();
  for (const i of paired) {
    const root = find(i);
    const g = groups.get(root);
    const name = targets[i]?.name as string;
    if (g) g.push(name);
    else groups.set(root, [name]);
  }
  const out: LookAlikeGroup[] = [];
  for (const members of groups.values()) {
    members.sort((x, y) => (index.get(x) ?? 0) - (index.get(y) ?? 0));
    const first = words.get(members[0] as string)?.own ?? [];
    const shared = first.filter((w) => members.every((m) => words.get(m)?.ownSet.has(w))).slice(0, SHARED_SHOWN);
    out.push({ tools: members, shared });
  }
  return out.sort((a, b) => b.tools.length - a.tools.length || (index.get(a.tools[0] as string) ?? 0) - (index.get(b.tools[0] as string) ?? 0));
}
