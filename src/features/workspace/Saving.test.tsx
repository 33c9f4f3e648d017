// The saving table's footer: a table has at most one tfoot, so the total and the note share one.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DiscoverableView } from '../../derive/workspaceProtocol';
import { Saving } from './Saving';

const request = (id: number) => ({ id, step: 1, cycle: id + 1, before: { tools: 9, bytes: 900, tokens: 300 }, after: { tools: 3, bytes: 300, tokens: 100 } });

const plan = (over: Partial<DiscoverableView>): DiscoverableView => ({
  revision: 1,
  keep: 2,
  layerName: 'generated',
  layerText: '',
  applied: false,
  ranked: [],
  kept: 2,
  discoverable: 6,
  tokenCounter: 'estimate: o200k_base',
  requests: [request(0), request(1)],
  ...over,
});

const count = (html: string, tag: string): number => html.split(`<${tag}`).length - 1;

describe('the saving table', () => {
  it.each([
    ['a total and a note', plan({ note: 'The two runs made different requests.' }), 1, 2],
    ['a total only', plan({}), 1, 1],
    ['a note only (one request)', plan({ requests: [request(0)], note: 'The two runs made different requests.' }), 1, 1],
    ['neither', plan({ requests: [request(0)] }), 0, 0],
  ] as const)('%s: one tfoot at most, holding each footer row', (_what, p, tfoots, rows) => {
    const html = renderToStaticMarkup(<Saving plan={p} />);
    expect(count(html, 'tfoot')).toBe(tfoots);
    const foot = html.slice(html.indexOf('<tfoot>'), html.indexOf('</tfoot>'));
    expect(tfoots === 0 ? 0 : count(foot, 'tr')).toBe(rows);
    if (p.note) expect(foot).toContain(p.note);
    if (p.requests.length > 1) expect(foot).toContain('all 2 requests');
  });
});
