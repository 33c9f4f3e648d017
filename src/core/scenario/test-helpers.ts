// Small builders for tests that drive the rules end to end through scenario
// text (the same path as `tool-workbench check`). Used by *.test.ts only.
import { checkScenario } from './report';
import type { CheckReport } from './report';
import type { Timeline } from '../turn/timeline';

/** A TOML basic string (JSON's escapes are a subset TOML accepts). */
export const q = (s: string): string => JSON.stringify(s);

/** A TOML array of strings. */
export const list = (xs: readonly string[]): string => `[${xs.map(q).join(', ')}]`;

/** A `[[layers]]` entry. The text must not contain `'''`. */
export function layer(text: string, name = 'workspace'): string {
  return `[[layers]]\nname = ${q(name)}\ntext = '''\n${text}\n'''\n`;
}

/** A `[[steps]]` entry with an optional `[steps.expect]` body and raw extra TOML (cycles). */
export function step(command: string, expect?: string, cycles = ''): string {
  return `[[steps]]\ncommand = ${q(command)}\n${cycles}${expect !== undefined ? `[steps.expect]\n${expect}\n` : ''}`;
}

/** One `[[steps.cycles]]` with optional inline calls and an expect body. */
export function cycle(opts: { calls?: string; reply?: string; expect?: string; restart?: boolean } = {}): string {
  return (
    `[[steps.cycles]]\n` +
    (opts.calls !== undefined ? `calls = ${opts.calls}\n` : '') +
    (opts.reply !== undefined ? `reply = ${q(opts.reply)}\n` : '') +
    (opts.restart ? 'restart = true\n' : '') +
    (opts.expect !== undefined ? `[steps.cycles.expect]\n${opts.expect}\n` : '')
  );
}

export function policy(entries: Record<string, string | boolean>): string {
  return `[policy]\n${Object.entries(entries)
    .map(([k, v]) => `${k} = ${typeof v === 'string' ? q(v) : String(v)}`)
    .join('\n')}\n`;
}

/** A scenario's text from its parts (name first, then the given sections in order). */
export function scenario(...parts: string[]): string {
  return `name = "test"\n${parts.join('\n')}`;
}

export function check(text: string, readFile?: (p: string) => string | undefined): CheckReport {
  return checkScenario('test.toml', text, readFile ? { readFile } : {});
}

/** The timeline of a scenario that must parse. */
export function timelineOf(text: string): Timeline {
  const r = check(text);
  if (r.fileErrors.length > 0 || !r.timeline) throw new Error(`scenario does not parse: ${r.fileErrors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; ')}`);
  return r.timeline;
}

/** Each step's error (undefined when it ran), by step number (1-based index 0 unused). */
export function stepErrors(t: Timeline): (string | undefined)[] {
  const out: (string | undefined)[] = [undefined];
  for (const e of t.entries) if (e.kind === 'step') out[e.step] = e.error;
  return out;
}

/** Checks a scenario and throws with every failure line unless it parses and all its expectations pass. */
export function assertPass(text: string, readFile?: (p: string) => string | undefined): CheckReport {
  const r = check(text, readFile);
  if (r.fileErrors.length > 0) throw new Error(`scenario does not parse:\n${r.fileErrors.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n')}\n---\n${text}`);
  if (r.failures.length > 0) throw new Error(`${r.failed} expectation(s) failed:\n${r.failures.join('\n')}\n---\n${text}`);
  if (r.passed === 0) throw new Error(`scenario checks nothing:\n${text}`);
  return r;
}
