// What discovery really costs (issue 13), per provider, for the demo and for GitHub's MCP server
// (117 tools, the 8 most useful kept on, the rest discoverable): the conversation in each provider's
// prompt-cache model at the first model of the dated price table, against the same conversation with
// every tool on (JP today): money (prefill tokens for local runtimes), cache reads, the net saving,
// and where discovery breaks even in the synthetic sweep over the catalogue's own tool sizes.
//
//   npx tsx bench/cost.ts            (or through `npm run bench`)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { applyImport, buildImport, readCatalogue, serverNameFromFileName } from '../src/core/import/index';
import { EMPTY_DOC, writeScenario } from '../src/core/scenario/doc';
import type { ScenarioDoc } from '../src/core/scenario/doc';
import { parseScenario } from '../src/core/scenario/parse';
import type { Scenario } from '../src/core/scenario/types';
import { POLICY_CHOICES } from '../src/core/scenario/policy';
import { runScenario } from '../src/core/turn/run';
import type { TokenCounter } from '../src/core/providers/cost';
import { DEFAULT_PRICE_TABLE } from '../src/core/providers/prices';
import { TokenMemo, breakEven, catalogueSizes, compareDiscovery } from '../src/core/cost/index';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const o200k: TokenCounter = { id: 'o200k_base', count: (t) => (t === '' ? 0 : countTokens(t, { disallowedSpecial: new Set() })) };
const TURNS = [1, 2, 5, 10, 20];

function demo(): Scenario {
  const p = parseScenario(readFileSync(join(root, 'src', 'app', 'demo-scenario.toml'), 'utf8'));
  if (!p.ok) throw new Error(p.errors[0]?.message);
  return p.scenario;
}

/** GitHub's catalogue imported discoverable (8 kept on), and a three-turn conversation with two discoveries. */
function github(): Scenario {
  const file = 'github-mcp-server.tools-list.json';
  const read = readCatalogue(readFileSync(join(root, '..', 'shared', 'data', 'catalogues', file), 'utf8'), file);
  if (!read.ok) throw new Error(read.errors.join('\n'));
  const base: ScenarioDoc = { ...EMPTY_DOC, layers: [] };
  const result = buildImport(read.catalogue, { policy: { kind: 'discoverable', keep: 8, offDestructive: true }, origin: file, into: base, serverNames: [serverNameFromFileName(file)] });
  const doc: ScenarioDoc = {
    ...applyImport(base, result),
    name: 'GitHub MCP server: two discoveries in three turns',
    steps: [
      { command: "jp q 'Which pull requests are open?'", cycles: [{ calls: [{ tool: 'search_tools', args: { query: 'list pull requests' } }] }, { calls: [{ tool: 'list_pull_requests', args: {} }] }, { calls: [], reply: 'Three are open.' }] },
      { command: "jp q 'Find the commit that broke the build'", elapsed: 120, cycles: [{ calls: [{ tool: 'search_tools', args: { query: 'commits' } }] }, { calls: [{ tool: 'list_commits', args: {} }] }, { calls: [], reply: 'It is abc123.' }] },
      { command: "jp q 'Thanks, summarize'", elapsed: 120, cycles: [{ calls: [], reply: 'Done.' }] },
    ],
  };
  const p = parseScenario(writeScenario(doc));
  if (!p.ok) throw new Error(p.errors[0]?.message);
  return p.scenario;
}

const money = (v: number) => `${v < 0 ? '-' : ''}$${Math.abs(v).toFixed(5)}`;

function report(name: string, scenario: Scenario): void {
  console.log(`\n  ${name}`);
  console.log('  provider              model                       discoverable   all on         saving       cache reads (disc / all on)   breaks even (turns: tools)');
  for (const provider of POLICY_CHOICES.provider) {
    const s = { ...scenario, policy: { ...scenario.policy, provider } };
    const run = (sc: Scenario) => runScenario({ scenario: sc });
    const t = run(s);
    const memo = new TokenMemo(o200k);
    const cmp = compareDiscovery(s, t, run, { table: DEFAULT_PRICE_TABLE, counter: o200k, memo });
    const own = cmp.variants[0]?.cost;
    const allOn = cmp.variants.find((v) => v.id === 'all-on')?.cost;
    if (!own || !allOn) continue;
    const local = !own.rules.money;
    const fig = (c: typeof own) => (local ? `${c.totals.uncached} prefill` : money(c.totals.money));
    const saving = local ? `${cmp.saving.uncached} tok` : money(cmp.saving.money);
    const sizes = catalogueSizes(t, memo);
    const n = sizes.discoverableTools.length;
    const sweep = Array.from({ length: Math.min(n, 120) + 1 }, (_, i) => i);
    const be = breakEven({ provider, table: DEFAULT_PRICE_TABLE, ...sizes, promotedPosition: s.policy.promoted_position, sizes: sweep, turns: TURNS, discoveries: 1 });
    const where = be.breakEven.map((b) => `${b.turns}: ${b.size ?? 'never'}`).join(', ');
    console.log(`  ${provider.padEnd(21)} ${own.model.id.padEnd(27)} ${fig(own).padEnd(14)} ${fig(allOn).padEnd(14)} ${saving.padEnd(12)} ${`${own.totals.cacheRead} / ${allOn.totals.cacheRead}`.padEnd(29)} ${where} (of ${n})`);
  }
}

export function run(): void {
  console.log(`  prices of ${DEFAULT_PRICE_TABLE.date}; tokens o200k_base; saving = all on minus discoverable (positive: discovery is cheaper); break-even: one discovery per conversation, the smallest catalogue from which discovery stays cheaper`);
  report('demo (src/app/demo-scenario.toml)', demo());
  report('GitHub MCP server (../shared/data/catalogues/github-mcp-server.tools-list.json, 8 kept on)', github());
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) run();
