// Every shared conformance scenario, run unchanged through the same code as
// `tool-workbench check`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkScenario } from './report';

const shared = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
const dir = join(shared, 'conformance');
const files = readdirSync(dir).filter((f) => f.endsWith('.toml')).sort();

describe('conformance scenarios', () => {
  it('finds all fourteen', () => {
    expect(files.length).toBeGreaterThanOrEqual(14);
  });
  for (const file of files) {
    it(file, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const report = checkScenario(file, text, { readFile: (p) => readFileSync(join(dir, p), 'utf8') });
      expect(report.fileErrors).toEqual([]);
      expect(report.failures).toEqual([]);
      expect(report.passed).toBeGreaterThan(0);
    });
  }
});
