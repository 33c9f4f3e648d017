import { describe, expect, it } from 'vitest';
import { contextAt, linesOf, sectionStart, tokenAt, toolAt } from './toml-context';

/** The context at the `|` in `text` (which is removed). */
function at(text: string) {
  const offset = text.indexOf('|');
  const clean = text.slice(0, offset) + text.slice(offset + 1);
  const before = clean.slice(0, offset).split('\n');
  const line = before.length;
  const column = (before[before.length - 1] ?? '').length + 1;
  return contextAt(linesOf(clean), line, column);
}

function tok(text: string) {
  const offset = text.indexOf('|');
  const clean = text.slice(0, offset) + text.slice(offset + 1);
  const before = clean.slice(0, offset).split('\n');
  return tokenAt(linesOf(clean), before.length, (before[before.length - 1] ?? '').length + 1);
}

describe('contextAt', () => {
  it('finds a key being typed in a tool table', () => {
    expect(at('[conversation.tools.x]\nsou|')).toEqual({ kind: 'key', parent: ['conversation', 'tools', 'x'], prefix: 'sou', startColumn: 1, endColumn: 4 });
  });

  it('an empty line in a table is a key position', () => {
    expect(at('[conversation.tools.x]\nsource = "local"\n|')).toMatchObject({ kind: 'key', parent: ['conversation', 'tools', 'x'], prefix: '' });
  });

  it('the replace range covers the rest of the key after the cursor', () => {
    expect(at('[conversation.tools.x]\nen|able = true')).toMatchObject({ kind: 'key', prefix: 'en', startColumn: 1, endColumn: 7 });
  });

  it('a value right after `= `', () => {
    expect(at('[conversation.tools.x]\nenable = |')).toEqual({ kind: 'value', path: ['conversation', 'tools', 'x', 'enable'], prefix: '', quote: undefined, startColumn: 10, endColumn: 10 });
  });

  it('a bare word being typed as a value', () => {
    expect(at('[conversation.tools.x]\nenable = dis|')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'x', 'enable'], prefix: 'dis', quote: undefined, startColumn: 10 });
  });

  it('inside a string, up to an auto-closed quote', () => {
    expect(at('[conversation.tools.x]\nenable = "dis|"')).toEqual({ kind: 'value', path: ['conversation', 'tools', 'x', 'enable'], prefix: 'dis', quote: '"', startColumn: 11, endColumn: 14 });
  });

  it('inside a literal string', () => {
    expect(at("[conversation.tools.x]\nrun = 'a|")).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'x', 'run'], prefix: 'a', quote: "'" });
  });

  it('a key inside an inline enable table', () => {
    expect(at('[conversation.tools.x]\nenable = { avail|')).toMatchObject({ kind: 'key', parent: ['conversation', 'tools', 'x', 'enable'], prefix: 'avail' });
    expect(at('[conversation.tools.x]\nenable = { availability = "on", |')).toMatchObject({ kind: 'key', parent: ['conversation', 'tools', 'x', 'enable'], prefix: '' });
  });

  it('a value inside an inline enable table', () => {
    expect(at('[conversation.tools.x]\nenable = { allow_toggle = "|" }')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'x', 'enable', 'allow_toggle'], quote: '"' });
  });

  it('dotted keys', () => {
    expect(at('[conversation.tools.x]\nenable.availability = |')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'x', 'enable', 'availability'] });
    expect(at('[conversation.tools.x]\nenable.|')).toMatchObject({ kind: 'key', parent: ['conversation', 'tools', 'x', 'enable'], prefix: '' });
  });

  it("the defaults table '*'", () => {
    expect(at("[conversation.tools.'*']\n|")).toMatchObject({ kind: 'key', parent: ['conversation', 'tools', '*'] });
    expect(at("[conversation.tools.'*']\nenable = \"|\"")).toMatchObject({ kind: 'value', path: ['conversation', 'tools', '*', 'enable'] });
  });

  it('tools as inline tables of [conversation.tools]', () => {
    expect(at('[conversation.tools]\nfs_read = { enable = |')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'fs_read', 'enable'] });
  });

  it('parameter tables', () => {
    expect(at('[conversation.tools.x.parameters.path]\nty|')).toMatchObject({ kind: 'key', parent: ['conversation', 'tools', 'x', 'parameters', 'path'], prefix: 'ty' });
  });

  it('a header being typed', () => {
    expect(at('[conversation.tools.|')).toEqual({ kind: 'header', array: false, segments: ['conversation', 'tools'], prefix: '', startColumn: 21, endColumn: 21 });
    expect(at('[conv|]')).toMatchObject({ kind: 'header', segments: [], prefix: 'conv', startColumn: 2, endColumn: 6 });
    expect(at("[conversation.tools.'*|']")).toMatchObject({ kind: 'header', segments: ['conversation', 'tools'], prefix: '*', startColumn: 21, endColumn: 24 });
    expect(at('[[layers|')).toMatchObject({ kind: 'header', array: true, prefix: 'layers' });
  });

  it('nothing in comments, after a complete value, or inside a multi-line string', () => {
    expect(at('[conversation.tools.x]\n# enable = |')).toEqual({ kind: 'none' });
    expect(at('[conversation.tools.x]\nenable = "on" |')).toEqual({ kind: 'none' });
    expect(at('[conversation.tools.x]\ndescription = """\nsome |')).toEqual({ kind: 'none' });
  });

  it('a multi-line string above does not confuse the scan', () => {
    expect(at('[conversation.tools.x]\ndescription = """\nenable = "off"\n"""\nenable = |')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'x', 'enable'] });
  });

  it('multi-line arrays keep their key', () => {
    expect(at('[conversation.tools.x]\ngroups = [\n  "a",\n  |')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'x', 'groups'] });
  });

  it('works on text that does not parse', () => {
    expect(at('[conversation.tools.x]\nenable = = =\n[conversation.tools.y]\nsource = "|')).toMatchObject({ kind: 'value', path: ['conversation', 'tools', 'y', 'source'], quote: '"' });
  });
});

