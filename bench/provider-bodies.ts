// Issue 18: every request of every scenario in scenarios/ and ../shared/conformance/, rendered under
// every provider: how many bodies the provider's official SDK request type accepts (tsc --strict),
// how many pass the provider rules (no finding of severity error), and how long rendering and the
// type-check take.
//
//   npx tsx bench/provider-bodies.ts            (or through `npm run bench`)
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { renderAll, scenarioFiles, typeCheckBodies } from '../src/cli/sdk-bodies';
import { PROVIDER_IDS } from '../src/core/providers/types';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function run(): void {
  const files = scenarioFiles([join(root, 'scenarios'), join(root, '..', 'shared', 'conformance')]);
  const t0 = performance.now();
  const cases = renderAll(files);
  const rendered = performance.now() - t0;
  const typed = typeCheckBodies(cases, root, () => performance.now());
  console.log(`  ${files.length} scenario files, ${cases.length} bodies (${cases.length / PROVIDER_IDS.length} per provider)`);
  console.log(`  render + rules: ${rendered.toFixed(0)} ms · SDK type-check: ${typed.millis.toFixed(0)} ms over ${typed.declarations} declarations`);
  console.log('  provider              valid by SDK type   valid by provider rules   warnings');
  for (const p of PROVIDER_IDS) {
    const mine = cases.map((c, i) => ({ c, f: typed.failures[i] ?? [] })).filter((x) => x.c.provider === p);
    const typeOk = mine.filter((x) => x.f.length === 0).length;
    const ruleOk = mine.filter((x) => !x.c.findings.some((d) => d.severity === 'error')).length;
    const warned = mine.filter((x) => x.c.findings.some((d) => d.severity === 'warning')).length;
    console.log(`  ${p.padEnd(22)}${`${typeOk}/${mine.length}`.padEnd(20)}${`${ruleOk}/${mine.length}`.padEnd(26)}${warned}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
