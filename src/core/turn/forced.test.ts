// Semantics section 3 (forced tool use, `-u NAME`, `-U`) and the section-8
// details it touches (8.1, 8.4, 8.9, 8.20, 8.21, 8.22), end to end.
import { describe, expect, it } from 'vitest';
import type { AllowToggle, Availability } from '../config/types';
import { assertPass, cycle, layer, policy, scenario, step, stepErrors, timelineOf } from '../scenario/test-helpers';

const LOCKED_OFF = 'tool choice forces `x`, but it is locked off (availability = off, allow_toggle = never)';
const REJECTED = "tool choice 'x' does not match any enabled tools";

// [availability, allow_toggle, forced_off_tool policy, outcome]
type Row = readonly [Availability, AllowToggle, 'allow' | 'reject', 'forced' | 'locked-off' | 'rejected'];
const ROWS: readonly Row[] = [
  ['off', 'any', 'allow', 'forced'],
  ['off', 'if_named', 'allow', 'forced'],
  ['off', 'if_named_or_group', 'allow', 'forced'],
  ['off', 'never', 'allow', 'locked-off'],
  ['off', 'any', 'reject', 'rejected'],
  ['off', 'if_named', 'reject', 'rejected'],
  ['off', 'never', 'reject', 'locked-off'],
  ['discoverable', 'any', 'allow', 'forced'],
  ['discoverable', 'never', 'allow', 'forced'],
  ['discoverable', 'any', 'reject', 'forced'],
  ['discoverable', 'never', 'reject', 'forced'],
  ['on', 'any', 'allow', 'forced'],
  ['on', 'never', 'allow', 'forced'],
  ['on', 'any', 'reject', 'forced'],
  ['on', 'if_named', 'reject', 'forced'],
];

const tools = (a: Availability, t: AllowToggle): string =>
  layer(
    `[conversation.tools.x]\nsource = "local"\nenable = { availability = "${a}", allow_toggle = "${t}" }\n` +
      `[conversation.tools.other]\nsource = "local"\nenable = "discoverable"\n`,
  );

describe('§3 -u NAME by availability, allow_toggle and forced_off_tool', () => {
  it.each(ROWS)('-u x on {%s, %s} with forced_off_tool = %s → %s', (availability, allow, forcedOff, outcome) => {
    const text =
      outcome === 'forced'
        ? scenario(
            policy({ forced_off_tool: forcedOff }),
            tools(availability, allow),
            step(
              "jp q -u x 'use x'",
              // The step's sets are a plain invocation's after it: the stored availability is untouched.
              `availability = { x = "${availability}" }\npermitted${availability === 'off' ? '_excludes' : '_includes'} = ["x"]`,
              cycle({
                calls: '[ { tool = "x", args = {}, expect = { status = "ok" } } ]',
                expect: 'offered = ["x", "describe_tools", "search_tools"]\npermitted = ["x", "other", "describe_tools", "search_tools"]\nsearchable = ["other"]\ntool_choice = "x"',
              }) +
                cycle({
                  calls: '[ { tool = "x", args = {}, expect = { status = "ok" } } ]',
                  expect: 'offered_includes = ["x"]\npermitted_includes = ["x"]\ntool_choice = "auto"',
                }) +
                cycle({ reply: 'done', expect: 'tool_choice = "auto"\noffered_includes = ["x"]' }),
            ),
            step(
              "jp q 'plain'",
              `availability = { x = "${availability}" }`,
              cycle({
                calls: `[ { tool = "x", args = {}, expect = { status = "${availability === 'off' ? 'error' : 'ok'}" } } ]`,
                expect: `tool_choice = "auto"\noffered${availability === 'on' ? '_includes' : '_excludes'} = ["x"]`,
              }) + cycle({ reply: 'ok' }),
            ),
          )
        : scenario(
            policy({ forced_off_tool: forcedOff }),
            tools(availability, allow),
            step("jp q -u x 'use x'", `error = ${JSON.stringify(outcome === 'locked-off' ? LOCKED_OFF : REJECTED)}\navailability = { x = "off" }`),
          );
    assertPass(text);
    const t = timelineOf(text);
    // -u writes no delta of any kind (8.1): the base is the only config position.
    expect(t.positions.length).toBe(1);
    if (outcome === 'forced') expect(t.requests[0]?.forced).toBe('x');
    else expect(stepErrors(t)[1]).toBe(outcome === 'locked-off' ? LOCKED_OFF : REJECTED);
  });
});

