// Semantics section 4 (the sets at a stream position) and the section-8 details
// it touches (8.2 live layers, 8.3 builtins, 8.4 offline servers, 8.9
// executable = permitted, 8.25 registration), end to end and on the engine.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import type { SimServer } from '../catalogue/resolve';
import { assertPass, cycle, layer, policy, scenario, step, timelineOf } from '../scenario/test-helpers';
import { StreamEngine } from './engine';
import { computeSets, toolCount } from './sets';

const SERVERS = `
[servers.gh]
tools = [
  { name = "list_prs", description = "List pull requests.", inputSchema = { type = "object", properties = { repo = { type = "string" } } } },
  { name = "merge_pr", description = "Merge a pull request.", inputSchema = { type = "object" } },
  { name = "close_pr", description = "Close a pull request.", inputSchema = { type = "object" } },
]
[servers.jira]
status = "offline"
tools = [ { name = "search", description = "Search issues.", inputSchema = { type = "object" } } ]
[servers.idle]
tools = [ { name = "noop", description = "Nothing.", inputSchema = { type = "object" } } ]
`;

// One tool per kind of row of the section-4 table, interleaved so config order is visible.
const CATALOGUE = layer(`
[conversation.tools.read_file]
source = "local"
summary = "Read a file."

[conversation.tools.list_prs]
source = "mcp.gh"
enable = "discoverable"

[conversation.tools.rm_rf]
source = "local"
enable = "off"

[conversation.tools.merge]
source = "mcp.gh.merge_pr"

[conversation.tools.jira]
source = "mcp.jira.search"

[conversation.tools.jira_hidden]
source = "mcp.jira.search"
enable = "discoverable"

[conversation.tools.ghost]
source = "mcp.gh.not_listed"

[conversation.tools.deploy]
source = "local"
enable = { availability = "discoverable", allow_toggle = "never" }

[conversation.tools.close]
source = "mcp.gh.close_pr"
enable = "off"

[conversation.tools.noop]
source = "mcp.idle"
enable = "off"

[conversation.tools.elsewhere]
source = "mcp.nowhere"
enable = "discoverable"
`);

