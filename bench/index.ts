// `npm run bench`: every benchmark module in sequence, each printing its figures (and its target,
// where it has one). Each module also runs alone: `npx tsx bench/<name>.ts`.
import { run as stream } from './stream';
import { run as tomlParse } from './toml-parse';
import { run as layerEdit } from './layer-edit';
import { run as input } from './input';
import { run as search } from './search';
import { run as searchEval } from './search-eval';
import { run as checkScale } from './check-scale';
import { run as scaleCurve } from './scale-curve';
import { run as catalogues } from './catalogues';
import { run as editor } from './editor';
import { run as report } from './report';
import { run as findability } from './findability';
import { run as bridge } from './bridge';
import { run as hardening } from './hardening';
import { run as providerBodies } from './provider-bodies';
import { run as cost } from './cost';
import { run as tasks } from './tasks';
import { run as derivation } from './derivation';
import { run as replyCap } from './reply-cap';

const modules: readonly [string, () => unknown][] = [
  ['stream', stream],
  ['toml-parse', tomlParse],
  ['layer-edit', layerEdit],
  ['input', input],
  ['search', search],
  ['search-eval', searchEval],
  ['check-scale', checkScale],
  ['scale-curve', scaleCurve],
  ['catalogues', catalogues],
  ['editor', editor],
  ['report', report],
  ['findability', findability],
  ['bridge', bridge],
  ['hardening', hardening],
  ['provider-bodies', providerBodies],
  ['cost', cost],
  ['tasks', tasks],
  ['derivation', derivation],
  ['reply-cap', replyCap],
];

let failed = 0;
for (const [name, run] of modules) {
  console.log(`\n== ${name}`);
  try {
    await run();
  } catch (e) {
    failed += 1;
    console.log(`  ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
if (failed > 0) process.exitCode = 1;