describe('§3 / §8.22 tool_choice forms', () => {
  const base = layer(`[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\nenable = "off"\n`);
  const threeCycles = (first: string, later: string): string =>
    cycle({ calls: '[ { tool = "a", args = {} } ]', expect: `tool_choice = "${first}"` }) +
    cycle({ calls: '[ { tool = "a", args = {} } ]', expect: `tool_choice = "${later}"` }) +
    cycle({ reply: 'done', expect: `tool_choice = "${later}"` });
  // [command, first cycle, later cycles]
  const rows: readonly [string, string, string][] = [
    ["jp q 'plain'", 'auto', 'auto'],
    ["jp q 'x' -u", 'required', 'auto'],
    ["jp q -u true 'x'", 'required', 'auto'],
    ["jp q -u false 'x'", 'none', 'none'],
    ["jp q -U 'x'", 'none', 'none'],
    ["jp q --no-tool-use 'x'", 'none', 'none'],
    ["jp q --tool-use a 'x'", 'a', 'auto'],
    ["jp q -u=a 'x'", 'a', 'auto'],
    ["jp q -ua 'x'", 'a', 'auto'],
    // The last -u / -U wins.
    ["jp q -u a -U 'x'", 'none', 'none'],
    ["jp q -U -u a 'x'", 'a', 'auto'],
    ["jp q -u a -u b 'x'", 'b', 'auto'],
    ["jp q -u b -u true 'x'", 'required', 'auto'],
    ["jp q -u describe_tools 'x'", 'describe_tools', 'auto'],
  ];
  it.each(rows)('%s: first cycle %s, later cycles %s', (command, first, later) => {
    const text = scenario(base, step(command, 'availability = { a = "on", b = "off" }', threeCycles(first, later)));
    assertPass(text);
    expect(timelineOf(text).positions.length).toBe(1);
  });

  it('each invocation starts again: a -u of one turn does not force the next', () => {
    assertPass(
      scenario(
        base,
        step("jp q -u b 'one'", undefined, cycle({ reply: 'x', expect: 'tool_choice = "b"\noffered = ["a", "b", "describe_tools"]' })),
        step("jp q 'two'", undefined, cycle({ reply: 'y', expect: 'tool_choice = "auto"\noffered = ["a", "describe_tools"]' })),
        step("jp q -U 'three'", undefined, cycle({ reply: 'z', expect: 'tool_choice = "none"' })),
        step("jp q 'four'", undefined, cycle({ reply: 'w', expect: 'tool_choice = "auto"' })),
      ),
    );
  });
});

