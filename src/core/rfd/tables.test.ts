// Every row of every RFD table, as the engine computes it, agrees with what RFD 108 states; and the
// machinery that says so can say otherwise.
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario/report';
import { cell, moveWords, run } from './run';
import { rfdCounts, rfdTables } from './tables';
import { rowAgrees } from './types';
import type { RfdRow, RfdTable } from './types';

const tables = rfdTables();
const rows: [string, string, RfdRow][] = tables.flatMap((t) => t.rows.map((r): [string, string, RfdRow] => [t.id, r.label, r]));

describe('RFD 108 tables, live', () => {
  it('has the RFD\'s tables, rows and columns', () => {
    expect(tables.map((t) => [t.id, t.rows.length, t.columns.length])).toEqual([
      ['directives', 2, 3],
      ['allow-toggle', 4, 3],
      ['consumers', 5, 1],
      ['fold', 3, 2],
      ['providers', 4, 2],
      ['phases', 10, 1],
    ]);
    expect(tables.find((t) => t.id === 'fold')?.rows.map((r) => [r.label, ...r.cells.map((c) => c.computed)])).toEqual([
      ['discoverable', 'applied', 'usable'],
      ['on', 'no-op, none needed', 'usable'],
      ['off', 'skipped', 'found, unavailable'],
    ]);
  });

  it.each(rows)('%s › %s agrees with the RFD in every cell', (_table, _label, row) => {
    for (const c of row.cells) expect({ stated: c.stated, computed: c.computed, detail: c.detail }).toEqual({ stated: c.stated, computed: c.stated, detail: c.detail });
    expect(row.expectations.failed).toBe(0);
    expect(row.expectations.passed).toBeGreaterThan(0);
    expect(rowAgrees(row)).toBe(true);
  });

  it.each(rows)('%s › %s opens a scenario that `check` runs alike, at a row of its timeline', (_table, _label, row) => {
    const report = checkScenario('rfd.toml', row.scenario.text);
    expect(report.fileErrors).toEqual([]);
    expect(report.failed).toBe(0);
    expect(row.scenario.entry).toBeGreaterThanOrEqual(0);
    expect(row.scenario.entry).toBeLessThan(report.timeline?.entries.length ?? 0);
  });

  it('counts the rows that agree', () => {
    expect(rfdCounts(tables)).toEqual({ agree: rows.length, disagree: 0 });
  });

  it('measures the providers\' definitions in bytes and tokens with the counter it is given', () => {
    const providers = rfdTables({ id: 'words', count: (text) => text.split(/\s+/u).length }).find((t) => t.id === 'providers');
    expect(providers?.rows[0]?.cells[0]?.detail).toMatch(/^[\d,]+ B, [\d,]+ tokens offered, of [\d,]+ B, [\d,]+ tokens permitted \(words\)$/u);
  });

  it('names the cache across a discovery in the one cache word, never a bare hit or miss (issue 24.6)', () => {
    const providers = rfdTables({ id: 'words', count: (text) => text.split(/\s+/u).length }).find((t) => t.id === 'providers');
    const details = providers?.rows.map((r) => r.cells[1]?.detail ?? '') ?? [];
    expect(details.length).toBeGreaterThan(1);
    for (const d of details) expect(d).toMatch(/^prefix (reused|changed): /u);
  });
});

describe('the comparison can disagree', () => {
  it('a cell whose run differs from the statement does not agree, and neither does its row', () => {
    const c = cell('→ on', moveWords('off', 'off'));
    expect(c).toEqual({ stated: '→ on', computed: 'no-op', agrees: false });
    const row: RfdRow = { id: 'x', label: 'x', cells: [c], scenario: { name: 'x', text: '', entry: 0 }, expectations: { passed: 1, failed: 0 } };
    expect(rowAgrees(row)).toBe(false);
    const table: RfdTable = { id: 't', title: 't', source: 's', columns: ['c'], rows: [row] };
    expect(rfdCounts([table])).toEqual({ agree: 0, disagree: 1 });
  });

  it('a row whose scenario has a failing expectation does not agree', () => {
    const ran = run({ name: 'wrong', description: 'expects the wrong thing', layer: '[conversation.tools.a]\nsource = "local"\nenable = "off"', rest: '[[steps]]\ncommand = "jp q x -t"\n\n[steps.expect]\navailability = { a = "off" }' });
    expect(ran.expectations.map((e) => e.pass)).toEqual([false]);
  });
});
