// `tool-workbench tasks --scenario F --tasks F.jsonl --model PROVIDER:MODEL [--ab SWITCH=VALUE ...]
//  [--record FILE] [--replay FILE] [--max-usd N] [--concurrency N] [--max-cycles N] [--yes] [--json]`
// The task set played by the user's real model (issue 26): each task is a turn the model drives with JP's
// rendered requests, read by the same outcome rules and closed by the same summary line as the policies.
// Before anything is sent it prints an estimate (the auto policy's turns priced by the workbench's cost
// model) and sends only with --yes. Every exchange is appended to --record FILE as it comes back (an
// existing file resumes the run: what it answers is not sent again); --replay FILE answers every request
// from a recording and never touches the network. Keys come from this terminal's environment only and
// are masked in everything printed or written.
// With --ab (issue 33): a paired A/B of policy switches on the same model (src/core/tasks/ab.ts): each
// arm's usual lines, then the A/B line with McNemar's exact p; arm B's exchanges are recorded with
// `arm: "B"`, so a replay answers each arm from its own.
import { DEFAULT_PRICE_TABLE } from '../core/providers/prices';
import type { ModelPrice } from '../core/providers/prices';
import { isProviderId, providerOf, PROVIDER_IDS } from '../core/providers/registry';
import { inputOf } from '../core/providers/reply';
import type { BilledUsage } from '../core/providers/reply';
import type { ProviderId } from '../core/providers/types';
import { abEstimateLine, abLine, armB, estimateArm, exactPrice, isMet, parseAbSwitch, pricedWords, runAbTasks } from '../core/tasks/ab';
import type { AbRun, AbSwitch, ArmEstimate, Arm } from '../core/tasks/ab';
import { calibrationGaps, runModelTasks } from '../core/tasks/model-run';
import type { ModelTaskResult, ModelTaskRun } from '../core/tasks/model-run';
import type { AskModel } from '../core/tasks/model-play';
import type { runTasks } from '../core/tasks/run';
import type { Scenario } from '../core/scenario/types';
import { OUTCOME_LABELS } from '../core/tasks/types';
import { silentMissLines, summaryLine } from '../core/tasks/summary';
import { ModelKeys, sendToModel } from '../bridge/models';
import type { SendOptions } from '../bridge/models';
import { exchangeLine, readRecording, Recording, requestHash } from '../bridge/recording';
import { terminalOf } from '../bridge/log';
import { Masker } from '../bridge/secrets';
import type { RunningServers } from './call-servers';
import type { Io } from './main';
import { block, line } from './print';
import { readErrorText } from './read';
import { readTaskInputs } from './tasks';
import { o200kCounter } from './tokens';

interface Options {
  scenario?: string;
  tasks?: string;
  provider: ProviderId;
  model: string;
  record?: string;
  replay?: string;
  maxUsd?: number;
  concurrency: number;
  maxCycles?: number;
  yes: boolean;
  json: boolean;
  ab: AbSwitch[];
  callServers: boolean;
  workspace?: string;
}

