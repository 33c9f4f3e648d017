import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCommand, stripSpans } from './format';
import type { CommandInput } from './format';
import { parseCommand } from './parse';
import type { CfgAssignment, Directive, ToolUse } from './parse';
import type { Unspanned } from './format';

function reparse(c: CommandInput): unknown {
  const line = formatCommand(c);
  const r = parseCommand(line);
  if (!r.ok) throw new Error(`formatted line does not parse: ${line}\n${r.error.message} (column ${r.error.column})`);
  return stripSpans(r.command);
}

describe('formatCommand', () => {
  it.each<[string, string]>([
    ["jp q 'Deploy main to staging'", "jp q 'Deploy main to staging'"],
    ['jp query hi', 'jp query hi'],
    ["jp q 'enable everything I may' -t", "jp q -t -- 'enable everything I may'"],
    ["jp q -t deploy 'x'", 'jp q -t deploy x'],
    ["jp q -u lint 'Lint the code'", "jp q -u lint 'Lint the code'"],
    ['jp q -u', 'jp q -u true'],
    ['jp q -u false', 'jp q -U'],
    ['jp q -- -t', 'jp q -- -t'],
    ['jp q -t -- -T', 'jp q -t -- -T'],
    ['jp q --tool=-odd', "jp q --tool=-odd"],
    ['jp q "it\'s"', `jp q "it's"`],
    [
      `jp q --cfg 'conversation.tools.x.enable:={"availability":"on"}' q`,
      `jp q --cfg conversation.tools.x.enable:='{"availability":"on"}' q`,
    ],
    ["jp q --cfg 'conversation.tools.*.enable=discoverable'", "jp q --cfg conversation.tools.'*'.enable=discoverable"],
    ['jp config set --id conversation.tools.deploy.enable=discoverable', 'jp config set --id conversation.tools.deploy.enable=discoverable'],
    ['jp config set --layer workspace a=1', 'jp config set a=1'],
    ["jp config set --layer user conversation.tools.'*'.enable=discoverable", "jp config set --layer user conversation.tools.'*'.enable=discoverable"],
    ["jp config set a='two words'", "jp config set a='two words'"],
    ['jp config set -- -x=1', 'jp config set -- -x=1'],
  ])('%s → %s', (line, expected) => {
    const r = parseCommand(line);
    if (!r.ok) throw new Error(r.error.message);
    expect(formatCommand(r.command)).toBe(expected);
  });

  it('formats commands built without spans', () => {
    expect(
      formatCommand({
        kind: 'query',
        alias: 'q',
        query: 'go',
        assignments: [{ path: ['conversation', 'tools', '*', 'enable'], key: 'conversation.tools.*.enable', value: 'off', json: false }],
        directives: [{ kind: 'enable', name: 'deploy' }, { kind: 'disable' }],
        toolUse: { kind: 'function', name: 'deploy' },
      }),
    ).toBe("jp q --cfg conversation.tools.'*'.enable=off -t deploy -T -u deploy go");
  });
});

// Arbitraries for commands parseCommand can produce (see the limits documented on formatAssignment
// and ToolUse: no `.` or `=` inside a key segment, no key ending in `:` or `+`, no `@`/`{` first,
// no function named true/false, no empty layer or directive name).
const text = fc.string({ unit: fc.oneof(fc.constantFrom(' ', "'", '"', '\\', '$', '`', '*', '-', '#', ';', '\n', '!'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })) });
const nonEmpty = text.filter((s) => s !== '');
const segment = nonEmpty.filter((s) => !s.includes('.') && !s.includes('=') && s !== "'*'" && s !== '"*"');
const path = fc
  .array(fc.oneof(segment, fc.constant('*')), { minLength: 1, maxLength: 5 })
  .filter((p) => {
    const first = p[0] ?? '';
    const last = p[p.length - 1] ?? '';
    return !first.startsWith('@') && !first.startsWith('{') && !last.endsWith(':') && !last.endsWith('+');
  });
const assignment: fc.Arbitrary<Unspanned<CfgAssignment>> = fc.oneof(
  fc.record({ path, value: text, json: fc.constant(false) }),
  fc.record({ path, value: fc.json(), json: fc.constant(true) }),
).map((a) => ({ path: a.path, key: a.path.join('.'), value: a.value, json: a.json }));
const directive: fc.Arbitrary<Unspanned<Directive>> = fc.oneof(
  fc.record({ kind: fc.constantFrom('enable' as const, 'disable' as const) }),
  fc.record({ kind: fc.constantFrom('enable' as const, 'disable' as const), name: nonEmpty }),
);
const toolUse: fc.Arbitrary<Unspanned<ToolUse>> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.constant({ kind: 'required' as const }),
  fc.record({ kind: fc.constant('function' as const), name: nonEmpty.filter((n) => n !== 'true' && n !== 'false') }),
);
const queryCommand: fc.Arbitrary<CommandInput> = fc
  .record({
    alias: fc.constantFrom('q' as const, 'query' as const),
    query: text,
    assignments: fc.array(assignment, { maxLength: 3 }),
    directives: fc.array(directive, { maxLength: 4 }),
    toolUse: fc.option(toolUse, { nil: undefined }),
  })
  .map(({ toolUse: tu, ...rest }) => (tu === undefined ? { kind: 'query' as const, ...rest } : { kind: 'query' as const, ...rest, toolUse: tu }));
const configSetCommand: fc.Arbitrary<CommandInput> = fc.record({
  kind: fc.constant('config-set' as const),
  target: fc.oneof(fc.constant({ kind: 'conversation' as const }), fc.record({ kind: fc.constant('layer' as const), layer: nonEmpty })),
  assignments: fc.array(assignment, { minLength: 1, maxLength: 3 }),
});

describe('round trip', () => {
  it('parseCommand(formatCommand(c)) equals c modulo spans', () => {
    fc.assert(
      fc.property(fc.oneof(queryCommand, configSetCommand), (c) => {
        expect(reparse(c)).toEqual(c);
      }),
      { numRuns: 3000 },
    );
  });

  it('formatCommand(parseCommand(line)) parses to the same command', () => {
    const token = fc.constantFrom('-t', '-T', '-u', '-U', '--', 'x', "'a b'", '--cfg a=1', "--cfg=b.'*'.c:=[1]", '--tool=-y', 'true', '-');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (tokens) => {
        const r = parseCommand(['jp', 'q', ...tokens].join(' '));
        if (!r.ok) return;
        expect(reparse(r.command)).toEqual(stripSpans(r.command));
      }),
      { numRuns: 2000 },
    );
  });
});
