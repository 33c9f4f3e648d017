#!/usr/bin/env node
// The bin lives in a tiny linked package so `npx tool-workbench` resolves through
// node_modules/.bin at once, instead of npm installing the project into its cache.
// CommonJS, like the bundle it loads: an ES module entry starts Node's ESM loader,
// which cost about 10 ms of every run. The bundle is rebuilt first when any source
// under src/core, src/cli or src/bridge is newer (scripts/build-cli.mjs).
'use strict';
const { existsSync, readdirSync, realpathSync, statSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

// A run of check, eval, tasks or report is short: in a fresh process a large share of its CPU goes to
// TurboFan compiling the functions that got hot, and inlining makes each of those compilations much
// bigger. A smaller inlining budget (V8's default cumulative budget is 920 bytecodes) cut a check's
// CPU by 12-25 % from 1,000 to 10,000 tools and left 100,000 tools where it was (bench/check-scale.ts,
// issue 36). The long-running commands (serve, snapshot, the watchdog) keep V8's defaults: there the
// compiled code runs for hours, and compiling it well pays.
if (!['serve', 'snapshot', '__watchdog'].includes(process.argv[2] ?? '')) {
  require('node:v8').setFlagsFromString('--max-inlined-bytecode-size-cumulative=300');
}

const root = join(dirname(realpathSync(__filename)), '..');
const bundle = join(root, 'dist-cli', 'tool-workbench.cjs');

function newerThan(dir, built) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory() ? newerThan(p, built) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && statSync(p).mtimeMs > built) return true;
  }
  return false;
}

function stale() {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return ['core', 'cli', 'bridge'].some((dir) => existsSync(join(root, 'src', dir)) && newerThan(join(root, 'src', dir), built));
}

if (stale()) {
  import(pathToFileURL(join(root, 'scripts', 'build-cli.mjs')).href)
    .then((builder) => builder.buildCli())
    .then(() => require(bundle));
} else require(bundle);
