// `tool-workbench`: the command-line shell over the core. It reads files and
// prints; every rule lives in src/core.
import { dirname, resolve } from 'node:path';
import { line } from './print';
import { readInputFile } from './read';
import { checkFiles } from './check';
import { evalCommand } from './eval';
import { importCommand } from './import';
import { REPORT_USAGE, reportCommand } from './report';
import { findabilityCommand } from './findability';
import { tasksCommand } from './tasks';
import { serveCommand, snapshotCommand } from './serve';

const USAGE = `tool-workbench: design and check LLM tool catalogues under JP's RFD 108

usage:
  tool-workbench check FILE... [--json] [--bodies]
      Run scenario files and their expectations. Prints one line per failed expectation, then
      "N passed, N failed". Exit 0 when all pass, 1 when an expectation fails, 2 when a file is bad.
      What the chosen provider would refuse or lose goes to stderr, one line per finding.
      --json prints the whole derived timeline on stdout instead (the failures and the "N passed,
      N failed" line go to stderr); --bodies adds each request's rendered body.
  tool-workbench eval --catalogue FILE --queries FILE.jsonl [--ranking bm25|substring] [--k 1,5,10]
      Search quality: recall@k, MRR and the misses of each ranking, side by side. The catalogue is a
      tools/list JSON or a JP config TOML; queries are {"query": "...", "relevant": ["tool", ...]} lines.
      A note under the table counts the queries a ranking returned nothing for (substring needs
      every word of the query in one tool, so sentence-long queries find nothing there).
  tool-workbench import FILE --server NAME [--policy on|discoverable|per-server] [--keep N] [--off-destructive]
      Import an MCP catalogue (a tools/list JSON, or the multi-server form) and print the generated
      layer: one [conversation.tools.NAME] per tool with source = "mcp.SERVER.TOOL". Policies: every
      tool on; every tool discoverable with the N most useful kept on (default 8); or per-server (N
      per server). --off-destructive starts destructiveHint tools off. --scenario prints a whole
      scenario instead (tools inline, or --ref PATH to name the catalogue file).
  tool-workbench findability FILE [--json] [--tasks FILE.jsonl] [--ranking ID] [--limit N] [--before FILE]
      For every discoverable tool: will search_tools find it, why not, and which tools crowd each
      other out. Each tool is asked by its own words (name split into words, summary, first sentence
      of its description, its name left out) and by the tasks that need it, under the substring, bm25
      and regex rankings side by side. FILE is a scenario (its base config and ranking) or a catalogue
      (tools/list JSON or JP config TOML, every tool taken as discoverable). --tasks: a task set of
      {"query": "...", "relevant": ["tool", ...]} lines; --ranking substring|bm25|regex: the active
      ranking (default: the scenario's, else bm25); --limit 1..50: search_tools' limit (default 10);
      --before FILE: an earlier version, and the tools whose findability changed; --json: all of it.
  tool-workbench tasks --scenario FILE --tasks FILE.jsonl [--policy NAME] [--limit N] [--categories] [--cost] [--json]
      Will the model search? Each task ({"query": "...", "relevant": ["tool", ...]} lines) is played as
      one more turn, jp q '<request>', at the end of the scenario, on a scratch copy (the file is never
      written), by a model policy: never (never searches), request (searches with the request's own
      words), auto (the auto model, the default) or categories (searches only when the request names
      a category of the system prompt). Prints one line per silent miss (a needed tool was discoverable
      and never reached the model), then "tasks N: met up front A, met by search B, silent misses C,
      impossible D; searched in S of N tasks; search rate R (searched in H of the K tasks a search
      would have helped)": the first ratio is over every task, the search rate (a percentage) over the tasks met by
      search or silently missed. FILE is a scenario, or a catalogue (.json) with every tool discoverable. --limit 1..50: search_tools' limit (default 3); --categories: the
      categories section in the system prompt; --cost: tokens and money against every permitted tool
      on; --json: every task's record. None of the policies is a real model.
      With --model PROVIDER:MODEL [--record FILE] [--replay FILE] [--max-usd N] [--concurrency N]
      [--max-cycles N] [--yes] [--json] (no --policy, --limit, --categories or --cost):
      the same task set played by your real model: each request is JP's rendered body, sent with the key
      in this terminal's environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY,
      OPENROUTER_API_KEY, CEREBRAS_API_KEY; base URLs ANTHROPIC_BASE_URL, OPENAI_BASE_URL, OLLAMA_HOST,
      LLAMACPP_BASE_URL...). Prints an estimate first and sends only with --yes. --record FILE: every
      exchange as a JSON line (never a key); on an existing file the run resumes. --replay FILE: no
      network, the same outcomes. --max-usd: stop sending at that billed cost. Prints the silent misses,
      the calibration table (billed tokens beside the cost model per request, the provider's cache
      carried from task to task; then the rows that differ most, and why) and the summary line.
      --ab SWITCH=VALUE (repeatable): a paired A/B on the same model; arm A the scenario as written, arm B
      with the policy switches set (ranking, substring_match, report_match_count, forced_off_tool,
      promoted_position, never_blocks_promotion, hide_unapproved, categories). Each arm's lines, then
      "A/B on N tasks (B: SWITCH=VALUE ...): met A a, B b; A only c, B only d; McNemar exact p = P"
      (two-sided exact binomial on the discordant pairs, over the pairs both arms completed). The
      estimate covers both arms; --max-usd is one budget for both.
      --call-servers --workspace DIR: start the JP workspace's MCP servers (each command printed) and send
      the model's calls to their tools there, each call printed; a tool whose run is "unattended" runs
      at once, any other is asked on this terminal (y/N), or refused when stdin is no terminal. Without
      it, calls other than search_tools get simulated results. Not with --replay.
  tool-workbench serve [--port N] [--no-open]
      Serve the workbench and its local bridge on 127.0.0.1: the page then starts a JP workspace's
      stdio MCP servers (after you confirm them) and reaches HTTP ones. --help for the options.
  tool-workbench snapshot --workspace DIR [--persona NAME] --out FILE
      Start a workspace's MCP servers, write their tool lists as one catalogue file, stop them.
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
    return internalError(e, io);
  }
}

// A bug, not bad input: still one line and exit 2, never a stack trace on the user's terminal.
function internalError(e: unknown, io: Io): number {
  io.err(line(`tool-workbench: internal error: ${e instanceof Error ? e.message : String(e)} (a bug in tool-workbench; please report it with the command that caused it)`));
  return 2;
}

/**
 * serve and snapshot run until their servers have stopped: the entry awaits them. undefined for
 * every other command (main runs those).
 */
export function mainAsync(argv: readonly string[], io: Io = nodeIo): Promise<number> | undefined {
  const [command, ...rest] = argv;
  // __watchdog: the process serve and snapshot start beside them (src/bridge/watchdog.ts), not a user's command.
  if (command === '__watchdog') return import('../bridge/watchdog').then((w) => w.runWatchdog());
  // tasks with --model waits for a real model's replies (or a recording's).
  if (command === 'tasks' && rest.includes('--model') && !rest.some((a) => a === '--help' || a === '-h')) return import('./tasks-model').then((m) => m.modelTasksCommand(rest, io)).catch((e: unknown) => internalError(e, io));
  const long = command === 'serve' ? serveCommand : command === 'snapshot' ? snapshotCommand : undefined;
  return long?.(rest, io).catch((e: unknown) => internalError(e, io));
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
    case 'findability':
      return findabilityCommand(rest, io);
    case 'tasks':
      return tasksCommand(rest, io);
    case 'serve':
    case 'snapshot':
      // Never reached from the entry (it awaits mainAsync for these); a caller of main learns why.
      io.err(line(`tool-workbench: ${command} runs until its servers stop: use mainAsync`));
      return 2;
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

