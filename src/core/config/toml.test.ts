import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as smolParse, stringify as smolStringify } from 'smol-toml';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseToml } from './toml';
import { toPlain } from './toml-ast';
import type { Span, TomlDocument, TomlEntry, TomlTable, TomlTableArray, TomlValue } from './toml-ast';

// ---- helpers ------------------------------------------------------------------------------------

const here = path.dirname(fileURLToPath(import.meta.url));
const sharedDir = path.resolve(here, '../../../../shared');

function nullObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Date-times compared loosely: case, the `T`/space separator and fractional seconds are ignored. */
function normDate(s: string): string {
  return s.toUpperCase().replace(' ', 'T').replace(/\.\d+/, '');
}

/** smol-toml's result as plain data: bigint → number, dates → `{ $datetime }`, null prototypes. */
function smolPlain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return { $datetime: normDate(v.toISOString()) };
  if (Array.isArray(v)) return v.map(smolPlain);
  if (v !== null && typeof v === 'object') {
    const out = nullObject();
    for (const k of Object.keys(v)) setKey(out, k, smolPlain((v as Record<string, unknown>)[k]));
    return out;
  }
  return v;
}

/** Like toPlain, but date-times as `{ $datetime }` so they compare with smolPlain's. */
function loosePlain(node: TomlValue): unknown {
  switch (node.kind) {
    case 'array':
    case 'table-array':
      return node.items.map(loosePlain);
    case 'table': {
      const out = nullObject();
      for (const [k, e] of node.entries) setKey(out, k, loosePlain(e.value));
      return out;
    }
    case 'datetime':
      return { $datetime: normDate(node.value) };
    default:
      return node.value;
  }
}

function hasDatetime(node: TomlValue): boolean {
  if (node.kind === 'datetime') return true;
  if (node.kind === 'array' || node.kind === 'table-array') return node.items.some(hasDatetime);
  if (node.kind === 'table') for (const e of node.entries.values()) if (hasDatetime(e.value)) return true;
  return false;
}

function ok(text: string): TomlDocument {
  const doc = parseToml(text);
  expect(doc.errors).toEqual([]);
  return doc;
}

/** Parses with both parsers and expects the same data. */
function expectSameAsSmol(text: string): void {
  const doc = ok(text);
  const theirs = smolPlain(smolParse(text));
  if (hasDatetime(doc.root)) expect(loosePlain(doc.root)).toEqual(theirs);
  else expect(toPlain(doc.root)).toEqual(theirs);
}

function entry(table: TomlTable, ...path: string[]): TomlEntry {
  let t: TomlValue = table;
  let e: TomlEntry | undefined;
  for (const k of path) {
    if (t.kind === 'table-array') t = t.items[t.items.length - 1] as TomlTable;
    if (t.kind !== 'table') throw new Error(`${k}: not a table`);
    e = t.entries.get(k);
    if (e === undefined) throw new Error(`missing key ${k}`);
    t = e.value;
  }
  if (e === undefined) throw new Error('empty path');
  return e;
}

function tableAt(table: TomlTable, ...path: string[]): TomlTable {
  const v = entry(table, ...path).value;
  if (v.kind !== 'table') throw new Error('not a table');
  return v;
}

const slice = (src: string, span: Span | undefined): string => {
  if (span === undefined) throw new Error('no span');
  return src.slice(span.start, span.end);
};

function walkTomlFiles(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walkTomlFiles(p, out);
    else if (name.endsWith('.toml')) out.push(p);
  }
  return out;
}

/**
 * Every span in the tree lies within the text, start before end. One `expect` for the whole tree: an
 * `expect` per span was 234,000 of them in the round-trip property (78,000 spans), about 8 s of the
 * suite's time on an idle machine and past the 30 s test timeout on a loaded one.
 */
function checkSpans(root: TomlValue, len: number): void {
  const bad: string[] = [];
  const check = (s: Span | undefined, where: string) => {
    if (s === undefined) return;
    if (!(s.start >= 0 && s.end >= s.start && s.end <= len)) bad.push(`${where} ${JSON.stringify(s)} (text length ${len})`);
  };
  const walk = (node: TomlValue, path: string) => {
    check(node.span, `${path} span`);
    if (node.kind === 'table') {
      check(node.headerSpan, `${path} headerSpan`);
      for (const [key, e] of node.entries) {
        check(e.keySpan, `${path}.${key} keySpan`);
        check(e.pairSpan, `${path}.${key} pairSpan`);
        walk(e.value, `${path}.${key}`);
      }
    } else if (node.kind === 'array' || node.kind === 'table-array') {
      node.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    }
  };
  walk(root, '(root)');
  expect(bad).toEqual([]);
}

// ---- the corpus ---------------------------------------------------------------------------------

