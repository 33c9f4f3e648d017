// Bundles src/cli/main.ts (and the core it uses) into one file so that
// `npx tool-workbench` starts in tens of milliseconds instead of paying for a
// TypeScript loader on every run. Runs at `npm install` (postinstall) and again
// whenever the sources are newer than the bundle (cli-bin/tool-workbench.cjs
// checks, on every run).
//
// The bundle is CommonJS, loaded by the CommonJS bin through require: the same code
// bundled as an ES module ran a 10,000-tool check in about 8% more instructions
// and 4% more time (bench/check-scale.ts --instructions).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundlePath = join(root, 'dist-cli', 'tool-workbench.cjs');

/** Bundles the CLI of the sources under `from` (default: this checkout) into `outfile`. */
export async function buildCli(outfile = bundlePath, from = root) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(from, 'src', 'cli', 'entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // main.ts finds package.json (for --version) from its own URL.
    define: { 'import.meta.url': '__bundleUrl' },
    // gpt-tokenizer's encodings are large; load them only when a token count is asked for. The MCP
    // SDK (serve, snapshot) is required from node_modules when those commands first run: the bridge
    // is imported lazily, so check, eval and import never load it.
    external: ['gpt-tokenizer', 'gpt-tokenizer/*', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
    banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli();
