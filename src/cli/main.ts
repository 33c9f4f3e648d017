// `tool-workbench`: the command-line shell over the core. It reads files and
// prints; every rule lives in src/core.
import { dirname, resolve } from 'node:path';
import { line } from './print';
import { readInputFile } from './read';
import { checkFiles } from './check';
import { evalCommand } from './eval';
import { importCommand } from './import';
import { REPORT_USAGE, reportCommand } from './report';

const USAGE = `tool-workbench: design and check LLM tool catalogues under JP's RFD 108

usage:
  tool-workbench check FILE... [--json]
      Run scenario files and their expectations. Prints one line per failed expectation, then
      "N passed, N failed". Exit 0 when all pass, 1 when an expectation fails, 2 when a file is bad.
      --json prints the whole derived timeline instead.
  tool-workbench eval --catalogue FILE --queries FILE.jsonl [--ranking bm25|substring] [--k 1,5,10]
      Search quality: recall@k, MRR and the misses of each ranking, side by side. The catalogue is a
      tools/list JSON or a JP config TOML; queries are {"query": "...", "relevant": ["tool", ...]} lines.
  tool-workbench import FILE --server NAME [--policy on|discoverable|per-server] [--keep N] [--off-destructive]
      Import an MCP catalogue (a tools/list JSON, or the multi-server form) and print the generated
      layer: one [conversation.tools.NAME] per tool with source = "mcp.SERVER.TOOL". Policies: every
      tool on; every tool discoverable with the N most useful kept on (default 8); or per-server (N
      per server). --off-destructive starts destructiveHint tools off. --scenario prints a whole
      scenario instead (tools inline, or --ref PATH to name the catalogue file).
${REPORT_USAGE}  tool-workbench --version
  Every command takes --help.
`;

export interface Io {
  /** Text that went through ./print (line or block). */
  out(text: string): void;
  err(text: string): void;
  /** A file's text; throws (an InputError from ./read, or any Error) when it cannot be used. */
  readFile(path: string): string;
}

export const nodeIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  readFile: (p) => readInputFile(p),
};

/** The section of USAGE about one command, or undefined when it has none. */
export function commandUsage(command: string): string | undefined {
  const head = '  tool-workbench ';
  const lines = USAGE.split('\n');
  const start = lines.findIndex((l) => l === `${head}${command}` || l.startsWith(`${head}${command} `));
  if (start < 0) return undefined;
  // The section runs to the next command, or to the first line that is not indented under it.
  let end = start + 1;
  while (end < lines.length && (lines[end] ?? '').startsWith('      ')) end += 1;
  return `usage:\n${lines.slice(start, end).join('\n')}\n`;
}

export function main(argv: readonly string[], io: Io = nodeIo): number {
  try {
    return run(argv, io);
  } catch (e) {
    // A bug, not bad input: still one line and exit 2, never a stack trace on the user's terminal.
    io.err(line(`tool-workbench: internal error: ${e instanceof Error ? e.message : String(e)} (a bug in tool-workbench; please report it with the command that caused it)`));
    return 2;
  }
}

function run(argv: readonly string[], io: Io): number {
  const [command, ...rest] = argv;
  const usage = command !== undefined && rest.some((a) => a === '--help' || a === '-h') ? commandUsage(command) : undefined;
  if (usage !== undefined) {
    io.out(usage);
    return 0;
  }
  switch (command) {
    case 'check':
      return checkFiles(rest, io);
    case 'eval':
      return evalCommand(rest, io);
    case 'import':
      return importCommand(rest, io);
    case 'report':
      return reportCommand(rest, io);
    case '--version':
    case '-V': {
      const pkg = JSON.parse(io.readFile(resolve(dirname(new URL(import.meta.url).pathname), '..', 'package.json'))) as { version: string };
      io.out(`${pkg.version}\n`);
      return 0;
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    default:
      io.err(`${line(`tool-workbench: unknown command \`${command}\``)}\n${USAGE}`);
      return 2;
  }
}

