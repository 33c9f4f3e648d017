import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripSpans } from './format';
import type { CommandInput } from './format';
import { parseCommand } from './parse';
import type { Command } from './parse';

function parsed(line: string): Command {
  const r = parseCommand(line);
  if (!r.ok) throw new Error(`parse failed: ${r.error.message} (column ${r.error.column})`);
  return r.command;
}

const query = (q: string, extra: Partial<Extract<CommandInput, { kind: 'query' }>> = {}): CommandInput => ({
  kind: 'query',
  alias: 'q',
  query: q,
  assignments: [],
  directives: [],
  ...extra,
});

const cfg = (key: string, value: string, json = false) => ({ path: key.split('.'), key, value, json });

describe('parseCommand: jp q', () => {
  it.each<[string, CommandInput]>([
    ["jp q 'Deploy main to staging'", query('Deploy main to staging')],
    ['jp query hello', query('hello', { alias: 'query' })],
    ['jp q', query('')],
    ['jp q several words  here', query('several words here')],
    ["jp q 'enable everything I may' -t", query('enable everything I may', { directives: [{ kind: 'enable' }] })],
    ["jp q -t deploy 'x'", query('x', { directives: [{ kind: 'enable', name: 'deploy' }] })],
    ["jp q 'all off' -T", query('all off', { directives: [{ kind: 'disable' }] })],
    ["jp q -u lint 'Lint the code'", query('Lint the code', { toolUse: { kind: 'function', name: 'lint' } })],
    [
      "jp q --cfg conversation.tools.deploy.enable.state=true 'second'",
      query('second', { assignments: [cfg('conversation.tools.deploy.enable.state', 'true')] }),
    ],
    [
      'jp q -t -t explicit_tool q',
      query('q', { directives: [{ kind: 'enable' }, { kind: 'enable', name: 'explicit_tool' }] }),
    ],
    ['jp q -T -t disabled q', query('q', { directives: [{ kind: 'disable' }, { kind: 'enable', name: 'disabled' }] })],
    ['jp q -- -t', query('-t')],
    ['jp q -t -- -T', query('-T', { directives: [{ kind: 'enable' }] })],
    ['jp q -- a -- b', query('a -- b')],
    ['jp q - x', query('- x')],
    ['jp q -t - x', query('- x', { directives: [{ kind: 'enable' }] })],
    [
      `jp q --cfg 'conversation.tools.x.enable:={"availability":"on"}' q`,
      query('q', { assignments: [cfg('conversation.tools.x.enable', '{"availability":"on"}', true)] }),
    ],
    [
      'jp q --cfg=conversation.tools.x.enable=off --cfg a.b=c=d q',
      query('q', { assignments: [cfg('conversation.tools.x.enable', 'off'), cfg('a.b', 'c=d')] }),
    ],
    ["jp q --cfg conversation.tools.'*'.enable=discoverable q", query('q', { assignments: [cfg('conversation.tools.*.enable', 'discoverable')] })],
    [`jp q --cfg "conversation.tools.'*'.enable=on" q`, query('q', { assignments: [cfg('conversation.tools.*.enable', 'on')] })],
    ['jp q --cfg conversation.tools.x.enable= q', query('q', { assignments: [cfg('conversation.tools.x.enable', '')] })],
    ['jp q --cfg conversation.tools.x.enable:=null q', query('q', { assignments: [cfg('conversation.tools.x.enable', 'null', true)] })],
    [
      'jp q --tool a --tools b --no-tool c --no-tools d --tool=e --no-tool= -tf -T=g',
      query('', {
        directives: [
          { kind: 'enable', name: 'a' },
          { kind: 'enable', name: 'b' },
          { kind: 'disable', name: 'c' },
          { kind: 'disable', name: 'd' },
          { kind: 'enable', name: 'e' },
          { kind: 'disable' },
          { kind: 'enable', name: 'f' },
          { kind: 'disable', name: 'g' },
        ],
      }),
    ],
    ["jp q -t '' q", query('q', { directives: [{ kind: 'enable' }] })],
    ['jp q --tool=-odd q', query('q', { directives: [{ kind: 'enable', name: '-odd' }] })],
    ["jp q -t 'two words'", query('', { directives: [{ kind: 'enable', name: 'two words' }] })],
    ['jp q -u', query('', { toolUse: { kind: 'required' } })],
    ['jp q -u -t x', query('', { toolUse: { kind: 'required' }, directives: [{ kind: 'enable', name: 'x' }] })],
    ['jp q -u true q', query('q', { toolUse: { kind: 'required' } })],
    ['jp q -u false q', query('q', { toolUse: { kind: 'none' } })],
    ['jp q -U q', query('q', { toolUse: { kind: 'none' } })],
    ['jp q --no-tool-use q', query('q', { toolUse: { kind: 'none' } })],
    ['jp q --tool-use=lint q', query('q', { toolUse: { kind: 'function', name: 'lint' } })],
    ['jp q -ulint q', query('q', { toolUse: { kind: 'function', name: 'lint' } })],
    ['jp q -U -u lint q', query('q', { toolUse: { kind: 'function', name: 'lint' } })],
    ['jp q -u lint -U q', query('q', { toolUse: { kind: 'none' } })],
    ['jp q -u a -u b q', query('q', { toolUse: { kind: 'function', name: 'b' } })],
    ['jp q -u auto q', query('q', { toolUse: { kind: 'function', name: 'auto' } })],
    ["jp q '-t'", query('', { directives: [{ kind: 'enable' }] })],
    [String.raw`jp q "say \"hi\" to \$USER \\ \` done"`, query('say "hi" to $USER \\ ` done')],
    [String.raw`jp q "keep \n and \' as is"`, query(String.raw`keep \n and \' as is`)],
    ['jp q $HOME *.ts', query('$HOME *.ts')],
    [
      'jp q --cfg a=1 -t x --cfg b:=2 -T y -u x "go"',
      query('go', {
        assignments: [cfg('a', '1'), cfg('b', '2', true)],
        directives: [
          { kind: 'enable', name: 'x' },
          { kind: 'disable', name: 'y' },
        ],
        toolUse: { kind: 'function', name: 'x' },
      }),
    ],
  ])('%s', (line, expected) => {
    expect(stripSpans(parsed(line))).toEqual(expected);
  });
});

