// The findability input of a scenario: its catalogue at a position (the base config by default,
// the design as written), the discoverable tools a search_tools call there may return, their
// servers, and the scenario's ranking. The derive worker and the command line both start here.
import { searchDocument } from '../catalogue/search-document';
import type { Timeline } from '../turn/timeline';
import type { SearchDocument } from '../search/types';
import type { FindabilityInput } from './types';

export type TimelineFindability = Pick<FindabilityInput, 'docs' | 'discoverable' | 'servers' | 'ranking' | 'substringMatch'>;

export function findabilityInputAt(timeline: Timeline, position = 0): TimelineFindability {
  const p = Math.max(0, Math.min(position, timeline.positions.length - 1));
  const states = timeline.statesAt(p);
  const policy = timeline.policy;
  // hide_unapproved takes tools that need approval out of every search (semantics §8.24).
  const discoverable = timeline.setsAt(p).searchable.filter((n) => !(policy.hide_unapproved && states.get(n)?.run === 'ask'));
  const docs: SearchDocument[] = [];
  const servers = new Map<string, string>();
  // Nothing to find: no catalogue to read (a 10,000-tool layer of tools that are all on costs nothing here).
  if (discoverable.length === 0) return { docs, discoverable, servers, ranking: policy.ranking, substringMatch: policy.substring_match };
  for (const s of states.values()) {
    if (!s.resolution.ok) continue;
    docs.push(searchDocument(s.resolution.definition, s.order));
    const src = s.config.source?.value;
    if (src?.kind === 'mcp') servers.set(s.name, src.server);
  }
  return { docs, discoverable, servers, ranking: policy.ranking, substringMatch: policy.substring_match };
}
