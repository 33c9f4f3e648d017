import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FoldingScan, foldingRanges } from './folding';
import type { FoldRange } from './folding';

/** The provider as it was (a string per line), as the reference for the one-pass scan. */
function reference(text: string): FoldRange[] {
  const lines = text.split('\n');
  const ranges: FoldRange[] = [];
  const open: { path: string; line: number }[] = [];
  let multi: string | undefined;
  let lastContent = 0;
  let commentStart = 0;
  const close = (upTo: (p: string) => boolean): void => {
    while (open.length > 0) {
      const top = open[open.length - 1] as { path: string; line: number };
      if (!upTo(top.path)) break;
      open.pop();
      if (lastContent > top.line) ranges.push({ start: top.line, end: lastContent, kind: 'region' });
    }
  };
  const n = lines.length;
  for (let i = 1; i <= n; i++) {
    const line = lines[i - 1] as string;
    if (multi) {
      if (line.includes(multi)) multi = undefined;
      lastContent = i;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) {
      if (commentStart === 0) commentStart = i;
    } else {
      if (commentStart > 0 && i - 1 > commentStart) ranges.push({ start: commentStart, end: i - 1, kind: 'comment' });
      commentStart = 0;
    }
    if (/^\s*\[/u.test(line)) {
      const m = /^\s*\[\[?([^\]]*)\]/u.exec(line);
      const path = (m?.[1] ?? '').replace(/\s*\.\s*/gu, '.').trim();
      close((p) => !(path.startsWith(`${p}.`) && path !== p));
      open.push({ path, line: i });
      lastContent = i;
      continue;
    }
    if (trimmed !== '') lastContent = i;
    for (const q of ['"""', "'''"]) {
      const count = line.split(q).length - 1;
      if (count % 2 === 1) multi = q;
    }
  }
  if (commentStart > 0 && n > commentStart) ranges.push({ start: commentStart, end: n, kind: 'comment' });
  close(() => true);
  return ranges;
}

const sorted = (r: readonly FoldRange[]) => [...r].sort((a, b) => a.start - b.start || a.end - b.end);

const LAYER = `# The workspace layer.
# Two comment lines fold.

[conversation.tools.fs_read]
source = "local"
summary = """
A multi-line
[not.a.header]
"""

[conversation.tools.fs_read.parameters.path]
type = "string"

[conversation.tools.git]
enable = 'off'
[[mcp.servers]]
name = 'x'
# trailing
# comments
`;

describe('foldingRanges', () => {
  it('folds tables (with their sub-tables) and comment runs, skipping multi-line strings', () => {
    expect(sorted(foldingRanges(LAYER))).toEqual([
      { start: 1, end: 2, kind: 'comment' },
      { start: 4, end: 12, kind: 'region' },
      { start: 11, end: 12, kind: 'region' },
      { start: 14, end: 15, kind: 'region' },
      { start: 16, end: 19, kind: 'region' },
      { start: 18, end: 19, kind: 'comment' },
    ]);
  });

  it('agrees with the line-by-line provider', () => {
    expect(sorted(foldingRanges(LAYER))).toEqual(sorted(reference(LAYER)));
    const crlf = LAYER.replace(/\n/gu, '\r\n');
    expect(sorted(foldingRanges(crlf))).toEqual(sorted(reference(crlf.replace(/\r\n/gu, '\n'))));
    const line = fc.constantFrom('[a]', '[a.b]', ' [ a . b . c ]', '[[a.b]]', '[b]', 'k = 1', 'k = """', '"""', "k = '''x'''", "'''", '# c', '  # c', '', '   ', 'x = "[y]"');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const text = lines.join('\n');
        expect(sorted(foldingRanges(text))).toEqual(sorted(reference(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('fed in runs of whole lines, finds what one pass over the text finds', () => {
    const line = fc.constantFrom('[a]', '[a.b]', ' [ a . b . c ]', '[[a.b]]', '[b]', 'k = 1', 'k = """', '"""', "k = '''x'''", "'''", '# c', '  # c', '', '   ', 'x = "[y]"');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 1600 }), (lines, cuts, max) => {
        const text = lines.join('\n');
        const at = [...new Set(cuts.map((c) => c % lines.length))].sort((x, y) => x - y).filter((c) => c > 0);
        const scan = new FoldingScan();
        let from = 0;
        for (const to of [...at, lines.length]) {
          scan.feed(lines.slice(from, to).join('\n'));
          from = to;
        }
        expect(scan.finish(max)).toEqual(foldingRanges(text, max));
      }),
      { numRuns: 500 },
    );
  });

  it('above the limit keeps only the outermost tables, the first ones in the file', () => {
    let text = '';
    for (let i = 0; i < 50; i++) text += `[conversation.tools.t${i}]\nsource = "local"\n[conversation.tools.t${i}.parameters.id]\ntype = "string"\n\n`;
    expect(foldingRanges(text)).toHaveLength(100);
    const capped = foldingRanges(text, 30);
    expect(capped).toHaveLength(30);
    expect(capped[0]).toEqual({ start: 1, end: 4, kind: 'region' });
    expect(capped.every((r, i) => r.start === 1 + 5 * i && r.end === r.start + 3)).toBe(true);
  });

  // Its speed is a benchmark (bench/editor.ts), never a timed test.
  it('folds a 10,000-tool layer up to the limit, outermost tables first', () => {
    let text = '';
    for (let i = 0; i < 10_000; i++) text += `[conversation.tools.tool_${i}]\nsource = "local"\nsummary = "Manage widget ${i}."\n[conversation.tools.tool_${i}.parameters.id]\ntype = "string"\nrequired = true\n\n`;
    const ranges = foldingRanges(text);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges[0]).toEqual({ start: 1, end: 6, kind: 'region' });
  });
});