describe('§4 the sets at a position, row by row', () => {
  // [set expectation key, members]
  const rows: readonly [string, string][] = [
    ['permitted', '["read_file", "list_prs", "merge", "deploy", "describe_tools", "search_tools"]'],
    ['offered_order', '["read_file", "merge", "describe_tools", "search_tools"]'],
    ['offered', '["read_file", "merge", "describe_tools", "search_tools"]'],
    ['searchable', '["list_prs", "deploy"]'],
    ['servers', '["gh"]'],
    ['permitted_excludes', '["rm_rf", "jira", "jira_hidden", "ghost", "close", "noop", "elsewhere"]'],
    ['availability', '{ read_file = "on", list_prs = "discoverable", rm_rf = "off", jira = "on", jira_hidden = "discoverable", ghost = "on", deploy = "discoverable", elsewhere = "discoverable", describe_tools = "on", search_tools = "on" }'],
    ['search_tools', 'true'],
  ];
  it.each(rows)('%s = %s', (key, value) => {
    assertPass(scenario(SERVERS, CATALOGUE, step("jp q 'hi'", `${key} = ${value}`.replace('offered_order', 'offered'), cycle({ reply: 'ok', expect: `${key} = ${value}` }))));
  });

  it('configured: every configured tool, then the builtins', () => {
    const t = timelineOf(scenario(SERVERS, CATALOGUE, step("jp q 'hi'")));
    expect(t.requests[0]?.sets.configured).toEqual([
      'read_file', 'list_prs', 'rm_rf', 'merge', 'jira', 'jira_hidden', 'ghost', 'deploy', 'close', 'noop', 'elsewhere', 'describe_tools', 'search_tools',
    ]);
    expect(t.setsAt(0).configured).toEqual(t.requests[0]?.sets.configured);
  });

  it('describable = permitted: describe_tools documents permitted tools only', () => {
    assertPass(
      scenario(
        SERVERS,
        CATALOGUE,
        step(
          "jp q 'docs'",
          undefined,
          cycle({
            calls: `[
  { tool = "describe_tools", args = { tools = ["list_prs", "deploy", "read_file"] }, expect = { status = "ok", result_contains = ["## list_prs", "List pull requests.", "## deploy", "## read_file", "Read a file."] } },
  { tool = "describe_tools", args = { tools = ["rm_rf", "jira", "list_prs"] }, expect = { status = "ok", result_contains = ["## list_prs", "No additional documentation available for: rm_rf, jira"] } },
]`,
          }) + cycle({ reply: 'ok' }),
        ),
      ),
    );
  });

  it('executable = permitted: a discoverable tool never promoted runs; others get JP\'s executor error (8.9)', () => {
    const notAvailable = (n: string): string =>
      `{ tool = "${n}", args = {}, expect = { status = "error", error = "Tool '${n}' is not available. It may have been available earlier in this conversation but is no longer enabled." } }`;
    assertPass(
      scenario(
        SERVERS,
        CATALOGUE,
        step(
          "jp q 'run'",
          'availability = { list_prs = "discoverable", deploy = "discoverable" }',
          cycle({
            calls: `[
  { tool = "list_prs", args = { repo = "jp" }, expect = { status = "ok" } },
  { tool = "deploy", args = {}, result = "deployed", expect = { status = "ok", result_contains = "deployed" } },
  { tool = "merge", args = {}, expect = { status = "ok" } },
  ${['rm_rf', 'jira', 'jira_hidden', 'ghost', 'close', 'elsewhere', 'unknown_tool'].map(notAvailable).join(',\n  ')},
]`,
          }) + cycle({ reply: 'ok' }),
        ),
      ),
    );
  });

  it('offered order: configured tools in config order, then describe_tools, then search_tools', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.zeta]\nsource = "local"\n[conversation.tools.alpha]\nsource = "local"\nenable = "off"\n`, 'user'),
        layer(`[conversation.tools.mid]\nsource = "local"\nenable = "discoverable"\n[conversation.tools.alpha]\nenable = "on"\n`),
        step("jp q 'a'", undefined, cycle({ reply: 'x', expect: 'offered_order = ["zeta", "alpha", "describe_tools", "search_tools"]' })),
        // Tools configured by a delta come after every layer tool; promoted tools keep their place.
        step('jp config set --id conversation.tools.new.source=local conversation.tools.mid.enable=on'),
        step("jp q 'b'", undefined, cycle({ reply: 'x', expect: 'offered_order = ["zeta", "alpha", "mid", "new", "describe_tools", "search_tools"]' })),
        step("jp q -u new -T zeta 'c'", undefined, cycle({ reply: 'x', expect: 'offered_order = ["alpha", "mid", "new", "describe_tools", "search_tools"]' })),
      ),
    );
  });

  it('the forced tool joins offered in its config position, before the builtins', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\nenable = "off"\n[conversation.tools.c]\nsource = "local"\n`),
        step("jp q -u b 'x'", undefined, cycle({ reply: 'x', expect: 'offered_order = ["a", "b", "c", "describe_tools"]' })),
      ),
    );
  });

  it('8.4: offline servers and unlisted tools leave the permitted set with a warning; the invocation goes on', () => {
    const t = timelineOf(scenario(SERVERS, CATALOGUE, step("jp q 'hi'", undefined, cycle({ reply: 'ok' }))));
    const warnings = t.entries.filter((e) => e.kind === 'warning').map((e) => (e.kind === 'warning' ? e.message : ''));
    expect(warnings.some((w) => w.includes('`jira`') && w.includes('not running'))).toBe(true);
    expect(warnings.some((w) => w.includes('`jira_hidden`'))).toBe(true);
    expect(warnings.some((w) => w.includes('does not list `not_listed`'))).toBe(true);
    expect(warnings.some((w) => w.includes('`nowhere`') && w.includes('`elsewhere`'))).toBe(true);
    // Off tools are not warned about: nothing would have used them.
    expect(warnings.some((w) => w.includes('`close`') || w.includes('`noop`'))).toBe(false);
    expect(t.requests).toHaveLength(1);
  });

  it('8.4: turning an offline tool on later warns when it first matters', () => {
    const text = scenario(
      `[servers.down]\nstatus = "offline"\ntools = [ { name = "t", inputSchema = { type = "object" } } ]\n`,
      layer(`[conversation.tools.t]\nsource = "mcp.down"\nenable = "off"\n`),
      step("jp q 'a'", 'permitted = ["describe_tools"]'),
      step("jp q -t t 'b'", 'permitted = ["describe_tools"]\navailability = { t = "on" }\nservers = []'),
    );
    assertPass(text);
    const t = timelineOf(text);
    const warnings = t.entries.filter((e) => e.kind === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ step: 2 });
  });
});