const corpus: Record<string, string> = {
  empty: '',
  'only comments and blank lines': '# a comment\n\n   # another\t\n\n',
  keys: `
bare = 1
bare-key_2 = 2
1234 = 3
"quoted key" = 4
'literal key' = 5
"" = 6
"ʎǝʞ" = 7
a.b.c = 8
a . "b.d" . 'e' = 9
site."google.com" = true
3.14159 = "pi"
"\\u00e9t\\u00e9" = "escaped key"
"tab\\tkey" = 10
`,
  'prototype-ish keys': `
__proto__ = 1
constructor = 2
toString = { valueOf = 3 }
hasOwnProperty.__proto__ = 4
[prototype]
__defineGetter__ = 5
[[__proto__x]]
constructor = 6
`,
  'basic strings': String.raw`
basic = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF."
escapes = "\b\t\n\f\r\"\\ \u0041 \U0001F600 \u00e9 \U0010FFFF"
empty = ""
tab = "a	b"
hash = "not # a comment" # but this is
unicode = "日本語 🎉"
`,
  'multi-line basic strings': `
ml1 = """
Roses are red
Violets are blue"""
ml2 = """\\
       The quick brown \\
       fox jumps over \\
       the lazy dog.\\
       """
ml3 = """Here are two quotation marks: "". Simple enough."""
ml4 = """Here are three quotation marks: ""\\"."""
ml5 = """Here are fifteen quotation marks: \\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"."""
ml6 = """"This," she said, "is just a pointless statement.""""
ml7 = """a\\tb \\u00e9
  keep indentation
"""
ml8 = """trailing backslash with spaces \\   
    continues"""
ml9 = """"""
ml10 = """
"""
ml11 = """one quote at end""""
`,
  'literal strings': `
winpath = 'C:\\Users\\nodejs\\templates'
winpath2 = '\\\\ServerX\\admin$\\system32\\'
quoted = 'Tom "Dubs" Preston-Werner'
regex = '<\\i\\c*\\s*>'
lines = '''
The first newline is
trimmed in raw strings.
   All other whitespace
   is preserved.
'''
regex2 = '''I [dw]on't need \\d{2} apples'''
quot15 = '''Here are fifteen quotation marks: """""""""""""""'''
apos15 = "Here are fifteen apostrophes: '''''''''''''''"
str = ''''That,' she said, 'is still pointless.''''
emptylit = ''
emptyml = ''''''
`,
  'integers, floats, booleans': `
int1 = +99
int2 = 42
int3 = 0
int4 = -17
int5 = 1_000
int6 = 5_349_221
int7 = 53_49_221
int8 = 1_2_3_4_5
int9 = -0
int10 = +0
hex1 = 0xDEADBEEF
hex2 = 0xdeadbeef
hex3 = 0xdead_beef
hex4 = 0x00_01
oct1 = 0o01234567
oct2 = 0o755
bin1 = 0b11010110
bin2 = 0b1_0
max = 9007199254740991
min = -9007199254740991
flt1 = +1.0
flt2 = 3.1415
flt3 = -0.01
flt4 = 5e+22
flt5 = 1e06
flt6 = -2E-2
flt7 = 6.626e-34
flt8 = 224_617.445_991_228
flt9 = 1e1_0
flt10 = 0.0e0
flt11 = 1.7976931348623157e308
sf1 = inf
sf2 = +inf
sf3 = -inf
sf4 = nan
sf5 = +nan
sf6 = -nan
zero = +0.0
nzero = -0.0
bool1 = true
bool2 = false
`,
  datetimes: `
odt1 = 1979-05-27T07:32:00Z
odt2 = 1979-05-27T00:32:00-07:00
odt3 = 1979-05-27T00:32:00.999999-07:00
odt4 = 1979-05-27 07:32:00Z
odt5 = 1979-05-27t07:32:00z
odt6 = 1979-05-27T07:32:00+00:00
ldt1 = 1979-05-27T07:32:00
ldt2 = 1979-05-27T00:32:00.999999
ldt3 = 1979-05-27 07:32:00
ld1 = 1979-05-27
ld2 = 2024-02-29
lt1 = 07:32:00
lt2 = 00:32:00.999999
in_array = [1979-05-27, 07:32:00, 1979-05-27 07:32:00Z]
inline = { when = 2000-01-01T00:00:00Z }
`,
  arrays: `
integers = [ 1, 2, 3 ]
colors = [ "red", "yellow", "green" ]
nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
string_array = [ "all", 'strings', """are the same""", '''type''' ]
numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
contributors = [
  "Foo Bar <foo@example.com>",
  { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" }
]
integers2 = [
  1, 2, 3
]
integers3 = [
  1,
  2, # this is ok
]
empty = []
empty2 = [ # comment
]
commented = [ # first
  # own line
  "a" # after a
  , # after the comma
  "b",
  # before the end
]
tables = [ {}, { a = [ { b = 1 } ] } ]
deep = [[[[[[[[[[1]]]]]]]]]]
`,
  'inline tables': `
name = { first = "Tom", last = "Preston-Werner" }
point = { x = 1, y = 2 }
animal = { type.name = "pug" }
empty = {}
spaced = {   }
nested = { a = { b = { c = [1, {d = 2}] } } }
dotted = { a.b = 1, a.c = 2, "q".'r' = 3 }
`,
  tables: `
[table]

[table-1]
key1 = "some string"
key2 = 123

[table-2]
key1 = "another string"
key2 = 456

[dog."tater.man"]
type.name = "pug"

[a.b.c]            # this is best practice
[ d.e.f ]          # same as [d.e.f]
[ g .  h  . i ]    # same as [g.h.i]
[ j . "ʞ" . 'l' ]  # same as [j."ʞ".'l']

# [x] you
# [x.y] don't
# [x.y.z] need these
[x.y.z.w] # for this to work

[x] # defining a super-table afterward is ok
k = 1

[""]
empty-name = true
`,
  'tables and dotted keys': `
name = "root"
apple.type = "fruit"
orange.type = "fruit"
apple.skin = "thin"
orange.skin = "thick"

[fruit]
apple.color = "red"
apple.taste.sweet = true

[fruit.apple.texture]  # you can add sub-tables
smooth = true

[animal.dog]
legs = 4
[animal]
cat.legs = 4
`,
  'arrays of tables': `
[[products]]
name = "Hammer"
sku = 738594937

[[products]]  # empty table within the array

[[products]]
name = "Nail"
sku = 284758393

color = "gray"

[[fruits]]
name = "apple"

[fruits.physical]  # subtable
color = "red"
shape = "round"

[[fruits.varieties]]  # nested array of tables
name = "red delicious"

[[fruits.varieties]]
name = "granny smith"


[[fruits]]
name = "banana"

[[fruits.varieties]]
name = "plantain"

[[ spaced . "array" ]]
x = 1
`,
  'whitespace and comments': '\t a\t=\t1\t# tabs\n  [ t ]  # c\n  b = 2 #no space\n#eof without newline',
  'no trailing newline': 'a = 1\n[t]\nb = "x"',
  'comment at end of file': 'a = 1 # end',
  'byte order mark': '\uFEFFa = 1\n',
  'CRLF line endings': 'a = 1\r\n# comment\r\n[t]\r\nb = [\r\n  1,\r\n  2,\r\n]\r\nc = """\r\nline1\r\nline2\\\r\n  cont"""\r\nd = \'\'\'\r\nx\r\n\'\'\'\r\n',
};

