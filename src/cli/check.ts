// `tool-workbench check FILE... [--json]`
import { dirname, resolve } from 'node:path';
import { checkScenario } from '../core/scenario/report';
import type { CheckHost } from '../core/scenario/report';
import { timelineToJson } from '../core/turn/serialize';
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
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  const unknown = files.filter((f) => f.startsWith('-'));
  if (unknown.length > 0) {
    io.err(line(`tool-workbench check: unknown option ${unknown[0] ?? ''} (accepted: --json, --help)`));
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
    const report = checkScenario(file, text, hostFor(file, io));
    if (report.fileErrors.length > 0) {
      bad = true;
      for (const e of report.fileErrors) io.err(line(`${file}:${e.line}:${e.column}: ${e.message}`));
      continue;
    }
    checked += 1;
    passed += report.passed;
    failed += report.failed;
    if (json && report.timeline) timelines.push({ file, ...(timelineToJson(report.timeline, report.expectations) as object) });
    else for (const failure of report.failures) io.out(line(failure));
    // Warnings never fail a check, but a designer should see them: on stderr, out of the report's way.
    for (const d of report.timeline?.diagnostics ?? []) {
      if (d.severity !== 'warning') continue;
      const where = d.layer !== undefined ? `layer ${d.layer}${d.line !== undefined ? ` ${d.line}:${d.column ?? 1}` : ''}: ` : '';
      io.err(line(`${file}: warning: ${where}${d.message}`));
    }
  }
  // Counts of nothing would read as a result: with no file checked, the errors above are the whole answer.
  if (checked > 0) {
    if (json) io.out(block(JSON.stringify(files.length === 1 ? timelines[0] : timelines, null, 2)));
    else io.out(line(`${passed} passed, ${failed} failed`));
  }
  return bad ? 2 : failed > 0 ? 1 : 0;
}
