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