describe('parseToml agrees with smol-toml', () => {
  for (const [name, text] of Object.entries(corpus)) {
    it(name, () => expectSameAsSmol(text));
  }

  it('parses the same documents with CRLF line endings', () => {
    for (const text of Object.values(corpus)) {
      if (text.includes('\r')) continue;
      expectSameAsSmol(text.replace(/\n/g, '\r\n'));
    }
  });

  it('keeps CRLF inside multi-line strings, as smol-toml does', () => {
    const doc = ok('a = """x\r\ny"""\r\nb = \'\'\'p\r\nq\'\'\'');
    expect(toPlain(doc.root)).toEqual(smolPlain(smolParse('a = """x\r\ny"""\r\nb = \'\'\'p\r\nq\'\'\'')));
    expect(entry(doc.root, 'a').value).toMatchObject({ value: 'x\r\ny' });
  });

  it('gives the exact scalar kinds and values', () => {
    const doc = ok(corpus['integers, floats, booleans'] ?? '');
    expect(entry(doc.root, 'hex1').value).toMatchObject({ kind: 'integer', value: 0xdeadbeef });
    expect(entry(doc.root, 'oct2').value).toMatchObject({ kind: 'integer', value: 0o755 });
    expect(entry(doc.root, 'bin1').value).toMatchObject({ kind: 'integer', value: 0b11010110 });
    expect(entry(doc.root, 'flt1').value).toMatchObject({ kind: 'float', value: 1 });
    expect(entry(doc.root, 'int9').value).toMatchObject({ kind: 'integer', value: 0 });
    expect(Object.is((entry(doc.root, 'nzero').value as { value: number }).value, -0)).toBe(true);
    expect(entry(doc.root, 'sf3').value).toMatchObject({ kind: 'float', value: -Infinity });
    expect(Number.isNaN((entry(doc.root, 'sf6').value as { value: number }).value)).toBe(true);
    expect(entry(doc.root, 'bool2').value).toMatchObject({ kind: 'boolean', value: false });
  });

  it('keeps date-times as their source text', () => {
    const doc = ok(corpus.datetimes ?? '');
    expect(entry(doc.root, 'odt3').value).toMatchObject({ kind: 'datetime', value: '1979-05-27T00:32:00.999999-07:00' });
    expect(entry(doc.root, 'odt4').value).toMatchObject({ kind: 'datetime', value: '1979-05-27 07:32:00Z' });
    expect(entry(doc.root, 'ld1').value).toMatchObject({ kind: 'datetime', value: '1979-05-27' });
    expect(entry(doc.root, 'lt2').value).toMatchObject({ kind: 'datetime', value: '00:32:00.999999' });
  });

  it('accepts a leap second, which smol-toml rejects', () => {
    const doc = ok('t = 23:59:60\nd = 2016-12-31T23:59:60Z');
    expect(entry(doc.root, 't').value).toMatchObject({ kind: 'datetime', value: '23:59:60' });
    expect(entry(doc.root, 'd').value).toMatchObject({ kind: 'datetime', value: '2016-12-31T23:59:60Z' });
  });

  it('treats __proto__, constructor and non-ASCII keys as ordinary keys', () => {
    const doc = ok('__proto__ = 1\nconstructor.prototype = 2\n"ключ" = 3\n[__proto__x.__proto__]\ny = 4');
    expect([...doc.root.entries.keys()]).toEqual(['__proto__', 'constructor', 'ключ', '__proto__x']);
    const plain = toPlain(doc.root) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(null);
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor', 'ключ', '__proto__x']);
    expect(plain['__proto__']).toBe(1);
    expect(({} as Record<string, unknown>)['y']).toBeUndefined(); // nothing leaked into Object.prototype
  });

  const roots = [path.join(sharedDir, 'data/jp-workspace/.jp'), path.join(sharedDir, 'conformance')];
  const files = roots.flatMap((dir) => walkTomlFiles(dir, []));
  it('finds the real files under ../shared', () => {
    expect(files.length).toBeGreaterThan(20);
  });
  for (const file of files) {
    it(`real file ${path.relative(sharedDir, file)}`, () => {
      const text = readFileSync(file, 'utf8');
      expectSameAsSmol(text);
      const doc = parseToml(text);
      checkSpans(doc.root, text.length);
    });
  }
});

// ---- spans --------------------------------------------------------------------------------------

describe('spans', () => {
  const src = [
    'name = "x" # c', // 0
    '',
    '[t]',
    '  a.b."c" = [1, 2]  # tail',
    "  q = { r = 1, s.t = 'u' }",
    '',
    '# trailing comment, not part of the body',
    '[[arr]]',
    'n = 1',
    '[[arr]]',
    '',
  ].join('\n');
  const doc = ok(src);
  const root = doc.root;

  it('covers keys, pairs and values exactly', () => {
    const name = entry(root, 'name');
    expect(slice(src, name.keySpan)).toBe('name');
    expect(slice(src, name.pairSpan)).toBe('name = "x"');
    expect(slice(src, name.value.span)).toBe('"x"');

    const a = entry(root, 't', 'a');
    expect(slice(src, a.keySpan)).toBe('a');
    expect(slice(src, a.pairSpan)).toBe('a.b."c" = [1, 2]');
    expect(a.value).toMatchObject({ kind: 'table', origin: 'dotted' });
    expect(slice(src, a.value.span)).toBe('a');
    const b = entry(root, 't', 'a', 'b');
    expect(slice(src, b.keySpan)).toBe('b');
    expect(slice(src, b.pairSpan)).toBe('a.b."c" = [1, 2]');
    const c = entry(root, 't', 'a', 'b', 'c');
    expect(slice(src, c.keySpan)).toBe('"c"');
    expect(slice(src, c.pairSpan)).toBe('a.b."c" = [1, 2]');
    expect(slice(src, c.value.span)).toBe('[1, 2]');
    const items = c.value.kind === 'array' ? c.value.items : [];
    expect(items.map((i) => slice(src, i.span))).toEqual(['1', '2']);

    const q = entry(root, 't', 'q');
    expect(q.value).toMatchObject({ kind: 'table', origin: 'inline' });
    expect(slice(src, q.value.span)).toBe("{ r = 1, s.t = 'u' }");
    expect(slice(src, entry(root, 't', 'q', 'r').pairSpan)).toBe('r = 1');
    expect(slice(src, entry(root, 't', 'q', 's', 't').pairSpan)).toBe("s.t = 'u'");
    expect(slice(src, entry(root, 't', 'q', 's', 't').value.span)).toBe("'u'");
  });

  it('gives header tables their header span, section span and bodyEnd', () => {
    const tEntry = entry(root, 't');
    expect(slice(src, tEntry.keySpan)).toBe('t');
    expect(tEntry.pairSpan).toBeUndefined();
    const t = tableAt(root, 't');
    expect(t.origin).toBe('header');
    expect(slice(src, t.headerSpan)).toBe('[t]');
    expect(src.slice(0, t.bodyEnd).endsWith("s.t = 'u' }")).toBe(true);
    expect(t.span).toEqual({ start: src.indexOf('[t]'), end: t.bodyEnd });
  });

  it('gives the root its whole text as span and the end of its last pair as bodyEnd', () => {
    expect(root.origin).toBe('root');
    expect(root.span).toEqual({ start: 0, end: src.length });
    expect(root.bodyEnd).toBe('name = "x" # c'.length);
  });

  it('gives arrays of tables and their elements spans', () => {
    const arrEntry = entry(root, 'arr');
    const arr = arrEntry.value as TomlTableArray;
    expect(arr.kind).toBe('table-array');
    expect(slice(src, arrEntry.keySpan)).toBe('arr');
    const [first, second] = arr.items;
    expect(first?.origin).toBe('array-element');
    expect(slice(src, first?.headerSpan)).toBe('[[arr]]');
    expect(slice(src, first?.span)).toBe('[[arr]]\nn = 1');
    expect(first?.bodyEnd).toBe(src.indexOf('n = 1') + 5);
    expect(slice(src, second?.span)).toBe('[[arr]]');
    expect(second?.bodyEnd).toBe(src.lastIndexOf('[[arr]]') + 7);
    expect(slice(src, arr.span)).toBe('[[arr]]\nn = 1\n[[arr]]');
  });

  it('marks parents of headers implicit, until a header defines them', () => {
    const text = '[a.b.c]\nx = 1\n[a]\ny = 2\n';
    const d = ok(text);
    const a = tableAt(d.root, 'a');
    expect(a.origin).toBe('header');
    expect(slice(text, a.headerSpan)).toBe('[a]');
    expect(slice(text, a.span)).toBe('[a]\ny = 2');
    expect(entry(d.root, 'a').keySpan).toEqual({ start: text.indexOf('[a]') + 1, end: text.indexOf('[a]') + 2 });
    const b = tableAt(d.root, 'a', 'b');
    expect(b.origin).toBe('implicit');
    expect(slice(text, b.span)).toBe('b');
    expect(slice(text, entry(d.root, 'a', 'b', 'c').keySpan)).toBe('c');
    // Keys stay in first-seen order.
    expect([...a.entries.keys()]).toEqual(['b', 'y']);
  });

  it('spans quoted keys with their quotes and multi-line values whole', () => {
    const text = '"a b" . \'c\' = """\nx\n"""  # z\n';
    const d = ok(text);
    expect(slice(text, entry(d.root, 'a b').keySpan)).toBe('"a b"');
    expect(slice(text, entry(d.root, 'a b', 'c').keySpan)).toBe("'c'");
    expect(slice(text, entry(d.root, 'a b', 'c').pairSpan)).toBe('"a b" . \'c\' = """\nx\n"""');
    expect(d.root.bodyEnd).toBe(text.indexOf('# z') + 3);
  });

  it('spans date-times with a space separator and signed numbers', () => {
    const text = 'd = 1979-05-27 07:32:00Z\nn = -1_000\nf = +inf\nb = true';
    const d = ok(text);
    expect(slice(text, entry(d.root, 'd').value.span)).toBe('1979-05-27 07:32:00Z');
    expect(slice(text, entry(d.root, 'n').value.span)).toBe('-1_000');
    expect(slice(text, entry(d.root, 'f').value.span)).toBe('+inf');
    expect(slice(text, entry(d.root, 'b').value.span)).toBe('true');
  });

  it('uses UTF-16 offsets', () => {
    const text = 'emoji = "😀😀"\nk = 1';
    const d = ok(text);
    expect(entry(d.root, 'k').keySpan).toEqual({ start: 15, end: 16 });
  });
});

