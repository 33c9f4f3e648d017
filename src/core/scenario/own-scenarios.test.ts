// The project's own scenarios (../../../scenarios/*.toml), written from the
// design documents rather than copied from ../shared/conformance: each must
// parse and every expectation in it must pass, through the same code as
// `tool-workbench check`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../cli/check';
import { nodeIo } from '../../cli/main';
import { checkScenario } from './report';
import { o200kCounter } from '../../cli/tokens';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scenarios');
const files = readdirSync(dir).filter((f) => f.endsWith('.toml')).sort();

// The scenarios written for issue 2 (semantics sections 1-4), with the least number of expectations each holds.
const OWN: Readonly<Record<string, number>> = {
  'enable-forms-under-defaults.toml': 15,
  'directives-matrix.toml': 20,
  'forced-tools.toml': 25,
  'forced-off-rejected.toml': 10,
  'registration.toml': 20,
  'mcp-resolution.toml': 20,
  'state-alias-and-edits.toml': 15,
  'layers-and-deltas.toml': 12,
  'special-names.toml': 15,
  'builtins-and-load-errors.toml': 15,
};

describe('own scenarios', () => {
  it('has every scenario written for issue 2', () => {
    for (const name of Object.keys(OWN)) expect(files).toContain(name);
  });

  for (const file of files) {
    it(file, () => {
      const path = join(dir, file);
      // The command line's tokenizer: scenarios may pin prompt-cache figures (cache_tokens) in o200k_base tokens.
      const report = checkScenario(file, readFileSync(path, 'utf8'), hostFor(path, nodeIo), {}, { counter: o200kCounter });
      expect(report.fileErrors).toEqual([]);
      expect(report.failures).toEqual([]);
      expect(report.passed).toBeGreaterThanOrEqual(OWN[file] ?? 1);
    });
  }
});
