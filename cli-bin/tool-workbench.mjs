#!/usr/bin/env node
// The bin lives in a tiny linked package so `npx tool-workbench` resolves through
// node_modules/.bin at once, instead of npm installing the project into its cache.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';

const here = dirname(realpathSync(fileURLToPath(import.meta.url)));
const builder = await import(pathToFileURL(join(here, '..', 'scripts', 'build-cli.mjs')).href);
if (builder.isStale()) await builder.buildCli();
createRequire(import.meta.url)(builder.bundlePath);