// ---- bodyEnd ------------------------------------------------------------------------------------

describe('bodyEnd', () => {
  /** bodyEnd of `[t]`, checked by inserting a line there and re-parsing. */
  function bodyEndOf(text: string, ...path: string[]): number {
    const d = ok(text);
    const t = path.length === 0 ? d.root : tableAt(d.root, ...path);
    const at = t.bodyEnd ?? -1;
    const edited = `${text.slice(0, at)}\ninserted = 1${text.slice(at)}`;
    const e = ok(edited);
    const target = path.length === 0 ? e.root : tableAt(e.root, ...path);
    expect(target.entries.has('inserted')).toBe(true);
    return at;
  }

  it('ends after the trailing comment of the last pair', () => {
    const text = '[t]\na = 1 # trailing\n';
    expect(bodyEndOf(text, 't')).toBe(text.indexOf('\n', 4));
  });

  it('ignores blank lines and comment lines after the last pair', () => {
    const text = '[t]\na = 1\n\n# about u\n\n[u]\n';
    expect(bodyEndOf(text, 't')).toBe(9);
  });

  it('stops at the section end when subtables follow', () => {
    // Trailing whitespace stays on its line: bodyEnd is just before the newline.
    const text = '[t]\na = 1\nb = 2   \n[t.sub]\nc = 3\n[t.sub.deeper]\n';
    expect(bodyEndOf(text, 't')).toBe(text.indexOf('b = 2') + 8);
    expect(bodyEndOf(text, 't', 'sub')).toBe(text.indexOf('c = 3') + 5);
    expect(bodyEndOf(text, 't', 'sub', 'deeper')).toBe(text.length - 1);
  });

  it('is the end of the header line when the section has no pairs', () => {
    expect(bodyEndOf('[t]\n\n[u]\n', 't')).toBe(3);
    expect(bodyEndOf('[t]   # header comment\n# more\n[u]', 't')).toBe('[t]   # header comment'.length);
    expect(bodyEndOf('[t]', 't')).toBe(3);
  });

  it('ends after a multi-line value', () => {
    const text = '[t]\na = """\nx\n"""\nb = [\n  1,\n] # done\n\n';
    expect(bodyEndOf(text, 't')).toBe(text.indexOf('# done') + 6);
  });

  it('stops before CRLF and handles the end of file without a newline', () => {
    expect(bodyEndOf('[t]\r\na = 1\r\n\r\n[u]\r\n', 't')).toBe(10);
    expect(bodyEndOf('[t]\na = 1', 't')).toBe(9);
  });

  it('works for the root section', () => {
    expect(bodyEndOf('a = 1\n\n# c\n[t]\n')).toBe(5);
    expect(bodyEndOf('# only a comment\n[t]\n')).toBe(0);
    expect(bodyEndOf('')).toBe(0);
  });

  it('works for array elements', () => {
    const text = '[[a]]\nx = 1\n\n[[a]] # second\n\n[a.sub]\n';
    const d = ok(text);
    const arr = entry(d.root, 'a').value as TomlTableArray;
    expect(arr.items[0]?.bodyEnd).toBe(11);
    expect(arr.items[1]?.bodyEnd).toBe(text.indexOf('# second') + 8);
  });

  it('holds for every header table of generated documents', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.constantFrom('a', 'b', 'c', 'a.x', 'b.y'),
            pairs: fc.array(fc.constantFrom('k = 1', 'k = [\n1,\n]', 'k = 1 # c', 'k = """\nz\n"""'), { maxLength: 3 }),
            filler: fc.array(fc.constantFrom('', '# comment', '   ', '\t# indented'), { maxLength: 3 }),
            headerComment: fc.boolean(),
          }),
          { maxLength: 5 },
        ),
        (sections) => {
          const seen = new Set<string>();
          const lines: string[] = [];
          for (const s of sections) {
            if (seen.has(s.name)) continue;
            seen.add(s.name);
            lines.push(`[${s.name}]${s.headerComment ? ' # h' : ''}`);
            s.pairs.forEach((p, i) => lines.push(p.replace('k =', `k${i} =`)));
            lines.push(...s.filler);
          }
          const text = lines.join('\n');
          for (const name of seen) bodyEndOf(text, ...name.split('.'));
        },
      ),
      { numRuns: 200 },
    );
  });
});