function parseArgs(args: readonly string[]): Options | string {
  const o: Partial<Options> & { concurrency: number; yes: boolean; json: boolean; ab: AbSwitch[]; callServers: boolean } = { concurrency: 1, yes: false, json: false, ab: [], callServers: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (): string => args[++i] ?? '';
    const number = (name: string, min: number, max: number, integer: boolean): number | string => {
      const v = value();
      const n = Number(v);
      if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) return `${name} takes ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got \`${v}\``;
      return n;
    };
    if (a === '--scenario') o.scenario = value();
    else if (a === '--tasks') o.tasks = value();
    else if (a === '--record') o.record = value();
    else if (a === '--replay') o.replay = value();
    else if (a === '--yes') o.yes = true;
    else if (a === '--json') o.json = true;
    else if (a === '--call-servers') o.callServers = true;
    else if (a === '--workspace') o.workspace = value();
    else if (a === '--ab') {
      const sw = parseAbSwitch(value());
      if (typeof sw === 'string') return sw;
      if (o.ab.some((x) => x.key === sw.key)) return `--ab ${sw.written.slice(0, sw.written.indexOf('='))} is given twice`;
      o.ab.push(sw);
    } else if (a === '--model') {
      const v = value();
      const at = v.indexOf(':');
      const provider = at < 0 ? v : v.slice(0, at);
      const model = at < 0 ? '' : v.slice(at + 1);
      if (!isProviderId(provider) || model === '') return `--model takes PROVIDER:MODEL with PROVIDER one of ${PROVIDER_IDS.join(', ')}, got \`${v}\``;
      o.provider = provider;
      o.model = model;
    } else if (a === '--max-usd') {
      const n = number('--max-usd', 0, 10_000, false);
      if (typeof n === 'string') return n;
      o.maxUsd = n;
    } else if (a === '--concurrency') {
      const n = number('--concurrency', 1, 16, true);
      if (typeof n === 'string') return n;
      o.concurrency = n;
    } else if (a === '--max-cycles') {
      const n = number('--max-cycles', 1, 50, true);
      if (typeof n === 'string') return n;
      o.maxCycles = n;
    } else return `unknown argument \`${a}\` (with --model, the policy switches do not apply: the model decides)`;
  }
  if (!o.scenario || !o.tasks) return '--scenario FILE and --tasks FILE.jsonl are required';
  if (!o.provider || o.model === undefined) return '--model PROVIDER:MODEL is required';
  if (o.record !== undefined && o.replay !== undefined) return '--record and --replay exclude each other (--record on an existing file resumes it)';
  if (o.callServers && o.workspace === undefined) return '--call-servers needs --workspace DIR (the JP workspace whose servers answer the calls)';
  if (!o.callServers && o.workspace !== undefined) return '--workspace is for --call-servers';
  // A replay sends nothing, and a server's results would change the requests the recording answers.
  if (o.callServers && o.replay !== undefined) return '--call-servers and --replay exclude each other: a replay sends nothing, to a model or a server';
  return o as Options;
}

const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/** The estimate printed before anything is sent: the auto policy's turns priced by the workbench's cost model. */
function estimate(loaded: Exclude<ReturnType<typeof readTaskInputs>, 2>['loaded'], scenario: Scenario, o: Options, tasks: Parameters<typeof runTasks>[2], price: ModelPrice | undefined): ArmEstimate {
  return estimateArm(scenario, loaded.run, tasks, o.provider, { table: DEFAULT_PRICE_TABLE, model: price?.id ?? o.model, counter: o200kCounter });
}

const pad = (s: string | number, n: number): string => String(s).padStart(n);

/** The calibration table: per request, what the provider billed beside what the cost model says. */
export function calibrationLines(results: readonly ModelTaskResult[], provider: string, priced: string): string[] {
  const rows = results.flatMap((r) => r.calibration);
  if (rows.length === 0) return [];
  const cells = (u: BilledUsage | undefined): string => (u ? [u.uncached, u.cacheRead, u.cacheWrite, u.output].map((n) => pad(n, 8)).join('') : pad('-', 32));
  const out = [
    `calibration: tokens per request, billed by ${provider} beside the workbench's cost model (${priced})`,
    `${pad('task', 5)}${pad('cycle', 6)} |${pad('uncached', 8)}${pad('read', 8)}${pad('write', 8)}${pad('output', 8)} |${pad('uncached', 8)}${pad('read', 8)}${pad('write', 8)}${pad('output', 8)} | input off by`,
    `${pad('', 11)} |${pad('billed', 32)} |${pad('modelled', 32)} |`,
  ];
  const total = { billed: [0, 0, 0, 0], modelled: [0, 0, 0, 0] };
  for (const r of rows) {
    const off = r.billed && r.modelled && inputOf(r.billed) > 0 ? `${(((inputOf(r.modelled) - inputOf(r.billed)) / inputOf(r.billed)) * 100).toFixed(1)}%` : '-';
    out.push(`${pad(r.task + 1, 5)}${pad(r.cycle, 6)} |${cells(r.billed)} |${cells(r.modelled)} | ${off}`);
    for (const [k, u] of [['billed', r.billed], ['modelled', r.modelled]] as const) if (u) [u.uncached, u.cacheRead, u.cacheWrite, u.output].forEach((n, i) => ((total[k][i] as number) += n));
  }
  const b = total.billed;
  const m = total.modelled;
  const bIn = (b[0] ?? 0) + (b[1] ?? 0) + (b[2] ?? 0);
  const mIn = (m[0] ?? 0) + (m[1] ?? 0) + (m[2] ?? 0);
  out.push(`${pad('all', 11)} |${b.map((n) => pad(n, 8)).join('')} |${m.map((n) => pad(n, 8)).join('')} | ${bIn > 0 ? `${(((mIn - bIn) / bIn) * 100).toFixed(1)}%` : '-'}`);
  // The model carries the provider's cache from task to task (in task order), as the provider keeps it.
  const gaps = calibrationGaps(rows);
  if (gaps.length > 0) out.push('differ most (input tokens the bill and the model split or count differently):');
  for (const g of gaps) out.push(`  task ${g.task + 1} cycle ${g.cycle}: ${g.apart} apart; ${g.why}`);
  return out;
}

