// Issue 12's page caps, measured (never timed tests): how fast a share-link bomb is refused, what
// the last-keystroke journal costs on a large layer, and how fast a deeply nested tool is refused.
// Run alone with `npx tsx bench/hardening.ts`, or through `npm run bench`.
import { deflateSync } from 'fflate';
import { EMPTY_DOC, tooDeepTool } from '../src/core';
import type { ScenarioDoc } from '../src/core';
import { decodeShared, MAX_SHARED_TEXT_BYTES, toBase64Url, crc32 } from '../src/features/share/codec';
import { docSizeEstimate, makeJournal } from '../src/state/journal';

function ms(f: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? NaN;
}

/** A `#s=1.` link whose payload inflates to `bytes` zero bytes (the CRC does not matter: inflating stops first). */
function bomb(bytes: number): string {
  const packed = deflateSync(new Uint8Array(bytes), { level: 9 });
  const out = new Uint8Array(packed.length + 4);
  out.set(packed, 0);
  new DataView(out.buffer).setUint32(packed.length, crc32(new Uint8Array(0)));
  return `#s=1.${toBase64Url(out)}`;
}

export function run(): void {
  const link = bomb(256 * 1024 * 1024);
  const refused = decodeShared(link);
  console.log(`  share link inflating to 256 MiB (${(link.length / 1024).toFixed(0)} KB of link): refused=${!refused.ok}, median ${ms(() => decodeShared(link)).toFixed(0)} ms to refuse at the ${MAX_SHARED_TEXT_BYTES / 1024 / 1024} MiB cap`);

  const layer = `# catalogue\n${'[conversation.tools.t]\nsource = "local"\nsummary = "A tool."\n'.repeat(60_000)}`;
  const base: ScenarioDoc = { ...EMPTY_DOC, name: 'big', layers: [{ name: 'catalogue', text: layer }], servers: [], steps: [] };
  const at = Math.floor(layer.length / 2);
  const typed: ScenarioDoc = { ...base, layers: [{ name: 'catalogue', text: `${layer.slice(0, at)}x${layer.slice(at)}` }] };
  const j = makeJournal(base, typed, { id: 'j', base: 1, at: 0 });
  console.log(
    `  journal of one keystroke in a ${(layer.length / 1024 / 1024).toFixed(1)} M-character layer: ${JSON.stringify(j).length} characters, median ${ms(() => makeJournal(base, typed, { id: 'j', base: 1, at: 0 })).toFixed(1)} ms (written when the page hides)`,
  );
  const small: ScenarioDoc = { ...base, layers: [{ name: 'user', text: layer.slice(0, 200 * 1024) }] };
  const smallTyped: ScenarioDoc = { ...small, layers: [{ name: 'user', text: `${small.layers[0]?.text ?? ''}x` }] };
  console.log(
    `  journal of a ${(docSizeEstimate(small) / 1024).toFixed(0)} K-character document (whole, on every edit): median ${ms(() => JSON.stringify(makeJournal(small, smallTyped, { id: 'j', base: 1, at: 0 })), 21).toFixed(2)} ms`,
  );

  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 100_000; i++) schema = { type: 'object', properties: { a: schema } };
  const tool = { name: 'deep', inputSchema: schema };
  console.log(`  a tool nested 100,000 levels deep: refused=${tooDeepTool([tool], 'bench') !== undefined}, median ${ms(() => tooDeepTool([tool], 'bench')).toFixed(2)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) run();
