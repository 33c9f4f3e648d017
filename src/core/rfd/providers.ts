// RFD 108 "Provider behaviour": fewer definitions in context everywhere, the prefix cache kept across a
// discovery only with RFD 105's tool directives. One scenario (two tools on, a dozen discoverable, a
// search that promotes one, and the next request of the same turn) runs under every provider of a row.
import { cacheStatus } from '../cost/cache-status';
import type { TokenCounter } from '../providers/cost';
import { setTokens } from '../providers/cost';
import type { ToolDefinition } from '../catalogue/types';
import type { ProviderId } from '../scenario/policy';
import type { RequestRecord } from '../turn/timeline';
import { cell, counts, entryWhere, localTool, run, scenarioRef } from './run';
import type { Ran } from './run';
import type { RfdRow, RfdTable } from './types';

const SERVICES = ['orders', 'billing', 'search', 'users', 'payments', 'inventory'];

const LAYER = `[conversation.tools.'*']
enable = "discoverable"

${localTool('fs_read_file', '"on"', 'Read a file from the workspace.')}
${localTool('git_status', '"on"', 'Show the working tree status.')}
${SERVICES.flatMap((s) => [
  localTool(`${s}_logs`, '"discoverable"', `Fetch the recent logs of the ${s} service.`),
  localTool(`${s}_deploy`, '"discoverable"', `Deploy the ${s} service to an environment.`),
]).join('\n')}`;

const REST = `[[steps]]
command = "jp q 'Why is the billing service slow?'"

  [[steps.cycles]]

    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "billing logs", limit = 1 }
    expect = { returned = ["billing_logs"] }

  [[steps.cycles]]
  reply = "Its logs show a slow query."
  [steps.cycles.expect]
  offered_includes = ["billing_logs"]`;

interface ProviderRow {
  readonly label: string;
  readonly providers: readonly ProviderId[];
  readonly cache: 'yes' | 'no';
  readonly quote: string;
}

const ROWS: readonly ProviderRow[] = [
  { label: 'Anthropic with RFD 105 tool directives', providers: ['anthropic-directives'], cache: 'yes', quote: 'yes, subject to catalogue stability (RFD 105 excludes MCP tools, fetched from the server each turn)' },
  { label: 'Anthropic without them', providers: ['anthropic'], cache: 'no', quote: 'the array grows when a promotion lands' },
  { label: 'OpenAI, Google, OpenRouter, Cerebras', providers: ['openai', 'google', 'openrouter', 'cerebras'], cache: 'no', quote: 'the array grows when a promotion lands' },
  { label: 'Ollama, llama.cpp', providers: ['ollama', 'llamacpp'], cache: 'no', quote: 'chat templates place tool definitions ahead of the messages (inferred, not measured)' },
];

function runFor(provider: ProviderId): Ran {
  return run({
    name: `RFD 108 providers: a discovery under ${provider}`,
    description: `Two tools on and twelve discoverable; the search promotes billing_logs, and the next request of the same turn carries it. Under ${provider}: are fewer definitions in context, and is the prefix cache kept across the discovery?`,
    policy: [`provider = "${provider}"`, 'ranking = "bm25"'],
    layer: LAYER,
    rest: REST,
  });
}

function defs(r: RequestRecord, names: readonly string[]): ToolDefinition[] {
  return names.map((n) => r.definitions.get(n)).filter((d): d is ToolDefinition => d !== undefined);
}

/** "1,234": figures in the report read like figures. */
const n = (x: number): string => x.toLocaleString('en-US');

function providerRow(row: ProviderRow, tokens: TokenCounter): RfdRow {
  const runs = row.providers.map((p) => ({ provider: p, ran: runFor(p) }));
  const first = runs[0];
  if (!first) throw new Error('a provider row without providers');
  const fewer: string[] = [];
  const cacheOf: string[] = [];
  for (const { provider, ran } of runs) {
    const r1 = ran.timeline.requests.find((r) => r.cycle === 1);
    const r2 = ran.timeline.requests.find((r) => r.cycle === 2);
    fewer.push(r1 && r1.cost.offered < r1.cost.permitted ? 'yes' : `no (${provider})`);
    cacheOf.push(r2?.cache().status === 'hit' ? 'yes' : `no (${provider})`);
  }
  const verdict = (list: readonly string[]): string => (list.every((x) => x === 'yes') ? 'yes' : list.every((x) => x.startsWith('no')) ? 'no' : list.join(', '));
  const r1 = first.ran.timeline.requests.find((r) => r.cycle === 1);
  const r2 = first.ran.timeline.requests.find((r) => r.cycle === 2);
  const sizes = r1
    ? `${n(r1.cost.offered)} B, ${n(setTokens(defs(r1, r1.sets.offered), tokens))} tokens offered, of ${n(r1.cost.permitted)} B, ${n(setTokens(defs(r1, r1.sets.permitted), tokens))} tokens permitted (${tokens.id})`
    : 'no request';
  // The one cache word (issue 24.6): the question is the prefix, which the byte comparison answers.
  const cache = r2 ? `${cacheStatus(r2.cache()).text}: ${r2.cache().reason}` : 'no second request';
  const counted = runs.reduce((acc, x) => ({ passed: acc.passed + counts(x.ran).passed, failed: acc.failed + counts(x.ran).failed }), { passed: 0, failed: 0 });
  return {
    id: `provider-${row.providers.join('-')}`,
    label: row.label,
    cells: [cell('yes', verdict(fewer), sizes), cell(row.cache, verdict(cacheOf), cache)],
    quote: row.quote,
    scenario: scenarioRef(first.ran, entryWhere(first.ran.timeline, (e) => e.kind === 'request' && e.cycle === 2)),
    expectations: counted,
  };
}

export function providerTable(tokens: TokenCounter): RfdTable {
  return {
    id: 'providers',
    title: 'Provider behaviour: fewer definitions, and the cache across a discovery',
    source: 'Design › Provider behaviour',
    note: 'Definitions in context are JP\'s estimate (name + description + schema, UTF-8 bytes) of the first request; the cache compares the request after the promotion with the one before it.',
    columns: ['Fewer definitions in context', 'Cache preserved across a discovery'],
    quoteColumn: 'The RFD adds',
    rows: ROWS.map((r) => providerRow(r, tokens)),
  };
}
