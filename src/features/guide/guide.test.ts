import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DeriveHost, scenarioDocFromText } from '../../derive/host';
import { forReaders, section, runsOf, withoutSourcePaths } from './readme';
import { requestAfterPromotion, TOUR, tourFor } from './steps';
import { deriveWhole } from '../../derive/testing';
import { aboutTheDocument, DEMO_NAME } from './Welcome';

const demo = scenarioDocFromText(readFileSync(new URL('../../app/demo-scenario.toml', import.meta.url), 'utf8'));
if (!demo.ok) throw new Error('demo');
const view = deriveWhole(new DeriveHost(), { doc: demo.doc, revision: 1 });

describe('the guided tour', () => {
  it('walks a position, a promotion, the request after it, and the cost', () => {
    expect(TOUR.map((s) => s.title)).toEqual(['A position', 'A promotion', 'The request that follows it', 'The cost', 'Your turn']);
    const rows = TOUR.map((s) => s.entry?.(view));
    expect(view.entries[rows[0] ?? -1]?.kind).toBe('base');
    const promotion = view.entries[rows[1] ?? -1];
    expect(promotion?.kind).toBe('delta');
    expect(promotion?.sources).toContain('promotion');
    const request = view.entries[rows[2] ?? -1];
    expect(request?.kind).toBe('request');
    expect(request?.index).toBeGreaterThan(promotion?.index ?? Infinity);
    // The request after the promotion offers what it promoted.
    expect(view.requests[request?.request ?? -1]?.added).toContain('github_get_job_logs');
    expect(TOUR[3]?.dock).toBe('chart');
  });

  it('names the cache as the row shows it: the "cached" figure, never a bare hit or miss (issue 24.6)', () => {
    const step = TOUR[2]?.body ?? '';
    const request = view.requests[view.entries[TOUR[2]?.entry?.(view) ?? -1]?.request ?? -1];
    expect(request?.cache.status).toBe('miss');
    expect(step).toContain('"cached"');
    expect(step).toContain('prefix changed');
    expect(step).not.toMatch(/\b(hit|miss)\b/u);
    // Help shows the README's tour: it names the cache the same way.
    const help = section(readFileSync(new URL('../../../README.md', import.meta.url), 'utf8'), 'A short tour').flatMap((b) => b.runs.map((r) => r.text)).join('');
    expect(help).toContain('prefix reused or changed');
    expect(help).not.toMatch(/\bcache (hit|miss)\b|\bhit or miss\b/u);
  });

  it('falls back to the first request when nothing was promoted', () => {
    const plain = deriveWhole(new DeriveHost(), { doc: { ...demo.doc, steps: [{ command: "jp q 'hello'", cycles: [] }] }, revision: 1 });
    expect(plain.entries[requestAfterPromotion(plain) ?? -1]?.kind).toBe('request');
  });
});

describe('the tour of a document that has no promotion (issue 35)', () => {
  it('the demo keeps every stop', () => {
    expect(tourFor(view).map((s) => s.title)).toEqual(TOUR.map((s) => s.title));
  });

  it('a document with no steps has no promotion or request stop', () => {
    const empty = deriveWhole(new DeriveHost(), { doc: { ...demo.doc, steps: [] }, revision: 1 });
    expect(tourFor(empty).map((s) => s.title)).toEqual(['A position', 'The cost', 'Your turn']);
  });

  it('requests without a promotion have no promotion stop, and no stop about what a promotion adds', () => {
    const plain = deriveWhole(new DeriveHost(), { doc: { ...demo.doc, steps: [{ command: "jp q 'hello'", cycles: [] }] }, revision: 1 });
    expect(plain.firstPromotion).toBeUndefined();
    expect(tourFor(plain).map((s) => s.title)).toEqual(['A position', 'The cost', 'Your turn']);
  });
});

