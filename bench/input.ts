// The cost of reading untrusted input safely (issue 12): the glob that made the regular-expression
// matcher run past 20 s, the strict reader at the 32 MiB cap, and parseJson (depth-checked) beside
// plain JSON.parse on the largest real catalogue. Figures only; no targets are asserted anywhere.
//   npx tsx bench/input.ts   (or through `npm run bench`)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { compileGlob } from '../src/core/workspace/glob';
import { parseJson, scanJson } from '../src/core/input/json';
import { MAX_INPUT_BYTES, readInputFile } from '../src/cli/read';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const LIVEMCPBENCH = resolve(root, '../shared/data/catalogues/livemcpbench-tools.json');

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? Number.NaN;
}

function time(fn: () => unknown, runs = 7): number {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

export function run(): void {
  const pattern = '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b.toml';
  for (const n of [200, 2_000, 20_000]) {
    const name = `${'a'.repeat(n)}.toml`;
    const match = compileGlob(pattern);
    const ms = time(() => match(name));
    console.log(`  glob ${pattern} against a ${n}-a name: ${(ms * 1000).toFixed(0)} µs (median of 7)`);
  }

  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-input-'));
  try {
    const file = join(dir, 'cap.toml');
    const line = `# ${'é'.repeat(60)}\n`;
    writeFileSync(file, line.repeat(Math.floor(MAX_INPUT_BYTES / Buffer.byteLength(line))));
    const ms = time(() => readInputFile(file), 5);
    console.log(`  readInputFile at the cap (${(MAX_INPUT_BYTES / 1024 / 1024).toFixed(0)} MiB of UTF-8, 2-byte characters): ${ms.toFixed(0)} ms (median of 5)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const text = readFileSync(LIVEMCPBENCH, 'utf8');
  const native = time(() => JSON.parse(text));
  const checked = time(() => parseJson(text));
  const scan = time(() => scanJson(text));
  console.log(`  LiveMCPBench catalogue (${(text.length / 1e6).toFixed(2)} M chars): JSON.parse ${native.toFixed(1)} ms, parseJson (with the depth check) ${checked.toFixed(1)} ms, scanJson (the error path) ${scan.toFixed(1)} ms`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
