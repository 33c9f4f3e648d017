// `tool-workbench check FILE... [--json] [--bodies]`
import { dirname, resolve } from 'node:path';
import { checkScenario } from '../core/scenario/report';
import type { CheckHost } from '../core/scenario/report';
import { timelineToJson } from '../core/turn/serialize';
import type { Timeline } from '../core/turn/timeline';
import { PROVIDER_RULE } from '../core/turn/provider-names';
import { toJson } from '../core/json/serde';
import { costOfTimeline } from '../core/cost/conversation';
import { DEFAULT_PRICE_TABLE } from '../core/providers/prices';
import { o200kCounter } from './tokens';
import type { Io } from './main';
import { block, line } from './print';
import { InputError, readErrorText, systemMessage } from './read';
import { workspaceHost } from './workspace';

export function hostFor(file: string, io: Io): CheckHost {
  const dir = dirname(resolve(file));
  return {
    readFile: (p) => {
      try {
        return io.readFile(resolve(dir, p));
      } catch (e) {
        if (e instanceof InputError) return { error: e.line !== undefined ? `line ${e.line}, column ${e.column ?? 1}: ${e.message}` : e.message };
        return { error: systemMessage(e) };
      }
    },
    ...workspaceHost(dir),
  };
}

export function checkFiles(args: readonly string[], io: Io): number {
  const bodies = args.includes('--bodies');
  const json = args.includes('--json') || bodies;
  const files = args.filter((a) => a !== '--json' && a !== '--bodies');
  const unknown = files.filter((f) => f.startsWith('-'));
  if (unknown.length > 0) {
    io.err(line(`tool-workbench check: unknown option ${unknown[0] ?? ''} (accepted: --json, --bodies, --help)`));
    return 2;
  }
  if (files.length === 0) {
    io.err(line('tool-workbench check: name at least one scenario file (tool-workbench check --help)'));
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let checked = 0;
  let bad = false;
  const timelines: unknown[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = io.readFile(file);
    } catch (e) {
      io.err(line(readErrorText(file, e)));
      bad = true;
      continue;
    }
    const report = checkScenario(file, text, hostFor(file, io), {}, { counter: o200kCounter });
    if (report.fileErrors.length > 0) {
      bad = true;
      for (const e of report.fileErrors) io.err(line(`${file}:${e.line}:${e.column}: ${e.message}`));
      continue;
    }
    checked += 1;
    passed += report.passed;
    failed += report.failed;
    if (json && report.timeline) {
      const cost = costOfTimeline(report.timeline, { table: DEFAULT_PRICE_TABLE, counter: o200kCounter });
      timelines.push({ file, ...(timelineToJson(report.timeline, report.expectations, { bodies, cost }) as object) });
      // stdout stays one JSON value for scripts; a person reads the failures and the pass/fail line on stderr.
      for (const failure of report.failures) io.err(line(failure));
    } else for (const failure of report.failures) io.out(line(failure));
    // Warnings and provider findings never fail a check, but a designer should see them: on stderr,
    // out of the report's way.
    for (const d of report.timeline?.diagnostics ?? []) {
      if (d.severity !== 'warning' || d.code === PROVIDER_RULE) continue;
      const where = d.layer !== undefined ? `layer ${d.layer}${d.line !== undefined ? ` ${d.line}:${d.column ?? 1}` : ''}: ` : '';
      io.err(line(`${file}: warning: ${where}${d.message}`));
    }
    if (report.timeline) for (const finding of findingLines(report.timeline)) io.err(line(`${file}: ${finding}`));
  }
  // Counts of nothing would read as a result: with no file checked, the errors above are the whole answer.
  if (checked > 0) {
    // serde_json's output (json/serde.ts), so a body's floats read as JP writes them.
    if (json) {
      io.out(block(toJson(files.length === 1 ? timelines[0] : timelines, true)));
      io.err(line(`${passed} passed, ${failed} failed`));
    } else io.out(line(`${passed} passed, ${failed} failed`));
  }
  return bad ? 2 : failed > 0 ? 1 : 0;
}

/**
 * One line per distinct provider finding, with the requests it stands on:
 * `anthropic error (step 4 cycle 1): Anthropic refuses the request: ...`.
 */
export function findingLines(t: Timeline): string[] {
  const seen = new Map<string, { severity: string; where: string[] }>();
  for (const r of t.requests) {
    for (const d of r.findings()) {
      const entry = seen.get(d.message) ?? { severity: d.severity, where: [] };
      entry.where.push(`step ${r.step} cycle ${r.cycle}`);
      seen.set(d.message, entry);
    }
  }
  const provider = t.policy.provider;
  return [...seen].map(([message, { severity, where }]) => {
    const at = where.length > 3 ? `${where.slice(0, 2).join(', ')} and ${where.length - 2} more requests` : where.join(', ');
    return `${provider} ${severity} (${at}): ${message}`;
  });
}
