import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, runScenario, scenarioDocFromText, writeScenario } from '../../core';
import { timelineCostSeries } from '../../core/report/scenario-section';
import { DeriveHost } from '../../derive/host';
import { costSeries, niceTicks, shortNumber, yAxisLabels } from './series';
import { chartSvg, escapeXml } from './svgExport';
import { deriveWhole } from '../../derive/testing';

const demo = scenarioDocFromText(readFileSync(new URL('../../app/demo-scenario.toml', import.meta.url), 'utf8'));
if (!demo.ok) throw new Error('demo does not parse');
const host = new DeriveHost();
const view = deriveWhole(host, { doc: demo.doc, revision: 1 });
const chart = host.chartRows({ revision: 1 });

describe('costSeries', () => {
  it('has one point per request, offered at most permitted, and the promotions as markers', () => {
    const s = costSeries(chart);
    expect(s.x).toEqual(view.requests.map((_, i) => i + 1));
    expect(s.offered).toEqual(view.requests.map((r) => r.cost.offered));
    s.offered.forEach((o, i) => expect(o).toBeLessThanOrEqual(s.permitted[i] ?? 0));
    const promotions = s.markers.filter((m) => m.kind === 'promotion');
    expect(promotions.map((m) => m.request)).toEqual([1, 4]);
    expect(s.entries.map((e) => view.entries[e]?.kind)).toEqual(view.requests.map(() => 'request'));
  });

  it('switches to tokens when given token counts', () => {
    const tokens = { counter: 'test', label: 'estimate: test', why: 'a test counter', requests: view.requests.map((_, i) => ({ offered: i, permitted: 10 + i })) };
    const s = costSeries(chart, 'tokens', tokens);
    expect(s.offered).toEqual(view.requests.map((_, i) => i));
    expect(s.unit).toBe('tokens');
  });
});

describe('niceTicks and shortNumber', () => {
  it('cover the range with round steps', () => {
    expect(niceTicks(9230)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(shortNumber(950)).toBe('950');
    expect(shortNumber(1200)).toBe('1.2k');
    expect(shortNumber(12000)).toBe('12k');
    expect(shortNumber(1_500_000)).toBe('1.5M');
  });

  it("label an empty chart's fractional byte and token ticks with nothing, and dollars with their cents", () => {
    const fifths = [0, 0.2, 0.4, 0.6, 0.8, 1];
    expect(yAxisLabels('bytes', fifths)).toEqual(['0', '', '', '', '', '1']);
    expect(yAxisLabels('tokens', fifths)).toEqual(['0', '', '', '', '', '1']);
    expect(yAxisLabels('bytes', [0, 2000, 4000])).toEqual(['0', '2.0k', '4.0k']);
    expect(yAxisLabels('usd', [0, 0.25])).toEqual(['$0', '$0.250']);
  });
});

describe('chartSvg', () => {
  it('draws both series, axes with units, markers, a cursor, a threshold and a legend', () => {
    const svg = chartSvg(costSeries(chart), { selected: 2, threshold: { value: 8000, label: 'budget 8 KB' }, title: 'Demo <costs> & "co"' });
    expect(svg.match(/<polyline data-series="(offered|permitted)"/gu)).toHaveLength(2);
    expect(svg).toContain('definition cost (bytes)');
    expect(svg).toContain('request (in conversation order)');
    expect(svg).toContain('budget 8 KB');
    expect(svg).toContain('Demo &lt;costs&gt; &amp; &quot;co&quot;');
    expect(svg).not.toContain('<costs>');
    expect(svg.match(/<circle /gu)).toHaveLength(view.requests.length * 2);
  });

  it('cuts a long visible title to the chart\'s width and keeps it whole in its title and name', () => {
    const long = `Definition cost per request: ${'a very long scenario name '.repeat(6).trim()}`;
    const svg = chartSvg(costSeries(chart), { width: 760, title: long });
    const shown = /<text x="78" y="22"[^>]*>([^<]*)<\/text>/u.exec(svg)?.[1] ?? '';
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(Math.floor((760 - 78 - 8) / 8.5));
    expect(svg).toContain(`<title>${long}</title>`);
    expect(svg).toContain(`aria-label="${long}"`);
    const short = chartSvg(costSeries(chart), { width: 760, title: 'Definition cost per request' });
    expect(short).toContain('>Definition cost per request</text>');
  });

  it('escapes untrusted text', () => {
    expect(escapeXml(`<script>alert('x')</script>`)).toBe('&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;');
  });
});

describe('the report draws the same series', () => {
  it('from the core\'s timeline as the chart from the derived view', () => {
    if (!demo.ok) throw new Error('demo');
    const parsed = parseScenario(writeScenario(demo.doc));
    if (!parsed.ok) throw new Error('parse');
    const fromCore = timelineCostSeries(runScenario({ scenario: parsed.scenario }));
    const fromView = costSeries(chart);
    expect({ ...fromCore, markers: fromCore.markers.map((m) => [m.request, m.kind]) }).toEqual({ ...fromView, markers: fromView.markers.map((m) => [m.request, m.kind]) });
  });
});

describe('the prompt-cache and money units (issue 13)', () => {
  it('plots cache reads against input, and each request\'s dollars against the running total', async () => {
    const { costSeries: series } = await import('./series');
    const { chartSvg: svgOf } = await import('./svgExport');
    const view: Parameters<typeof series>[0] = {
      revision: 1,
      rows: [
        { kind: 'request', entry: 0, id: 0, step: 1, cycle: 1, permittedCount: 2, cost: { offered: 10, permitted: 20 } },
        { kind: 'request', entry: 1, id: 1, step: 1, cycle: 2, permittedCount: 2, cost: { offered: 11, permitted: 20 } },
      ],
    };
    const costs = { requests: [{ cacheRead: 0, input: 1200, usd: 0.002 }, { cacheRead: 1024, input: 1300, usd: 0.0005 }] };
    const cache = series(view, 'cache', undefined, costs);
    expect([cache.offered, cache.permitted]).toEqual([[0, 1024], [1200, 1300]]);
    const usd = series(view, 'usd', undefined, costs);
    expect(usd.offered).toEqual([0.002, 0.0005]);
    expect(usd.permitted[1]).toBeCloseTo(0.0025, 12);
    const svg = svgOf(usd, { title: 't' });
    expect(svg).toContain('conversation so far (USD)');
    expect(svg).toContain('$0.0020');
  });
});
