// `tool-workbench check FILE... [--json] [--bodies]`
import { dirname, resolve } from 'node:path';
import { checkScenario } from '../core/scenario/report';
import type { CheckHost } from '../core/scenario/report';
import { timelineToJson } from '../core/turn/serialize';
import type { Timeline } from '../core/turn/timeline';
import { PROVIDER_RULE } from '../core/turn/provider-names';
import { toJson } from '../core/json/serde';
import type { Io } from './main';
import { workspaceHost } from './workspace';

export function hostFor(file: string, io: Io): CheckHost {
  const dir = dirname(resolve(file));
  return {
    readFile: (p) => {
      try {
        return io.readFile(resolve(dir, p));
      } catch {
        return undefined;
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
    io.err(`tool-workbench check: unknown option ${unknown[0] ?? ''} (accepted: --json, --bodies)\n`);
    return 2;
  }
  if (files.length === 0) {
    io.err('tool-workbench check: name at least one scenario file\n');
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let bad = false;
  const timelines: unknown[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = io.readFile(file);
    } catch (e) {
      io.err(`${file}: cannot read: ${e instanceof Error ? e.message : String(e)}\n`);
      bad = true;
      continue;
    }
    const report = checkScenario(file, text, hostFor(file, io));
    if (report.fileErrors.length > 0) {
      bad = true;
      for (const e of report.fileErrors) io.err(`${file}:${e.line}:${e.column}: ${e.message}\n`);
      continue;
    }
    passed += report.passed;
    failed += report.failed;
    if (json && report.timeline) timelines.push({ file, ...(timelineToJson(report.timeline, report.expectations, { bodies }) as object) });
    else for (const line of report.failures) io.out(`${line}\n`);
    // Warnings and provider findings never fail a check, but a designer should see them: on stderr,
    // out of the report's way.
    for (const d of report.timeline?.diagnostics ?? []) {
      if (d.severity !== 'warning' || d.code === PROVIDER_RULE) continue;
      const where = d.layer !== undefined ? `layer ${d.layer}${d.line !== undefined ? ` ${d.line}:${d.column ?? 1}` : ''}: ` : '';
      io.err(`${file}: warning: ${where}${d.message}\n`);
    }
    if (report.timeline) for (const line of findingLines(report.timeline)) io.err(`${file}: ${line}\n`);
  }
  // serde_json's output (json/serde.ts), so a body's floats read as JP writes them.
  if (json) io.out(`${toJson(files.length === 1 ? timelines[0] : timelines, true)}\n`);
  else io.out(`${passed} passed, ${failed} failed\n`);
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
