// `tool-workbench import FILE --server NAME [--policy on|discoverable|per-server] [--keep N]
//   [--off-destructive] [--scenario [--ref PATH]]`
// Prints the generated layer (or, with --scenario, a whole scenario file that
// `tool-workbench check` runs). Every rule lives in src/core/import.
import { applyImport, buildImport, DEFAULT_KEEP, readCatalogue, serverSlug, startingStep } from '../core/import/index';
import type { Catalogue, PolicyKind, StartingPolicy } from '../core/import/index';
import { EMPTY_DOC, writeScenario } from '../core/scenario/doc';
import type { ScenarioDoc } from '../core/scenario/doc';
import type { Io } from './main';
import { block, line } from './print';
import { readErrorText } from './read';

const USAGE =
  'usage: tool-workbench import FILE --server NAME [--policy on|discoverable|per-server] [--keep N] [--off-destructive] [--scenario [--ref PATH]]';

interface ImportArgs {
  file: string;
  server?: string;
  policy: PolicyKind;
  keep: number;
  offDestructive: boolean;
  scenario: boolean;
  ref?: string;
}

function parseArgs(args: readonly string[]): ImportArgs | string {
  let file: string | undefined;
  const out: Partial<ImportArgs> = { policy: 'discoverable', keep: DEFAULT_KEEP, offDestructive: false, scenario: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const value = (): string | undefined => {
      const v = args[i + 1];
      i += 1;
      return v === undefined || v.startsWith('--') ? undefined : v;
    };
    switch (a) {
      case '--server': {
        const v = value();
        if (v === undefined) return '--server needs a NAME';
        out.server = v;
        break;
      }
      case '--policy': {
        const v = value();
        if (v !== 'on' && v !== 'discoverable' && v !== 'per-server') return `--policy takes on, discoverable or per-server, not ${v ?? 'nothing'}`;
        out.policy = v;
        break;
      }
      case '--keep': {
        const v = value();
        const n = Number(v);
        if (v === undefined || !Number.isInteger(n) || n < 0) return `--keep takes a whole number of tools, not ${v ?? 'nothing'}`;
        out.keep = n;
        break;
      }
      case '--off-destructive':
        out.offDestructive = true;
        break;
      case '--scenario':
        out.scenario = true;
        break;
      case '--ref': {
        const v = value();
        if (v === undefined) return '--ref needs the catalogue path as the scenario should name it';
        out.ref = v;
        break;
      }
      default:
        if (a.startsWith('-')) return `unknown option ${a}`;
        if (file !== undefined) return `one FILE only (got ${file} and ${a})`;
        file = a;
    }
  }
  if (file === undefined) return 'name the catalogue FILE';
  return { ...(out as ImportArgs), file };
}

/** Narrows a multi-server catalogue to the server named (by its key or its slug). */
function pick(catalogue: Catalogue, name: string): Catalogue | string {
  const found = catalogue.servers.find((s) => s.key === name || (s.key !== undefined && serverSlug(s.key) === serverSlug(name)));
  if (found) return { ...catalogue, servers: [found] };
  const names = catalogue.servers.map((s) => s.key ?? '').slice(0, 12);
  return `the catalogue has no server ${JSON.stringify(name)}; it has ${names.join(', ')}${catalogue.servers.length > names.length ? ', …' : ''}`;
}

export function importCommand(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.err(`${line(`tool-workbench import: ${parsed}`)}${USAGE}\n`);
    return 2;
  }
  let text: string;
  try {
    text = io.readFile(parsed.file);
  } catch (e) {
    io.err(line(readErrorText(parsed.file, e)));
    return 2;
  }
  const read = readCatalogue(text, parsed.file);
  if (!read.ok) {
    for (const e of read.errors) io.err(line(e));
    return 2;
  }
  let catalogue = read.catalogue;
  const multi = catalogue.form === 'multi-server';
  if (multi && parsed.server !== undefined) {
    const one = pick(catalogue, parsed.server);
    if (typeof one === 'string') {
      io.err(line(`tool-workbench import: ${one}`));
      return 2;
    }
    catalogue = one;
  }
  if (!multi && parsed.server === undefined) {
    io.err(`${line('tool-workbench import: a tools/list reply names no server; give it one with --server NAME')}${USAGE}\n`);
    return 2;
  }
  for (const w of catalogue.warnings) io.err(line(`warning: ${w}`));
  const policy: StartingPolicy = { kind: parsed.policy, keep: parsed.keep, offDestructive: parsed.offDestructive };
  const ref = parsed.ref;
  const base: ScenarioDoc = { ...EMPTY_DOC, name: `Imported ${parsed.file.split(/[\\/]/u).pop() ?? parsed.file}`, layers: [] };
  const result = buildImport(catalogue, {
    policy,
    origin: parsed.file.split(/[\\/]/u).pop() ?? parsed.file,
    ...(!multi && parsed.server !== undefined ? { serverNames: [parsed.server] } : {}),
    into: base,
    ...(ref !== undefined ? { catalogueRef: (_i: number, key: string | undefined) => (multi && key !== undefined ? `${ref}#${key}` : ref) } : {}),
  });
  if (!parsed.scenario) io.out(block(result.layer.text));
  else io.out(block(writeScenario({ ...applyImport(base, result), steps: [startingStep(result)] })));
  return 0;
}