/** Tasks whose turn ended on an error or sent no request: the run exits 1. */
const failedOf = (run: ModelTaskRun): ModelTaskResult[] => run.results.filter((r) => r.stopped === 'error' || r.stopped === 'no-request');

export interface ModelTasksDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly send?: SendOptions;
  readonly now?: () => string;
  /** --call-servers: y/N for a tool whose run is not unattended (default: this terminal's, when it has one; null: none can ask). */
  readonly confirm?: ((question: string) => Promise<boolean>) | null;
  /** --call-servers: start the watchdog that stops the servers if this process dies (default true; tests: false). */
  readonly watchdog?: boolean;
}

/** y/N on this terminal, or undefined when stdin is no terminal (a pipe, CI): then nothing can ask. */
function terminalConfirm(io: Io): ((question: string) => Promise<boolean>) | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      io.err(line(question));
      return /^y(es)?$/iu.test((await rl.question('[y/N] ')).trim());
    } finally {
      rl.close();
    }
  };
}

export async function modelTasksCommand(args: readonly string[], io: Io, deps: ModelTasksDeps = { env: process.env }): Promise<number> {
  const masker = new Masker();
  const keys = new ModelKeys(deps.env, masker);
  // Everything printed passes the masker: a provider's error may echo what it was sent.
  const out = (t: string): void => io.out(masker.mask(t));
  const err = (t: string): void => io.err(masker.mask(t));
  const o = parseArgs(args);
  if (typeof o === 'string') {
    err(line(`tool-workbench tasks: ${o} (tool-workbench tasks --help)`));
    return 2;
  }
  const inputs = readTaskInputs(o.scenario as string, o.tasks as string, io, err);
  if (inputs === 2) return 2;
  const { loaded, parsed } = inputs;
  // The model's own row; a local runtime's (Ollama, llama.cpp) costs nothing whatever the model.
  const exact = exactPrice(DEFAULT_PRICE_TABLE, o.provider, o.model);
  if (o.maxUsd !== undefined && !exact) {
    err(line(`tool-workbench tasks: --max-usd needs a price: the price table (${DEFAULT_PRICE_TABLE.date}) has no row for ${o.provider}:${o.model}`));
    return 2;
  }
  const priced = pricedWords(DEFAULT_PRICE_TABLE, exact, o.model);

  // The recording answers what it can: all of it with --replay (no network), the recorded part with --record.
  let recording: Recording;
  if (o.replay !== undefined) {
    let text: string;
    try {
      text = io.readFile(o.replay);
    } catch (e) {
      err(line(readErrorText(o.replay, e)));
      return 2;
    }
    recording = new Recording(undefined, masker, readRecording(o.replay, text));
  } else {
    try {
      recording = o.record !== undefined ? Recording.open(o.record, masker) : new Recording(undefined, masker);
    } catch (e) {
      err(line(readErrorText(o.record ?? '', e)));
      return 2;
    }
  }
  for (const e of recording.errors) err(line(`warning: ${e}`));

  for (const sw of o.ab) {
    if (loaded.scenario.policy[sw.key] === sw.value) {
      err(line(`tool-workbench tasks: --ab ${sw.written} is the scenario's own value: arm B would be arm A`));
      return 2;
    }
  }
  const abWords = o.ab.map((sw) => sw.written).join(' ');

  if (o.replay === undefined) {
    const caveat = `the workbench's auto policy's turns priced by its cost model: a real model may search, call and write more${o.maxUsd !== undefined ? `; stops at ${usd(o.maxUsd)}` : ''}`;
    const est = estimate(loaded, loaded.scenario, o, parsed.queries, exact);
    if (o.ab.length === 0) {
      const money = exact ? `about ${usd(est.money)} (${priced})` : priced;
      err(line(`estimate: ${parsed.queries.length} tasks, about ${est.requests} requests to ${providerOf(o.provider).words} ${o.model}, ${money}; ${caveat}`));
    } else {
      const estB = estimate(loaded, armB(loaded.scenario, o.ab), o, parsed.queries, exact);
      err(line(abEstimateLine({ tasks: parsed.queries.length, switches: o.ab, a: est, b: estB, provider: o.provider, model: o.model, priced, exact: exact !== undefined, ...(o.maxUsd !== undefined ? { maxUsd: o.maxUsd } : {}) })));
    }
    if (recording.size > 0) err(line(`resuming: ${recording.size} exchanges in ${o.record ?? ''} are not sent again`));
    if (!o.yes) {
      err(line('nothing sent: add --yes to send these requests'));
      // Printing the estimate is what was asked: a script reads exit 1 as a failure.
      return 0;
    }
  }

  const now = deps.now ?? (() => new Date().toISOString());
  const armAsk = (arm: Arm) => (task: number): AskModel => async (req) => {
    const wire = providerOf(req.provider).reply;
    const hash = requestHash(req.provider, o.model, wire.request(o.model, req.body));
    const kept = recording.find(task, req.cycle, hash, arm);
    if (kept?.reply) return { ok: true, reply: kept.reply };
    if (o.replay !== undefined) return { ok: false, error: `${o.replay} has no reply for ${o.ab.length > 0 ? `arm ${arm}, ` : ''}task ${task + 1}, cycle ${req.cycle} (request ${hash.slice(0, 12)}): it was recorded with another scenario, task set or model` };
    const sent = await sendToModel(req.provider, o.model, req.body, keys, masker, { keyHint: `set ${wire.keyVariable ?? 'its key'} in this terminal`, ...deps.send });
    recording.add(exchangeLine(sent, { task, cycle: req.cycle, arm }, now()));
    return sent.reply ? { ok: true, reply: sent.reply } : { ok: false, error: sent.error ?? 'no reply' };
  };
  const askFor = armAsk('A');
  const total = parsed.queries.length;
  const progress = (r: ModelTaskResult, done: number, spent: number, of: number, arm?: Arm): void => {
    if (!o.json) err(line(`[${done}/${of}] ${usd(spent)} ${arm !== undefined ? `arm ${arm} ` : ''}task ${r.index + 1}: ${r.stopped === 'budget' && r.cycles.length === 0 ? 'not run (budget)' : OUTCOME_LABELS[r.outcome]}${r.stopped === 'error' ? ` (stopped: ${r.why})` : ''}`));
  };
  const common = {
    model: `${o.provider}:${o.model}`,
    provider: o.provider,
    concurrency: o.concurrency,
    ...(o.maxCycles !== undefined ? { maxCycles: o.maxCycles } : {}),
    ...(o.maxUsd !== undefined ? { maxUsd: o.maxUsd } : {}),
    ...(exact ? { price: exact } : {}),
    cost: { table: DEFAULT_PRICE_TABLE, model: exact?.id ?? o.model, counter: o200kCounter },
  };
  /** One arm's usual lines: silent misses, stopped tasks, calibration, billed, the summary line. */
  const armLines = (run: ModelTaskRun): void => {
    for (const l of silentMissLines(run.run)) out(line(l));
    for (const r of failedOf(run)) out(line(`task ${r.index + 1}: stopped: ${r.why}`));
    for (const l of calibrationLines(run.results, providerOf(o.provider).words, priced)) out(line(l));
    const u = run.usage;
    out(line(`billed: ${u.uncached} uncached + ${u.cacheRead} cache read + ${u.cacheWrite} cache write input tokens, ${u.output} output tokens; ${exact ? usd(run.usd) : priced}`));
  };
  const armJson = (run: ModelTaskRun) => ({ summary: run.run.summary, usage: run.usage, usd: run.usd, notRun: run.notRun, results: run.results.map(({ moves: _moves, ...r }) => r) });

  let servers: RunningServers | undefined;
  if (o.callServers) {
    const { startWorkspaceServers } = await import('./call-servers');
    const confirm = deps.confirm === null ? undefined : (deps.confirm ?? terminalConfirm(io));
    try {
      servers = await startWorkspaceServers({
        workspace: o.workspace as string,
        terminal: terminalOf((t) => io.err(t), masker),
        masker,
        ...(confirm ? { confirm } : {}),
        ...(deps.watchdog !== false ? { watchdogArgv: [process.argv[1] as string, '__watchdog'] } : {}),
      });
    } catch (e) {
      err(line(`tool-workbench tasks: ${e instanceof Error ? e.message : String(e)}`));
      return 1;
    }
  }
  try {
    const resolveCall = servers?.resolveFor(loaded.scenario, loaded.run);
    const playing = { ...common, ...(resolveCall ? { resolveCall } : {}) };
    if (o.ab.length > 0) {
      const ab: AbRun = await runAbTasks(loaded.scenario, loaded.run, parsed.queries, { ...playing, switches: o.ab, askFor: armAsk, onResult: (arm, r, done, spent) => progress(r, done, spent, 2 * total, arm) });
      const failed = [...failedOf(ab.a), ...failedOf(ab.b)];
      if (o.json) {
        out(block(JSON.stringify({ model: ab.a.model, priced, switches: o.ab.map((sw) => sw.written), arms: { A: armJson(ab.a), B: armJson(ab.b) }, ab: ab.ab, ...(ab.stoppedBy !== undefined ? { stoppedBy: ab.stoppedBy } : {}) }, null, 2)));
      } else {
        out(line('arm A: the scenario as written'));
        armLines(ab.a);
        out(line(summaryLine(ab.a.run.summary)));
        out(line(`arm B: ${abWords}`));
        armLines(ab.b);
        out(line(summaryLine(ab.b.run.summary)));
        for (const p of ab.ab.pairs) {
          if (p.complete && p.a !== undefined && p.b !== undefined && isMet(p.a) !== isMet(p.b)) out(line(`discordant: task ${p.task + 1}, met in ${isMet(p.a) ? 'A' : 'B'} only (A ${OUTCOME_LABELS[p.a]}, B ${OUTCOME_LABELS[p.b]}): ${p.query}`));
        }
        if (ab.stoppedBy !== undefined) out(line(`stopped by ${ab.stoppedBy}: ${ab.ab.complete} of ${total} pairs complete; the A/B test is on those only; rerun with --record on the same file to resume`));
        out(line(abLine(ab.ab, o.ab)));
      }
      return failed.length > 0 || parsed.errors.length > 0 ? 1 : 0;
    }

    const run: ModelTaskRun = await runModelTasks(loaded.scenario, loaded.run, parsed.queries, { ...playing, askFor, onResult: (r, done, spent) => progress(r, done, spent, total) });
    const failed = failedOf(run);
    if (o.json) {
      out(block(JSON.stringify({ model: run.model, summary: run.run.summary, usage: run.usage, usd: run.usd, priced, notRun: run.notRun, ...(run.stoppedBy !== undefined ? { stoppedBy: run.stoppedBy } : {}), results: run.results.map(({ moves: _moves, ...r }) => r) }, null, 2)));
    } else {
      armLines(run);
      if (run.stoppedBy !== undefined) out(line(`stopped by ${run.stoppedBy}: ${run.notRun.length} task${run.notRun.length === 1 ? '' : 's'} not run; rerun with --record on the same file to resume`));
      out(line(summaryLine(run.run.summary)));
    }
    return failed.length > 0 || parsed.errors.length > 0 ? 1 : 0;
  } finally {
    await servers?.stop();
  }
}
