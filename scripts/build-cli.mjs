// Bundles src/cli/main.ts (and the core it uses) into one ESM file so that
// `npx tool-workbench` starts in tens of milliseconds instead of paying for a
// TypeScript loader on every run. Runs at `npm install` (postinstall) and again
// whenever the sources are newer than the bundle.
import { statSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundlePath = join(root, 'dist-cli', 'tool-workbench.mjs');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export function isStale() {
  if (!existsSync(bundlePath)) return true;
  const built = statSync(bundlePath).mtimeMs;
  return newestMtime(join(root, 'src', 'core')) > built || newestMtime(join(root, 'src', 'cli')) > built;
}

export async function buildCli() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(root, 'src', 'cli', 'entry.ts')],
    outfile: bundlePath,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // gpt-tokenizer's encodings are large; load them only when a token count is asked for.
    external: ['gpt-tokenizer', 'gpt-tokenizer/*'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--force') || isStale()) await buildCli();
}
