// `tool-workbench report FILE... --out report.html [--title TEXT]`: the review report as one
// self-contained HTML file (core/report). Every named file appears in it, a bad one as "does not run".
// Exit 0 when every expectation passes and every RFD row agrees, 1 when one does not, 2 when a file is
// bad or cannot be read (the report is still written), and on usage errors (nothing is written).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { approximateTokenCounter } from '../core/providers/cost';
import type { TokenCounter } from '../core/providers/cost';
import { O200K_BASE } from '../core/providers/tokens';
import { reportHtml } from '../core/report/html';
import { rfdCounts, rfdTables } from '../core/rfd/tables';
import { checkScenario } from '../core/scenario/report';
import type { CheckReport } from '../core/scenario/report';
import { hostFor } from './check';
import type { Io } from './main';
import { line } from './print';
import { InputError, systemMessage } from './read';

export const REPORT_USAGE = `  tool-workbench report FILE... --out report.html [--title TEXT]
      Write a review report: one self-contained HTML file (no script, no font, nothing fetched) with
      RFD 108's tables computed by the engine, and for each scenario its check, its timeline step by
      step, each request's cost in bytes and tokens and (in the provider's prompt-cache model, at the
      dated default prices) in dollars, a cost chart and every failed expectation.
      Exit 0 when all pass and every RFD row agrees, 1 when one does not, 2 when a file is bad.
`;

/** o200k_base, loaded synchronously in this node shell; the bytes/4 estimate when it cannot load. */
function tokenCounter(): TokenCounter {
  try {
    const mod = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens(text: string, options: object): number };
    const options = { disallowedSpecial: new Set<string>() };
    return { id: O200K_BASE, count: (text) => (text === '' ? 0 : mod.countTokens(text, options)) };
  } catch {
    return approximateTokenCounter;
  }
}

interface Args {
  readonly files: string[];
  readonly out?: string;
  readonly title?: string;
  readonly error?: string;
}

function parseArgs(args: readonly string[]): Args {
  const files: string[] = [];
  let out: string | undefined;
  let title: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--out' || a === '-o' || a === '--title') {
      const v = args[i + 1];
      if (v === undefined || v.startsWith('-')) return { files, error: `${a} needs a value` };
      if (a === '--title') title = v;
      else out = v;
      i++;
    } else if (a.startsWith('--out=')) out = a.slice('--out='.length);
    else if (a.startsWith('-') && a !== '-') return { files, error: `unknown option ${a} (accepted: --out FILE, --title TEXT)` };
    else files.push(a);
  }
  return { files, ...(out !== undefined ? { out } : {}), ...(title !== undefined ? { title } : {}) };
}

function readReport(file: string, io: Io): CheckReport {
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    // Listed in the report as a file that does not run, at its bad byte when the reader names one.
    const at = e instanceof InputError && e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : { line: 1, column: 1 };
    const message = e instanceof InputError && e.line !== undefined ? e.message : `cannot read: ${e instanceof InputError ? e.message : systemMessage(e)}`;
    return { file, fileErrors: [{ message, ...at }], expectations: [], passed: 0, failed: 0, failures: [] };
  }
  return checkScenario(file, text, hostFor(file, io));
}

export function reportCommand(args: readonly string[], io: Io, write: (path: string, text: string) => void = (p, t) => writeFileSync(p, t, 'utf8'), now: () => Date = () => new Date()): number {
  const parsed = parseArgs(args);
  if (parsed.error !== undefined) {
    io.err(line(`tool-workbench report: ${parsed.error} (tool-workbench report --help)`));
    return 2;
  }
  if (parsed.files.length === 0 || parsed.out === undefined) {
    io.err(line('tool-workbench report: name at least one scenario file and --out FILE.html (tool-workbench report --help)'));
    return 2;
  }
  const tokens = tokenCounter();
  const scenarios = parsed.files.map((f) => readReport(f, io));
  const rfd = rfdTables(tokens);
  const html = reportHtml({ scenarios, rfd, tokens, generatedAt: now().toISOString().replace(/\.\d+Z$/u, 'Z'), ...(parsed.title !== undefined ? { title: parsed.title } : {}) });
  try {
    write(parsed.out, html);
  } catch (e) {
    io.err(line(`tool-workbench report: cannot write ${parsed.out}: ${systemMessage(e)}`));
    return 2;
  }
  const passed = scenarios.reduce((n, s) => n + s.passed, 0);
  const failed = scenarios.reduce((n, s) => n + s.failed, 0);
  const bad = scenarios.filter((s) => s.fileErrors.length > 0);
  for (const s of bad) for (const e of s.fileErrors) io.err(line(`${s.file}:${e.line}:${e.column}: ${e.message}`));
  const rows = rfdCounts(rfd);
  io.out(line(`${parsed.out}: ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}, ${passed} passed, ${failed} failed; RFD 108: ${rows.agree} of ${rows.agree + rows.disagree} rows agree`));
  return bad.length > 0 ? 2 : failed > 0 || rows.disagree > 0 ? 1 : 0;
}
