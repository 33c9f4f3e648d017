// `tool-workbench check FILE... [--json]`
import { dirname, resolve } from 'node:path';
import { checkScenario } from '../core/scenario/report';
import type { CheckHost } from '../core/scenario/report';
import { timelineToJson } from '../core/turn/serialize';
import { costOfTimeline } from '../core/cost/conversation';
import { DEFAULT_PRICE_TABLE } from '../core/providers/prices';
import { o200kCounter } from './tokens';
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
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  const unknown = files.filter((f) => f.startsWith('-'));
  if (unknown.length > 0) {
    io.err(`tool-workbench check: unknown option ${unknown[0] ?? ''} (accepted: --json)\n`);
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
    const report = checkScenario(file, text, hostFor(file, io), {}, { counter: o200kCounter });
    if (report.fileErrors.length > 0) {
      bad = true;
      for (const e of report.fileErrors) io.err(`${file}:${e.line}:${e.column}: ${e.message}\n`);
      continue;
    }
    passed += report.passed;
    failed += report.failed;
    if (json && report.timeline) {
      const cost = costOfTimeline(report.timeline, { table: DEFAULT_PRICE_TABLE, counter: o200kCounter });
      timelines.push({ file, ...(timelineToJson(report.timeline, report.expectations, cost) as object) });
    }
    else for (const line of report.failures) io.out(`${line}\n`);
    // Warnings never fail a check, but a designer should see them: on stderr, out of the report's way.
    for (const d of report.timeline?.diagnostics ?? []) {
      if (d.severity !== 'warning') continue;
      const where = d.layer !== undefined ? `layer ${d.layer}${d.line !== undefined ? ` ${d.line}:${d.column ?? 1}` : ''}: ` : '';
      io.err(`${file}: warning: ${where}${d.message}\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(files.length === 1 ? timelines[0] : timelines, null, 2)}\n`);
  else io.out(`${passed} passed, ${failed} failed\n`);
  return bad ? 2 : failed > 0 ? 1 : 0;
}