describe('tokenAt', () => {
  it('a string value and its key path', () => {
    expect(tok('[conversation.tools.x]\nenable = "disc|overable"')).toMatchObject({ role: 'value', path: ['conversation', 'tools', 'x', 'enable'], text: 'discoverable', valueKind: 'string', startColumn: 10, endColumn: 24 });
  });

  it('a boolean value', () => {
    expect(tok('[conversation.tools.x]\nenable = { state = tr|ue }')).toMatchObject({ role: 'value', path: ['conversation', 'tools', 'x', 'enable', 'state'], text: 'true', valueKind: 'boolean' });
  });

  it('a key inside an inline table', () => {
    expect(tok('[conversation.tools.x]\nenable = { allow_t|oggle = "never" }')).toMatchObject({ role: 'key', path: ['conversation', 'tools', 'x', 'enable', 'allow_toggle'] });
  });

  it('header segments, quoted ones unquoted', () => {
    expect(tok("[conversation.tools.'|*']")).toMatchObject({ role: 'header', path: ['conversation', 'tools', '*'], text: '*' });
    expect(tok('[conversation.to|ols.x]')).toMatchObject({ role: 'header', path: ['conversation', 'tools'] });
  });

  it('escapes in basic strings are read', () => {
    expect(tok('[conversation.tools."a\\"b"]\nrun = "as|k"')).toMatchObject({ path: ['conversation', 'tools', 'a"b', 'run'], text: 'ask' });
  });

  it('nothing on whitespace or comments', () => {
    expect(tok('[conversation.tools.x]\nenable = "on"  | # c')).toBeUndefined();
  });
});

describe('sectionStart and toolAt', () => {
  it('finds the header above', () => {
    const lines = linesOf('a = 1\n[conversation.tools.x]\nsource = "local"\n\nenable = "on"');
    expect(sectionStart(lines, 5)).toBe(2);
    expect(sectionStart(lines, 1)).toBe(1);
  });

  it('the tool whose table holds the cursor', () => {
    const text = '[conversation.tools.x]\nsource = "local"\n\n[conversation.tools.x.parameters.p]\ntype = "string"\n# c\n[conversation.tools]\ny = { enable = "on" }';
    const lines = linesOf(text);
    expect(toolAt(lines, 2, 3)).toBe('x');
    expect(toolAt(lines, 3, 1)).toBe('x');
    expect(toolAt(lines, 5, 3)).toBe('x');
    expect(toolAt(lines, 6, 2)).toBe('x');
    expect(toolAt(lines, 8, 10)).toBe('y');
    expect(toolAt(linesOf('a = 1'), 1, 2)).toBeUndefined();
  });
});