// ---- errors -------------------------------------------------------------------------------------

interface ErrorCase {
  text: string;
  message: string | RegExp;
  /** The text the error span covers, located at `at` (default: its first occurrence). */
  spanText?: string;
  at?: number;
  /** smol-toml takes this document (it accepts some TOML 1.1 and skips some checks). */
  smolAccepts?: boolean;
}

const errorCases: Record<string, ErrorCase> = {
  'duplicate key': { text: 'x = 1\nx = 2', message: 'duplicate key `x`', spanText: 'x', at: 6 },
  'duplicate dotted key': { text: 'a.b = 1\na.b = 2', message: 'duplicate key `a.b`', spanText: 'a.b', at: 8 },
  'duplicate quoted key': { text: 'a = 1\n"a" = 2', message: 'duplicate key `a`', spanText: '"a"' },
  'duplicate key in inline table': { text: 'a = { b = 1, b = 2 }', message: 'duplicate key `b`', spanText: 'b', at: 13 },
  'redefined table': { text: '[a]\nx = 1\n[a]', message: 'table `a` is already defined', spanText: '[a]', at: 10 },
  'redefined super-table': { text: '[a.b]\n[a]\n[a]', message: 'table `a` is already defined', spanText: '[a]', at: 10 },
  'header over dotted-key table': {
    text: '[fruit]\napple.color = "red"\n[fruit.apple]',
    message: 'table `fruit.apple` is already defined by dotted keys',
    spanText: '[fruit.apple]',
  },
  'header over nested dotted-key table': {
    text: '[t1]\nt2.t3.v = 0\n[t1.t2]',
    message: 'table `t1.t2` is already defined by dotted keys',
    spanText: '[t1.t2]',
  },
  'dotted key into an inline table': {
    text: 'a = { b = 1 }\na.c = 2',
    message: 'cannot add key `a.c` into inline table `a`',
    spanText: 'a.c',
  },
  'header over an inline table': { text: 'a = {}\n[a]', message: 'table `a` is already defined as an inline table', spanText: '[a]' },
  'header into an inline table': { text: 'a = {}\n[a.b]', message: 'cannot extend inline table `a` with a [table] header', spanText: '[a.b]' },
  'dotted key into a header table': {
    text: '[a.b.c]\nz = 9\n[a]\nb.c.t = 1',
    message: 'cannot add key `b.c.t`: table `b` is defined by a [table] header',
    spanText: 'b.c.t',
  },
  'dotted key through an implicit table': {
    text: '[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1',
    message: 'cannot add key `b.c.d.k.t`: table `b` is defined by a [table] header',
    spanText: 'b.c.d.k.t',
  },
  'dotted key through a value': {
    text: 'a.b = 1\na.b.c = 2',
    message: 'cannot add key `a.b.c`: `a.b` is already an integer',
    spanText: 'a.b.c',
  },
  'dotted key into an array of tables': {
    text: '[[a.b]]\n[a]\nb.y = 2',
    message: 'cannot add key `b.y`: `b` is already an array of tables',
    spanText: 'b.y',
  },
  'array of tables over a static array': { text: 'a = [1]\n[[a]]', message: 'cannot append to `a` with [[a]]: it is a static array', spanText: '[[a]]' },
  'table over an array of tables': { text: '[[a]]\n[a]', message: 'cannot define table `a`: it is already an array of tables', spanText: '[a]', at: 6 },
  'array of tables over a table': { text: '[a]\n[[a]]', message: 'cannot define array of tables `a`: it is already a table', spanText: '[[a]]' },
  'table over a value': { text: '[a]\nb = 1\n[a.b]', message: 'cannot define table `a.b`: it is already an integer', spanText: '[a.b]' },
  'table through a value': { text: 'a = "s"\n[a.b]', message: 'cannot define table `a.b`: `a` is already a string', spanText: '[a.b]' },
  'missing equals': { text: 'foo 1', message: 'expected `=` after key `foo`, found `1`', spanText: '1' },
  'missing equals at end of file': { text: 'foo', message: 'expected `=` after key `foo`, found end of file', at: 3, spanText: '' },
  'missing equals before newline': { text: 'a.b\n= 1', message: 'expected `=` after key `a.b`, found a newline', spanText: '\n' },
  'missing value': { text: 'a =', message: 'expected a value, found end of file', at: 3, spanText: '' },
  'missing value before comment': { text: 'a = # c', message: 'expected a value, found `#`', spanText: '#' },
  'unterminated string': { text: 'a = "abc', message: 'unterminated string', spanText: '"abc' },
  'unterminated string at newline': { text: 'a = "abc\nb = 1', message: 'unterminated string', spanText: '"abc' },
  'unterminated literal string': { text: "a = 'abc\n", message: 'unterminated string', spanText: "'abc" },
  'unterminated multi-line string': { text: 'a = """abc\n', message: 'unterminated multi-line string', spanText: '"""abc\n' },
  'unterminated multi-line literal': { text: "a = '''abc''", message: 'unterminated multi-line string', spanText: "'''abc''" },
  'unterminated key string': { text: '"abc = 1', message: 'unterminated string', spanText: '"abc = 1' },
  'invalid escape': { text: 'a = "x\\qy"', message: 'invalid escape sequence `\\q`', spanText: '\\q' },
  'TOML 1.1 escape \\e': { text: 'a = "\\e"', message: 'invalid escape sequence `\\e`', spanText: '\\e', smolAccepts: true },
  'short unicode escape': { text: 'a = "\\u00"', message: '`\\u` must be followed by 4 hex digits', spanText: '\\u00"' },
  'surrogate escape': { text: 'a = "\\uD800"', message: '`\\uD800` is not a Unicode scalar value', spanText: '\\uD800' },
  'escape beyond Unicode': { text: 'a = "\\U00110000"', message: 'is not a Unicode scalar value', spanText: '\\U00110000' },
  'whitespace after backslash without newline': { text: 'a = """x\\ y"""', message: 'must end the line', spanText: '\\ y' },
  'control character in string': { text: 'a = "x\u0001"', message: 'control character U+0001 is not allowed in a string', spanText: '\u0001' },
  'DEL in literal string': { text: "a = 'x\u007f'", message: 'control character U+007F is not allowed in a string', spanText: '\u007f' },
  'control character in comment': { text: 'a = 1 # \u0000', message: 'control character U+0000 is not allowed in a comment', spanText: '\u0000' },
  'bare carriage return': { text: 'a = 1\rb = 2', message: 'carriage return not followed by a newline', spanText: '\r' },
  'bare carriage return in multi-line string': { text: 'a = """x\ry"""', message: 'carriage return', spanText: '\r' },
  'too many quotes': { text: 'a = """x""""""', message: 'too many quotes', spanText: '""""""' },
  'multi-line key': { text: '"""a""" = 1', message: 'a multi-line string cannot be used as a key', spanText: '"""' },
  'leading zero': { text: 'a = 01', message: 'leading zeros are not allowed in `01`', spanText: '01' },
  'leading zero float': { text: 'a = 00.5', message: 'leading zeros are not allowed', spanText: '00.5' },
  'double underscore': { text: 'a = 1__0', message: 'an underscore must sit between digits in `1__0`', spanText: '_', at: 6 },
  'trailing underscore': { text: 'a = 1_', message: 'an underscore must sit between digits', spanText: '_' },
  'underscore before the point': { text: 'a = 1_.5', message: 'an underscore must sit between digits', spanText: '_' },
  'signed hex': { text: 'a = +0x10', message: 'a sign is not allowed on `+0x10`', spanText: '+' },
  'empty hex': { text: 'a = 0x', message: 'invalid number `0x`', spanText: '0x' },
  'bad hex digit': { text: 'a = 0xG1', message: 'invalid number `0xG1`', spanText: '0xG1' },
  'bad octal digit': { text: 'a = 0o8', message: 'invalid number `0o8`', spanText: '0o8' },
  'float without fraction digits': { text: 'a = 1.', message: 'invalid number `1.`', spanText: '1.' },
  'float without integer part': { text: 'a = .5', message: 'invalid value `.5`', spanText: '.5' },
  'exponent without digits': { text: 'a = 1e', message: 'invalid number `1e`', spanText: '1e' },
  'unsafe integer': {
    text: 'a = 9007199254740992',
    message: 'integer `9007199254740992` cannot be represented exactly',
    spanText: '9007199254740992',
  },
  'unsafe hex integer': { text: 'a = 0x7FFFFFFFFFFFFFFF', message: 'cannot be represented exactly', spanText: '0x7FFFFFFFFFFFFFFF' },
  'bare word': { text: 'a = hello', message: 'invalid value `hello` (strings must be quoted)', spanText: 'hello' },
  'misspelt boolean': { text: 'a = truee', message: 'invalid value `truee`', spanText: 'truee' },
  'capitalised boolean': { text: 'a = True', message: 'invalid value `True`', spanText: 'True' },
  'invalid date': { text: 'a = 2023-02-29', message: 'date out of range in `2023-02-29`', spanText: '2023-02-29', smolAccepts: true },
  'invalid month': { text: 'a = 2023-13-01', message: 'date out of range', spanText: '2023-13-01' },
  'invalid hour': { text: 'a = 24:00:00', message: 'time out of range', spanText: '24:00:00' },
  'invalid offset': { text: 'a = 1979-05-27T07:32:00+24:00', message: 'time offset out of range', spanText: '1979-05-27T07:32:00+24:00' },
  'time without seconds (TOML 1.1)': { text: 'a = 07:32', message: 'invalid date-time `07:32`', spanText: '07:32', smolAccepts: true },
  'short year': { text: 'a = 979-05-27', message: 'invalid number `979-05-27`', spanText: '979-05-27' },
  'two values on a line': { text: 'a = 1 b = 2', message: 'expected the end of the line after value, found `b`', spanText: 'b' },
  'two pairs on a line': { text: 'a = "x" b = 2', message: 'expected the end of the line after value, found `b`', spanText: 'b' },
  'missing comma in array': { text: 'a = [1 2]', message: 'expected `,` or `]` after an array item, found `2`', spanText: '2' },
  'double comma in array': { text: 'a = [1,,2]', message: 'expected a value, found `,`', spanText: ',', at: 7 },
  'unterminated array': { text: 'a = [1,\n2', message: 'unterminated array: expected `]`', spanText: '[1,\n2' },
  'trailing comma in inline table (TOML 1.1)': {
    text: 'a = { b = 1, }',
    message: 'a trailing comma is not allowed in an inline table',
    spanText: ',',
    smolAccepts: true,
  },
  'newline in inline table (TOML 1.1)': {
    text: 'a = { b = 1\n}',
    message: 'unterminated inline table: expected `}` on the same line (TOML 1.0), found a newline',
    spanText: '\n',
    smolAccepts: true,
  },
  'missing comma in inline table': { text: 'a = { b = 1 c = 2 }', message: 'expected `,` or `}` after an inline table value, found `c`', spanText: 'c' },
  'unterminated header': { text: '[a\nb = 1', message: 'expected `]` after table name `a`, found a newline', spanText: '\n' },
  'unterminated array header': { text: '[[a]\n', message: 'expected `]]` to close array-of-tables header `a`, found a newline', spanText: '\n' },
  'spaced array header': { text: '[[a] ]', message: 'expected `]]`', spanText: ' ' },
  'empty header': { text: '[]', message: 'expected a key, found `]`', spanText: ']' },
  'text after header': { text: '[a] b = 1', message: 'expected the end of the line after table header, found `b`', spanText: 'b' },
  'empty dotted segment': { text: 'a. = 1', message: 'expected a key after `.`, found `=`', spanText: '=' },
  'leading dot': { text: '.a = 1', message: 'expected a key or a [table] header, found `.`', spanText: '.' },
  'non-ASCII bare key': { text: 'é = 1', message: 'expected a key or a [table] header, found `é`', spanText: 'é' },
  'equals without key': { text: '= 1', message: 'expected a key or a [table] header, found `=`', spanText: '=' },
  'deep nesting': { text: `a = ${'['.repeat(1000)}`, message: 'nested too deeply', spanText: '[', at: 404 },
};

