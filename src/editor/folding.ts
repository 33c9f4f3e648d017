// Folding ranges of a TOML layer: each table from its header to its last
// content line before the next header that is not one of its sub-tables, and
// runs of two or more comment lines. Pure (no Monaco), one pass over the text
// without a string per line, because Monaco asks again after every pause in
// typing and a 10,000-tool layer has 70,000 lines.
//
// Monaco rebuilds a decoration per region on every update, and every render
// walks the margin decorations, so a big layer keeps fewer regions: above
// `max`, only the outermost tables fold (a tool's table, not its parameters'),
// and at most `max` of them, the first ones in the file.

export interface FoldRange {
  /** 1-based lines. */
  readonly start: number;
  readonly end: number;
  readonly kind: 'region' | 'comment';
}

/** Beyond this many regions, only the outermost tables fold (see above). */
export const MAX_FOLDING_REGIONS = 1500;

const SPACE = /\s/u;

/** The dotted path of the header at text[from] (`[` or `[[`) to the line's end `to`, spaces around dots removed. */
function headerPath(text: string, from: number, to: number): string {
  let a = from + 1;
  if (a < to && text.charCodeAt(a) === 91) a++;
  const end = text.indexOf(']', a);
  if (end < 0 || end >= to) return '';
  const raw = text.slice(a, end);
  return SPACE.test(raw) ? raw.replace(/\s*\.\s*/gu, '.').trim() : raw;
}

function isSpace(c: number): boolean {
  // space, tab, \r, \v, \f (a line never holds \n)
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff;
}

/** Whether text[from, to) holds `q`, three of one quote character (a bounded scan: indexOf would run on past the line). */
function holds(text: string, q: string, from: number, to: number): boolean {
  const c = q.charCodeAt(0);
  for (let i = from; i + 2 < to; i++) {
    if (text.charCodeAt(i) === c && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) return true;
  }
  return false;
}

/**
 * The multi-line string delimiter that text[from, to) leaves open: `"""` or `'''` when the line
 * holds an odd number of it (counted left to right without overlap; `'''` wins when both are odd).
 */
function opensMulti(text: string, from: number, to: number): string | undefined {
  let dq = 0;
  let sq = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if ((c === 34 || c === 39) && i + 2 < to && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) {
      if (c === 34) dq++;
      else sq++;
      i += 2;
    }
  }
  return sq % 2 === 1 ? "'''" : dq % 2 === 1 ? '"""' : undefined;
}

interface Region extends FoldRange {
  /** A sub-table of another open table. */
  readonly nested: boolean;
}

/**
 * The scan, fed the text in runs of whole lines (`feed`), so a catalogue-sized layer can be read a slice
 * of lines at a time between other work (providers.ts): one pass over 225,000 lines was a 57 ms task.
 */
export class FoldingScan {
  private readonly ranges: Region[] = [];
  private readonly open: { path: string; line: number; nested: boolean }[] = [];
  private multi: string | undefined;
  private lastContent = 0;
  private commentStart = 0;
  private line = 0;

  private close(upTo: (p: string) => boolean): void {
    while (this.open.length > 0) {
      const top = this.open[this.open.length - 1] as { path: string; line: number; nested: boolean };
      if (!upTo(top.path)) break;
      this.open.pop();
      if (this.lastContent > top.line) this.ranges.push({ start: top.line, end: this.lastContent, kind: 'region', nested: top.nested });
    }
  }

  /** The next lines of the text, joined by `\n` (a run ends at a line's end; the next run starts a line). */
  feed(text: string): void {
    let s = 0;
    const length = text.length;
    while (s <= length) {
      const line = ++this.line;
      const nl = text.indexOf('\n', s);
      const e = nl < 0 ? length : nl;
      if (this.multi !== undefined) {
        if (holds(text, this.multi, s, e)) this.multi = undefined;
        this.lastContent = line;
      } else {
        let f = s;
        while (f < e && isSpace(text.charCodeAt(f))) f++;
        const first = f < e ? text.charCodeAt(f) : -1;
        if (first === 35 /* # */) {
          if (this.commentStart === 0) this.commentStart = line;
        } else {
          if (this.commentStart > 0 && line - 1 > this.commentStart) this.ranges.push({ start: this.commentStart, end: line - 1, kind: 'comment', nested: false });
          this.commentStart = 0;
        }
        if (first === 91 /* [ */) {
          const path = headerPath(text, f, e);
          // A table closes unless the new header is one of its sub-tables (`p.` + more).
          this.close((p) => !(path.length > p.length && path.charCodeAt(p.length) === 46 && path.startsWith(p)));
          this.open.push({ path, line, nested: this.open.length > 0 });
          this.lastContent = line;
        } else {
          if (first !== -1) this.lastContent = line;
          this.multi = opensMulti(text, f, e);
        }
      }
      if (nl < 0) break;
      s = nl + 1;
    }
  }

  /** The ranges of every line fed. */
  finish(max = MAX_FOLDING_REGIONS): FoldRange[] {
    if (this.commentStart > 0 && this.line > this.commentStart) this.ranges.push({ start: this.commentStart, end: this.line, kind: 'comment', nested: false });
    this.commentStart = 0;
    this.close(() => true);
    let kept: readonly Region[] = this.ranges;
    if (kept.length > max) {
      kept = kept.filter((r) => r.kind === 'region' && !r.nested).sort((a, b) => a.start - b.start).slice(0, max);
    }
    return kept.map(({ start, end, kind }) => ({ start, end, kind }));
  }
}

export function foldingRanges(text: string, max = MAX_FOLDING_REGIONS): FoldRange[] {
  const scan = new FoldingScan();
  scan.feed(text);
  return scan.finish(max);
}
