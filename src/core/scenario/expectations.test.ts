// The checker can fail. For every expectation key of the scenario format's table (types.ts EXPECT_KEYS:
// the contract's keys at step, cycle, call and load), one scenario where it passes and one where it
// must fail, and the failure line names the key, the expected and the actual value. A checker that
// goes blind (a key always passing, a value ignored) fails here.
import { describe, expect, it } from 'vitest';
import { show } from './check';
import { checkExpectations, recordableExpectations } from './expectations';
import type { RecordedKeys } from './expectations';
import { parseScenario } from './parse';
import { check, q } from './test-helpers';
import { EXPECT_KEYS } from './types';
import type { Expectations, ExpectWhere, Scenario } from './types';
import { runScenario } from '../turn/run';
import { costOfTimeline } from '../cost/conversation';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import { approximateTokenCounter } from '../providers/cost';

const LAYER = `[conversation.tools.'*']
enable = "discoverable"

[conversation.tools.read_file]
source = "local"
enable = "on"
summary = "Read a file."

[conversation.tools.deploy]
source = "local"
summary = "Deploy a branch."

[conversation.tools.page]
source = "local"
summary = "Page the on-call person."

[conversation.tools.lint]
source = "local"
enable = "off"
summary = "Lint."

[conversation.tools.gh_issue]
source = "mcp.github"
`;

/** The layer after step 2's `jp config set`. */
const EDITED = LAYER.replace('summary = "Lint."', 'summary = "Lint-code"');

/** Where a row's expectation goes; each slot is the body of one `expect` table of the fixture. */
type Slot = 'load' | 'step 1' | 'step 2' | 'step 3' | 'step 1 cycle 1' | 'step 1 cycle 2' | 'step 1 cycle 3' | 'step 1 cycle 1 call 2' | 'step 1 cycle 1 call 3' | 'step 1 cycle 2 call 1' | 'step 1 cycle 2 call 2';

/**
 * Step 1, a turn: cycle 1 approves a write turning `page` off, then searches "deploy" (promoted: usable)
 * and "page" (off by the fold at its index: unavailable); cycle 2 calls deploy and the off tool lint;
 * cycle 3 replies. Step 2 edits the layer. Step 3 fails (no tool `nope`). A `[load]` scenario has a
 * layer that does not load.
 */
function fixture(slot: Slot, body: string): string {
  const at = (s: Slot, fallback = ''): string => (s === slot ? body : fallback);
  const expect = (table: string, s: Slot, fallback = ''): string => {
    const text = at(s, fallback);
    return text === '' ? '' : `[${table}]\n${text}\n`;
  };
  if (slot === 'load') {
    return `name = "load"\n[load]\n${body}\n[[layers]]\nname = "workspace"\ntext = '''\n[conversation.tools.x]\nsource = "local"\nenable = "sometimes"\n'''\n`;
  }
  return `name = "checker"
[policy]
ranking = "substring"

[[layers]]
name = "workspace"
text = '''
${LAYER}'''

[servers.github]
tools = [ { name = "gh_issue", description = "Open an issue.", inputSchema = { type = "object" } } ]

[[steps]]
command = "jp q 'ship it'"
[[steps.cycles]]
[[steps.cycles.calls]]
tool = "read_file"
args = { path = "x" }
writes = ["conversation.tools.page.enable=off"]
approved = true
[[steps.cycles.calls]]
tool = "search_tools"
args = { query = "deploy" }
${expect('steps.cycles.calls.expect', 'step 1 cycle 1 call 2')}[[steps.cycles.calls]]
tool = "search_tools"
args = { query = "page" }
${expect('steps.cycles.calls.expect', 'step 1 cycle 1 call 3')}${expect('steps.cycles.expect', 'step 1 cycle 1')}
[[steps.cycles]]
[[steps.cycles.calls]]
tool = "deploy"
args = { branch = "main" }
result = "deployed to staging"
${expect('steps.cycles.calls.expect', 'step 1 cycle 2 call 1')}[[steps.cycles.calls]]
tool = "lint"
args = {}
${expect('steps.cycles.calls.expect', 'step 1 cycle 2 call 2')}${expect('steps.cycles.expect', 'step 1 cycle 2')}
[[steps.cycles]]
reply = "done"
${expect('steps.cycles.expect', 'step 1 cycle 3')}
${expect('steps.expect', 'step 1')}
[[steps]]
command = "jp config set conversation.tools.lint.summary=Lint-code"
${expect('steps.expect', 'step 2')}
[[steps]]
command = "jp q -t nope x"
${expect('steps.expect', 'step 3', 'error = "Tool not found"')}`;
}

