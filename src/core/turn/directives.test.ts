// Semantics section 2 (CLI directives `-t/--tool [NAME]`, `-T/--no-tool [NAME]`)
// and the section-8 details it touches (8.1, 8.3, 8.19, 8.20, 8.21), driven end
// to end through scenario text.
import { describe, expect, it } from 'vitest';
import type { AllowToggle, Availability } from '../config/types';
import { assertPass, check, layer, scenario, step, stepErrors, timelineOf } from '../scenario/test-helpers';

type Outcome = Availability | `error:${'locked-on' | 'locked-off' | 'locked-discoverable'}`;
type Row = readonly ['-t' | '-T', 'bulk' | 'named', Availability, AllowToggle, Outcome];

// The directive × availability table × the allow_toggle scope rule, every combination:
//   -t: off → on, discoverable → on, on no-op;  -T: off no-op, discoverable → off, on → off.
//   any: bulk + named; if_named / if_named_or_group: named only; never: none.
//   A bulk directive skips what it may not move; a named one fails with the locked word.
const MATRIX: readonly Row[] = [
  ['-t', 'bulk', 'off', 'any', 'on'],
  ['-t', 'bulk', 'off', 'never', 'off'],
  ['-t', 'bulk', 'off', 'if_named', 'off'],
  ['-t', 'bulk', 'off', 'if_named_or_group', 'off'],
  ['-t', 'bulk', 'discoverable', 'any', 'on'],
  ['-t', 'bulk', 'discoverable', 'never', 'discoverable'],
  ['-t', 'bulk', 'discoverable', 'if_named', 'discoverable'],
  ['-t', 'bulk', 'discoverable', 'if_named_or_group', 'discoverable'],
  ['-t', 'bulk', 'on', 'any', 'on'],
  ['-t', 'bulk', 'on', 'never', 'on'],
  ['-t', 'bulk', 'on', 'if_named', 'on'],
  ['-t', 'bulk', 'on', 'if_named_or_group', 'on'],
  ['-t', 'named', 'off', 'any', 'on'],
  ['-t', 'named', 'off', 'never', 'error:locked-off'],
  ['-t', 'named', 'off', 'if_named', 'on'],
  ['-t', 'named', 'off', 'if_named_or_group', 'on'],
  ['-t', 'named', 'discoverable', 'any', 'on'],
  ['-t', 'named', 'discoverable', 'never', 'error:locked-discoverable'],
  ['-t', 'named', 'discoverable', 'if_named', 'on'],
  ['-t', 'named', 'discoverable', 'if_named_or_group', 'on'],
  ['-t', 'named', 'on', 'any', 'on'],
  ['-t', 'named', 'on', 'never', 'on'],
  ['-t', 'named', 'on', 'if_named', 'on'],
  ['-t', 'named', 'on', 'if_named_or_group', 'on'],
  ['-T', 'bulk', 'off', 'any', 'off'],
  ['-T', 'bulk', 'off', 'never', 'off'],
  ['-T', 'bulk', 'off', 'if_named', 'off'],
  ['-T', 'bulk', 'off', 'if_named_or_group', 'off'],
  ['-T', 'bulk', 'discoverable', 'any', 'off'],
  ['-T', 'bulk', 'discoverable', 'never', 'discoverable'],
  ['-T', 'bulk', 'discoverable', 'if_named', 'discoverable'],
  ['-T', 'bulk', 'discoverable', 'if_named_or_group', 'discoverable'],
  ['-T', 'bulk', 'on', 'any', 'off'],
  ['-T', 'bulk', 'on', 'never', 'on'],
  ['-T', 'bulk', 'on', 'if_named', 'on'],
  ['-T', 'bulk', 'on', 'if_named_or_group', 'on'],
  ['-T', 'named', 'off', 'any', 'off'],
  ['-T', 'named', 'off', 'never', 'off'],
  ['-T', 'named', 'off', 'if_named', 'off'],
  ['-T', 'named', 'off', 'if_named_or_group', 'off'],
  ['-T', 'named', 'discoverable', 'any', 'off'],
  ['-T', 'named', 'discoverable', 'never', 'error:locked-discoverable'],
  ['-T', 'named', 'discoverable', 'if_named', 'off'],
  ['-T', 'named', 'discoverable', 'if_named_or_group', 'off'],
  ['-T', 'named', 'on', 'any', 'off'],
  ['-T', 'named', 'on', 'never', 'error:locked-on'],
  ['-T', 'named', 'on', 'if_named', 'off'],
  ['-T', 'named', 'on', 'if_named_or_group', 'off'],
];