describe('errors', () => {
  for (const [name, c] of Object.entries(errorCases)) {
    it(name, () => {
      const doc = parseToml(c.text);
      expect(doc.errors).toHaveLength(1);
      const err = doc.errors[0];
      if (typeof c.message === 'string') expect(err?.message).toContain(c.message);
      else expect(err?.message).toMatch(c.message);
      if (c.spanText !== undefined) {
        const at = c.at ?? c.text.indexOf(c.spanText);
        expect(err?.span).toEqual({ start: at, end: at + c.spanText.length });
      }
      if (c.smolAccepts === true) expect(() => smolParse(c.text)).not.toThrow();
      else expect(() => smolParse(c.text)).toThrow();
    });
  }

  it('keeps what parsed before the error', () => {
    const text = 'a = 1\n[t]\nb = 2 # c\n\n[u]\nc = [1, 2\n';
    const doc = parseToml(text);
    expect(doc.errors).toHaveLength(1);
    expect(toPlain(doc.root)).toEqual(smolPlain({ a: 1, t: { b: 2 }, u: {} }));
    expect(tableAt(doc.root, 't').bodyEnd).toBe(text.indexOf('# c') + 3);
    expect(doc.root.bodyEnd).toBe(5);
    expect(tableAt(doc.root, 'u').bodyEnd).toBe(text.indexOf('[u]') + 3);
  });

  it('keeps dotted tables created on the failing line with in-text spans', () => {
    const text = 'x = 1\na.b.c = [';
    const doc = parseToml(text);
    expect(doc.errors).toHaveLength(1);
    const a = entry(doc.root, 'a');
    expect(a.pairSpan?.start).toBe(6);
    checkSpans(doc.root, text.length);
  });

  it('keeps section extents sensible when the error comes late on a line', () => {
    const text = 'a = 1\n[t] # \u0001\n';
    const doc = parseToml(text);
    expect(doc.errors[0]?.span).toEqual({ start: 12, end: 13 });
    expect(doc.root.bodyEnd).toBe(5);
    expect(tableAt(doc.root, 't').bodyEnd).toBe(9);
    const text2 = '[t]\nb = 2 # \u0001';
    const doc2 = parseToml(text2);
    expect(toPlain(doc2.root)).toEqual(smolPlain({ t: { b: 2 } }));
    expect(tableAt(doc2.root, 't').bodyEnd).toBe(9);
  });

  it('points at a whole astral character', () => {
    const doc = parseToml('😀 = 1');
    expect(doc.errors[0]?.message).toBe('expected a key or a [table] header, found `😀`');
    expect(doc.errors[0]?.span).toEqual({ start: 0, end: 2 });
  });

  it('returns an error instead of throwing for a non-string', () => {
    const doc = parseToml(undefined as unknown as string);
    expect(doc.errors).toHaveLength(1);
    expect(doc.root.entries.size).toBe(0);
  });
});

