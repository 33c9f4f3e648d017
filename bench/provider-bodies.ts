// Issue 18: every request of every scenario in scenarios/ and ../shared/conformance/, rendered under
// every provider: how many bodies the provider's official SDK request type accepts (tsc --strict),
// how many pass the provider rules (no finding of severity error), and how long rendering and the
// type-check take.
//
//   npx tsx bench/provider-bodies.ts            (or through `npm run bench`)
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { renderAll, scenarioFiles, typeCheckBodies } from '../src/cli/sdk-bodies';
import { PROVIDER_IDS } from '../src/core/providers/types';
import type { TokenCounter } from '../src/core/providers/cost';
import { setTokens } from '../src/core/providers/cost';
import { toolsArrayTokens } from '../src/core/providers/tool-tokens';
import { toJson } from '../src/core/json/serde';

/** The same counter as src/core/providers/tokens.ts, loaded statically (a bench may block). */
const o200k: TokenCounter = { id: 'o200k_base', count: (t) => (t === '' ? 0 : countTokens(t, { disallowedSpecial: new Set() })) };

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
  // Tokens of request 1 of jp-workspace-dev's tools array: JP's own measure (name + description +
  // schema, what every provider showed before), the figure now shown (the provider's tools JSON), and
  // the count of the rendered tools JSON itself.
  console.log('  tokens, jp-workspace-dev request 1 (o200k_base): provider, before, now, rendered tools JSON, before vs rendered');
  for (const c of cases.filter((x) => x.file.endsWith('jp-workspace-dev.toml') && x.request === 0)) {
    const defs = [...c.tools.values()];
    const tools = (c.body as { tools?: unknown }).tools;
    const whole = tools === undefined ? 0 : o200k.count(toJson(tools));
    const before = setTokens(defs, o200k);
    const now = toolsArrayTokens(defs, c.provider, o200k);
    const off = whole === 0 ? 0 : (100 * (before - whole)) / whole;
    console.log(`  ${c.provider.padEnd(22)}${String(before).padEnd(8)}${String(now).padEnd(8)}${String(whole).padEnd(8)}${off >= 0 ? '+' : ''}${off.toFixed(1)} %`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