describe('the cost stop says what this document has (issue 35)', () => {
  const costOf = (v: typeof view) => tourFor(v).find((s) => s.title === 'The cost')?.body ?? '';

  it('the demo, with requests and promotions, names the promotions as markers', () => {
    expect(costOf(view)).toContain('with the promotions as markers');
  });

  it('a document with no steps has no request to price: the stop says so, and names no promotion', () => {
    const empty = deriveWhole(new DeriveHost(), { doc: { ...demo.doc, steps: [] }, revision: 1 });
    expect(empty.requestCount).toBe(0);
    const body = costOf(empty);
    expect(body).toContain('no request yet');
    expect(body).not.toMatch(/promot|Every request carries/u);
  });

  it('requests without a promotion: the chart side by side, with no promotion markers', () => {
    const plain = deriveWhole(new DeriveHost(), { doc: { ...demo.doc, steps: [{ command: "jp q 'hello'", cycles: [] }] }, revision: 1 });
    expect(plain.requestCount).toBeGreaterThan(0);
    const body = costOf(plain);
    expect(body).toContain('request by request');
    expect(body).not.toMatch(/promot|no request yet/u);
  });
});

describe('the welcome paragraph tells of the demo only while the document is the demo (issue 35)', () => {
  it('the built-in demo is the document DEMO_NAME names', () => {
    expect(demo.doc.name).toBe(DEMO_NAME);
  });

  it('on the demo: what the demo is', () => {
    expect(aboutTheDocument(demo.doc.name)).toBe('The demo is a conversation about a failed deploy: search finds the GitHub and Sentry tools.');
  });

  it("on a user's own document: its name, never the demo's story", () => {
    const about = aboutTheDocument('Mine');
    expect(about).toContain('“Mine”');
    expect(about).not.toMatch(/The demo is|failed deploy|GitHub|Sentry/u);
    // No longer than the demo's sentence with a long name: the paragraph keeps its height.
    const long = aboutTheDocument('x'.repeat(500));
    expect(long).toContain('…”');
    expect(long.length).toBeLessThanOrEqual(aboutTheDocument(DEMO_NAME).length);
  });

  it('a document with no name: nothing', () => {
    expect(aboutTheDocument('  ')).toBe('');
  });
});

describe("the README's tour for Help", () => {
  it('reads the section\'s bullets and paragraphs, with bold and code runs', () => {
    const blocks = section(readFileSync(new URL('../../../README.md', import.meta.url), 'utf8'), 'A short tour');
    expect(blocks.filter((b) => b.kind === 'item').length).toBeGreaterThanOrEqual(5);
    expect(blocks[0]?.runs[0]).toEqual({ text: 'Layers', bold: true });
    expect(section('# x\n## Other\n- a', 'A short tour')).toEqual([]);
    expect(runsOf('a **b** `c` d')).toEqual([{ text: 'a ' }, { text: 'b', bold: true }, { text: ' ' }, { text: 'c', code: true }, { text: ' d' }]);
  });
});

describe('Help for a user', () => {
  it('leaves out the source paths the README names for contributors', () => {
    expect(withoutSourcePaths("the provider's prompt-cache model (src/core/providers/cache-rules.ts: breakpoints, minimums), priced")).toBe("the provider's prompt-cache model, priced");
    expect(withoutSourcePaths('and `check --json` carries the figures (`npx tsx bench/cost.ts` prints them for the demo).')).toBe('and `check --json` carries the figures.');
    expect(withoutSourcePaths('under the Content-Security-Policy (`src/app/csp.ts`).')).toBe('under the Content-Security-Policy.');
    expect(withoutSourcePaths('no path here (a, b)')).toBe('no path here (a, b)');
  });

  it("keeps the README's tour readable without any path", () => {
    const text = forReaders(section(readFileSync(new URL('../../../README.md', import.meta.url), 'utf8'), 'A short tour'))
      .flatMap((b) => b.runs.map((r) => r.text))
      .join(' ');
    expect(text).toContain('Timeline');
    expect(text).not.toMatch(/\b(?:src|bench)\/[\w/.-]+/u);
  });
});