// ---- properties ---------------------------------------------------------------------------------

const keyArb = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', ''),
  fc.constantFrom('a b', 'a.b', 'é', 'ключ', '日本', '🔑', '"', "'", '\\', 'x\ny', 'tab\there', '#', '[x]', '=', '\u0000'),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

const scalarArb = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.string({ unit: 'binary-ascii', maxLength: 10 }),
  fc.constantFrom('"""', "'''", 'a\r\nb', '\\', '\\u0041', '# not a comment', '1979-05-27'),
  fc.integer(),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc
    .double()
    .filter((x) => !Object.is(x, -0) && (!Number.isInteger(x) || Number.isSafeInteger(x) || !Number.isFinite(x))),
  fc.boolean(),
);

function objectFrom(pairs: [string, unknown][]): Record<string, unknown> {
  const out = nullObject();
  for (const [k, v] of pairs) setKey(out, k, v);
  return out;
}

const { doc: docArb } = fc.letrec<{ doc: Record<string, unknown>; value: unknown }>((tie) => ({
  doc: fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 6 }).map(objectFrom),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarArb,
    fc.array(scalarArb, { maxLength: 4 }),
    tie('doc'),
    fc.array(tie('doc'), { minLength: 1, maxLength: 3 }),
  ),
}));

describe('properties', () => {
  it('round-trips documents serialised by smol-toml', () => {
    fc.assert(
      fc.property(docArb, (value) => {
        const text = smolStringify(value);
        const doc = parseToml(text);
        expect(doc.errors).toEqual([]);
        expect(toPlain(doc.root)).toEqual(value);
        checkSpans(doc.root, text.length);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws, and errors are well-formed (arbitrary strings)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const doc = parseToml(text);
        expect(doc.errors.length).toBeLessThanOrEqual(1);
        for (const e of doc.errors) {
          expect(e.span.start).toBeGreaterThanOrEqual(0);
          expect(e.span.end).toBeGreaterThanOrEqual(e.span.start);
          expect(e.span.end).toBeLessThanOrEqual(text.length);
          expect(e.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  const tomlish = fc
    .array(
      fc.constantFrom(
        '[', ']', '[[', ']]', '{', '}', '"', "'", '"""', "'''", '=', ' = ', '.', ',', '\n', '\r\n', '\r', ' ', '\t', '#',
        'a', 'b', 'x', '1', '0', '_', '-', '+', ':', 'e', 'T', 'Z', '\\', '\\u', 'u', 'true', 'inf', 'nan', '0x', '1979-05-27',
        '07:32:00', '__proto__', 'é', '\u0000', 'a = 1\n', '[t]\n', '[[t]]\n', 'a.b = ', '"k" = ',
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));

  it('never throws, and accepts only what smol-toml accepts, with the same data (TOML-ish strings)', () => {
    fc.assert(
      fc.property(tomlish, (text) => {
        const doc = parseToml(text);
        expect(doc.errors.length).toBeLessThanOrEqual(1);
        for (const e of doc.errors) {
          expect(e.span.start).toBeGreaterThanOrEqual(0);
          expect(e.span.end).toBeLessThanOrEqual(text.length);
        }
        checkSpans(doc.root, text.length);
        let theirs: unknown;
        let smolOk = true;
        try {
          theirs = smolPlain(smolParse(text));
        } catch {
          smolOk = false;
        }
        if (doc.errors.length === 0) {
          expect(smolOk).toBe(true);
          expect(loosePlain(doc.root)).toEqual(theirs);
        }
      }),
      { numRuns: 5000 },
    );
  });

  const structured = fc
    .array(
      fc.oneof(
        fc
          .tuple(
            fc.constantFrom('a', 'b', 'c', 'a.b', 'b.c', 'a.b.c', 'a.c', '"a"', "'b'", '__proto__', '"x y"'),
            fc.constantFrom('1', '"s"', '[1, 2]', '{}', '{ x = 1 }', '{ c.d = 1, c.e = 2 }', '[{ a = 1 }]', '1979-05-27', "'''\nz'''", '[\n1,\n]'),
          )
          .map(([k, v]) => `${k} = ${v}`),
        fc.constantFrom('a', 'b', 'a.b', 'a.b.c', 'b.c', 'a.c', '"a".b', '__proto__').map((k) => `[${k}]`),
        fc.constantFrom('a', 'b', 'a.b', 'a.b.c', 'b.c').map((k) => `[[${k}]]`),
        fc.constantFrom('# comment', ''),
      ),
      { maxLength: 12 },
    )
    .map((lines) => lines.join('\n'));

  it('accepts and rejects exactly what smol-toml does on table/key structures, with the same data', () => {
    fc.assert(
      fc.property(structured, (text) => {
        const doc = parseToml(text);
        let theirs: unknown;
        let smolOk = true;
        try {
          theirs = smolPlain(smolParse(text));
        } catch {
          smolOk = false;
        }
        expect(doc.errors.length === 0).toBe(smolOk);
        if (smolOk) expect(loosePlain(doc.root)).toEqual(theirs);
        checkSpans(doc.root, text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on mutations of valid documents', () => {
    const base = Object.values(corpus).join('\n[zz]\n');
    fc.assert(
      fc.property(fc.nat({ max: base.length }), fc.nat({ max: 8 }), fc.string({ maxLength: 3 }), (at, del, ins) => {
        const text = base.slice(0, at) + ins + base.slice(at + del);
        const doc = parseToml(text);
        expect(doc.errors.length).toBeLessThanOrEqual(1);
        checkSpans(doc.root, text.length);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('plainArrays: arrays read as plain values', () => {
  const options = { plainArrays: new Set(['tools']) };

  /** A tree as data: every node's kind, value and spans, the way a reader would see them. */
  function shape(v: TomlValue): unknown {
    switch (v.kind) {
      case 'array':
      case 'table-array':
        return { kind: v.kind, span: { ...v.span }, items: v.items.map(shape) };
      case 'table':
        return {
          kind: v.kind,
          origin: v.origin,
          span: { ...v.span },
          headerSpan: v.headerSpan && { ...v.headerSpan },
          bodyEnd: v.bodyEnd,
          entries: [...v.entries].map(([k, e]) => [k, e.key, { ...e.keySpan }, e.pairSpan && { ...e.pairSpan }, shape(e.value)]),
        };
      default:
        return { kind: v.kind, value: Number.isNaN(v.value) ? 'NaN' : v.value, span: { ...v.span } };
    }
  }

  /** The same tree, errors and spans as without the option, and plain values equal to toPlain's, prototypes included. */
  function same(text: string): void {
    const tree = parseToml(text);
    const plain = parseToml(text, options);
    expect(plain.errors).toEqual(tree.errors);
    const walk = (a: TomlTable, b: TomlTable): void => {
      for (const [k, e] of a.entries) {
        const f = b.entries.get(k) as TomlEntry;
        if (plain.plainValues?.has(f.value)) expect(plain.plainValues.get(f.value)).toStrictEqual(toPlain(e.value, true));
        if (e.value.kind === 'table' && f.value.kind === 'table') walk(e.value, f.value);
        if (e.value.kind === 'table-array' && f.value.kind === 'table-array') e.value.items.forEach((t, i) => walk(t, (f.value as TomlTableArray).items[i] as TomlTable));
      }
    };
    walk(tree.root, plain.root);
    expect(shape(plain.root)).toEqual(shape(tree.root));
  }

  const TOOLS = `[servers.a]\ntools = [\n  { name = "x", description = "d\\u00e9 \\"q\\"", inputSchema = { type = "object", properties = { p = { type = "string", description = 'lit' } }, required = ["p"] } },\n  # a comment\n  { "__proto__" = 1, constructor = 2, toString = { a = [] }, 2 = "b", 1 = "a" },\n  { b = 1979-05-27T07:32:00Z, c = 1e3, d = inf, e = nan, f = 0x1F, g = true, h = false, i = """m\nl""", j = '''ml''' },\n]\n`;

  it('gives the value toPlain gives, and builds the items only when they are read', () => {
    const doc = parseToml(TOOLS, options);
    expect(doc.errors).toEqual([]);
    const node = entry(doc.root, 'servers', 'a', 'tools').value;
    expect(doc.plainValues?.get(node)).toStrictEqual(toPlain(entry(parseToml(TOOLS).root, 'servers', 'a', 'tools').value, true));
    same(TOOLS);
  });

  it('leaves other keys, inline tables and non-arrays alone', () => {
    const doc = parseToml('x = [1]\n[s]\ntools = "no"\nt = { tools = [1] }\n', options);
    expect(doc.plainValues).toBeUndefined();
  });

  it('reports every error, at its place, as the tree parse does', () => {
    const cases = [
      'tools = [ { a = 1, a = 2 } ]',
      'tools = [ { a = 1, a.b = 2 } ]',
      'tools = [ { a = {b = 1}, a.c = 2 } ]',
      'tools = [ { a.b = 1, a.c = 2 } ]',
      'tools = [ { a = 1, } ]',
      'tools = [ { a = 1 \n} ]',
      'tools = [ {a=1} {b=2} ]',
      'tools = [ {a=1}, {b=2}',
      'tools = [ {a=01} ]',
      'tools = [ { a = "\\x" } ]',
      'tools = [ {a=1}, \r {b=2} ]',
      'tools = [ { "a" = 1, a = 2 } ]',
      `tools = ${'['.repeat(450)}${']'.repeat(450)}`,
      `tools = [${'{a='.repeat(399)}1${'}'.repeat(399)}]`,
      `tools = [ { ${Array.from({ length: 40 }, (_, i) => `k${i} = ${i}`).join(', ')}, k5 = 1 } ]`,
      `tools = [ { ${Array.from({ length: 40 }, (_, i) => `k${i} = ${i}`).join(', ')}, k39 = 1 } ]`,
      `tools = [ { ${Array.from({ length: 40 }, (_, i) => `k${i} = ${i}`).join(', ')}, "k1" = { k1 = 1, 'k1' = 2 } } ]`,
      `tools = [ { ${Array.from({ length: 40 }, (_, i) => `k${i} = { k${i} = [{ k${i} = 1 }] }`).join(', ')} } ]`,
    ];
    for (const text of cases) same(text);
  });

  it('agrees with the tree parse on mutations of a catalogue', () => {
    fc.assert(
      fc.property(fc.nat({ max: TOOLS.length }), fc.nat({ max: 4 }), fc.constantFrom('', '{', '}', '[', ']', ',', '=', '"', "'", '.', ' ', '\n', '#', 'a', '1', '\\', '\r', 'x.y', '__proto__'), (at, del, ins) => {
        same(TOOLS.slice(0, at) + ins + TOOLS.slice(at + del));
      }),
      { numRuns: 1000 },
    );
  });
});
