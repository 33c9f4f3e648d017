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

function escapeRegExp(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** One path segment's pattern as a regular expression: `*`, `?` and `[...]`/`[!...]` classes. */
function segmentRegExp(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i] as string;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = seg.slice(i + 1, close);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      re += `[${negate ? '^' : ''}${[...body].map((b) => (b === '-' ? '-' : escapeRegExp(b))).join('')}]`;
      i = close;
    } else re += escapeRegExp(c);
  }
  return new RegExp(`^${re}$`);
}

export type GlobMatcher = (path: string) => boolean;

/**
 * Compiles a glob over `/`-separated paths: `*` and `?` stay within one segment, `**` as a whole
 * segment matches zero or more segments, `[abc]`, `[a-z]` and `[!abc]` match one character.
 */
export function compileGlob(pattern: string): GlobMatcher {
  const parts = pattern.split('/').filter((p) => p !== '' && p !== '.');
  const matchers = parts.map((p) => (p === '**' ? '**' : segmentRegExp(p)));
  const match = (segs: readonly string[], si: number, pi: number, memo: Map<number, boolean>): boolean => {
    const key = si * (matchers.length + 1) + pi;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let result: boolean;
    if (pi === matchers.length) result = si === segs.length;
    else {
      const m = matchers[pi];
      if (m === '**') result = match(segs, si, pi + 1, memo) || (si < segs.length && match(segs, si + 1, pi, memo));
      else result = si < segs.length && m !== undefined && m.test(segs[si] as string) && match(segs, si + 1, pi + 1, memo);
    }
    memo.set(key, result);
    return result;
  };
  return (path) => match(path.split('/'), 0, 0, new Map());
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

/** The paths among `paths` that match `pattern`, sorted. */
export function globFiles(pattern: string, paths: Iterable<string>): string[] {
  const matches = compileGlob(pattern);
  const out: string[] = [];
  for (const p of paths) if (matches(p)) out.push(p);
  return out.sort(comparePaths);
}
