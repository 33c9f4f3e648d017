// `tool-workbench findability FILE [--json] [--tasks FILE.jsonl] [--ranking ID] [--limit N] [--before FILE]`
import { parseToml } from '../core/config/toml';
import { checkScenario } from '../core/scenario/report';
import { catalogueDocuments } from '../core/search/catalogue-file';
import { parseEvalQueries } from '../core/search/metrics';
import type { EvalQuery } from '../core/search/metrics';
import { compareFindability, FINDABILITY_RANKERS, findabilityInputAt, findabilityReport, formatComparison, formatFindability } from '../core/findability/index';
import type { FindabilityReport, TimelineFindability } from '../core/findability/index';
import { hostFor } from './check';
import type { Io } from './main';
import { block, line } from './print';
import { readErrorText } from './read';

type Source = { ok: true; input: TimelineFindability; warnings: string[] } | { ok: false; error: string };

function isScenario(text: string): boolean {
  const doc = parseToml(text);
  return doc.errors.length === 0 && (doc.root.entries.has('layers') || doc.root.entries.has('steps'));
}

/** A scenario's base config, or a catalogue file with every tool discoverable. */
function load(file: string, io: Io): Source {
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    return { ok: false, error: readErrorText(file, e) };
  }
  if (!file.toLowerCase().endsWith('.json') && isScenario(text)) {
    const report = checkScenario(file, text, hostFor(file, io));
    const e = report.fileErrors[0];
    if (e) return { ok: false, error: `${file}:${e.line}:${e.column}: ${e.message}` };
    if (!report.timeline) return { ok: false, error: `${file}: the scenario does not run` };
    const warnings = report.timeline.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.severity}: ${d.layer !== undefined ? `layer ${d.layer} ${d.line ?? 1}:${d.column ?? 1}: ` : ''}${d.message}`);
    return { ok: true, input: findabilityInputAt(report.timeline), warnings };
  }
  const docs = catalogueDocuments(file, text);
  // Errors with a place start `line:column:`; they join the file name as a compiler's do.
  if (!docs.ok) return { ok: false, error: /^\d+:\d+: /u.test(docs.error) ? `${file}:${docs.error}` : `${file}: ${docs.error}` };
  return { ok: true, input: { docs: docs.documents, discoverable: docs.documents.map((d) => d.name), ranking: 'bm25' }, warnings: docs.warnings };
}

interface Options {
  file?: string;
  json: boolean;
  tasks?: string;
  ranking?: string;
  limit?: number;
  before?: string;
}

function parseArgs(args: readonly string[]): Options | string {
  const o: Options = { json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (): string | undefined => args[++i];
    if (a === '--json') o.json = true;
    else if (a === '--tasks') o.tasks = value() ?? '';
    else if (a === '--before') o.before = value() ?? '';
    else if (a === '--ranking') {
      const r = value() ?? '';
      if (!FINDABILITY_RANKERS.some((x) => x.id === r)) return `--ranking takes ${FINDABILITY_RANKERS.map((x) => x.id).join(', ')}, got \`${r}\``;
      o.ranking = r;
    } else if (a === '--limit') {
      const v = value() ?? '';
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 50) return `--limit takes an integer from 1 to 50, got \`${v}\``;
      o.limit = n;
    } else if (a.startsWith('-')) return `unknown option \`${a}\``;
    else if (o.file === undefined) o.file = a;
    else return `one FILE only, got \`${o.file}\` and \`${a}\``;
  }
  if (o.file === undefined || o.tasks === '' || o.before === '') return 'name a FILE (and a file after --tasks or --before)';
  return o;
}

export function findabilityCommand(args: readonly string[], io: Io): number {
  const o = parseArgs(args);
  if (typeof o === 'string') {
    io.err(line(`tool-workbench findability: ${o} (tool-workbench findability --help)`));
    return 2;
  }
  let tasks: EvalQuery[] | undefined;
  let badTaskLines = 0;
  if (o.tasks !== undefined) {
    let text: string;
    try {
      text = io.readFile(o.tasks);
    } catch (e) {
      io.err(line(readErrorText(o.tasks, e)));
      return 2;
    }
    const parsed = parseEvalQueries(text);
    for (const e of parsed.errors) io.err(line(`${o.tasks}: ${e}`));
    badTaskLines = parsed.errors.length;
    tasks = parsed.queries;
  }
  const report = (file: string): FindabilityReport | undefined => {
    const src = load(file, io);
    if (!src.ok) {
      io.err(line(src.error));
      return undefined;
    }
    for (const w of src.warnings) io.err(line(`${file}: ${w}`));
    return findabilityReport({
      ...src.input,
      rankers: FINDABILITY_RANKERS,
      ranking: o.ranking ?? src.input.ranking,
      ...(o.limit !== undefined ? { limit: o.limit } : {}),
      ...(tasks ? { tasks } : {}),
    });
  };
  const after = report(o.file as string);
  if (!after) return 2;
  const before = o.before !== undefined ? report(o.before) : undefined;
  if (o.before !== undefined && !before) return 2;
  const comparison = before ? compareFindability(before, after) : undefined;
  // Tool names, descriptions and task words come from files anyone can write: printed through ./print.
  if (o.json) io.out(block(JSON.stringify(comparison ? { report: after, comparison } : after, null, 2)));
  else {
    for (const l of formatFindability(after).split('\n')) io.out(line(l));
    if (comparison) for (const l of ['', ...formatComparison(comparison).split('\n')]) io.out(line(l));
  }
  // The report covers the good lines; a task set with bad lines is still a bad file, and a script must see it.
  if (badTaskLines > 0) {
    io.err(line(`${o.tasks ?? ''}: ${badTaskLines} malformed line${badTaskLines === 1 ? '' : 's'} left out of the report above`));
    return 2;
  }
  return 0;
}
