// A bounded fuzz of the command line (issue 12): 300 mutated inputs from a fixed seed, each run
// through `main` in this process with the real decoder (decodeInput) and the real file reader for
// anything the input names. Every run must end in exit 0, 1 or 2 with something said, never an
// internal error, a stack trace or a raw control character on the terminal; an imported scenario
// must check clean. The seeds are the project's scenarios, the conformance scenarios, and small
// catalogues and query sets from ../shared/data (read in place).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main, nodeIo } from './main';
import { decodeInput } from './read';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const shared = resolve(root, '../shared');
const tomlIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.toml'))
    .sort()
    .map((f) => join(dir, f));

const SCENARIOS = [...tomlIn(join(root, 'scenarios')), ...tomlIn(join(shared, 'conformance'))];
const CATALOGUES = [join(root, 'scenarios', 'data', 'github.tools.json'), join(shared, 'data', 'search-eval', 'metatool', 'catalogue.tools-list.json')];
const QUERIES = join(shared, 'data', 'search-eval', 'metatool', 'queries.jsonl');
const QUERY_LINES = readFileSync(QUERIES, 'utf8').split('\n').slice(0, 25).join('\n');

const enc = (s: string): number[] => [...new TextEncoder().encode(s)];
/** Bytes that break parsers: delimiters, escapes, controls, bad UTF-8, deep nesting, glob and number edge cases. */
const TOKENS: number[][] = [
  ...['[', ']', '{', '}', '"', "'", "'''", '"""', '\n', '\r', '=', ',', '.', '#', '\\', '\\u', ':', '*', '?', '[z-a]', '**/', '-0', '1e400', '9007199254740993', 'null', '"\\ud800"', '\u001b]0;x\u0007', '\u009b', '\u202e', '__proto__'].map(enc),
  [0x00],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xef, 0xbb, 0xbf],
  enc('['.repeat(500)),
  enc('{"a":'.repeat(200)),
  enc('x'.repeat(5000)),
];

type Op = { kind: 'set'; at: number; byte: number } | { kind: 'insert'; at: number; token: number } | { kind: 'delete' | 'duplicate'; at: number; length: number } | { kind: 'truncate'; at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.nat({ max: TOKENS.length - 1 }) }),
  fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

function mutate(input: Uint8Array, ops: readonly Op[]): Uint8Array {
  let b = [...input];
  for (const o of ops) {
    const at = b.length === 0 ? 0 : o.at % (b.length + 1);
    if (o.kind === 'set') b[Math.min(at, b.length - 1)] = o.byte;
    else if (o.kind === 'insert') b.splice(at, 0, ...(TOKENS[o.token] ?? []));
    else if (o.kind === 'delete') b.splice(at, o.length);
    else if (o.kind === 'duplicate') b.splice(at, 0, ...b.slice(at, at + o.length));
    else b = b.slice(0, at);
  }
  return new Uint8Array(b);
}

interface Run {
  code: number;
  out: string;
  err: string;
}

/** `main` with `path` reading as `bytes` (through the real decoder) and every other file from disk. */
function run(args: readonly string[], files: ReadonlyMap<string, Uint8Array | string>): Run {
  let out = '';
  let err = '';
  const readFile = (p: string): string => {
    const f = files.get(resolve(p));
    if (f === undefined) return nodeIo.readFile(p);
    return typeof f === 'string' ? f : decodeInput(f);
  };
  const code = main(args, { out: (t) => void (out += t), err: (t) => void (err += t), readFile });
  return { code, out, err };
}

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u;
const STACK = /^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$/mu;

/** Exit statuses seen per command: the fuzz must reach both the good and the bad paths. */
const seen = new Map<string, Set<number>>();

function expectWellBehaved(r: Run, command: string): void {
  seen.set(command, (seen.get(command) ?? new Set()).add(r.code));
  expect([0, 1, 2]).toContain(r.code);
  expect(r.err).not.toContain('internal error');
  expect(r.out + r.err).not.toMatch(STACK);
  expect(r.out + r.err).not.toMatch(RAW_CONTROL);
  // Every exit says something: 2 on stderr, 1 with its failure lines, 0 with its result.
  if (r.code === 2) expect(r.err.trim()).not.toBe('');
  else expect(r.out.trim()).not.toBe('');
}

const read = (p: string): Uint8Array => new Uint8Array(readFileSync(p));
const ops = fc.array(op, { minLength: 1, maxLength: 4 });
const RUNS = { check: 150, import: 90, eval: 60 };

describe('tool-workbench on mutated files (bounded fuzz, fixed seed)', () => {
  it(`check: ${RUNS.check} mutated scenarios`, () => {
    const seeds = SCENARIOS.map((p) => ({ path: p, bytes: read(p) }));
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), ops, fc.boolean(), (i, o, json) => {
        const seed = seeds[i] as { path: string; bytes: Uint8Array };
        const r = run(['check', seed.path, ...(json ? ['--json'] : [])], new Map([[seed.path, mutate(seed.bytes, o)]]));
        expectWellBehaved(r, 'check');
      }),
      { seed: 1212, numRuns: RUNS.check },
    );
    expect([...(seen.get('check') ?? [])].sort()).toEqual([0, 1, 2]);
  }, 120_000);

  it(`import: ${RUNS.import} mutated catalogues, and every scenario it prints checks clean`, () => {
    const seeds = CATALOGUES.map((p) => ({ path: p, bytes: read(p) }));
    const printed = resolve(root, 'imported-by-fuzz.toml'); // never written: served from memory
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), ops, fc.constantFrom('on', 'discoverable', 'per-server'), (i, o, policy) => {
        const seed = seeds[i] as { path: string; bytes: Uint8Array };
        const files = new Map<string, Uint8Array | string>([[seed.path, mutate(seed.bytes, o)]]);
        const r = run(['import', seed.path, '--server', 'fuzz', '--policy', policy, '--scenario'], files);
        expectWellBehaved(r, 'import');
        if (r.code !== 0) return;
        files.set(printed, r.out);
        const checked = run(['check', printed], files);
        expect(checked).toMatchObject({ code: 0, out: expect.stringMatching(/^2 passed, 0 failed\n$/u) });
      }),
      { seed: 1213, numRuns: RUNS.import },
    );
    expect([...(seen.get('import') ?? [])].sort()).toEqual([0, 2]);
  }, 120_000);

  it(`eval: ${RUNS.eval} mutated catalogues and query sets`, () => {
    const catalogue = CATALOGUES[0] as string;
    const seeds = { catalogue: read(catalogue), queries: new TextEncoder().encode(QUERY_LINES) };
    fc.assert(
      fc.property(fc.boolean(), ops, (mutateQueries, o) => {
        const files = new Map<string, Uint8Array>([
          [catalogue, mutateQueries ? seeds.catalogue : mutate(seeds.catalogue, o)],
          [QUERIES, mutateQueries ? mutate(seeds.queries, o) : seeds.queries],
        ]);
        expectWellBehaved(run(['eval', '--catalogue', catalogue, '--queries', QUERIES, '--ranking', 'bm25'], files), 'eval');
      }),
      { seed: 1214, numRuns: RUNS.eval },
    );
    expect([...(seen.get('eval') ?? [])].sort()).toEqual([0, 2]);
  }, 120_000);
});