describe('parseCommand: jp config set', () => {
  it.each<[string, CommandInput]>([
    [
      'jp config set --id conversation.tools.deploy.enable=discoverable',
      { kind: 'config-set', target: { kind: 'conversation' }, assignments: [cfg('conversation.tools.deploy.enable', 'discoverable')] },
    ],
    [
      'jp config set conversation.tools.deploy.enable.availability=discoverable',
      {
        kind: 'config-set',
        target: { kind: 'layer', layer: 'workspace' },
        assignments: [cfg('conversation.tools.deploy.enable.availability', 'discoverable')],
      },
    ],
    [
      "jp config set --layer user conversation.tools.'*'.enable=discoverable",
      { kind: 'config-set', target: { kind: 'layer', layer: 'user' }, assignments: [cfg('conversation.tools.*.enable', 'discoverable')] },
    ],
    [
      'jp config set --layer=user a=1 b:=true',
      { kind: 'config-set', target: { kind: 'layer', layer: 'user' }, assignments: [cfg('a', '1'), cfg('b', 'true', true)] },
    ],
    [
      'jp config set a=1 --id b=2',
      { kind: 'config-set', target: { kind: 'conversation' }, assignments: [cfg('a', '1'), cfg('b', '2')] },
    ],
    [
      'jp config set -- -odd=1',
      { kind: 'config-set', target: { kind: 'layer', layer: 'workspace' }, assignments: [cfg('-odd', '1')] },
    ],
  ])('%s', (line, expected) => {
    expect(stripSpans(parsed(line))).toEqual(expected);
  });
});

