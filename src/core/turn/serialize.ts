// The whole derived timeline as plain JSON (`tool-workbench check --json`, and the
// UI's "export timeline"): every position with its event, each tool's
// availability, the sets and registration, and the request of every cycle (its provider findings,
// and with `bodies` its rendered body). Serialize it with toJson (json/serde.ts) to keep floats.
import type { Origin } from '../config/types';
import type { ExpectationResult } from '../scenario/expectations';
import type { Timeline } from './timeline';
import type { ConversationCost } from '../cost/conversation';
import { cacheStatus } from '../cost/cache-status';

function originText(o: Origin): string {
  switch (o.kind) {
    case 'layer':
      return `layer ${o.layer}`;
    case 'delta':
      return `delta ${o.delta} (${o.source}: ${o.detail})`;
    case 'builtin':
      return 'builtin';
    case 'default':
      return 'default';
  }
}

/** One request's prompt-cache figures in the JSON's words. */
function requestCostJson(cost: ConversationCost | undefined, id: number): unknown {
  const c = cost?.requests[id];
  if (!c) return undefined;
  const f = c.figures;
  return { input_tokens: f.input, cache_read_tokens: f.cacheRead, cache_write_tokens: f.cacheWrite, uncached_tokens: f.uncached, output_tokens: c.output, seconds: c.at, usd: c.money.total, why: f.reason };
}

/** The byte comparison, and the one status every panel shows: "prefix reused · below the 1,024-token minimum: 0 cached". */
function cacheJson(cmp: ReturnType<Timeline['requests'][number]['cache']>, cost: ConversationCost | undefined, id: number): unknown {
  const figures = cost?.requests[id]?.figures;
  const status = cacheStatus(cmp, figures, cost?.effective.minTokens);
  return { ...cmp, summary: status.text, ...(status.cached !== undefined ? { cached_tokens: status.cached } : {}) };
}

/** The timeline and the checker's results over it. */
export interface TimelineJsonOptions {
  /** Each request's rendered body, as the provider receives it (`check --bodies`). */
  readonly bodies?: boolean;
  /** Each request's prompt-cache figures and the conversation's totals. */
  readonly cost?: ConversationCost;
}

export function timelineToJson(t: Timeline, expectations: readonly ExpectationResult[], options: TimelineJsonOptions = {}): unknown {
  const { cost } = options;
  const positions = t.positions.map((p) => {
    const states = t.statesAt(p.index);
    const availability: Record<string, { availability: string; allow_toggle: string; why: string }> = Object.create(null) as Record<string, never>;
    for (const s of states.values()) {
      availability[s.name] = {
        availability: s.enable.availability.value,
        allow_toggle: s.enable.allowToggle.value,
        why: `${s.enable.availability.from === 'defaults' ? "'*' in " : ''}${originText(s.enable.availability.origin)}`,
      };
    }
    // The offered set in config order here (a request's `offered` is its tools array order).
    const s = t.engine.setsInConfigOrderAt(p.index);
    const sets = { configured: s.configured, permitted: s.permitted, offered: s.offered, searchable: s.searchable, servers: s.servers };
    return { index: p.index, event: p.event, search_tools: p.registered, availability, ...sets };
  });
  const requests = t.requests.map((r) => ({
    step: r.step,
    cycle: r.cycle,
    position: r.position,
    tool_choice: r.toolChoice.kind === 'function' ? r.toolChoice.name : r.toolChoice.kind,
    offered: r.sets.offered,
    permitted: r.sets.permitted,
    searchable: r.sets.searchable,
    servers: r.sets.servers,
    array: r.array,
    overhead_chars: r.cost,
    // `summary` and `cached_tokens` extend the comparison with the cache model's figures (issue 24.6).
    cache: cacheJson(r.cache(), cost, r.id),
    provider_findings: r.findings().map((d) => ({ severity: d.severity, rule: d.rule, message: d.message, ...(d.tool !== undefined ? { tool: d.tool } : {}), source: d.source.document })),
    ...(options.bodies ? { body: r.rendered().body } : {}),
    ...(cost ? { prompt_cache: requestCostJson(cost, r.id) } : {}),
  }));
  const calls = t.calls.map((c) => ({
    step: c.step,
    cycle: c.cycle,
    index: c.index,
    tool: c.tool,
    status: c.status,
    result: c.result,
    ...(c.search ? { search: c.search } : {}),
    ...(c.write ? { write: c.write } : {}),
  }));
  return {
    name: t.name,
    policy: t.policy,
    diagnostics: t.diagnostics,
    positions,
    requests,
    calls,
    ...(cost
      ? {
          cost: {
            provider: cost.provider, model: cost.model.id, prices: cost.priced, tokenizer: cost.counter,
            totals: { requests: cost.totals.requests, input_tokens: cost.totals.input, cache_read_tokens: cost.totals.cacheRead, cache_write_tokens: cost.totals.cacheWrite, uncached_tokens: cost.totals.uncached, output_tokens: cost.totals.output, usd: cost.totals.money },
          },
        }
      : {}),
    expectations: expectations.map((e) => ({ where: e.label, key: e.key, expected: e.expected, actual: e.actual, pass: e.pass })),
  };
}
