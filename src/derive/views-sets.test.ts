// The sets rows of a position (views.ts) read the engine's own values: a tool's row by its config
// order in the sets' catalogue column, its membership from its state, the counts from the sets'
// sizes. Here they are held to the way they were built before (every state spread into an array,
// membership looked up in Sets of the lists' names, counts as the lists' lengths), on random
// scenarios: layers, directives, promotions, `--cfg` and `jp config set` layer edits, MCP tools of
// running and offline servers, a tool named as a builtin. Windows and filters are the whole rows'.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Timeline } from '../core';
import { filterRows, NO_FILTER } from '../features/sets/filter';
import type { SetsFilter } from '../features/sets/filter';
import { layer, scenario, step, timelineOf } from '../core/scenario/test-helpers';
import type { SetsQuery, SetsRow } from './protocol';
import { DerivationViews } from './views';

const NAMES = ['a', 'b', 'deploy', 'grep', 'x1', 'x2', 'describe_tools', '__proto__'];
const ENABLES = ['"on"', '"off"', '"discoverable"', '{ availability = "off", allow_toggle = "never" }', '{ availability = "discoverable", allow_toggle = "never" }'];
const SOURCES = ['"local"', '"local"', '"mcp.up"', '"mcp.down"'];
const SERVERS = `[servers.up]\ntools = [ ${NAMES.map((n) => `{ name = ${JSON.stringify(n)}, description = "Tool ${n}.", inputSchema = { type = "object" } }`).join(', ')} ]\n[servers.down]\nstatus = "offline"\n`;

const toolArb = fc.record({ name: fc.constantFrom(...NAMES), enable: fc.option(fc.constantFrom(...ENABLES), { nil: undefined }), source: fc.constantFrom(...SOURCES) });
const layerArb = fc.record({ star: fc.option(fc.constantFrom(...ENABLES), { nil: undefined }), tools: fc.uniqueArray(toolArb, { selector: (t) => t.name, maxLength: NAMES.length }) });
const stepArb = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom('-t', '-T'), fc.constantFrom(...NAMES).map((n) => `-t ${n}`), fc.constantFrom(...NAMES).map((n) => `-T ${n}`)), { maxLength: 3 }).map((d) => step(`jp q 'x' ${d.join(' ')}`)),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('on', 'off', 'discoverable')).map(([n, v]) => step(`jp q 'x' --cfg 'conversation.tools.${n}.enable=${v}'`)),
  fc.tuple(fc.constantFrom(...NAMES, "'*'"), fc.constantFrom('on', 'off', 'discoverable')).map(([n, v]) => step(`jp config set --id conversation.tools.${n}.enable=${v}`)),
  fc.constantFrom('deploy', 'tool', 'x').map((w) => step(`jp q 'find'`, undefined, `[[steps.cycles]]\ncalls = [ { tool = "search_tools", args = { query = ${JSON.stringify(w)} } } ]\n[[steps.cycles]]\nreply = "ok"\n`)),
);

function layerText(l: { star?: string | undefined; tools: readonly { name: string; enable?: string | undefined; source: string }[] }): string {
  const parts: string[] = [];
  if (l.star !== undefined) parts.push(`[conversation.tools.'*']\nenable = ${l.star}\n`);
  for (const t of l.tools) parts.push(`[conversation.tools.${JSON.stringify(t.name)}]\nsource = ${t.source}\nsummary = "Tool ${t.name} deploys things."\n${t.enable !== undefined ? `enable = ${t.enable}\n` : ''}`);
  return parts.join('\n');
}

const summaryOf = (s: { config: { summary?: { value: string } } }): string => s.config.summary?.value ?? '';

function viewsOf(t: Timeline): DerivationViews {
  return new DerivationViews(1, { timeline: t, expectations: [], layerLink: (layer, offset) => ({ layer, line: 1, column: offset + 1 }), summaryOf, counted: () => undefined });
}

type Member = Pick<SetsRow, 'name' | 'order' | 'kind' | 'availability' | 'permitted' | 'offered' | 'searchable'>;

/** The rows as views.ts built them before: the states spread, membership from Sets of the lists' names. */
function reference(t: Timeline, p: number): { rows: Member[]; counts: Record<string, number> } {
  const states = [...t.statesAt(p).values()];
  const sets = t.setsAt(p);
  const permitted = new Set(sets.permitted);
  const offered = new Set(sets.offered);
  const searchable = new Set(sets.searchable);
  const rows: Member[] = states.map((s) => ({ name: s.name, order: s.order, kind: s.config.source?.value.kind ?? 'local', availability: s.enable.availability.value, permitted: permitted.has(s.name), offered: offered.has(s.name), searchable: searchable.has(s.name) }));
  sets.configured.slice(states.length).forEach((b, k) => rows.push({ name: b, order: states.length + k, kind: 'builtin', availability: 'on', permitted: true, offered: true, searchable: false }));
  return { rows, counts: { configured: sets.configured.length, permitted: sets.permitted.length, offered: sets.offered.length, searchable: sets.searchable.length } };
}

const member = (r: SetsRow): Member => ({ name: r.name, order: r.order, kind: r.kind, availability: r.availability, permitted: r.permitted, offered: r.offered, searchable: r.searchable });

const filterArb = fc.record({
  availability: fc.subarray(['on', 'discoverable', 'off'] as const),
  membership: fc.subarray(['permitted', 'offered', 'searchable'] as const),
  kind: fc.subarray(['local', 'mcp', 'builtin'] as const),
  query: fc.constantFrom('', 'DEPLOY', 'x', 'describe', 'nothing here'),
});

describe('the sets rows of a position, read from the engine without copies', () => {
  it('equal the rows built from spread states and Sets of names, at every position, whole, windowed and filtered', () => {
    fc.assert(
      fc.property(fc.array(layerArb, { minLength: 1, maxLength: 2 }), fc.array(stepArb, { maxLength: 6 }), fc.array(filterArb, { maxLength: 3 }), fc.nat(), fc.nat({ max: 6 }), (layers, steps, filters, offset, limit) => {
        const t = timelineOf(scenario(SERVERS, ...layers.map((l, i) => layer(layerText(l), i === layers.length - 1 ? 'workspace' : `layer${i}`)), ...steps));
        const views = viewsOf(t);
        for (let p = t.positions.length - 1; p >= 0; p--) {
          const want = reference(t, p);
          const all = views.allSetsRows(p);
          expect(all.map(member), `position ${p}`).toEqual(want.rows);
          expect(views.setsSummary(p).counts, `counts at ${p}`).toEqual(want.counts);
          const from = offset % (all.length + 1);
          expect(views.setsWindow(p, from, limit, {}).rows).toEqual(all.slice(from, from + limit));
          for (const f of filters) {
            const filter: SetsFilter = { ...NO_FILTER, availability: new Set(f.availability), membership: new Set(f.membership), kind: new Set(f.kind), query: f.query };
            const q: SetsQuery = { availability: f.availability, membership: f.membership, kind: f.kind, query: f.query };
            const w = views.setsWindow(p, 0, 500, q);
            expect(w.rows.map((r) => r.name), `position ${p} filtered ${JSON.stringify(f)}`).toEqual(filterRows(all, filter).map((r) => r.name));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