describe('§3 errors and order (8.20, 8.21)', () => {
  const base = layer(
    `[conversation.tools.a]\nsource = "local"\nenable = "off"\n` + `[conversation.tools.lo]\nsource = "local"\nenable = { availability = "off", allow_toggle = "never" }\n`,
  );
  // [command, policy forced_off_tool, error (or '' when the step runs), then a's availability]
  const rows: readonly [string, 'allow' | 'reject', string, string][] = [
    ["jp q -u nosuch 'x'", 'allow', 'Tool not found: nosuch', 'off'],
    ["jp q -u search_tools 'x'", 'allow', 'Tool not found: search_tools', 'off'],
    ["jp q -u lo 'x'", 'allow', 'tool choice forces `lo`, but it is locked off (availability = off, allow_toggle = never)', 'off'],
    ["jp q -u lo -t a 'x'", 'allow', 'tool choice forces `lo`', 'off'],
    // -u is validated against the result of --cfg and the directives.
    ["jp q -T a -u a 'x'", 'allow', '', 'off'],
    ["jp q -T a -u a 'x'", 'reject', "tool choice 'a' does not match any enabled tools", 'off'],
    ["jp q -u a -t a 'x'", 'reject', '', 'on'],
    ["jp q --cfg conversation.tools.a.enable=discoverable -u a 'x'", 'reject', '', 'discoverable'],
    ["jp q --cfg conversation.tools.a.enable.allow_toggle=never -u a 'x'", 'allow', 'tool choice forces `a`, but it is locked off', 'off'],
    ["jp q --cfg conversation.tools.lo.enable.allow_toggle=any -u lo 'x'", 'allow', '', 'off'],
    ["jp q --cfg conversation.tools.new.source=local -u new 'x'", 'reject', '', 'off'],
    // The directives fail before -u is looked at.
    ["jp q -u nosuch -t lo 'x'", 'allow', 'cannot enable `lo`: this tool is configured as locked-off', 'off'],
  ];
  it.each(rows)('%s (forced_off_tool = %s) → %s', (command, forcedOff, error, a) => {
    const text = scenario(policy({ forced_off_tool: forcedOff }), base, step(command, `${error ? `error = ${JSON.stringify(error)}\n` : ''}availability = { a = "${a}" }`));
    assertPass(text);
    const t = timelineOf(text);
    if (error) {
      expect(stepErrors(t)[1]).toContain(error);
      expect(t.requests).toHaveLength(0);
    } else expect(t.requests).toHaveLength(1);
  });

  it('a forced tool adds no availability delta, but the same invocation\'s directives still make one', () => {
    const text = scenario(base, step("jp q -t a -u lo 'x'", 'error = "locked off"'), step("jp q -u a --cfg conversation.tools.a.summary=A 'x'", 'availability = { a = "off" }'));
    const t = timelineOf(text);
    assertPass(text);
    expect(t.positions).toHaveLength(2);
    expect(t.statesAt(1).get('a')?.config.enable.availability?.origin).toMatchObject({ kind: 'layer' });
  });
});

describe('§3 forced MCP tools and offline servers (8.4, 8.22)', () => {
  const servers = `[servers.gh]\ntools = [ { name = "list_prs", description = "List pull requests.", inputSchema = { type = "object" } }, { name = "merge_pr", description = "Merge a pull request.", inputSchema = { type = "object" } } ]\n[servers.down]\nstatus = "offline"\ntools = [ { name = "ping", description = "Ping.", inputSchema = { type = "object" } } ]\n`;
  const base = layer(
    `[conversation.tools.list_prs]\nsource = "mcp.gh"\nenable = "off"\n` +
      `[conversation.tools.merge]\nsource = "mcp.gh.merge_pr"\nenable = "off"\n` +
      `[conversation.tools.ping]\nsource = "mcp.down"\nenable = "off"\n` +
      `[conversation.tools.ghost]\nsource = "mcp.gh"\nenable = "off"\n` +
      `[conversation.tools.local]\nsource = "local"\n`,
  );

  it('forcing an off MCP tool starts its server for that invocation only', () => {
    assertPass(
      scenario(
        servers,
        base,
        step("jp q 'plain'", 'servers = []\npermitted = ["local", "describe_tools"]'),
        step(
          "jp q -u merge 'merge it'",
          'servers = []',
          cycle({ calls: '[ { tool = "merge", args = {}, expect = { status = "ok" } } ]', expect: 'servers = ["gh"]\noffered = ["merge", "local", "describe_tools"]\ntool_choice = "merge"' }) +
            cycle({ reply: 'merged', expect: 'servers = ["gh"]\ntool_choice = "auto"' }),
        ),
      ),
    );
  });

  it.each([
    ['ping', 'the server is offline'],
    ['ghost', 'the running server does not list it'],
  ])('forcing %s (%s): it leaves permitted and offered, but tool_choice still names it', (name) => {
    const text = scenario(
      servers,
      base,
      step(
        `jp q -u ${name} 'x'`,
        undefined,
        cycle({ calls: `[ { tool = "${name}", args = {}, expect = { status = "error", error = "is not available" } } ]`, expect: `tool_choice = "${name}"\npermitted_excludes = ["${name}"]\noffered = ["local", "describe_tools"]\nservers = []` }) +
          cycle({ reply: 'sorry' }),
      ),
    );
    assertPass(text);
    const t = timelineOf(text);
    // The timeline warns, and the invocation goes on.
    expect(t.entries.some((e) => e.kind === 'warning' && e.message.includes(`\`${name}\``))).toBe(true);
    expect(t.requests).toHaveLength(2);
  });
});

