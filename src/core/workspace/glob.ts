// Workspace-relative paths and the glob patterns of `extends`, over an
// in-memory file list. Paths use `/` and never start with `/` or contain `.`
// or `..` segments once normalised.

/** Resolves `.` and `..` segments. `undefined` when the path climbs above the root. */
export function normalizePath(path: string): string | undefined {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return out.join('/');
}

export function dirnameOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, rel: string): string {
  // JP's `RelativePath` treats a leading `/` as relative too.
  const r = rel.replace(/^\/+/, '');
  return dir === '' ? r : `${dir}/${r}`;
}

/** Rust's `Path::with_extension`: replaces the last segment's extension, or adds one. */
export function withExtension(path: string, ext: string): string {
  const base = basenameOf(path);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return `${path.slice(0, path.length - base.length)}${stem}.${ext}`;
}

/** Whether a path is a glob pattern (JP checks for `*`, `?` and `[`). */
export function isGlob(path: string): boolean {
  return /[*?[]/.test(path);
}

// Globs are matched without regular expressions: a pattern built into a RegExp backtracks
// exponentially (`*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b.toml` against a 200-`a` name ran past 20 s). The
// matcher below goes back only to the most recent star, at both levels (`*` over the characters of
// a segment, `**` over segments), so one match costs at most pattern length × name length steps,
// linear in the name for a given pattern: Russ Cox, "Glob Matching Can Be Simple And Fast Too",
// https://research.swtch.com/glob (2017; read 2026-12-01).

/** One position of a segment pattern: a literal character, `?`, `*` or a `[...]` class. */
type Token =
  | { readonly kind: 'char'; readonly c: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'star' }
  | { readonly kind: 'class'; readonly negate: boolean; readonly ranges: readonly (readonly [number, number])[] };

type SegmentPattern = readonly Token[] | '**';

export type GlobMatcher = (path: string) => boolean;

/** A malformed pattern: what is wrong and the offset (UTF-16 units) in the pattern where it is. */
export interface GlobError {
  readonly message: string;
  readonly index: number;
}

export type GlobCompile = { readonly ok: true; readonly match: GlobMatcher } | ({ readonly ok: false } & GlobError);

/** `[` at `start` (a code point index in `cps`): the class and the index after its `]`, or undefined when it never closes. */
function readClass(cps: readonly string[], start: number, offsets: readonly number[]): { token: Token; next: number } | GlobError | undefined {
  let i = start + 1;
  const negate = cps[i] === '!';
  if (negate) i += 1;
  // A `]` right after `[` or `[!` is a member, as in POSIX.
  const close = cps.indexOf(']', i + 1);
  if (close < 0) return undefined;
  const body = cps.slice(i, close);
  const ranges: [number, number][] = [];
  for (let k = 0; k < body.length; k++) {
    const lo = body[k] as string;
    if (body[k + 1] === '-' && k + 2 < body.length) {
      const hi = body[k + 2] as string;
      const a = lo.codePointAt(0) as number;
      const b = hi.codePointAt(0) as number;
      // globset refuses a reversed range (ErrorKind::InvalidRange, https://docs.rs/globset/0.4.8/globset/enum.ErrorKind.html, read 2026-12-01).
      if (a > b) return { message: `the range \`${lo}-${hi}\` runs backwards (write \`${hi}-${lo}\`)`, index: offsets[i + k] as number };
      ranges.push([a, b]);
      k += 2;
    } else {
      const c = lo.codePointAt(0) as number;
      ranges.push([c, c]);
    }
  }
  return { token: { kind: 'class', negate, ranges }, next: close + 1 };
}

/** One segment's tokens; `base` is the segment's offset in the whole pattern. */
function segmentTokens(seg: string, base: number): Token[] | GlobError {
  const cps = [...seg];
  const offsets: number[] = [];
  let at = base;
  for (const c of cps) {
    offsets.push(at);
    at += c.length;
  }
  const tokens: Token[] = [];
  for (let i = 0; i < cps.length; ) {
    const c = cps[i] as string;
    if (c === '*') {
      // `**` inside a segment is two stars, which match what one does.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
      i += 1;
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
      i += 1;
    } else if (c === '[') {
      const cls = readClass(cps, i, offsets);
      if (cls === undefined) {
        // An unclosed `[` is a literal bracket, as before.
        tokens.push({ kind: 'char', c });
        i += 1;
      } else if ('message' in cls) return cls;
      else {
        tokens.push(cls.token);
        i = cls.next;
      }
    } else {
      tokens.push({ kind: 'char', c });
      i += 1;
    }
  }
  return tokens;
}

function matchesOne(t: Token, c: string): boolean {
  if (t.kind === 'any') return true;
  if (t.kind === 'char') return t.c === c;
  if (t.kind === 'class') {
    const cp = c.codePointAt(0) as number;
    return t.ranges.some(([lo, hi]) => cp >= lo && cp <= hi) !== t.negate;
  }
  return false;
}

/**
 * Whether `items` match `pattern`, where `isStar` elements match any run of items and every other
 * element matches exactly one item (`one`). Backtracks only to the most recent star.
 */
function starMatch<P, I>(pattern: readonly P[], items: readonly I[], isStar: (p: P) => boolean, one: (p: P, item: I) => boolean): boolean {
  let p = 0;
  let n = 0;
  let starP = -1;
  let starN = 0;
  while (p < pattern.length || n < items.length) {
    if (p < pattern.length) {
      const here = pattern[p] as P;
      if (isStar(here)) {
        starP = p;
        starN = n;
        p += 1;
        continue;
      }
      if (n < items.length && one(here, items[n] as I)) {
        p += 1;
        n += 1;
        continue;
      }
    }
    if (starP >= 0 && starN < items.length) {
      starN += 1;
      p = starP + 1;
      n = starN;
      continue;
    }
    return false;
  }
  return true;
}

/**
 * Compiles a glob over `/`-separated paths: `*` and `?` stay within one segment, `**` as a whole
 * segment matches zero or more segments, `[abc]`, `[a-z]` and `[!abc]` match one character. A
 * malformed pattern (a range that runs backwards) is an error with its offset.
 */
export function parseGlob(pattern: string): GlobCompile {
  const parts: SegmentPattern[] = [];
  let offset = 0;
  for (const seg of pattern.split('/')) {
    const base = offset;
    offset += seg.length + 1;
    if (seg === '' || seg === '.') continue;
    if (seg === '**') {
      if (parts[parts.length - 1] !== '**') parts.push('**');
      continue;
    }
    const tokens = segmentTokens(seg, base);
    if (!Array.isArray(tokens)) return { ok: false, ...(tokens as GlobError) };
    parts.push(tokens);
  }
  const segmentMatches = (tokens: SegmentPattern, name: string): boolean =>
    tokens !== '**' && starMatch(tokens, [...name], (t) => t.kind === 'star', matchesOne);
  return { ok: true, match: (path) => starMatch(parts, path.split('/'), (p) => p === '**', segmentMatches) };
}

/** `parseGlob` for a pattern known to be well formed; a malformed one matches nothing. */
export function compileGlob(pattern: string): GlobMatcher {
  const g = parseGlob(pattern);
  return g.ok ? g.match : () => false;
}

/** Orders paths as a sorted directory walk does: segment by segment. */
export function comparePaths(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i] as string;
    const y = bs[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}

/** The paths among `paths` that match `pattern`, sorted; a malformed pattern is its error. */
export function globFiles(pattern: string, paths: Iterable<string>): string[] | GlobError {
  const g = parseGlob(pattern);
  if (!g.ok) return { message: g.message, index: g.index };
  const out: string[] = [];
  for (const p of paths) if (g.match(p)) out.push(p);
  return out.sort(comparePaths);
}
