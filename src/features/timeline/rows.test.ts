import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DeriveHost, scenarioDocFromText } from '../../derive/host';
import { entryOfPosition, expectationMarks, findingsFact, firstPromotionEntry, formatBytes, moveSelection, nextProblem, rowText, SelectionScroll, sourceMarks } from './rows';
import type { EntryView, TimelineSnapshot } from '../../derive/protocol';
import { deriveWhole } from '../../derive/testing';

function derive(path: string): TimelineSnapshot {
  const parsed = scenarioDocFromText(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
  return deriveWhole(new DeriveHost(), { doc: parsed.doc, revision: 1 });
}

const demo = derive(new URL('../../app/demo-scenario.toml', import.meta.url).pathname);

describe('timeline rows', () => {
  it('opens the demo on its first promotion, whose position follows the search', () => {
    const i = firstPromotionEntry(demo);
    expect(i).toBeDefined();
    const e = demo.entries[i ?? 0];
    expect(e?.kind).toBe('delta');
    expect(e?.sources).toContain('promotion');
    expect(e?.position).toBe(1);
    expect(entryOfPosition(demo, 1)).toBe(i);
    expect(entryOfPosition(demo, 0)).toBe(0);
  });

  it('marks every delta source with an icon and a word', () => {
    expect(sourceMarks(['cfg', 'directive', 'config-set', 'promotion', 'tool-write']).map((m) => m.word)).toEqual(['cfg', 'directive', 'config set', 'promotion', 'tool write']);
    expect(sourceMarks(['promotion'])[0]?.icon).toBe('▲');
  });

  it('says a request\'s tool count, bytes and cache word', () => {
    const req = demo.entries.find((e) => e.kind === 'request' && e.cycle === 2);
    const t = rowText(req!, demo.requests[req!.request ?? -1]);
    expect(t.facts.map((f) => f.text)).toEqual(['8 tools', '2.4 KB', 'prefix changed', '+3 new']);
    // What must stay readable in a narrow timeline: the tool count, the cost, the cache word.
    expect(t.facts.filter((f) => f.optional === undefined).map((f) => f.text)).toEqual(['8 tools', '2.4 KB', 'prefix changed']);
    // With the cost model's reading, the short form of the one status, the whole status in its title (issue 24.6).
    const said = { prefix: 'reused' as const, cached: 0, text: 'prefix reused · below the 1,024-token minimum: 0 cached', tone: 'miss' as const };
    const withCost = rowText(req!, demo.requests[req!.request ?? -1], demo.requests.map(() => said));
    expect(withCost.facts[2]).toMatchObject({ text: '0 cached', tone: 'miss' });
    expect(withCost.facts[2]?.title).toContain('prefix reused · below the 1,024-token minimum: 0 cached');
  });

  it('in directives mode, labels the array size apart from the offered set and its cost', () => {
    const parsed = scenarioDocFromText(readFileSync(new URL('../../app/demo-scenario.toml', import.meta.url), 'utf8'));
    if (!parsed.ok) throw new Error('demo');
    const view = deriveWhole(new DeriveHost(), { doc: { ...parsed.doc, policy: { ...parsed.doc.policy, provider: 'anthropic-directives' } }, revision: 1 });
    const req = view.entries.find((e) => e.kind === 'request' && e.cycle === 1);
    const t = rowText(req!, view.requests[req!.request ?? -1]);
    expect(t.facts.map((f) => f.text)).toEqual(['5 offered', 'array 34', '1.2 KB', 'first request']);
    expect(t.facts[0]?.title).toContain('fixed catalogue');
  });

  it('says a search call\'s "n of total" and how many are usable', () => {
    const call = demo.entries.find((e) => e.kind === 'call' && e.search);
    const t = rowText(call!, undefined);
    expect(t.text).toBe('search_tools("workflow run logs")');
    expect(t.facts.map((f) => f.text)).toEqual(['3 of 7', '3 usable']);
  });

  it('groups expectations into a fail mark and a pass mark with expected and actual', () => {
    const marks = expectationMarks([
      { label: 'step 1', key: 'cache', expected: 'hit', actual: 'miss', pass: false, entry: 3 },
      { label: 'step 1', key: 'offered', expected: ['a'], actual: ['a'], pass: true, entry: 3 },
      { label: 'step 1', key: 'status', expected: 'ok', actual: 'ok', pass: true, entry: 3 },
    ]);
    expect(marks.map((m) => [m.pass, m.count])).toEqual([[false, 1], [true, 2]]);
    expect(marks[0]?.text).toBe('1 failed: cache, expected "hit", actual "miss"');
  });

  it('moves with the keys and clamps at the ends', () => {
    expect(moveSelection('ArrowDown', 3, 5)).toBe(4);
    expect(moveSelection('j', 4, 5)).toBe(4);
    expect(moveSelection('k', 0, 5)).toBe(0);
    expect(moveSelection('End', 0, 5)).toBe(4);
    expect(moveSelection('Home', 3, 5)).toBe(0);
    expect(moveSelection('x', 3, 5)).toBeUndefined();
    expect(moveSelection('ArrowDown', 0, 0)).toBeUndefined();
  });

  it('finds no problem in a passing scenario', () => {
    const host = new DeriveHost();
    const parsed = scenarioDocFromText(readFileSync(new URL('../../app/demo-scenario.toml', import.meta.url), 'utf8'));
    if (!parsed.ok) throw new Error('demo');
    host.derive({ doc: parsed.doc, revision: 1 });
    expect(nextProblem(host.problemRows({ revision: 1 }), 0)).toBeUndefined();
  });

  it('a request the provider would refuse is a problem, a warning is not', () => {
    // A tool name with a dot: OpenAI refuses it (tool-name); the row of the first request is then a problem.
    const text = `name = "refused"\n[policy]\nprovider = "openai"\n[[layers]]\nname = "l"\ntext = '''\n[conversation.tools."bad.name"]\nsource = "local"\nenable = "on"\nsummary = "x"\n'''\n[[steps]]\ncommand = "jp q 'hi'"\n`;
    const parsed = scenarioDocFromText(text);
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
    const host = new DeriveHost();
    const view = deriveWhole(host, { doc: parsed.doc, revision: 1 });
    const entry = view.entries.find((e) => e.kind === 'request');
    if (entry?.request === undefined) throw new Error('the scenario has a request');
    expect(view.requests[entry.request]?.findings.some((f) => f.severity === 'error')).toBe(true);
    expect(nextProblem(host.problemRows({ revision: 1 }), 0)).toBe(entry.index);
    expect(nextProblem([3, 9], 3)).toBe(9);
    expect(nextProblem([3, 9], 9)).toBe(3);
    expect(nextProblem([], 0)).toBeUndefined();
  });

  it('names an empty reply (an open cycle runs as one) instead of showing ""', () => {
    const reply = demo.entries.find((e) => e.kind === 'reply');
    if (!reply) throw new Error('the demo has a reply');
    expect(rowText({ ...reply, label: 'reply: ""' } as EntryView, undefined).text).toBe('reply: (empty)');
    expect(rowText({ ...reply, label: 'reply: ""' } as EntryView, undefined).title).toMatch(/awaits the model/u);
    expect(rowText(reply, undefined).text).toBe(reply.label);
  });

  it('formats bytes with units', () => {
    expect(formatBytes(980)).toBe('980 B');
    expect(formatBytes(2357)).toBe('2.4 KB');
    expect(formatBytes(388395)).toBe('388 KB');
    expect(formatBytes(2_844_758)).toBe('2.8 MB');
  });
});

describe('findingsFact: what the provider would refuse or lose, on a request row', () => {
  const base = { id: 0, step: 1, cycle: 1, position: 0, toolChoice: 'auto', offeredCount: 0, permittedCount: 0, searchableCount: 0, arrayCount: 0, fixedArray: false, offeredFirst: [], cost: { offered: 0, permitted: 0 }, cache: { status: 'miss' as const, reason: 'first request' }, added: [], addedCount: 0 };
  const finding = (severity: 'error' | 'warning', message: string) => ({ severity, rule: 'tool-name', message, source: 'doc' });
  it.each([
    [[], undefined, undefined],
    [[finding('error', 'A refuses x')], '1 refused', 'err'],
    [[finding('error', 'a'), finding('error', 'b'), finding('warning', 'c')], '2 refused', 'err'],
    [[finding('warning', 'JP sends only the properties')], '1 warning', 'warn'],
  ] as const)('%j → %s', (findings, text, tone) => {
    const f = findingsFact({ ...base, findings });
    expect(f?.text).toBe(text);
    expect(f?.tone).toBe(tone);
    for (const x of findings) expect(f?.title).toContain(x.message);
  });
});

describe('where the list scrolls when the selection changes (issue 35)', () => {
  it("shows the start for the row a load chose, and the selected row for the user's own moves", () => {
    const scroll = new SelectionScroll();
    scroll.chosenOnLoad(7);
    // The list has no rows yet: nothing to do, and the load's choice waits.
    expect(scroll.follow(7, 0)).toBeUndefined();
    expect(scroll.follow(7, 40)).toBe('start');
    // The same selection again (a new derivation) moves nothing.
    expect(scroll.follow(7, 40)).toBeUndefined();
    expect(scroll.follow(30, 40)).toBe('row');
    // Back on the row the load chose, by the user's hand: it is followed like any other.
    expect(scroll.follow(7, 40)).toBe('row');
    expect(scroll.follow(undefined, 40)).toBeUndefined();
  });

  it('follows every selection when no load chose one, and a load after a user move is quiet again', () => {
    const scroll = new SelectionScroll();
    expect(scroll.follow(3, 10)).toBe('row');
    scroll.chosenOnLoad(5);
    expect(scroll.follow(5, 10)).toBe('start');
    expect(scroll.follow(6, 10)).toBe('row');
  });
});