describe('§3 a forced tool that an approved write locks off mid-turn', () => {
  // RFD 108: a locked-off tool (availability = off, allow_toggle = never) cannot be forced. The turn's
  // forced tool is decided at its start, but each cycle's request is resolved at its own position: once
  // cycle 1's fold commits the lock, cycle 2 must not permit it, offer it or run it.
  const base = (availability: Availability): string =>
    layer(`[conversation.tools.x]\nsource = "local"\nenable = "${availability}"\n[conversation.tools.admin]\nsource = "local"\nenable = "on"\n`);
  const write = (allow: AllowToggle): string =>
    `[ { tool = "admin", args = {}, writes = ["conversation.tools.x.enable.availability=off", "conversation.tools.x.enable.allow_toggle=${allow}"], approved = true } ]`;

  it.each(['off', 'on', 'discoverable'] as const)('x %s, forced, locked off in cycle 1: out of the permitted set in cycle 2', (availability) => {
    const text = scenario(
      base(availability),
      step(
        "jp q -u x 'use x'",
        'availability = { x = "off" }\npermitted_excludes = ["x"]',
        cycle({ calls: write('never'), expect: 'permitted_includes = ["x"]\noffered_includes = ["x"]\ntool_choice = "x"' }) +
          cycle({
            calls: '[ { tool = "x", args = {}, expect = { status = "error", error = "is not available" } } ]',
            expect: 'permitted_excludes = ["x"]\noffered_excludes = ["x"]\nsearchable = []\navailability = { x = "off" }',
          }) +
          cycle({ reply: 'done', expect: 'permitted_excludes = ["x"]' }),
      ),
    );
    assertPass(text);
    const t = timelineOf(text);
    expect(t.requests[1]?.forced).toBe('x');
    expect(t.engine.state('x')?.enable.allowToggle.value).toBe('never');
  });

  it('turned off but not locked, the forced tool stays permitted and offered for the rest of the turn', () => {
    assertPass(
      scenario(
        base('on'),
        step(
          "jp q -u x 'use x'",
          'permitted_excludes = ["x"]',
          cycle({ calls: write('any') }) +
            cycle({ calls: '[ { tool = "x", args = {}, expect = { status = "ok" } } ]', expect: 'permitted_includes = ["x"]\noffered_includes = ["x"]\navailability = { x = "off" }' }) +
            cycle({ reply: 'done' }),
        ),
      ),
    );
  });
});

describe('§3 a forced tool is offered, never searchable: search_tools in its turn does not return it', () => {
  // Both tools match the query; only the one not forced may come back. Under every ranking (bm25
  // filters by config order, substring by name) and whatever the forced tool's availability.
  const text = (ranking: string, availability: string): string =>
    scenario(
      policy({ ranking }),
      layer(
        `[conversation.tools.deploy_app]\nsource = "local"\nenable = "${availability}"\nsummary = "Deploy the service."\n` +
          `[conversation.tools.deploy_db]\nsource = "local"\nenable = "discoverable"\nsummary = "Deploy the database."\n`,
      ),
      step("jp q -u deploy_app 'ship it'", undefined, cycle({ calls: '[ { tool = "search_tools", args = { query = "deploy" } } ]' }) + cycle({ reply: 'done' })),
    );
  it.each([
    ['bm25', 'discoverable'],
    ['substring', 'discoverable'],
    ['bm25', 'off'],
    ['substring', 'off'],
  ])('%s, the forced tool %s', (ranking, availability) => {
    const t = timelineOf(text(ranking, availability));
    const first = t.requests[0];
    expect(first?.forced).toBe('deploy_app');
    expect(first?.sets.offered).toContain('deploy_app');
    expect(first?.sets.searchable).not.toContain('deploy_app');
    const search = t.calls.find((c) => c.tool === 'search_tools')?.search;
    expect(search?.returned.map((r) => r.name)).toEqual(['deploy_db']);
  });
});
