#!/usr/bin/env node
// Merges the Stryker incremental baselines (mutation/AREA.incremental.json) of branches that measured
// different files of one area from the same starting point. A text merge of two such files conflicts
// or, worse, merges cleanly into a file whose mutant list mixes two runs. Here each file's results
// come from the branch that measured it (its entry differs from the merge base's), and each test
// file's record from the branch that changed it. Where both sides measured the same file, mutants
// are matched by place and replacement, and a mutant either side's tests detect counts as detected:
// the merged tests hold both sides' tests.
//
//   node scripts/merge-mutation-baseline.mjs AREA BASE_REV BRANCH...
//
// Run it on the checkout the branches were merged into (a conflict in the baseline resolved either
// way): it writes mutation/AREA.incremental.json from BASE_REV's (or MERGE_OURS's) and the branches'.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [area, baseRev, ...branches] = process.argv.slice(2);
if (!area || !baseRev || branches.length === 0) {
  console.error('usage: node scripts/merge-mutation-baseline.mjs AREA BASE_REV BRANCH...');
  process.exit(2);
}
const path = `mutation/${area}.incremental.json`;
const at = (rev) => JSON.parse(execFileSync('git', ['show', `${rev}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const DETECTED = new Set(['Killed', 'Timeout']);
const key = (m) => `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

const base = at(baseRev);
const merged = at(process.env.MERGE_OURS ?? baseRev);
for (const branch of branches) {
  const theirs = at(branch);
  for (const [file, entry] of Object.entries(theirs.files)) {
    if (same(entry, base.files[file])) continue;
    const ours = merged.files[file];
    if (ours === undefined || same(ours, base.files[file])) {
      merged.files[file] = entry;
      continue;
    }
    if (ours.source !== entry.source) throw new Error(`${file}: both sides measured it, on different sources; measure it again after the merge`);
    const byKey = new Map(ours.mutants.map((m) => [key(m), m]));
    for (const m of entry.mutants) {
      const mine = byKey.get(key(m));
      if (mine === undefined || (!DETECTED.has(mine.status) && DETECTED.has(m.status))) byKey.set(key(m), m);
    }
    merged.files[file] = { ...ours, mutants: [...byKey.values()] };
    console.log(`${file}: measured on both sides, merged mutant by mutant`);
  }
  for (const [file, record] of Object.entries(theirs.testFiles ?? {})) {
    if (!same(record, base.testFiles?.[file])) merged.testFiles[file] = record;
  }
}
writeFileSync(path, JSON.stringify(merged, null, 2));
let killed = 0;
let all = 0;
for (const [file, entry] of Object.entries(merged.files)) {
  const c = {};
  for (const m of entry.mutants) c[m.status] = (c[m.status] ?? 0) + 1;
  const k = (c.Killed ?? 0) + (c.Timeout ?? 0);
  const a = k + (c.Survived ?? 0) + (c.NoCoverage ?? 0);
  killed += k;
  all += a;
  console.log(`${file.padEnd(40)} ${((100 * k) / a).toFixed(2)} %  ${JSON.stringify(c)}`);
}
console.log(`${area}: ${((100 * killed) / all).toFixed(2)} % (${killed} of ${all} detected)`);