describe('spans', () => {
  it('points directives, assignments, tool use and the query at their words', () => {
    const line = `jp q -t deploy --cfg=a.'*'.enable:=true -u lint 'the query'`;
    const c = parsed(line);
    if (c.kind !== 'query') throw new Error('not a query');
    const text = (s: { start: number; end: number } | undefined) => (s === undefined ? undefined : line.slice(s.start, s.end));
    expect(text(c.directives[0]?.span)).toBe('-t deploy');
    expect(text(c.directives[0]?.nameSpan)).toBe('deploy');
    const a = c.assignments[0];
    expect(a?.path).toEqual(['a', '*', 'enable']);
    expect(text(a?.span)).toBe(`a.'*'.enable:=true`);
    expect(text(a?.keySpan)).toBe(`a.'*'.enable`);
    expect(text(a?.valueSpan)).toBe('true');
    expect(c.toolUse?.kind).toBe('function');
    if (c.toolUse?.kind === 'function') {
      expect(text(c.toolUse.span)).toBe('-u lint');
      expect(text(c.toolUse.nameSpan)).toBe('lint');
    }
    expect(text(c.querySpan)).toBe(`'the query'`);
  });

  it('records the --layer option span only when given', () => {
    const line = 'jp config set --layer user a=1';
    const c = parsed(line);
    if (c.kind !== 'config-set' || c.target.kind !== 'layer') throw new Error('not a layer edit');
    expect(c.target.span && line.slice(c.target.span.start, c.target.span.end)).toBe('--layer user');
    const d = parsed('jp config set a=1');
    expect(d.kind === 'config-set' && d.target.kind === 'layer' && d.target.span).toBe(undefined);
  });
});