/** Where the tool's allow_toggle comes from: its own table, or '*'. */
const VARIANTS = [
  {
    label: "tool's own table",
    text: (a: Availability, t: AllowToggle): string =>
      `[conversation.tools.x]\nsource = "local"\nenable = { availability = "${a}", allow_toggle = "${t}" }\n`,
  },
  {
    label: "allow_toggle from '*'",
    text: (a: Availability, t: AllowToggle): string =>
      `[conversation.tools.'*']\nenable = { allow_toggle = "${t}" }\n[conversation.tools.x]\nsource = "local"\nenable = { availability = "${a}" }\n`,
  },
  {
    label: "both fields from '*'",
    text: (a: Availability, t: AllowToggle): string =>
      `[conversation.tools.'*']\nenable = { availability = "${a}", allow_toggle = "${t}" }\n[conversation.tools.x]\nsource = "local"\n`,
  },
] as const;

describe('§2 the directive × availability × allow_toggle matrix', () => {
  const rows = MATRIX.flatMap((row) => VARIANTS.map((v) => [...row, v] as const));
  it.each(rows)('%s %s on {%s, %s} → %s (%#)', (flag, scope, availability, allow, outcome, variant) => {
    const command = scope === 'bulk' ? `jp q 'go' ${flag}` : `jp q ${flag} x 'go'`;
    const verb = flag === '-t' ? 'enable' : 'disable';
    const expectation = outcome.startsWith('error:')
      ? `error = "cannot ${verb} \`x\`: this tool is configured as ${outcome.slice(6)}"\navailability = { x = "${availability}" }`
      : `availability = { x = "${outcome}" }`;
    const text = scenario(
      layer(variant.text(availability, allow)),
      step(command, expectation),
      // The change persists to later turns (a delta of the invocation), and nothing else changes it back.
      step("jp q 'later'", `availability = { x = "${outcome.startsWith('error:') ? availability : outcome}" }`),
    );
    assertPass(text);
    const t = timelineOf(text);
    const moved = !outcome.startsWith('error:') && outcome !== availability;
    // A move is one delta; a no-op, a skip or an error appends no position at all.
    expect(t.positions.length).toBe(moved ? 2 : 1);
    // Directives never change '*'.
    for (const p of t.positions) expect(p.defaults).toBe(t.positions[0]?.defaults);
    if (moved) {
      const origin = t.statesAt(1).get('x')?.enable.availability.origin;
      expect(origin).toMatchObject({ kind: 'delta', delta: 1, source: 'directive', detail: scope === 'bulk' ? flag : `${flag} x` });
      // allow_toggle keeps coming from where it came from (the directive sets availability only).
      expect(t.statesAt(1).get('x')?.enable.allowToggle.from).toBe(t.statesAt(0).get('x')?.enable.allowToggle.from);
    }
  });
});

