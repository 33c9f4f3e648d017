// Times parseToml against smol-toml's parse on a generated ~3 MB catalogue of 10,000 tool tables.
// Run with: npx tsx bench/toml-parse.ts   (or through `npm run bench`)
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse as smolParse } from 'smol-toml';
import { parseToml } from '../src/core/config/toml';

export function generate(count: number): string {
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    lines.push(
      `[conversation.tools.tool_${n}]`,
      `source = "local"`,
      `summary = "Tool ${n}: reads and summarises workspace files"`,
      `description = """`,
      `Walks the workspace; returns the \\"right\\" files. # not a comment`,
      `"""`,
      '',
      `[conversation.tools.tool_${n}.parameters.target]`,
      `type = "string"`,
      `required = true # comment`,
      `description = 'Path to inspect, relative to the root.'`,
      '',
    );
  }
  return lines.join('\n');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
}

function time(label: string, fn: () => unknown, runs = 5): number {
  for (let i = 0; i < 3; i++) fn(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  const m = median(samples);
  console.log(`  ${label.padEnd(12)} median ${m.toFixed(1)} ms  (runs: ${samples.map((x) => x.toFixed(1)).join(', ')})`);
  return m;
}

export function run(): { ours: number; smol: number; ratio: number } {
  const text = generate(10_000);
  console.log(`toml parse: ${(text.length / 1e6).toFixed(2)} M chars, 10,000 tool tables`);
  const doc = parseToml(text);
  if (doc.errors.length > 0) throw new Error(`parseToml failed: ${doc.errors[0]?.message}`);
  const ours = time('parseToml', () => parseToml(text));
  const smol = time('smol-toml', () => smolParse(text));
  const ratio = ours / smol;
  console.log(`  ratio parseToml / smol-toml: ${ratio.toFixed(2)}×`);
  return { ours, smol, ratio };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
