// Scale of `tool-workbench check` (issues 3, 16 and 36): a generated N-tool, 50-turn scenario (each
// turn: one search_tools call, one tool call, a reply; most tools discoverable), timed as a whole
// process against a whole process that only parses the same scenario's TOML with smol-toml. Two
// shapes: `local`, the tools in one layer; `mcp`, the tools from ten simulated MCP servers' tools/list
// (inline in the file) and a layer that names them. Target (issue 36): check <= 2x the parse of all of
// the scenario's TOML (the file and its layers' texts, which a parse of the file alone only skips over
// as strings), at 10,000 and at 100,000 tools, both shapes; the ratio to the file alone is printed
// beside it. Each process's CPU time (user + system, all its threads, from the process itself) is
// printed beside its wall time, and the verdict is read on CPU time: on a shared machine the wall time
// measures the neighbours. Peak memory (maximum resident set) of each process.
//
//   npx tsx bench/check-scale.ts [--tools N] [--runs N] [--shape local|mcp] [--instructions] [--cli FILE]
//
// Defaults: 10,000 and then 100,000 tools, both shapes, 5 interleaved runs at 10,000 and 3 at 100,000
// (a 100,000-tool round of the three processes is ~15 s; `npm run bench` runs these defaults, 3 to 4
// minutes with the scenarios' generation on a shared machine). `--tools N` runs one size, `--runs N`
// sets the runs of every size. `--instructions` also counts instructions under valgrind's callgrind,
// which hold steady on a busy machine (slow: minutes). The CLI timed is this checkout's (cli-bin/,
// rebuilt when stale; not node_modules/.bin, which in a git worktree sharing another checkout's
// node_modules runs that checkout's CLI). `--cli FILE` times another build of the CLI (a bundle copied
// from an earlier commit's dist-cli/ into this checkout's dist-cli/, so it finds node_modules): the
// before and after of a change on one loaded machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateCatalogue, prng } from './search-fixtures';
import type { GeneratedTool } from './search-fixtures';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'bench', 'out');

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The sizes timed: `--tools N`, or 10,000 and 100,000 (issue 36's two targets). */
export const SIZES: readonly number[] = flag('--tools') !== undefined ? [Number(flag('--tools'))] : [10_000, 100_000];
export const TOOLS = SIZES[SIZES.length - 1] ?? 100_000;
export const TURNS = 50;
/** Runs per size: a round at 100,000 tools is ~15 s of three processes, so fewer there. */
const runsAt = (tools: number): number => Number(flag('--runs') ?? (tools >= 100_000 ? 3 : 5));
/** The target (issue 36): check within this multiple of the parse of all of the scenario's TOML. */
const TARGET = 2;
/** `--instructions`: also count instructions under valgrind's callgrind (slow; steady on a busy machine). */
const instructions = process.argv.includes('--instructions');

const q = (s: string): string => JSON.stringify(s);
const key = (s: string): string => (/^[A-Za-z0-9_-]+$/.test(s) ? s : q(s));

/** The layer text: '*' discoverable, every 100th tool on; each tool with its summary, description and typed parameters. */
export function layerText(tools: readonly GeneratedTool[]): string {
  const lines: string[] = ["[conversation.tools.'*']", 'enable = "discoverable"', 'run = "unattended"', ''];
  tools.forEach((t, i) => {
    lines.push(`[conversation.tools.${key(t.name)}]`, 'source = "local"');
    if (i % 100 === 0) lines.push('enable = "on"');
    lines.push(`summary = ${q(t.summary)}`, `description = ${q(t.description)}`, '');
    for (const p of t.parameters) {
      lines.push(`[conversation.tools.${key(t.name)}.parameters.${key(p.name)}]`, `type = "${p.type}"`);
      if (p.required) lines.push('required = true');
      if (p.enum) lines.push(`enum = [${p.enum.map(q).join(', ')}]`);
      lines.push(`summary = ${q(p.description)}`, '');
    }
  });
  return lines.join('\n');
}

const SERVERS = 10;

/** A tools/list entry as a TOML inline table. */
function inlineEntry(t: GeneratedTool): string {
  const props = t.parameters
    .map((p) => `${key(p.name)} = { type = "${p.type}", description = ${q(p.description)}${p.enum ? `, enum = [${p.enum.map(q).join(', ')}]` : ''}${p.type === 'array' ? ', items = { type = "string" }' : ''} }`)
    .join(', ');
  const required = t.parameters.filter((p) => p.required).map((p) => q(p.name)).join(', ');
  const a = t.annotations;
  const annotations = a ? `, annotations = { title = ${q(a.title)}, readOnlyHint = ${a.readOnlyHint}${a.destructiveHint ? ', destructiveHint = true' : ''} }` : '';
  return `{ name = ${q(t.name)}, description = ${q(t.description)}, inputSchema = { type = "object", properties = { ${props} }, required = [${required}] }${annotations} }`;
}

/** The MCP shape: every tool comes from one of ten simulated servers' tools/list; the layer names them. */
function mcpParts(tools: readonly GeneratedTool[]): string[] {
  const lines: string[] = ["[conversation.tools.'*']", 'enable = "discoverable"', 'run = "unattended"', ''];
  tools.forEach((t, i) => {
    lines.push(`[conversation.tools.${key(t.name)}]`, `source = "mcp.s${i % SERVERS}.${t.name}"`);
    if (i % 100 === 0) lines.push('enable = "on"');
    lines.push('');
  });
  const out = ['[[layers]]', 'name = "workspace"', `text = '''`, lines.join('\n'), `'''`, ''];
  for (let s = 0; s < SERVERS; s++) {
    out.push(`[servers.s${s}]`, 'status = "running"', 'tools = [');
    tools.forEach((t, i) => {
      if (i % SERVERS === s) out.push(`  ${inlineEntry(t)},`);
    });
    out.push(']', '');
  }
  return out;
}

export type Shape = 'local' | 'mcp';

/**
 * Each turn searches for one discoverable tool by the words of its summary, then calls it. With
 * `search` false, the same scenario with its search_tools calls taken out (the tool is called
 * unpromoted, without an expectation): what check costs without the index and the searches.
 */
export function generateScenario(toolCount = TOOLS, turns = TURNS, shape: Shape = 'local', search = true): string {
  const docs = generateCatalogue(toolCount);
  const rand = prng(2024);
  const out: string[] = [
    `name = ${q(`Scale: ${toolCount} ${shape} tools, ${turns} turns`)}`,
    '',
    ...(shape === 'local' ? ['[[layers]]', 'name = "workspace"', `text = '''`, layerText(docs), `'''`, ''] : mcpParts(docs)),
  ];
  for (let t = 0; t < turns; t++) {
    let doc: GeneratedTool | undefined;
    while (!doc) {
      const i = Math.floor(rand() * docs.length);
      if (i % 100 !== 0) doc = docs[i];
    }
    const query = doc.summary.replace(/[^A-Za-z ]/g, ' ').replace(/\s+/g, ' ').trim();
    const args = doc.parameters.filter((p) => p.required).map((p) => `${key(p.name)} = ${p.type === 'string' ? (p.enum ? q(p.enum[0] ?? 'x') : '"x"') : p.type === 'boolean' ? 'true' : p.type === 'array' ? '["x"]' : '1'}`).join(', ');
    const searchCycle = ['  [[steps.cycles]]', `  calls = [ { tool = "search_tools", args = { query = ${q(query)}, limit = 5 }, expect = { status = "ok" } } ]`];
    out.push(
      '[[steps]]',
      `command = ${q(`jp q 'turn ${t + 1}'`)}`,
      ...(search ? searchCycle : []),
      '  [[steps.cycles]]',
      `  calls = [ { tool = ${q(doc.name)}, args = { ${args} }${search ? ', expect = { status = "ok" }' : ''} } ]`,
      '  [[steps.cycles]]',
      '  reply = "done"',
      '',
    );
  }
  return out.join('\n');
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? Number.NaN;
}

/** Preloaded into each timed process: reports its own CPU time (user + system) and peak memory at exit. */
const CPU_HOOK = `process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\ncpu-ms:' + ((u.user + u.system) / 1000).toFixed(1) + ' max-rss-kb:' + process.resourceUsage().maxRSS + '\\n'); });\n`;
let hookPath = '';

interface Timed {
  /** Wall time of the whole process, spawn to exit. */
  readonly ms: number;
  /** CPU time the process reported (steadier than wall time on a shared machine). */
  readonly cpuMs: number;
  /** Peak resident memory, MB. */
  readonly rssMb: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function timeProcess(args: readonly string[]): Timed {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', hookPath, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  const cpu = /cpu-ms:([\d.]+) max-rss-kb:(\d+)/.exec(r.stderr ?? '');
  return { ms, cpuMs: cpu ? Number(cpu[1]) : Number.NaN, rssMb: cpu ? Number(cpu[2]) / 1024 : Number.NaN, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface CheckScaleResult {
  readonly tools: number;
  readonly shape: Shape;
  readonly checkMs: number;
  readonly checkCpuMs: number;
  readonly parseMs: number;
  readonly parseAllMs: number;
  /** check / parse of all the scenario's TOML, wall and CPU: the target. */
  readonly ratio: number;
  readonly cpuRatio: number;
  readonly checkRssMb: number;
}

export function run(): CheckScaleResult[] {
  const only = flag('--shape');
  const shapes = (['local', 'mcp'] as const).filter((s) => only === undefined || s === only);
  const results = SIZES.flatMap((tools) => shapes.map((shape) => runShape(tools, shape)));
  if (results.length > 1) {
    console.log(`  summary, check / parse of all the scenario's TOML (target <= ${TARGET}x, read on CPU time):`);
    for (const r of results) {
      console.log(`    ${String(r.tools).padStart(7)} tools ${r.shape.padEnd(5)}  ${r.cpuRatio.toFixed(2)}x CPU ${verdict(r.cpuRatio)}  (${r.ratio.toFixed(2)}x wall; check ${r.checkCpuMs.toFixed(0)} ms CPU, ${r.checkMs.toFixed(0)} ms wall)`);
    }
  }
  return results;
}

const verdict = (r: number): string => (r <= TARGET ? 'ok' : 'OVER');

function runShape(tools: number, shape: Shape): CheckScaleResult {
  const runs = runsAt(tools);
  mkdirSync(outDir, { recursive: true });
  hookPath = join(outDir, 'cpu-hook.cjs');
  writeFileSync(hookPath, CPU_HOOK);
  const file = join(outDir, `check-scale-${shape}-${tools}x${TURNS}.toml`);
  const text = generateScenario(tools, TURNS, shape);
  writeFileSync(file, text);
  const bare = join(outDir, `check-scale-${shape}-${tools}x${TURNS}-no-search.toml`);
  writeFileSync(bare, generateScenario(tools, TURNS, shape, false));
  console.log(`check scale, ${shape === 'local' ? 'local tools in one layer' : `MCP tools from ${SERVERS} simulated servers`}: ${file} (${(text.length / 1e6).toFixed(1)} MB, ${tools} tools, ${TURNS} turns)`);

  const cli = flag('--cli');
  const bin = resolve(cli ?? join(root, 'cli-bin', 'tool-workbench.cjs'));
  const smol = pathToFileURL(join(root, 'node_modules', 'smol-toml', 'dist', 'index.js')).href;
  const read = `require('node:fs').readFileSync(${q(file)}, 'utf8')`;
  // Parse the scenario file; and the file and each layer's text: all the TOML the scenario holds.
  const parseScript = `import(${q(smol)}).then((m) => { const v = m.parse(${read}); if (!v.steps) process.exit(3); })`;
  const parseAllScript = `import(${q(smol)}).then((m) => { const v = m.parse(${read}); for (const l of v.layers ?? []) m.parse(l.text); })`;

  // One untimed run of each: builds the CLI bundle if stale, warms the file cache.
  const first = timeProcess([bin, 'check', file]);
  if (first.status !== 0) throw new Error(`check failed (${first.status}): ${first.stdout.slice(-500)}${first.stderr.slice(-500)}`);
  console.log(`  check output: ${first.stdout.trim().split('\n').pop() ?? ''}`);
  timeProcess(['-e', parseScript]);

  const checks: Timed[] = [];
  const bareChecks: Timed[] = [];
  const parses: Timed[] = [];
  const parseAlls: Timed[] = [];
  for (let i = 0; i < runs; i++) {
    // Interleaved, so a noisy neighbour hits both sides alike.
    checks.push(timeProcess([bin, 'check', file]));
    const b = timeProcess([bin, 'check', bare]);
    if (b.status !== 0) throw new Error(`check without search_tools failed (${b.status}): ${b.stdout.slice(-500)}${b.stderr.slice(-500)}`);
    bareChecks.push(b);
    const p = timeProcess(['-e', parseScript]);
    if (p.status !== 0) throw new Error(`smol-toml parse failed: ${p.stderr}`);
    parses.push(p);
    parseAlls.push(timeProcess(['-e', parseAllScript]));
  }
  const wall = (xs: readonly Timed[]): number => median(xs.map((x) => x.ms));
  const cpu = (xs: readonly Timed[]): number => median(xs.map((x) => x.cpuMs));
  const rss = (xs: readonly Timed[]): number => Math.max(...xs.map((x) => x.rssMb));
  const ratio = wall(checks) / wall(parseAlls);
  const cpuRatio = cpu(checks) / cpu(parseAlls);
  const fmt = (xs: readonly Timed[]): string => xs.map((x) => `${x.cpuMs.toFixed(0)}/${x.ms.toFixed(0)}`).join(', ');
  const line = (label: string, xs: readonly Timed[]): string =>
    `  ${label.padEnd(50)} median ${wall(xs).toFixed(0)} ms wall, ${cpu(xs).toFixed(0)} ms CPU, peak ${rss(xs).toFixed(0)} MB  (runs, CPU/wall ms: ${fmt(xs)})`;
  console.log(line('tool-workbench check FILE (whole process)', checks));
  console.log(line('the same check, its search_tools calls taken out', bareChecks));
  console.log(line('node: smol-toml parse FILE (whole process)', parses));
  console.log(line("node: smol-toml parse FILE and its layers' TOML", parseAlls));
  console.log(`  target: check <= ${TARGET}x the parse of all of the scenario's TOML, whole process against whole process, on CPU time:`);
  console.log(`    against all of the scenario's TOML:  ${cpuRatio.toFixed(2)}x CPU ${verdict(cpuRatio)}  (${ratio.toFixed(2)}x wall ${verdict(ratio)}; the parse: ${cpu(parseAlls).toFixed(0)} ms CPU)`);
  console.log(`    (against the file alone:            ${(wall(checks) / wall(parses)).toFixed(2)}x wall, ${(cpu(checks) / cpu(parses)).toFixed(2)}x CPU)`);
  // What the index and the searches cost, against what the target leaves them (issue 36's floor).
  const searchCpu = cpu(checks) - cpu(bareChecks);
  const left = TARGET * cpu(parseAlls) - cpu(bareChecks);
  console.log(`    without search_tools: ${(cpu(bareChecks) / cpu(parseAlls)).toFixed(2)}x CPU; the index and the ${TURNS} searches cost ${searchCpu.toFixed(0)} ms CPU, the target leaves them ${left.toFixed(0)} ms`);
  if (instructions) {
    // Instructions retired, single-threaded, under callgrind: the same figure on a busy machine.
    const count = (args: readonly string[]): number => {
      const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const m = /refs:\s+([\d,]+)/.exec(r.stderr ?? '');
      return m ? Number((m[1] ?? '').replace(/,/g, '')) : Number.NaN;
    };
    const ci = count([bin, 'check', file]);
    const pi = count(['-e', parseScript]);
    const ai = count(['-e', parseAllScript]);
    const g = (n: number): string => `${(n / 1e9).toFixed(2)} G`;
    console.log(`  instructions (callgrind, --single-threaded): check ${g(ci)}; parse all its TOML ${g(ai)}: ${(ci / ai).toFixed(2)}x ${verdict(ci / ai)}; parse the file ${g(pi)}: ${(ci / pi).toFixed(2)}x`);
  }
  return { tools, shape, checkMs: wall(checks), checkCpuMs: cpu(checks), parseMs: wall(parses), parseAllMs: wall(parseAlls), ratio, cpuRatio, checkRssMb: rss(checks) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) run();