describe('§2 order and scope', () => {
  const catalogue = layer(
    `[conversation.tools.a]\nsource = "local"\nenable = "off"\n` +
      `[conversation.tools.b]\nsource = "local"\nenable = "discoverable"\n` +
      `[conversation.tools.c]\nsource = "local"\n` +
      `[conversation.tools.locked_on]\nsource = "local"\nenable = "always"\n` +
      `[conversation.tools.locked_off]\nsource = "local"\nenable = { availability = "off", allow_toggle = "never" }\n` +
      `[conversation.tools.named_only]\nsource = "local"\nenable = "explicit"\n`,
  );

  it.each([
    ['jp q -T -t a hi', { a: 'on', b: 'off', c: 'off', locked_on: 'on', locked_off: 'off', named_only: 'off' }],
    ['jp q hi -t a -T', { a: 'off', b: 'off', c: 'off', locked_on: 'on' }],
    ['jp q hi -t', { a: 'on', b: 'on', c: 'on', locked_on: 'on', locked_off: 'off', named_only: 'off' }],
    ['jp q hi -t named_only -T', { named_only: 'on', a: 'off' }],
    ['jp q hi -T b -t', { a: 'on', b: 'on' }],
    ['jp q -T c -T c -t c hi', { c: 'on' }],
    ['jp q --tool a --no-tool b hi', { a: 'on', b: 'off' }],
    ['jp q --tools=a --no-tools=c hi', { a: 'on', c: 'off' }],
    ['jp q -ta -Tb hi', { a: 'on', b: 'off' }],
    ["jp q 'all off' -T", { a: 'off', b: 'off', c: 'off', locked_on: 'on', named_only: 'off' }],
  ] as const)('%s: left to right', (command, availability) => {
    const avail = Object.entries(availability)
      .map(([k, v]) => `${k} = "${v}"`)
      .join(', ');
    assertPass(scenario(catalogue, step(command, `availability = { ${avail} }`), step('jp q again', `availability = { ${avail} }`)));
  });

  it('bulk visits every configured tool and skips the ones it may not move, silently', () => {
    const text = scenario(catalogue, step("jp q 'off' -T", 'offered = ["locked_on", "describe_tools", "search_tools"]\nsearchable = []'));
    assertPass(text);
    expect(stepErrors(timelineOf(text))[1]).toBeUndefined();
  });

  it('bulk also visits tools the same invocation configured through --cfg', () => {
    assertPass(scenario(catalogue, step("jp q --cfg conversation.tools.d.source=local --cfg conversation.tools.d.enable=off 'hi' -t", 'availability = { d = "on" }')));
  });

  it('one invocation is one delta, however many directives it has (8.1)', () => {
    const text = scenario(catalogue, step("jp q --cfg conversation.tools.c.summary=C -t a -T b -t named_only 'x'", 'availability = { a = "on", b = "off", named_only = "on" }'));
    const t = timelineOf(text);
    assertPass(text);
    expect(t.positions.length).toBe(2);
    expect(t.positions[1]?.event).toMatchObject({ kind: 'delta', delta: 1, sources: ['cfg', 'directive'] });
  });

  it('a directive that changes nothing appends no delta (8.1: omitted when empty)', () => {
    const t = timelineOf(scenario(catalogue, step('jp q -t c -T a -t locked_on -T locked_off x', 'availability = { c = "on" }')));
    expect(t.positions.length).toBe(1);
  });
});

