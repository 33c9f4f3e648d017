// The editor's per-keystroke scans of a large layer, timed here rather than in tests.
// Run with: npx tsx bench/editor.ts   (or through `npm run bench`)
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { foldingRanges } from '../src/editor/folding';

function layer(count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    text += `[conversation.tools.tool_${i}]\nsource = "local"\nsummary = "Manage widget ${i}."\n[conversation.tools.tool_${i}.parameters.id]\ntype = "string"\nrequired = true\n\n`;
  }
  return text;
}

export function run(): void {
  const text = layer(10_000);
  foldingRanges(text);
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    foldingRanges(text);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(`  folding ranges of a 10,000-tool layer (${(text.length / 1e6).toFixed(2)} MB): median ${median.toFixed(1)} ms of 15 (target < 100 ms) ${median < 100 ? 'ok' : 'OVER'}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
