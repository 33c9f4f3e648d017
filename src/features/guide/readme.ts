// The README's "A short tour", for the Help dialog: the section's bullets and paragraphs as plain data
// (text and bold runs), rendered as text by React. Pure.
export interface Run {
  readonly text: string;
  readonly bold?: boolean;
  readonly code?: boolean;
}

export interface Block {
  readonly kind: 'item' | 'paragraph';
  readonly runs: readonly Run[];
}

/** `**bold**` and `code` runs of one line of Markdown; everything else is text. */
export function runsOf(text: string): Run[] {
  const out: Run[] = [];
  const re = /\*\*([^*]+)\*\*|`([^`]+)`/gu;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    if (m[1] !== undefined) out.push({ text: m[1], bold: true });
    else out.push({ text: m[2] ?? '', code: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/** The blocks of the section under `heading` (a "## " heading), up to the next one. */
export function section(markdown: string, heading: string): Block[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return [];
  const blocks: { kind: Block['kind']; text: string }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (line.trim() === '') {
      blocks.push({ kind: 'paragraph', text: '' });
      continue;
    }
    const last = blocks[blocks.length - 1];
    if (line.startsWith('- ')) blocks.push({ kind: 'item', text: line.slice(2).trim() });
    else if (last && last.text !== '') last.text += ` ${line.trim()}`;
    else blocks.push({ kind: 'paragraph', text: line.trim() });
  }
  return blocks.filter((b) => b.text !== '').map((b) => ({ kind: b.kind, runs: runsOf(b.text) }));
}

// A parenthesis that names a file of the repository, or a file named in the open (a path under src/,
// bench/, e2e/ or scripts/, with an optional "npx tsx" before it and ":" after it).
const PATH = String.raw`(?:npx tsx )?\b(?:src|bench|e2e|scripts)/[\w./-]+`;
const PATH_PARENTHESIS = new RegExp(String.raw`\s*\([^()]*` + PATH + String.raw`[^()]*\)`, 'gu');
const PATH_WORDS = new RegExp('`?' + PATH + '`?:?\\s*', 'gu');

/** A line of the README for a user of the page: the source paths it names for contributors left out. */
export function withoutSourcePaths(text: string): string {
  return text.replace(PATH_PARENTHESIS, '').replace(PATH_WORDS, '').replace(/ {2,}/gu, ' ').replace(/ ([,.;])/gu, '$1');
}

/** The blocks without source paths (see withoutSourcePaths). */
export function forReaders(blocks: readonly Block[]): Block[] {
  return blocks.map((b) => {
    const md = b.runs.map((r) => (r.bold ? `**${r.text}**` : r.code ? `\`${r.text}\`` : r.text)).join('');
    return { kind: b.kind, runs: runsOf(withoutSourcePaths(md)) };
  });
}
