// Property tests of promotion and the fold (semantics §6), over random
// catalogues and random cycles of searches and tool writes, run end to end.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { layer, run } from './test-kit';
import type { ToolSpec } from './test-kit';
import type { Timeline } from './timeline';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'foxtrot', 'golf', 'hotel', 'kilo'];
const AVAILABILITY = ['on', 'off', 'discoverable'] as const;
type Availability = (typeof AVAILABILITY)[number];

interface ToolGen {
  readonly words: readonly [number, number];
  readonly availability: Availability;
  readonly never: boolean;
}

type CallGen =
  | { readonly kind: 'search'; readonly query: string; readonly limit: number }
  | { readonly kind: 'write'; readonly tool: number; readonly to: Availability; readonly approved: boolean };

const toolGen = fc.record({
  words: fc.tuple(fc.nat({ max: WORDS.length - 1 }), fc.nat({ max: WORDS.length - 1 })),
  availability: fc.constantFrom(...AVAILABILITY),
  never: fc.boolean(),
});

const queryGen = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a} ${b}`),
);

const toolName = (i: number, t: ToolGen): string => `t${i}_${WORDS[t.words[0]] ?? ''}`;

function catalogue(tools: readonly ToolGen[]): Record<string, ToolSpec> {
  const out: Record<string, ToolSpec> = { admin: { enable: '"on"', summary: 'Writes config.' } };
  tools.forEach((t, i) => {
    const a = i === 0 ? 'discoverable' : t.availability; // keeps search_tools registered
    out[toolName(i, t)] = {
      enable: `{ availability = "${a}", allow_toggle = "${t.never ? 'never' : 'any'}" }`,
      summary: `Works with ${WORDS[t.words[0]] ?? ''} and ${WORDS[t.words[1]] ?? ''}.`,
    };
  });
  return out;
}

function callToml(c: CallGen, tools: readonly ToolGen[]): string {
  if (c.kind === 'search') return `{ tool = "search_tools", args = { query = "${c.query}", limit = ${c.limit} } }`;
  const t = tools[c.tool % tools.length] as ToolGen;
  const name = toolName(c.tool % tools.length, t);
  return `{ tool = "admin", args = {}, writes = ["conversation.tools.${name}.enable.availability=${c.to}"], approved = ${c.approved} }`;
}

function scenario(tools: readonly ToolGen[], cycles: readonly (readonly CallGen[])[], policy: Record<string, string | boolean>): Timeline {
  const body = ['[[steps]]', 'command = "jp q go"'];
  for (const calls of cycles) body.push('  [[steps.cycles]]', `  calls = [ ${calls.map((c) => callToml(c, tools)).join(', ')} ]`);
  body.push('  [[steps.cycles]]', '  reply = "done"');
  return run({ policy, layer: layer(catalogue(tools), {}), body: body.join('\n') });
}

function availabilityAt(t: Timeline, position: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of t.statesAt(position).values()) out.set(s.name, s.enable.availability.value);
  return out;
}

function toggleAt(t: Timeline, position: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of t.statesAt(position).values()) out.set(s.name, s.enable.allowToggle.value);
  return out;
}

const cyclesGen = (callGen: fc.Arbitrary<CallGen>) => fc.array(fc.array(callGen, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 });

const mixedCall = (toolCount: number): fc.Arbitrary<CallGen> =>
  fc.oneof(
    fc.record({ kind: fc.constant('search' as const), query: queryGen, limit: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant('write' as const), tool: fc.nat({ max: toolCount - 1 }), to: fc.constantFrom(...AVAILABILITY), approved: fc.boolean() }),
  );

describe('property: the fold matches a model of the three-row table', () => {
  it('promotion only moves discoverable → on; an off tool is never returned as usable; each cycle commits the model state', () => {
    fc.assert(
      fc.property(
        fc.array(toolGen, { minLength: 2, maxLength: 8 }).chain((tools) => fc.tuple(fc.constant(tools), cyclesGen(mixedCall(tools.length)))),
        fc.constantFrom('substring', 'bm25'),
        fc.boolean(),
        ([tools, cycles], ranking, neverBlocks) => {
          const t = scenario(tools, cycles, { ranking, never_blocks_promotion: neverBlocks });
          const names = tools.map((tool, i) => toolName(i, tool));
          let callAt = 0;
          cycles.forEach((calls, c) => {
            const req = t.requests[c];
            const nextReq = t.requests[c + 1];
            if (!req || !nextReq) throw new Error('missing request');
            const start = availabilityAt(t, req.position);
            const toggles = toggleAt(t, req.position);
            const model = new Map(start);
            const written = new Set<string>();
            for (const call of calls) {
              const record = t.calls[callAt++];
              if (!record) throw new Error('missing call');
              if (call.kind === 'write') {
                if (call.approved) {
                  const name = names[call.tool % names.length] as string;
                  model.set(name, call.to);
                  written.add(name);
                }
                continue;
              }
              expect(record.status).toBe('ok');
              const returned = record.search?.returned ?? [];
              expect(returned.length).toBeLessThanOrEqual(call.limit);
              for (const r of returned) {
                // Only cycle-start searchable tools are ever returned: never an off or an offered one.
                expect(start.get(r.name)).toBe('discoverable');
                const folded = model.get(r.name);
                let want: 'usable' | 'unavailable';
                if (folded === 'discoverable') {
                  if (neverBlocks && toggles.get(r.name) === 'never') want = 'unavailable';
                  else {
                    model.set(r.name, 'on');
                    want = 'usable';
                  }
                } else want = folded === 'on' ? 'usable' : 'unavailable';
                expect(r.status, `${r.name} folded ${folded}`).toBe(want);
                if (folded === 'off') expect(r.status).not.toBe('usable');
              }
            }
            // The committed state is the model's.
            const after = availabilityAt(t, nextReq.position);
            for (const name of names) expect(after.get(name), name).toBe(model.get(name));
            // Promotion alone only ever moves discoverable → on, and never touches allow_toggle.
            const afterToggles = toggleAt(t, nextReq.position);
            for (const name of names) {
              if (written.has(name)) continue;
              const before = start.get(name);
              const now = after.get(name);
              expect(before === now || (before === 'discoverable' && now === 'on'), `${name}: ${before} → ${now}`).toBe(true);
              expect(afterToggles.get(name)).toBe(toggles.get(name));
            }
            // One delta per cycle at most.
            expect(nextReq.position - req.position).toBeLessThanOrEqual(1);
          });
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('property: the fold depends on the order of the calls, not on how they are batched into cycles', () => {
  // Searches return every match (limit 50 > catalogue), so no result depends on what an earlier
  // cycle already offered; writes touch only tools no query can match (disjoint vocabulary), so
  // no search depends on a cycle-start difference a write makes.
  const WRITE_TARGETS = ['w0_zulu', 'w1_zulu', 'w2_zulu'];

  type OrderedCall = { readonly kind: 'search'; readonly query: string } | { readonly kind: 'write'; readonly tool: number; readonly to: Availability; readonly approved: boolean };

  function batchedRun(tools: readonly ToolGen[], writeStart: readonly Availability[], calls: readonly OrderedCall[], cuts: readonly boolean[], ranking: string): Record<string, string> {
    const cat = catalogue(tools);
    WRITE_TARGETS.forEach((name, i) => {
      cat[name] = { enable: `"${writeStart[i] ?? 'on'}"`, summary: 'Quebec task.' };
    });
    const cycles: string[][] = [[]];
    calls.forEach((c, i) => {
      const text =
        c.kind === 'search'
          ? `{ tool = "search_tools", args = { query = "${c.query}", limit = 50 } }`
          : `{ tool = "admin", args = {}, writes = ["conversation.tools.${WRITE_TARGETS[c.tool] ?? ''}.enable.availability=${c.to}"], approved = ${c.approved} }`;
      (cycles[cycles.length - 1] as string[]).push(text);
      if (cuts[i] && i < calls.length - 1) cycles.push([]);
    });
    const body = ['[[steps]]', 'command = "jp q go"'];
    for (const cycle of cycles) body.push('  [[steps.cycles]]', `  calls = [ ${cycle.join(', ')} ]`);
    body.push('  [[steps.cycles]]', '  reply = "done"');
    const t = run({ policy: { ranking }, layer: layer(cat, {}), body: body.join('\n') });
    for (const c of t.calls) expect(c.status).toBe('ok');
    return Object.fromEntries(availabilityAt(t, t.positions.length - 1));
  }

  const orderedCall: fc.Arbitrary<OrderedCall> = fc.oneof(
    fc.record({ kind: fc.constant('search' as const), query: queryGen }),
    fc.record({ kind: fc.constant('write' as const), tool: fc.nat({ max: WRITE_TARGETS.length - 1 }), to: fc.constantFrom(...AVAILABILITY), approved: fc.boolean() }),
  );

  it('two batchings of the same call sequence give the same final availability', () => {
    fc.assert(
      fc.property(
        fc.array(toolGen, { minLength: 1, maxLength: 10 }),
        fc.array(fc.constantFrom(...AVAILABILITY), { minLength: WRITE_TARGETS.length, maxLength: WRITE_TARGETS.length }),
        fc.array(orderedCall, { minLength: 1, maxLength: 8 }).chain((calls) =>
          fc.tuple(fc.constant(calls), fc.array(fc.boolean(), { minLength: calls.length, maxLength: calls.length }), fc.array(fc.boolean(), { minLength: calls.length, maxLength: calls.length })),
        ),
        fc.constantFrom('substring', 'bm25'),
        (tools, writeStart, [calls, cutsA, cutsB], ranking) => {
          const a = batchedRun(tools, writeStart, calls, cutsA, ranking);
          const b = batchedRun(tools, writeStart, calls, cutsB, ranking);
          const oneCycle = batchedRun(tools, writeStart, calls, calls.map(() => false), ranking);
          const each = batchedRun(tools, writeStart, calls, calls.map(() => true), ranking);
          expect(a).toEqual(b);
          expect(a).toEqual(oneCycle);
          expect(a).toEqual(each);
        },
      ),
      { numRuns: 80 },
    );
  });
});