describe('§2 errors', () => {
  const catalogue = layer(
    `[conversation.tools.a]\nsource = "local"\nenable = "off"\n` +
      `[conversation.tools.lon]\nsource = "local"\nenable = "always"\n` +
      `[conversation.tools.loff]\nsource = "local"\nenable = { availability = "off", allow_toggle = "never" }\n` +
      `[conversation.tools.ldisc]\nsource = "local"\nenable = { availability = "discoverable", allow_toggle = "never" }\n`,
  );
  // [command, the whole error text]
  const rows: readonly [string, string][] = [
    ['jp q -t loff x', 'cannot enable `loff`: this tool is configured as locked-off'],
    ['jp q -T lon x', 'cannot disable `lon`: this tool is configured as locked-on'],
    ['jp q -t ldisc x', 'cannot enable `ldisc`: this tool is configured as locked-discoverable'],
    ['jp q -T ldisc x', 'cannot disable `ldisc`: this tool is configured as locked-discoverable'],
    ['jp q -t nosuch x', 'Tool not found: nosuch'],
    ['jp q -T nosuch x', 'Tool not found: nosuch'],
    // 8.19: the first failure in command-line order is reported.
    ['jp q -t loff -t nosuch x', 'cannot enable `loff`: this tool is configured as locked-off'],
    ['jp q -t nosuch -t loff x', 'Tool not found: nosuch'],
    ['jp q -T lon -t loff x', 'cannot disable `lon`: this tool is configured as locked-on'],
    ['jp q -t a -t nosuch -T lon x', 'Tool not found: nosuch'],
    // 8.21: --cfg applies (and fails) before any directive, whatever the order on the line.
    ["jp q -t nosuch --cfg 'conversation.tools.a.enable=sometimes' x", "conversation.tools.a.enable: invalid enable value: 'sometimes'"],
    // The directive sees the --cfg result: here '*' makes `a` named-only... and `lon` is still locked.
    ["jp q --cfg 'conversation.tools.a.enable.allow_toggle=never' -t a x", 'cannot enable `a`: this tool is configured as locked-off'],
    // 8.21: -u is validated last, after the directives.
    ['jp q -u loff -t nosuch x', 'Tool not found: nosuch'],
    ['jp q -u loff -t a x', 'tool choice forces `loff`, but it is locked off (availability = off, allow_toggle = never)'],
    // 8.3: builtins.
    ['jp q -T describe_tools x', 'cannot disable `describe_tools`: this tool is configured as locked-on'],
    ['jp q -T search_tools x', 'cannot disable `search_tools`: this tool is configured as locked-on'],
  ];
  it.each(rows)('%s → %s', (command, error) => {
    const text = scenario(catalogue, step(command, `error = ${JSON.stringify(error)}\navailability = { a = "off", lon = "on", loff = "off", ldisc = "discoverable" }`));
    assertPass(text);
    const t = timelineOf(text);
    expect(stepErrors(t)[1]?.startsWith(error)).toBe(true);
    // A failing command leaves the conversation as it was: no delta, not even of its good parts.
    expect(t.positions.length).toBe(1);
    expect(t.requests.length).toBe(0);
  });

  it('a failing step without `error` fails the check, and names the error', () => {
    const r = check(scenario(catalogue, step('jp q -t loff x', 'availability = { loff = "off" }')));
    const failed = r.expectations.filter((e) => !e.pass);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.actual).toBe('cannot enable `loff`: this tool is configured as locked-off');
  });
});

describe('§2 persistence and \'*\'', () => {
  it("directives never change '*': a tool configured later still inherits it", () => {
    const text = scenario(
      layer(`[conversation.tools.'*']\nenable = "discoverable"\n[conversation.tools.a]\nsource = "local"\n[conversation.tools.b]\nsource = "local"\n`),
      step('jp q x -T', 'availability = { a = "off", b = "off" }\nsearch_tools = true'),
      step('jp config set --id conversation.tools.c.source=local', 'availability = { a = "off", b = "off", c = "discoverable" }\nsearchable = ["c"]'),
      step('jp q y -t', 'availability = { a = "on", b = "on", c = "on" }'),
      step('jp config set --id conversation.tools.d.source=local', 'availability = { d = "discoverable" }'),
    );
    assertPass(text);
    const t = timelineOf(text);
    for (const p of t.positions) expect(p.defaults.enable.availability?.value).toBe('discoverable');
    // The directive wrote the tool's own availability; its allow_toggle still comes from '*'.
    const a = t.statesAt(1).get('a');
    expect(a?.enable.availability.from).toBe('tool');
    expect(a?.enable.allowToggle.from).toBe('defaults');
  });

  it('a directive delta holds across later turns until another delta changes it', () => {
    const text = scenario(
      layer(`[conversation.tools.a]\nsource = "local"\nenable = "discoverable"\n`),
      step('jp q -t a one', 'availability = { a = "on" }\noffered_includes = ["a"]'),
      step('jp q two', 'availability = { a = "on" }\noffered_includes = ["a"]'),
      step('jp q three', 'availability = { a = "on" }'),
      step('jp q -T a four', 'availability = { a = "off" }\npermitted_excludes = ["a"]'),
      step('jp q five', 'availability = { a = "off" }'),
      step('jp config set --id conversation.tools.a.enable=discoverable', 'availability = { a = "discoverable" }\nsearchable = ["a"]'),
    );
    assertPass(text);
    const t = timelineOf(text);
    expect(t.positions.map((p) => p.event.kind)).toEqual(['base', 'delta', 'delta', 'delta']);
  });

  it('a directive overrides the layer, and a later layer edit does not undo the delta (8.2)', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.a]\nsource = "local"\nenable = "off"\n[conversation.tools.b]\nsource = "local"\nenable = "off"\n`),
        step('jp q -t a x', 'availability = { a = "on", b = "off" }'),
        step('jp config set conversation.tools.a.enable=discoverable conversation.tools.b.enable=discoverable', 'availability = { a = "on", b = "discoverable" }\nsearch_tools = true'),
      ),
    );
  });

  it('if_named_or_group behaves as if_named (no groups yet)', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.'*']\nenable = { allow_toggle = "if_named_or_group" }\n[conversation.tools.g]\nsource = "local"\nenable = { availability = "off" }\n`),
        step('jp q x -t', 'availability = { g = "off" }'),
        step('jp q -t g x', 'availability = { g = "on" }'),
        step('jp q x -T', 'availability = { g = "on" }'),
      ),
    );
  });
});