/** A plain value as TOML (strings as basic strings, tables inline). */
function toml(v: unknown): string {
  if (typeof v === 'string') return q(v);
  if (Array.isArray(v)) return `[${v.map(toml).join(', ')}]`;
  if (typeof v === 'object' && v !== null) return `{ ${Object.entries(v).map(([k, x]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : q(k)} = ${toml(x)}`).join(', ')} }`;
  return String(v);
}

interface Row {
  readonly slot: Slot;
  readonly key: string;
  /** A value that holds (absent where none can: \`error\` where nothing failed). */
  readonly pass?: unknown;
  readonly fail: unknown;
  /** What the failure must report as the actual value. */
  readonly actual: unknown;
}

const OFFERED_1 = ['read_file', 'describe_tools', 'search_tools'];
const PERMITTED_1 = ['read_file', 'deploy', 'page', 'gh_issue', 'describe_tools', 'search_tools'];
const OFFERED_END = ['read_file', 'deploy', 'describe_tools', 'search_tools'];
const PERMITTED_END = ['read_file', 'deploy', 'gh_issue', 'describe_tools', 'search_tools'];
const LINT_ERROR = "Tool 'lint' is not available. It may have been available earlier in this conversation but is no longer enabled.";
const LOAD_ERROR = "invalid enable value: 'sometimes'";
/** Cycle 2's definition cost, as the run measures it (providers/cost.ts owns the figures). */
const COST = (() => {
  const cost = check(fixture('step 1', '')).timeline?.requests[1]?.cost;
  if (!cost || cost.offered <= 0 || cost.permitted <= cost.offered) throw new Error(`unexpected cost ${JSON.stringify(cost)}`);
  return { offered: cost.offered, permitted: cost.permitted };
})();

/** Cycle 3's request in the prompt-cache model at the provider's default model (core/cost owns the figures). */
const SPEND = (() => {
  const timeline = check(fixture('step 1', '')).timeline;
  if (!timeline) throw new Error('no timeline');
  const r = costOfTimeline(timeline, { table: DEFAULT_PRICE_TABLE, counter: approximateTokenCounter }).requests[2];
  if (!r || r.figures.input <= 0 || r.money.total <= 0) throw new Error(`unexpected request cost ${JSON.stringify(r?.figures)}`);
  return { tokens: { input: r.figures.input, read: r.figures.cacheRead, write: r.figures.cacheWrite, uncached: r.figures.uncached }, usd: Math.round(r.money.total * 1e6) / 1e6 };
})();

const ROWS: readonly Row[] = [
  // A step: the sets a plain invocation starts with after it (deploy promoted, page written off).
  { slot: 'step 1', key: 'offered', pass: ['search_tools', 'deploy', 'describe_tools', 'read_file'], fail: OFFERED_1, actual: OFFERED_END },
  { slot: 'step 1', key: 'permitted', pass: PERMITTED_END, fail: PERMITTED_1, actual: PERMITTED_END },
  { slot: 'step 1', key: 'searchable', pass: ['gh_issue'], fail: ['gh_issue', 'page'], actual: ['gh_issue'] },
  { slot: 'step 1', key: 'servers', pass: ['github'], fail: [], actual: ['github'] },
  { slot: 'step 1', key: 'offered_includes', pass: ['deploy'], fail: ['deploy', 'page'], actual: OFFERED_END },
  { slot: 'step 1', key: 'offered_excludes', pass: ['page', 'lint'], fail: ['page', 'deploy'], actual: OFFERED_END },
  { slot: 'step 1', key: 'permitted_includes', pass: ['gh_issue'], fail: ['lint'], actual: PERMITTED_END },
  { slot: 'step 1', key: 'permitted_excludes', pass: ['lint', 'page'], fail: ['gh_issue'], actual: PERMITTED_END },
  { slot: 'step 1', key: 'availability', pass: { deploy: 'on', page: 'off', gh_issue: 'discoverable' }, fail: { deploy: 'discoverable' }, actual: { deploy: 'on' } },
  { slot: 'step 1', key: 'search_tools', pass: true, fail: false, actual: true },
  { slot: 'step 3', key: 'error', pass: 'Tool not found: nope', fail: 'locked', actual: 'Tool not found: nope' },
  { slot: 'step 3', key: 'error', pass: ['Tool not found', 'nope'], fail: ['Tool not found', 'deploy'], actual: 'Tool not found: nope' },
  { slot: 'step 1', key: 'error', fail: 'Tool not found', actual: null },
  { slot: 'step 2', key: 'layer_text', pass: { workspace: EDITED }, fail: { workspace: LAYER }, actual: EDITED },
  { slot: 'step 2', key: 'layer_contains', pass: { workspace: ['summary = "Lint-code"'] }, fail: { workspace: ['summary = "Lint-code"', 'summary = "Lint."'] }, actual: EDITED },
  { slot: 'step 2', key: 'layer_excludes', pass: { workspace: ['summary = "Lint."'] }, fail: { workspace: ['Lint-code'] }, actual: EDITED },
  { slot: 'step 1', key: 'layer_text', pass: { workspace: LAYER }, fail: { nowhere: '' }, actual: null },

  // A cycle: its request, at the cycle's start position.
  { slot: 'step 1 cycle 1', key: 'offered', pass: OFFERED_1, fail: OFFERED_END, actual: OFFERED_1 },
  { slot: 'step 1 cycle 1', key: 'permitted', pass: PERMITTED_1, fail: PERMITTED_END, actual: PERMITTED_1 },
  { slot: 'step 1 cycle 1', key: 'searchable', pass: ['page', 'gh_issue', 'deploy'], fail: ['gh_issue'], actual: ['deploy', 'page', 'gh_issue'] },
  { slot: 'step 1 cycle 1', key: 'servers', pass: ['github'], fail: ['github', 'gitlab'], actual: ['github'] },
  { slot: 'step 1 cycle 1', key: 'offered_includes', pass: ['search_tools'], fail: ['deploy'], actual: OFFERED_1 },
  { slot: 'step 1 cycle 1', key: 'offered_excludes', pass: ['deploy'], fail: ['read_file'], actual: OFFERED_1 },
  { slot: 'step 1 cycle 1', key: 'permitted_includes', pass: ['page'], fail: ['lint'], actual: PERMITTED_1 },
  { slot: 'step 1 cycle 1', key: 'permitted_excludes', pass: ['lint'], fail: ['page'], actual: PERMITTED_1 },
  { slot: 'step 1 cycle 1', key: 'offered_order', pass: OFFERED_1, fail: ['describe_tools', 'read_file', 'search_tools'], actual: OFFERED_1 },
  { slot: 'step 1 cycle 1', key: 'availability', pass: { deploy: 'discoverable', page: 'discoverable', lint: 'off' }, fail: { page: 'off' }, actual: { page: 'discoverable' } },
  { slot: 'step 1 cycle 2', key: 'availability', pass: { deploy: 'on', page: 'off', search_tools: 'on', describe_tools: 'on' }, fail: { deploy: 'on', nope: 'on' }, actual: { deploy: 'on', nope: 'not configured' } },
  { slot: 'step 1 cycle 1', key: 'search_tools', pass: true, fail: false, actual: true },
  { slot: 'step 1 cycle 1', key: 'tool_choice', pass: 'auto', fail: 'required', actual: 'auto' },
  { slot: 'step 1 cycle 1', key: 'cache', pass: 'miss', fail: 'hit', actual: 'miss' },
  { slot: 'step 1 cycle 3', key: 'cache', pass: 'hit', fail: 'miss', actual: 'hit' },
  { slot: 'step 1 cycle 2', key: 'overhead_chars', pass: { ...COST }, fail: { offered: COST.offered, permitted: COST.permitted - 1 }, actual: { ...COST } },
  // Every name is one Anthropic takes: the request has no provider finding (src/core/providers/rules.test.ts has the findings).
  { slot: 'step 1 cycle 2', key: 'provider_warnings', pass: [], fail: ['error: Anthropic refuses'], actual: [] },
  // The cost keys compare the cycle's request in the cache model; a wrong count or price, or one model's figures for another's, fails.
  { slot: 'step 1 cycle 3', key: 'cache_tokens', pass: { ...SPEND.tokens }, fail: { read: SPEND.tokens.read + 1 }, actual: SPEND.tokens },
  { slot: 'step 1 cycle 3', key: 'cache_tokens', pass: { input: SPEND.tokens.input }, fail: { input: SPEND.tokens.input, uncached: SPEND.tokens.uncached + 7 }, actual: SPEND.tokens },
  { slot: 'step 1 cycle 3', key: 'cost_usd', pass: SPEND.usd, fail: SPEND.usd + 0.001, actual: SPEND.usd },
  { slot: 'step 1 cycle 3', key: 'cost_usd', fail: { usd: SPEND.usd, model: 'no-such-model' }, actual: 'no model "no-such-model" for provider anthropic in the price table' },

  // A call: its result (the searches' statuses are the fold's).
  { slot: 'step 1 cycle 1 call 2', key: 'returned', pass: ['deploy'], fail: ['page'], actual: ['deploy'] },
  { slot: 'step 1 cycle 1 call 2', key: 'returned_includes', pass: ['deploy'], fail: ['deploy', 'gh_issue'], actual: ['deploy'] },
  { slot: 'step 1 cycle 1 call 2', key: 'usable', pass: ['deploy'], fail: [], actual: ['deploy'] },
  { slot: 'step 1 cycle 1 call 3', key: 'usable', pass: [], fail: ['page'], actual: [] },
  { slot: 'step 1 cycle 1 call 3', key: 'unavailable', pass: ['page'], fail: [], actual: ['page'] },
  { slot: 'step 1 cycle 1 call 2', key: 'total', pass: 1, fail: 2, actual: 1 },
  { slot: 'step 1 cycle 1 call 2', key: 'status', pass: 'ok', fail: 'error', actual: 'ok' },
  { slot: 'step 1 cycle 2 call 2', key: 'status', pass: 'error', fail: 'ok', actual: 'error' },
  { slot: 'step 1 cycle 1 call 2', key: 'result_contains', pass: ['"name":"deploy"', '"status":"usable"'], fail: ['"name":"deploy"', 'unavailable'], actual: '{"tools":[{"name":"deploy","summary":"Deploy a branch.","status":"usable"}],"total":1}' },
  { slot: 'step 1 cycle 2 call 2', key: 'error', pass: 'is not available', fail: 'locked', actual: LINT_ERROR },
  { slot: 'step 1 cycle 2 call 1', key: 'error', fail: 'failed', actual: null },

  // Loading the layers.
  { slot: 'load', key: 'error', pass: LOAD_ERROR, fail: 'no such problem', actual: [`${LOAD_ERROR}, expected a boolean, one of "on", "off", "explicit", "always", "discoverable", or an { availability, allow_toggle } table`] },
];

function whereOf(slot: Slot): ExpectWhere {
  if (slot === 'load') return 'load';
  return slot.includes('call') ? 'call' : slot.includes('cycle') ? 'cycle' : 'step';
}

/** The key a result reports: a layer key names its layer. */
function shownKey(key: string, value: unknown): string {
  return key.startsWith('layer_') ? `${key}.${Object.keys(value as object)[0] ?? ''}` : key;
}

/** The value a result reports as expected: a layer key's value for its layer. */
function shownExpected(key: string, value: unknown): unknown {
  return key.startsWith('layer_') ? Object.values(value as object)[0] : value;
}

/** The one result of a row's expectation, with the report's failure line for it. */
function resultOf(row: Row, value: unknown) {
  const report = check(fixture(row.slot, `${row.key} = ${toml(value)}`));
  expect(report.fileErrors).toEqual([]);
  const key = shownKey(row.key, value);
  const results = report.expectations.filter((e) => e.label === row.slot && e.key === key);
  expect(results, `exactly one result for ${row.slot}: ${key}`).toHaveLength(1);
  const line = report.failures.find((f) => f.startsWith(`test.toml: ${row.slot}: ${key}: `));
  return { report, result: results[0], line };
}

describe('the checker: every expectation key passes when it holds and fails when it does not', () => {
  it('the table has a passing and a failing row for every key at every place the format allows it', () => {
    for (const [where, keys] of Object.entries(EXPECT_KEYS)) {
      for (const key of keys) {
        const rows = ROWS.filter((r) => r.key === key && whereOf(r.slot) === where);
        expect(rows.length, `${where}: ${key}`).toBeGreaterThan(0);
        expect(rows.some((r) => r.pass !== undefined), `${where}: ${key} passing`).toBe(true);
      }
    }
  });

  it('the fixture passes with nothing expected but the failing step', () => {
    const report = check(fixture('step 1', ''));
    expect(report.fileErrors).toEqual([]);
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(1);
  });

  for (const row of ROWS) {
    const name = `${row.slot}: ${row.key} = `;
    if (row.pass !== undefined) {
      const pass = row.pass;
      it(`${name}${toml(pass).slice(0, 60)} passes`, () => {
        const { report, result } = resultOf(row, pass);
        expect(result?.pass).toBe(true);
        expect(report.failures).toEqual([]);
      });
    }
    it(`${name}${toml(row.fail).slice(0, 60)} fails, naming the key, the expected and the actual value`, () => {
      const { result, line } = resultOf(row, row.fail);
      expect(result?.pass).toBe(false);
      expect(result?.actual).toEqual(row.actual);
      expect(line).toBe(`test.toml: ${row.slot}: ${shownKey(row.key, row.fail)}: expected ${show(shownExpected(row.key, row.fail))}, got ${show(row.actual)}`);
    });
  }

  it('a step that fails without expecting an error fails the check, naming its error', () => {
    const report = check(fixture('step 3', 'search_tools = true'));
    expect(report.failures).toEqual(['test.toml: step 3: error: expected null, got "Tool not found: nope"']);
  });
});

describe('recording reads what the checker reads', () => {
  const parsed = parseScenario(fixture('step 1', ''));
  if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
  const timeline = runScenario({ scenario: parsed.scenario });
  const recorded = recordableExpectations(timeline, 1);
  const asExpect = (keys: RecordedKeys | undefined): Expectations | undefined =>
    keys && Object.keys(keys).length > 0 ? new Map(Object.entries(keys).map(([k, value]) => [k, { value, span: { start: 0, end: 0 } }])) : undefined;

  it('writes each cycle\'s cache and newly offered tools, each call\'s outcome, and what its searches made usable', () => {
    expect(recorded.cycles.map((c) => c.expect)).toEqual([{ cache: 'miss' }, { cache: 'miss', offered_includes: ['deploy'] }, { cache: 'hit' }]);
    expect(recorded.cycles[0]?.calls).toEqual([
      { status: 'ok' },
      { status: 'ok', returned: ['deploy'], usable: ['deploy'], total: 1 },
      { status: 'ok', returned: ['page'], usable: [], unavailable: ['page'], total: 1 },
    ]);
    expect(recorded.cycles[1]?.calls).toEqual([{ status: 'ok' }, { status: 'error', error: LINT_ERROR }]);
    expect(recorded.expect).toEqual({ availability: { deploy: 'on' } });
  });

  it('every recorded expectation passes against the run it was read from', () => {
    const [first, ...rest] = parsed.scenario.steps;
    if (!first) throw new Error('no step');
    const step = {
      ...first,
      cycles: first.cycles.map((c, i) => ({
        ...c,
        expect: asExpect(recorded.cycles[i]?.expect),
        calls: c.calls.map((call, k) => ({ ...call, expect: asExpect(recorded.cycles[i]?.calls[k]) })),
      })),
      expect: asExpect(recorded.expect),
    };
    const scenario = { ...parsed.scenario, steps: [step, ...rest] } as Scenario;
    const results = checkExpectations(scenario, timeline).filter((e) => e.where.step === 1);
    expect(results.length).toBe(18);
    expect(results.filter((e) => !e.pass)).toEqual([]);
  });
});
