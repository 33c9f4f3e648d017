// "Make discoverable": keep the N tools a persona uses most at `on`, and make the rest of its
// tools discoverable, written as a generated layer of its own. Pure: the derive host hands in what
// the core computed (the tools at `on`, whether each is permitted, its definition cost), the
// scenario's calls and the persona's files; this ranks them and writes the layer.
//
// "Uses most", deterministically, from the data the workbench has:
//   1. calls: how many times the scenario's turns call the tool (so the demo turn keeps working:
//      a tool the turn calls is never hidden behind search_tools);
//   2. mentions: how many times the persona's own files (its file and every file it extends:
//      skills, knowledge) name the tool as a whole word: in the instructions and prompt sections
//      that tell the model to use it, and in the `[conversation.tools]` entries that enable it;
//   3. catalogue order (the order JP configures the tools), then the name.
// A tool that cannot be permitted (its MCP server is offline) is never offered, so it takes none
// of the N places; it is made discoverable with the rest and would be searchable once its server
// runs.
import { tomlKey } from '../core';

export const GENERATED_LAYER = 'discoverable (generated)';
export const DEFAULT_KEEP = 10;

export interface PlanTool {
  readonly name: string;
  /** Catalogue (config) order. */
  readonly order: number;
  /** In the permitted set at the base position (false when its server is offline). */
  readonly permitted: boolean;
  /** JP's definition cost, UTF-8 bytes (0 when the tool does not resolve). */
  readonly cost: number;
}

export interface PlanInput {
  readonly persona?: string;
  readonly keep: number;
  /** The tools at effective `on` at the base position, builtins excluded. */
  readonly tools: readonly PlanTool[];
  /** Calls per tool name in the scenario's steps. */
  readonly calls: ReadonlyMap<string, number>;
  /** The files the persona brings (its own and what it extends), as layer texts. */
  readonly personaFiles: readonly { readonly name: string; readonly text: string }[];
}

export interface RankedTool extends PlanTool {
  /** 1-based place in the ranking. */
  readonly rank: number;
  readonly calls: number;
  readonly mentions: number;
  /** How many of the persona's files name it. */
  readonly files: number;
  readonly kept: boolean;
}

export interface DiscoverablePlan {
  readonly ranked: readonly RankedTool[];
  readonly kept: readonly string[];
  readonly discoverable: readonly string[];
  readonly layerText: string;
}

const WORD = /[A-Za-z0-9_]+/gu;
const PLAIN_NAME = /^[A-Za-z0-9_]+$/u;

/** Whole-word occurrences of each name in a text. */
function mentionCounts(text: string, names: readonly string[]): Map<string, number> {
  const words = new Map<string, number>();
  for (const m of text.matchAll(WORD)) words.set(m[0], (words.get(m[0]) ?? 0) + 1);
  const out = new Map<string, number>();
  for (const name of names) {
    if (PLAIN_NAME.test(name)) {
      out.set(name, words.get(name) ?? 0);
      continue;
    }
    const re = new RegExp(`(?<![A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}(?![A-Za-z0-9_])`, 'gu');
    out.set(name, [...text.matchAll(re)].length);
  }
  return out;
}

/** A value safe on one comment line. */
function commentText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/gu, ' ');
}

export function rankTools(input: Omit<PlanInput, 'keep' | 'persona'>): Omit<RankedTool, 'kept' | 'rank'>[] {
  const names = input.tools.map((t) => t.name);
  const mentions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const f of input.personaFiles) {
    for (const [name, n] of mentionCounts(f.text, names)) {
      if (n === 0) continue;
      mentions.set(name, (mentions.get(name) ?? 0) + n);
      files.set(name, (files.get(name) ?? 0) + 1);
    }
  }
  return input.tools
    .map((t) => ({ ...t, calls: input.calls.get(t.name) ?? 0, mentions: mentions.get(t.name) ?? 0, files: files.get(t.name) ?? 0 }))
    .sort((a, b) => b.calls - a.calls || b.mentions - a.mentions || a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function planDiscoverable(input: PlanInput): DiscoverablePlan {
  const keep = Math.max(0, Math.floor(input.keep));
  let places = keep;
  const ranked: RankedTool[] = rankTools(input).map((t, i) => {
    const kept = t.permitted && places > 0;
    if (kept) places -= 1;
    return { ...t, rank: i + 1, kept };
  });
  const kept = ranked.filter((t) => t.kept).map((t) => t.name);
  const discoverable = ranked.filter((t) => !t.kept).map((t) => t.name);
  return { ranked, kept, discoverable, layerText: layerText(input.persona, keep, ranked) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function layerText(persona: string | undefined, keep: number, ranked: readonly RankedTool[]): string {
  const who = persona !== undefined ? `persona \`${commentText(persona)}\`` : 'the workspace (no persona)';
  const kept = ranked.filter((t) => t.kept);
  const rest = ranked.filter((t) => !t.kept);
  const lines = [
    `# Generated by "Make discoverable" for ${who}, keeping ${keep} on.`,
    '# Apply it again to regenerate; edit a copy under another name to keep changes.',
    '#',
    `# The ${plural(ranked.length, 'tool')} at \`on\`, ranked by how much the persona uses them: calls in`,
    "# this scenario's turns, then how often the persona's own files name the tool, then catalogue",
    '# order. A tool whose server is offline takes no place among the kept.',
    '#',
    `# Kept on (${kept.length}):`,
    ...kept.map((t) => `#   ${t.rank}. ${commentText(t.name)}: ${plural(t.calls, 'call')}, ${plural(t.mentions, 'mention')}`),
    `# Made discoverable (${rest.length}):`,
  ];
  for (const t of rest) lines.push('', `[conversation.tools.${tomlKey(t.name)}]`, 'enable = "discoverable"');
  return `${lines.join('\n')}\n`;
}

/** Calls per tool in a scenario document's steps. */
export function callCounts(steps: readonly { readonly cycles: readonly { readonly calls: readonly { readonly tool: string }[] }[] }[]): Map<string, number> {
  const calls = new Map<string, number>();
  for (const s of steps) for (const c of s.cycles) for (const k of c.calls) calls.set(k.tool, (calls.get(k.tool) ?? 0) + 1);
  return calls;
}
