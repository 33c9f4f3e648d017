// Before and after (issue 17): two reports of two versions of a catalogue (the document before an
// edit, an imported catalogue before and after a description change), and the tools whose
// findability changed.
import type { FindabilityChange, FindabilityComparison, FindabilityReport, FindabilityStatus, ToolFindability } from './types';

const RANK: Record<FindabilityStatus, number> = { unreachable: 0, hard: 1, findable: 2 };

const brief = (t: ToolFindability) => ({ status: t.status, word: t.word, score: t.score, best: t.best });

/** Lower is better; a tool no query returns is worst. */
const bestOf = (b: number | null) => b ?? Number.POSITIVE_INFINITY;

function direction(a: ToolFindability, b: ToolFindability): FindabilityChange['direction'] | undefined {
  if (RANK[b.status] !== RANK[a.status]) return RANK[b.status] > RANK[a.status] ? 'better' : 'worse';
  if (b.score !== a.score) return b.score > a.score ? 'better' : 'worse';
  if (b.best !== a.best) return bestOf(b.best) < bestOf(a.best) ? 'better' : 'worse';
  const ranks = (t: ToolFindability) => t.queries.map((q) => `${q.kind}:${q.text}:${q.ranks.join(',')}`).join('|');
  return ranks(a) === ranks(b) ? undefined : 'changed';
}

export function compareFindability(before: FindabilityReport, after: FindabilityReport): FindabilityComparison {
  const old = new Map(before.tools.map((t) => [t.name, t]));
  const now = new Map(after.tools.map((t) => [t.name, t]));
  const changes: FindabilityChange[] = [];
  for (const b of after.tools) {
    const a = old.get(b.name);
    if (!a) {
      changes.push({ name: b.name, after: brief(b), direction: 'added' });
      continue;
    }
    const d = direction(a, b);
    if (d) changes.push({ name: b.name, before: brief(a), after: brief(b), direction: d });
  }
  for (const a of before.tools) if (!now.has(a.name)) changes.push({ name: a.name, before: brief(a), direction: 'removed' });
  const findable = (r: FindabilityReport) => r.tools.filter((t) => t.best !== null && t.best <= r.limit).length;
  return {
    before: { findable: findable(before), tools: before.tools.length },
    after: { findable: findable(after), tools: after.tools.length },
    changes,
  };
}
