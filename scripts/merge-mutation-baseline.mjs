#!/usr/bin/env node
// Merges the Stryker incremental baselines (mutation/AREA.incremental.json) of branches that measured
// files of one area in parallel. A text merge of two such files conflicts or, worse, merges cleanly
// into a file whose mutants name tests by another run's numbering. Every run rewrites the whole
// file (test ids are renumbered when a branch adds tests), so "this branch's entry differs" does not
// say which branch measured a file; what is sound is this:
// - a file's results count only if they were measured on the source the merged checkout holds;
// - the merged checkout holds every branch's tests, so a mutant some branch's tests detect is detected:
//   mutants are matched by place, mutator and replacement, and the best status wins (killed, timeout,
//   survived, no coverage);
// - tests are renumbered once over the merged test files, and each mutant's coveredBy and killedBy are
//   carried over by test name, so the next incremental run reads a coherent file.
// A file whose merged source no side measured is kept from the side that changed it last and named on
// the output: measure it again.
//
//   node scripts/merge-mutation-baseline.mjs AREA REV...
//
// Run it on the checkout the branches were merged into (a conflict in the baseline resolved either
// way), naming the revisions to take results from (e.g. the main before the merges and each branch).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [area, ...revs] = process.argv.slice(2);
if (!area || revs.length === 0) {
  console.error('usage: node scripts/merge-mutation-baseline.mjs AREA REV...');
  process.exit(2);
}
const path = `mutation/${area}.incremental.json`;
const at = (rev) => JSON.parse(execFileSync('git', ['show', `${rev}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const sides = revs.map((rev) => ({ rev, report: at(rev) }));
const current = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

const RANK = { Killed: 4, Timeout: 3, Survived: 2, NoCoverage: 1 };
const rank = (status) => RANK[status] ?? 0;
const mutantKey = (m) => `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

// Each side's test id → a name that holds across runs: its file and its full name.
for (const side of sides) {
  side.testKey = new Map();
  for (const [file, record] of Object.entries(side.report.testFiles ?? {})) for (const t of record.tests) side.testKey.set(t.id, `${file}\u0000${t.name}`);
}

// Test files: the record made on the source the checkout holds, else the last side's.
const testFiles = {};
const newId = new Map();
const testFileNames = [...new Set(sides.flatMap((s) => Object.keys(s.report.testFiles ?? {})))].sort();
for (const file of testFileNames) {
  if (current(file) === undefined) continue;
  const holding = sides.filter((s) => s.report.testFiles?.[file] !== undefined);
  const record = (holding.find((s) => s.report.testFiles[file].source === current(file)) ?? holding[holding.length - 1]).report.testFiles[file];
  testFiles[file] = {
    ...record,
    tests: record.tests.map((t) => {
      const id = String(newId.size);
      newId.set(`${file}\u0000${t.name}`, id);
      return { ...t, id };
    }),
  };
}
const renumber = (side, ids) => (ids ?? []).map((id) => newId.get(side.testKey.get(id))).filter((id) => id !== undefined);

const files = {};
const stale = [];
let mutantId = 0;
const fileNames = [...new Set(sides.flatMap((s) => Object.keys(s.report.files)))].sort();
for (const file of fileNames) {
  const source = current(file);
  if (source === undefined) continue;
  const holding = sides.filter((s) => s.report.files[file] !== undefined);
  let measured = holding.filter((s) => s.report.files[file].source === source);
  if (measured.length === 0) {
    measured = [holding[holding.length - 1]];
    stale.push(file);
  }
  const best = new Map();
  for (const side of measured) {
    for (const m of side.report.files[file].mutants) {
      const key = mutantKey(m);
      const known = best.get(key);
      if (known === undefined || rank(m.status) > rank(known.status)) {
        best.set(key, { ...m, ...(m.coveredBy ? { coveredBy: renumber(side, m.coveredBy) } : {}), ...(m.killedBy ? { killedBy: renumber(side, m.killedBy) } : {}) });
      }
    }
  }
  const entry = measured[0].report.files[file];
  files[file] = { ...entry, mutants: [...best.values()].map((m) => ({ ...m, id: String(mutantId++) })) };
}

const merged = { ...sides[0].report, files, testFiles };
writeFileSync(path, JSON.stringify(merged, null, 2));
let killed = 0;
let all = 0;
for (const [file, entry] of Object.entries(files)) {
  const c = {};
  for (const m of entry.mutants) c[m.status] = (c[m.status] ?? 0) + 1;
  const k = (c.Killed ?? 0) + (c.Timeout ?? 0);
  const a = k + (c.Survived ?? 0) + (c.NoCoverage ?? 0);
  killed += k;
  all += a;
  console.log(`${file.padEnd(40)} ${((100 * k) / a).toFixed(2).padStart(6)} %  ${JSON.stringify(c)}`);
}
console.log(`${area}: ${((100 * killed) / all).toFixed(2)} % (${killed} of ${all} detected)`);
if (stale.length > 0) console.log(`measured on another source than this checkout's, measure again: ${stale.join(', ')}`);