describe('§8.3 builtins under directives', () => {
  const text = scenario(
    layer(`[conversation.tools.a]\nsource = "local"\nenable = "discoverable"\n`),
    step('jp q everything -T', 'offered = ["describe_tools", "search_tools"]\navailability = { a = "off", describe_tools = "on", search_tools = "on" }'),
    step('jp q -t describe_tools -t search_tools x', 'offered = ["describe_tools", "search_tools"]'),
    step('jp q -T search_tools x', 'error = "cannot disable `search_tools`: this tool is configured as locked-on"'),
    step('jp q -T describe_tools x', 'error = "cannot disable `describe_tools`: this tool is configured as locked-on"'),
    step('jp q x -t', 'offered = ["a", "describe_tools", "search_tools"]'),
  );
  it('bulk skips them, -t is a no-op, -T is the locked-on error', () => {
    assertPass(text);
  });
  it('a plain conversation with no discoverable tool has describe_tools only, locked on', () => {
    assertPass(
      scenario(
        layer(`[conversation.tools.a]\nsource = "local"\n`),
        step('jp q x -T', 'offered = ["describe_tools"]\npermitted = ["describe_tools"]\navailability = { describe_tools = "on", search_tools = "not configured" }\nsearch_tools = false'),
        step('jp q -t search_tools x', 'error = "Tool not found: search_tools"'),
      ),
    );
  });
});

describe('§8.1 / §8.2 a delta records only what it changes (JP diffs it against the current config)', () => {
  const base = layer(`[conversation.tools.'*']\nenable = "off"\n[conversation.tools.x]\nsource = "local"\nenable = "off"\n[conversation.tools.y]\nsource = "local"\n`);
  it.each([
    ['jp q -t x -T x hi', 1],
    ["jp q --cfg conversation.tools.x.enable=off 'hi'", 1],
    ["jp q --cfg conversation.tools.x.enable.availability=off --cfg conversation.tools.x.enable.allow_toggle=any 'hi'", 1],
    ["jp q --cfg conversation.tools.'*'.enable=off 'hi'", 1],
    ['jp config set --id conversation.tools.x.enable=off', 1],
    // y inherits off from '*': its own field is unset, so writing it is a change (a partial diff, not an effective one).
    ["jp q --cfg conversation.tools.y.enable.availability=off 'hi'", 2],
    ["jp q --cfg conversation.tools.x.enable=explicit 'hi'", 2],
  ] as const)('%s appends %i position(s)', (command, positions) => {
    expect(timelineOf(scenario(base, step(command))).positions).toHaveLength(positions);
  });

  it('so a later edit of the live layers still reaches a tool a no-op directive pair visited', () => {
    assertPass(
      scenario(
        base,
        step('jp q -t x -T x hi', 'availability = { x = "off" }'),
        step('jp config set conversation.tools.x.enable=discoverable', 'availability = { x = "discoverable" }\nsearchable = ["x"]'),
        step("jp q --cfg conversation.tools.y.enable.availability=off 'pin y'", 'availability = { y = "off" }'),
        step("jp config set conversation.tools.'*'.enable=on", 'availability = { y = "off" }'),
      ),
    );
  });
});