describe('§4 / §8.25 registration of search_tools', () => {
  it('RFD phase 3: a conversation with no discoverable tool gains the builtin after a --cfg delta introduces one', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\n`),
        step("jp q 'one'", 'search_tools = false\noffered = ["a", "b", "describe_tools"]', cycle({ reply: 'x', expect: 'search_tools = false\noffered = ["a", "b", "describe_tools"]' })),
        step(
          "jp q --cfg conversation.tools.b.enable=discoverable 'two'",
          'search_tools = true\nsearchable = ["b"]',
          cycle({ reply: 'x', expect: 'search_tools = true\noffered = ["a", "describe_tools", "search_tools"]\nsearchable = ["b"]' }),
        ),
      ),
    );
  });

  it('RFD phase 3: a conversation keeps the builtin after every discoverable tool has been promoted', () => {
    assertPass(
      scenario(
        policy({ ranking: 'substring' }),
        layer(`[conversation.tools.deploy_web]\nsource = "local"\nsummary = "Deploy the web app."\nenable = "discoverable"\n[conversation.tools.deploy_api]\nsource = "local"\nsummary = "Deploy the API."\nenable = "discoverable"\n`),
        step(
          "jp q 'deploy everything'",
          'search_tools = true\nsearchable = []\navailability = { deploy_web = "on", deploy_api = "on", search_tools = "on" }',
          cycle({ calls: '[ { tool = "search_tools", args = { query = "deploy" }, expect = { usable = ["deploy_web", "deploy_api"] } } ]', expect: 'searchable = ["deploy_web", "deploy_api"]' }) +
            cycle({ reply: 'done', expect: 'search_tools = true\noffered = ["deploy_web", "deploy_api", "describe_tools", "search_tools"]\nsearchable = []' }),
        ),
        step("jp q 'later'", 'search_tools = true', cycle({ reply: 'x', expect: 'offered_order = ["deploy_web", "deploy_api", "describe_tools", "search_tools"]' })),
      ),
    );
  });

  it.each([
    ['a -T of every discoverable tool', "jp q 'x' -T"],
    ['a --cfg turning it on', "jp q --cfg conversation.tools.d.enable=on 'x'"],
    ['a config set --id', 'jp config set --id conversation.tools.d.enable=off'],
    ["a '*' change", "jp config set --id conversation.tools.'*'.enable=off"],
    ['a layer edit', 'jp config set conversation.tools.d.enable=on'],
  ])('registration never turns off: %s', (_label, command) => {
    assertPass(
      scenario(
        layer(`[conversation.tools.'*']\nenable = "discoverable"\n[conversation.tools.d]\nsource = "local"\n[conversation.tools.e]\nsource = "local"\nenable = "on"\n`),
        step("jp q 'first'", 'search_tools = true'),
        step(command, 'search_tools = true\nsearchable = []\noffered_includes = ["search_tools"]\navailability = { search_tools = "on" }'),
        step("jp q 'after'", 'search_tools = true', cycle({ reply: 'x', expect: 'offered_includes = ["search_tools"]' })),
      ),
    );
  });

  it.each([
    ['config set --id', 'jp config set --id conversation.tools.a.enable=discoverable'],
    ["'*' by config set --id", "jp config set --id conversation.tools.'*'.enable=discoverable"],
    ['a layer edit (layers are live, 8.2)', 'jp config set conversation.tools.a.enable=discoverable'],
    ['a new discoverable tool by --cfg', "jp q --cfg conversation.tools.z.source=local --cfg conversation.tools.z.enable=discoverable 'x'"],
    ['a legacy-free table form', `jp q --cfg 'conversation.tools.a.enable:={"availability":"discoverable"}' 'x'`],
  ])('registration starts with the first position holding a discoverable tool: %s', (_label, command) => {
    const text = scenario(layer(`[conversation.tools.a]\nsource = "local"\n`), step("jp q 'before'", 'search_tools = false'), step(command, 'search_tools = true'));
    assertPass(text);
    const t = timelineOf(text);
    expect(t.positions.map((p) => p.registered)).toEqual([false, true]);
  });

  it('only config positions count: a tool discoverable inside one invocation but off after it does not register', () => {
    const text = scenario(
      layer(`[conversation.tools.a]\nsource = "local"\nenable = "off"\n`),
      step("jp q --cfg conversation.tools.a.enable=discoverable -T a 'x'", 'search_tools = false\navailability = { a = "off" }'),
      step("jp q -u a 'y'", 'search_tools = false', cycle({ reply: 'x', expect: 'search_tools = false\noffered = ["a", "describe_tools"]' })),
    );
    assertPass(text);
  });

  it("'*' = discoverable with no configured tool registers nothing: registration counts configured tools", () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.'*']\nenable = "discoverable"\n`),
        step("jp q 'x'", 'search_tools = false\noffered = ["describe_tools"]\nsearchable = []'),
        step('jp config set --id conversation.tools.a.source=local', 'search_tools = true\nsearchable = ["a"]'),
      ),
    );
  });

  it.each([
    ['an offline server', `[servers.down]\nstatus = "offline"\ntools = [ { name = "t", inputSchema = { type = "object" } } ]\n`, 'mcp.down'],
    ['a server the scenario does not define', '', 'mcp.undefined_server'],
    ['a running server that does not list it', `[servers.up]\ntools = [ { name = "other", inputSchema = { type = "object" } } ]\n`, 'mcp.up'],
  ])('8.25: a discoverable tool of %s still registers search_tools', (_label, servers, source) => {
    assertPass(
      scenario(
        servers,
        layer(`[conversation.tools.t]\nsource = "${source}"\nenable = "discoverable"\n[conversation.tools.l]\nsource = "local"\n`),
        step("jp q 'x'", 'search_tools = true\nsearchable = []\npermitted = ["l", "describe_tools", "search_tools"]\navailability = { t = "discoverable" }'),
      ),
    );
  });
});

