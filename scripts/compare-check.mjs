#!/usr/bin/env node
// Same results before and after a refactor: `tool-workbench check --json` of every scenario (the shared
// conformance files, scenarios/*.toml and the demo), run by the CLI built from a git ref (default main)
// and by the CLI built from this work tree, compared value by value. Fields present only in the work
// tree's output are listed apart (a refactor may add fields; it must not change or drop one).
//
//   node scripts/compare-check.mjs [REF] [--bodies]
//
// Exit 0 when nothing changed or was dropped, 1 otherwise.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildCli } from './build-cli.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const bodies = args.includes('--bodies');
const ref = args.find((a) => !a.startsWith('--')) ?? 'main';

const tomls = (dir) => readdirSync(dir).filter((f) => f.endsWith('.toml')).sort().map((f) => join(dir, f));
const files = [...tomls(resolve(root, '../shared/conformance')), ...tomls(join(root, 'scenarios')), join(root, 'src/app/demo-scenario.toml')];

function check(cli, file) {
  const r = spawnSync(process.execPath, [cli, 'check', '--json', ...(bodies ? ['--bodies'] : []), file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = { unparsed: r.stdout };
  }
  return { status: r.status, json };
}

/** Paths where a and b differ: changed (both have it) or dropped (only a has it) or added (only b). */
function diff(a, b, path, out) {
  if (Object.is(a, b)) return;
  const isObj = (v) => typeof v === 'object' && v !== null;
  if (isObj(a) && isObj(b) && Array.isArray(a) === Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`;
      if (!(k in b)) out.dropped.push(p);
      else if (!(k in a)) out.added.push(p);
      else diff(a[k], b[k], p, out);
    }
    return;
  }
  out.changed.push(`${path}: ${JSON.stringify(a)?.slice(0, 120)} → ${JSON.stringify(b)?.slice(0, 120)}`);
}

const tmp = mkdtempSync(join(tmpdir(), 'compare-check-'));
try {
  const base = join(tmp, 'base');
  execFileSync('bash', ['-c', `mkdir -p "${base}" && git -C "${root}" archive "${ref}" src package.json | tar -x -C "${base}"`]);
  symlinkSync(join(root, 'node_modules'), join(base, 'node_modules'));
  const baseCli = join(base, 'dist-cli', 'tool-workbench.cjs');
  // Each bundle requires gpt-tokenizer and the MCP SDK from node_modules beside it.
  const head = join(tmp, 'head');
  execFileSync('mkdir', ['-p', head]);
  symlinkSync(join(root, 'node_modules'), join(head, 'node_modules'));
  const headCli = join(head, 'dist-cli', 'tool-workbench.cjs');
  await buildCli(baseCli, base);
  await buildCli(headCli, root);
  let bad = 0;
  const added = new Set();
  for (const file of files) {
    const a = check(baseCli, file);
    const b = check(headCli, file);
    const out = { changed: [], dropped: [], added: [] };
    if (a.status !== b.status) out.changed.push(`exit status: ${a.status} → ${b.status}`);
    diff(a.json, b.json, '$', out);
    for (const p of out.added) added.add(p.replace(/\[\d+\]/g, '[]'));
    const name = file.slice(resolve(root, '..').length + 1);
    if (out.changed.length + out.dropped.length === 0) {
      console.log(`same     ${name}${out.added.length > 0 ? ` (+${out.added.length} added fields)` : ''}`);
      continue;
    }
    bad++;
    console.log(`DIFFERS  ${name}`);
    for (const l of [...out.changed.slice(0, 10), ...out.dropped.slice(0, 10).map((p) => `dropped ${p}`)]) console.log(`    ${l}`);
  }
  if (added.size > 0) console.log(`fields only in the work tree: ${[...added].slice(0, 20).join(', ')}`);
  console.log(`${files.length - bad} same, ${bad} differ (${ref} vs work tree${bodies ? ', with --bodies' : ''})`);
  process.exitCode = bad > 0 ? 1 : 0;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