describe('errors', () => {
  it.each<[string, string[], number, number]>([
    // [line, message parts, column, endColumn (exclusive)]
    ['', ['empty command', 'supported: jp q / jp query, jp config set [--id | --layer NAME] KEY=VALUE...'], 1, 2],
    ['git status', ['unknown command `git`', 'supported: jp q / jp query'], 1, 4],
    ['jp', ['missing subcommand', 'supported:'], 1, 3],
    ['jp chat hi', ['unknown command `jp chat`', 'supported: jp q / jp query, jp config set'], 4, 8],
    ['jp config', ['missing subcommand after `jp config`'], 4, 10],
    ['jp config get x', ['unknown command `jp config get`', 'supported:'], 11, 14],
    ["jp q 'unterminated", ['unterminated single quote'], 6, 19],
    ['jp q "a \\" b', ['unterminated double quote'], 6, 13],
    ['jp q --model x q', ['unknown option `--model`', '-t/--tool/--tools [NAME]', '-U/--no-tool-use', '--cfg KEY=VALUE'], 6, 13],
    ['jp q --model=x q', ['unknown option `--model`'], 6, 15],
    ['jp q -x q', ['unknown option `-x`', 'accepted:'], 6, 8],
    ['jp q -5', ['unknown option `-5`', '--'], 6, 8],
    ['jp q -U=1 q', ['`-U` takes no value'], 6, 10],
    ['jp q --tool-use= q', ['needs a tool name'], 6, 17],
    ["jp q -u '' q", ['needs a tool name'], 6, 11],
    ['jp q --cfg', ['`--cfg` needs KEY=VALUE'], 6, 11],
    ['jp q --cfg -t q', ['`--cfg` needs KEY=VALUE'], 6, 11],
    ['jp q --cfg novalue q', ['expected KEY=VALUE or KEY:=JSON', '`novalue`'], 12, 19],
    ['jp q --cfg @file.toml q', ['config file', 'not supported by the workbench'], 12, 22],
    [`jp q --cfg '{"a":1}' q`, ['root JSON object', 'not supported by the workbench'], 12, 21],
    ['jp q --cfg a.b+=c q', ['`KEY+=VALUE`', 'not supported by the workbench'], 15, 17],
    ['jp q --cfg a.b:+=[1] q', ['`KEY:+=VALUE`', 'not supported by the workbench'], 15, 18],
    ['jp q --cfg =x q', ['missing key before `=`'], 12, 13],
    ['jp q --cfg a..b=x q', ['empty segment in key `a..b`'], 12, 16],
    ['jp q --cfg .a=x q', ['empty segment'], 12, 14],
    // JSON errors point at the offending character (input/json.ts's scan, as for a JSON file).
    [`jp q --cfg 'a:={"x":}' q`, ['invalid JSON after `a:=`', 'column 21', 'expected a value (an object, an array, a string in double quotes, a number, true, false or null), found `}`'], 21, 22],
    ['jp q --cfg a:=tru q', ['invalid JSON', 'expected a value', 'found `t`'], 15, 16],
    ['jp q --cfg a:=on q', ['invalid JSON', 'expected a value', 'found `o`'], 15, 16],
    // A bracket never closed: its own column.
    [`jp q --cfg 'a:={"x":1' q`, ['invalid JSON', 'this `{` is never closed'], 16, 17],
    ['jp q --cfg a:= q', ['invalid JSON', 'the text ends where a value should be'], 14, 15],
    ['jp q --cfg=a:=[1,] q', ['invalid JSON', 'a trailing comma before `]`'], 18, 19],
    ['jp config set', ['needs at least one KEY=VALUE'], 11, 14],
    ['jp config set --id', ['needs at least one KEY=VALUE'], 15, 19],
    ['jp config set --layer', ['`--layer` needs a layer name'], 15, 22],
    ['jp config set --layer --id a=1', ['`--layer` needs a layer name'], 15, 22],
    ["jp config set --layer '' a=1", ['`--layer` needs a layer name'], 15, 25],
    ['jp config set --id --layer user a=1', ['cannot be combined'], 20, 27],
    ['jp config set --layer user --id a=1', ['cannot be combined'], 28, 32],
    ['jp config set --layer a --layer b x=1', ['given twice'], 25, 32],
    ['jp config set --id=abc a=1', ['`--id` takes no value'], 15, 23],
    ['jp config set --user a=1', ['unknown option `--user`', '--id, --layer NAME'], 15, 21],
    ['jp config set notanassignment', ['expected KEY=VALUE'], 15, 30],
    ['jp config set a+=1', ['not supported by the workbench'], 16, 18],
  ])('%j', (line, parts, column, endColumn) => {
    const r = parseCommand(line);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    for (const part of parts) expect(r.error.message).toContain(part);
    expect([r.error.column, r.error.endColumn]).toEqual([column, endColumn]);
  });
});

describe('robustness', () => {
  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        parseCommand(s);
        parseCommand(`jp q ${s}`);
        parseCommand(`jp config set ${s}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on command-like token soup, and errors carry sane columns', () => {
    const token = fc.constantFrom(
      'jp', 'q', 'query', 'config', 'set', '--id', '--layer', '--layer=x', '-t', '-T', '-u', '-U', '--tool', '--no-tools=',
      '--tool-use=', '--cfg', '--cfg=a=1', 'a.b=c', "a.'*'.c:=1", 'a:={', 'x:+=1', '--', '-', "'", '"', '\\', 'name', "'two words'", '#', ';',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 10 }), fc.boolean(), (tokens, prefix) => {
        const line = (prefix ? ['jp', 'q', ...tokens] : tokens).join(' ');
        const r = parseCommand(line);
        if (!r.ok) {
          expect(r.error.column).toBeGreaterThanOrEqual(1);
          expect(r.error.endColumn).toBeGreaterThan(r.error.column);
          expect(r.error.endColumn).toBeLessThanOrEqual(Math.max(line.length, 1) + 1);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
