import { describe, expect, it } from 'vitest';
import { approximateTokenCounter } from '../providers/cost';
import { rfdTables } from '../rfd/tables';
import { checkScenario } from '../scenario/report';
import { esc, escValue } from './escape';
import { reportHtml } from './html';
import { costOfTimeline } from '../cost/conversation';
import { DEFAULT_PRICE_TABLE, priceDateLabel } from '../providers/prices';

const HOSTILE = `name = "<img src=x onerror=alert(1)> & co"
description = "</p><script>alert('d')</script>"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"

[conversation.tools."<b>bold</b>"]
source = "local"
summary = "Says <script>alert(2)</script>."
'''

[[steps]]
command = "jp q 'find <b>'"

  [[steps.cycles]]
    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "bold" }
    expect = { returned = ["<i>nope</i>"] }

  [[steps.cycles]]
  reply = "<em>done</em>"
`;

const rfd = rfdTables();
const hostile = checkScenario('evil<1>.toml', HOSTILE);
const html = reportHtml({ scenarios: [hostile, checkScenario('bad.toml', 'name = ')], rfd, tokens: approximateTokenCounter, generatedAt: '2026-12-01T00:00:00Z' });

describe('the HTML report', () => {
  it('escapes every untrusted text: names, descriptions, tool names, replies, expected and actual values', () => {
    expect(html).not.toMatch(/<script|<img|<b>|<i>|<em>/iu);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; co');
    expect(html).toContain('&lt;/p&gt;&lt;script&gt;');
    expect(html).toContain('&lt;em&gt;done&lt;/em&gt;');
    expect(html).toContain('evil&lt;1&gt;.toml');
  });

  it('lists each failed expectation with its expected and actual values', () => {
    expect(hostile.failed).toBe(1);
    expect(html).toContain('step 1 cycle 1 call 1');
    expect(html).toContain('[&quot;&lt;i&gt;nope&lt;/i&gt;&quot;]');
    expect(html).toContain('[&quot;&lt;b&gt;bold&lt;/b&gt;&quot;]');
  });

  it('shows a file that does not run with its line and column', () => {
    expect(html).toMatch(/bad\.toml<\/code> · <span class="bad">the file does not run<\/span>/u);
    expect(html).toMatch(/<li>1:8: /u);
  });

  it('holds every RFD table, its rows, and a verdict in words', () => {
    for (const t of rfd) {
      expect(html).toContain(`id="rfd-${t.id}"`);
      for (const r of t.rows) expect(html).toContain(esc(r.label));
    }
    expect(html).toContain(`${rfd.flatMap((t) => t.rows).length} of ${rfd.flatMap((t) => t.rows).length} rows agree`);
  });

  it('draws each scenario\'s costs: a table in bytes and tokens, and an inline SVG chart', () => {
    expect(html).toContain('offered, tokens');
    expect(html).toMatch(/<figure class="chart"><svg role="img" aria-label="Definition cost per request: /u);
  });

  it('prices each request in the provider\'s prompt-cache model: the core\'s figures, their total, and the prices\' date', () => {
    if (!hostile.timeline) throw new Error('the hostile scenario runs');
    const cost = costOfTimeline(hostile.timeline, { table: DEFAULT_PRICE_TABLE, counter: approximateTokenCounter });
    expect(cost.requests.length).toBe(2);
    expect(html).toContain(`at ${cost.model.id} (${priceDateLabel(DEFAULT_PRICE_TABLE)}`);
    const r1 = cost.requests[0];
    if (!r1) throw new Error('a first request');
    expect(html).toContain(`<td class="where">step 1 · cycle 1</td><td class="num">${r1.figures.input.toLocaleString('en-US')}</td>`);
    expect(html).toContain(`<td class="num">$${cost.totals.money.toFixed(4)}</td></tr></tfoot>`);
    // Another price for the same model is another dollar figure: the table reads the prices it is given.
    const dearer = { ...DEFAULT_PRICE_TABLE, models: DEFAULT_PRICE_TABLE.models.map((m) => (m.id === cost.model.id ? { ...m, input: m.input * 10, cacheWrite: m.cacheWrite * 10 } : m)) };
    const other = reportHtml({ scenarios: [hostile], rfd, tokens: approximateTokenCounter, prices: dearer });
    const more = costOfTimeline(hostile.timeline, { table: dearer, counter: approximateTokenCounter }).totals.money;
    expect(more).toBeGreaterThan(cost.totals.money);
    expect(other).toContain(`<td class="num">$${more.toFixed(4)}</td></tr></tfoot>`);
  });

  it('is self-contained: no script, no external reference, a policy that forbids fetching', () => {
    expect(html).not.toMatch(/https?:/u);
    expect(html).not.toMatch(/<(script|link|iframe|object|embed)\b/iu);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).toContain('@media print');
  });

  it('renders values and control characters safely', () => {
    expect(escValue({ a: '<x>' })).toBe('{&quot;a&quot;:&quot;&lt;x&gt;&quot;}');
    expect(esc('a\u001b]0;PWNED\u0007b')).toBe('a\\u001b]0;PWNED\\u0007b');
    expect(escValue('x'.repeat(500), 10)).toBe(`&quot;${'x'.repeat(8)}…`);
  });
});