describe('§8.2 layers are live', () => {
  it('a layer edit applies to every later position; earlier positions keep what they had', () => {
    const text = scenario(
      layer(`[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\n`),
      step("jp q -T a 'x'", 'availability = { a = "off", b = "on" }'),
      step('jp config set conversation.tools.a.enable=discoverable conversation.tools.b.enable=discoverable', 'availability = { a = "off", b = "discoverable" }\nlayer_contains = { workspace = ["enable = \\"discoverable\\""] }'),
      step("jp q 'y'", 'availability = { a = "off", b = "discoverable" }\nsearch_tools = true'),
    );
    assertPass(text);
    const t = timelineOf(text);
    expect(t.positions.map((p) => p.event.kind)).toEqual(['base', 'delta', 'layer-edit']);
    expect(t.statesAt(0).get('b')?.enable.availability.value).toBe('on');
    expect(t.statesAt(1).get('b')?.enable.availability.value).toBe('on');
    expect(t.statesAt(2).get('b')?.enable.availability.value).toBe('discoverable');
    expect(t.positions.map((p) => p.registered)).toEqual([false, false, true]);
  });
});

describe('StreamEngine: incremental positions equal positions derived from scratch', () => {
  const servers = new Map<string, SimServer>();
  it('after deltas touching tools and then \'*\', every position replays to the from-scratch state', () => {
    const base = loadLayer({ name: 'w', text: `[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\nenable = "discoverable"\n[conversation.tools.c]\nenable = { allow_toggle = "never" }\n` });
    const deltas = [
      `[conversation.tools.a]\nenable = "off"\n`,
      `[conversation.tools.'*']\nenable = { availability = "discoverable" }\n`,
      `[conversation.tools.d]\nsource = "local"\n`,
      `[conversation.tools.b]\nenable = { availability = "on" }\n`,
      `[conversation.tools.'*']\nenable = "off"\n`,
    ].map((text) => loadLayer({ name: 'd', text }).config);
    const engine = new StreamEngine([base], servers);
    for (const d of deltas) engine.applyDelta(d, { sources: ['config-set'], detail: '', step: 1 });
    for (let i = 0; i <= deltas.length; i++) {
      const scratch = new StreamEngine([base, ...deltas.slice(0, i).map((config, k) => ({ name: `d${k}`, config, diagnostics: [] }))], servers);
      const got = [...engine.statesAt(i).values()].map((s) => [s.name, s.enable.availability.value, s.enable.allowToggle.value]);
      const want = [...scratch.currentStates()].map((s) => [s.name, s.enable.availability.value, s.enable.allowToggle.value]);
      expect(got).toEqual(want);
      expect(computeSets(engine.statesAt(i).values(), { registered: true })).toEqual(computeSets(scratch.currentStates(), { registered: true }));
    }
    expect(engine.positions.map((p) => p.registered)).toEqual([true, true, true, true, true, true]);
  });

  it('an enable-only delta (the fast path) gives the same effective enable and provenance as a full recompute', () => {
    const base = loadLayer({ name: 'w', text: `[conversation.tools.'*']\nenable = { allow_toggle = "if_named" }\n[conversation.tools.a]\nsource = "local"\nenable = { allow_toggle = "never" }\n[conversation.tools.b]\nsource = "local"\n` });
    const enableOnly = loadLayer({ name: 'd', text: `[conversation.tools.a]\nenable = { availability = "discoverable" }\n[conversation.tools.b]\nenable = "off"\n` });
    // The same text plus a parameter for each tool (after every enable, so the enable spans are the same): not enable-only.
    const withSummary = loadLayer({ name: 'd', text: `[conversation.tools.a]\nenable = { availability = "discoverable" }\n[conversation.tools.b]\nenable = "off"\n[conversation.tools.a.parameters.p]\ntype = "string"\n[conversation.tools.b.parameters.p]\ntype = "string"\n` });
    const fast = new StreamEngine([base], servers);
    const full = new StreamEngine([base], servers);
    fast.applyDelta(enableOnly.config, { sources: ['cfg'], detail: '', step: 1 });
    full.applyDelta(withSummary.config, { sources: ['cfg'], detail: '', step: 1 });
    for (const name of ['a', 'b']) {
      expect(fast.state(name)?.enable).toEqual(full.state(name)?.enable);
      expect(fast.state(name)?.config.enable).toEqual(full.state(name)?.config.enable);
    }
    expect(fast.current.counts).toEqual(full.current.counts);
    expect(fast.current.changes.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('an empty delta appends no position', () => {
    const engine = new StreamEngine([loadLayer({ name: 'w', text: `[conversation.tools.a]\n` })], servers);
    expect(engine.applyDelta(loadLayer({ name: 'd', text: '' }).config, { sources: ['cfg'], detail: '', step: 1 })).toBeUndefined();
    expect(engine.positions).toHaveLength(1);
  });
});

describe('the one count of a scenario\'s tools (issue 24.5)', () => {
  it('the catalogue\'s tools plus the builtins registered with them, with one label', () => {
    expect(toolCount(32, true)).toEqual({ total: 34, catalogue: 32, builtins: ['describe_tools', 'search_tools'], label: '34 tools: 32 from the catalogue + 2 builtins' });
    expect(toolCount(2, false).label).toBe('3 tools: 2 from the catalogue + 1 builtin');
  });

  it('agrees with the configured set at every position of a run', () => {
    const t = timelineOf(scenario(
      layer(`[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\nenable = "off"\n`),
      step("jp q --cfg conversation.tools.b.enable=discoverable 'two'", '', cycle({ reply: 'x' })),
    ));
    t.positions.forEach((p, i) => {
      const sets = computeSets(t.statesAt(i).values(), { registered: p.registered });
      expect(toolCount(p.counts.configured, p.registered).total).toBe(sets.configured.length);
    });
  });
});
