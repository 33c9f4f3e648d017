// `tool-workbench`: the command-line shell over the core. It reads files and
// prints; every rule lives in src/core.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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
`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): string;
}

export const nodeIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  readFile: (p) => readFileSync(p, 'utf8'),
};

export function main(argv: readonly string[], io: Io = nodeIo): number {
  const [command, ...rest] = argv;
  switch (command) {
    case 'check':
      return checkFiles(rest, io);
    case 'eval':
      return evalCommand(rest, io);
    case 'import':
      return importCommand(rest, io);
    case 'report':
      if (rest.includes('--help') || rest.includes('-h')) {
        io.out(`usage:\n${REPORT_USAGE}`);
        return 0;
      }
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
      io.err(`tool-workbench: unknown command \`${command}\`\n\n${USAGE}`);
      return 2;
  }
}

