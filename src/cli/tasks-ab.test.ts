// `tool-workbench tasks --model PROVIDER:MODEL --ab SWITCH=VALUE` (issue 33 §1) against a fake provider
// on loopback, in Anthropic's and OpenAI's wire formats: the estimate covers both arms, both arms play
// every task (arm B's requests carry the switch), each arm's summary line and then the A/B line, --json
// pairs every task, a replay prints the same bytes and sends nothing, and --max-usd tests the complete
// pairs only.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../../e2e/fakeProvider';
import type { FakeProvider, Received, Scripted } from '../../e2e/fakeProvider';
import { CATEGORIES_HEADING } from '../core/tasks/categories';
import { mcnemarExact, formatP } from '../core/tasks/ab';
import type { Io } from './main';
import { main } from './main';
import { capture } from './test-kit';
import { modelTasksCommand } from './tasks-model';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const demo = resolve(root, 'src/app/demo-scenario.toml');
const demoTasks = resolve(root, 'scenarios/data/demo-tasks.jsonl');
const KEY = 'sk-ant-test-KEY-ab0011223344556677';
const OPENAI_KEY = 'sk-proj-test-KEY-ab8899aabbccddeeff';
const dir = mkdtempSync(join(tmpdir(), 'tasks-ab-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const hasCategories = (r: Received): boolean => JSON.stringify(r.body).includes(CATEGORIES_HEADING);

/**
 * A model that searches only when the system prompt names the searchable categories (arm B with
 * categories=true), with the request's last words; otherwise it answers at once. So arm B meets by search
 * what arm A silently misses.
 */
function categoriesReader(r: Received): Scripted {
  // Each wire format's conversation: Anthropic, chat and Ollama `messages`, Responses `input`, Gemini `contents`.
  const messages = (r.body.messages ?? r.body.input ?? r.body.contents) as unknown[];
  const last = JSON.stringify(messages[messages.length - 1] ?? '');
  const answered = ['"tool_result"', '"function_call_output"', '"functionResponse"', '"role":"tool"'].some((m) => last.includes(m));
  if (answered || !hasCategories(r)) return { kind: 'reply', text: 'Done.', usage: { uncached: 1000, output: 5 } };
  const words = last.replace(/"(role|user|content|type|text|parts)"/gu, ' ').replace(/[^a-zA-Z ]/gu, ' ').trim();
  return { kind: 'reply', calls: [['search_tools', { query: words.split(/\s+/u).slice(-4).join(' ') }]], usage: { uncached: 1000, output: 20 } };
}

const env = (url: string): Record<string, string> => ({
  ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url,
  OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${url}/v1`,
  GEMINI_API_KEY: KEY, GEMINI_BASE_URL: url,
  OPENROUTER_API_KEY: KEY, OPENROUTER_BASE_URL: `${url}/api/v1`,
  OLLAMA_HOST: url,
});
const run = (args: string[], io: Io, e: Record<string, string>) => modelTasksCommand(['--scenario', demo, '--tasks', demoTasks, ...args], io, { env: e, send: { sleep: () => Promise.resolve() }, now: () => '2026-12-02T12:00:00.000Z' });
const SUMMARY = /^tasks 18: met up front \d+, met by search \d+, silent misses \d+, impossible \d+; /gmu;
const AB = /^A\/B on (\d+) tasks \(B: categories=true\): met A (\d+), B (\d+); A only (\d+), B only (\d+); McNemar exact p = (\S+)$/mu;

interface AbJson {
  readonly ab: { complete: number; metA: number; metB: number; aOnly: number; bOnly: number; p: number; incomplete: number[]; pairs: { task: number; a?: string; b?: string; complete: boolean }[] };
  readonly arms: { A: { summary: { tasks: number } }; B: { summary: { tasks: number } } };
  readonly switches: string[];
}

describe('tasks --model PROVIDER:MODEL --ab SWITCH=VALUE', () => {
  it('the estimate before --yes covers both arms; nothing is sent', async () => {
    fake = await startFakeProvider(categoriesReader);
    const io = capture();
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', '--ab', 'categories=true'], io, env(fake.url))).toBe(0);
    expect(io.stderr()).toMatch(/^estimate: 18 tasks in 2 arms \(A: the scenario as written; B: categories=true\), about (\d+) requests \(A (\d+), B (\d+)\) to Anthropic claude-haiku-4-5, about \$0\.\d{4} \(claude-haiku-4-5 at the price table of 2026-12-01\)/mu);
    const m = /about (\d+) requests \(A (\d+), B (\d+)\)/u.exec(io.stderr());
    expect(Number(m?.[1])).toBe(Number(m?.[2]) + Number(m?.[3]));
    expect(Number(m?.[2])).toBeGreaterThanOrEqual(18);
    expect(io.stderr()).toContain('nothing sent: add --yes');
    expect(fake.received).toHaveLength(0);
  });

  // One provider of each wire format: Anthropic Messages, OpenAI Responses, Gemini, chat completions, Ollama.
  it.each([['anthropic', 'claude-haiku-4-5'], ['openai', 'gpt-5-mini'], ['google', 'gemini-2.5-flash'], ['openrouter', 'openai/gpt-5-mini'], ['ollama', 'qwen3']])('%s: both arms play every task; the A/B line after each arm\'s summary; --json pairs; a replay prints the same bytes and sends nothing', async (provider, model) => {
    fake = await startFakeProvider(categoriesReader);
    const file = join(dir, `${provider}-ab.jsonl`);
    const io = capture();
    const code = await run(['--model', `${provider}:${model}`, '--ab', 'categories=true', '--record', file, '--yes'], io, env(fake.url));
    expect(io.stdout().split('\n').filter((l) => l.startsWith('task ') && l.includes('stopped')), io.stdout()).toEqual([]);
    expect(code).toBe(0);
    // Arm B's requests carry the categories section, arm A's do not; each arm asked every task.
    const withSection = fake.received.filter(hasCategories);
    expect(withSection.length).toBeGreaterThanOrEqual(18);
    expect(fake.received.length - withSection.length).toBe(18);
    const out = io.stdout();
    expect(out.match(SUMMARY)).toHaveLength(2);
    const lines = out.trimEnd().split('\n');
    expect(lines[lines.length - 1]).toMatch(AB);
    expect(out.indexOf('arm A: the scenario as written')).toBeLessThan(out.indexOf('arm B: categories=true'));
    const [, n, metA, metB, aOnly, bOnly, p] = AB.exec(out) ?? [];
    expect(Number(n)).toBe(18);
    expect(Number(bOnly)).toBeGreaterThan(0);
    expect(p).toBe(formatP(mcnemarExact(Number(aOnly), Number(bOnly))));
    expect(Number(metB) - Number(metA)).toBe(Number(bOnly) - Number(aOnly));
    // Each discordant task named, before the A/B line.
    const discordant = lines.filter((l) => l.startsWith('discordant: '));
    expect(discordant).toHaveLength(Number(aOnly) + Number(bOnly));
    expect(discordant.filter((l) => / met in B only \(A silent miss, B met by search\): /u.test(l))).toHaveLength(Number(bOnly));
    // The recording tags arm B's exchanges.
    const recorded = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { arm?: string });
    expect(recorded).toHaveLength(fake.received.length);
    expect(recorded.filter((r) => r.arm === 'B')).toHaveLength(withSection.length);

    // --json: the paired outcome of every task, the same counts.
    const json = capture();
    expect(await run(['--model', `${provider}:${model}`, '--ab', 'categories=true', '--replay', file, '--json'], json, env('http://127.0.0.1:1'))).toBe(0);
    const j = JSON.parse(json.stdout()) as AbJson;
    expect(j.switches).toEqual(['categories=true']);
    expect(j.ab.pairs).toHaveLength(18);
    expect(j.ab.pairs.every((x) => x.complete && x.a !== undefined && x.b !== undefined)).toBe(true);
    expect([j.ab.complete, j.ab.metA, j.ab.metB, j.ab.aOnly, j.ab.bOnly]).toEqual([18, Number(metA), Number(metB), Number(aOnly), Number(bOnly)]);
    expect(j.ab.p).toBe(mcnemarExact(j.ab.aOnly, j.ab.bOnly));

    // The replay: the fake is gone, the same lines byte for byte.
    const sent = fake.received.length;
    await fake.close();
    fake = undefined;
    const replay = capture();
    expect(await run(['--model', `${provider}:${model}`, '--ab', 'categories=true', '--replay', file], replay, env('http://127.0.0.1:1'))).toBe(0);
    expect(replay.stdout()).toBe(out);
    expect(sent).toBe(recorded.length);
    for (const text of [out, io.stderr(), json.stdout(), replay.stdout(), readFileSync(file, 'utf8')]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OPENAI_KEY);
    }
  });

  it('--max-usd stops both arms on one budget and tests the complete pairs only', async () => {
    fake = await startFakeProvider(categoriesReader);
    const io = capture();
    // About $0.001 a request at Haiku's prices (1,000 input tokens): $0.0065 is two or three pairs.
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', '--ab', 'categories=true', '--max-usd', '0.0065', '--yes', '--json'], io, env(fake.url))).toBe(0);
    const j = JSON.parse(io.stdout()) as AbJson & { stoppedBy: string };
    expect(j.stoppedBy).toMatch(/^the budget cap/u);
    expect(j.ab.complete).toBeGreaterThanOrEqual(1);
    expect(j.ab.complete).toBeLessThan(18);
    expect(j.ab.complete + j.ab.incomplete.length).toBe(18);
    expect(j.ab.p).toBe(mcnemarExact(j.ab.aOnly, j.ab.bOnly));
    const text = capture();
    await run(['--model', 'anthropic:claude-haiku-4-5', '--ab', 'categories=true', '--max-usd', '0.0065', '--yes'], text, env(fake.url));
    expect(text.stdout()).toMatch(new RegExp(`^stopped by the budget cap: \\$0\\.00\\d+ spent of \\$0\\.01: ${j.ab.complete} of 18 pairs complete; the A/B test is on those only; rerun with --record on the same file to resume$`, 'mu'));
    expect(text.stdout()).toMatch(new RegExp(`^A/B on ${j.ab.complete} tasks \\(B: categories=true\\)`, 'mu'));
  });

  it.each([
    [['--ab', 'colour=red'], '--ab takes SWITCH=VALUE with SWITCH one of ranking'],
    [['--ab', 'ranking=fuzzy'], '--ab ranking takes bm25 or substring, got `fuzzy`'],
    [['--ab', 'ranking=substring', '--ab', 'ranking=bm25'], '--ab ranking is given twice'],
    [['--ab', 'ranking=bm25'], '--ab ranking=bm25 is the scenario\'s own value: arm B would be arm A'],
  ])('%j → exit 2, one clear line', async (args, message) => {
    const io = capture();
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', ...args], io, {})).toBe(2);
    expect(io.stderr()).toContain(message);
  });

  it('tasks --help names --ab and --call-servers', () => {
    const io = capture();
    expect(main(['tasks', '--help'], io)).toBe(0);
    for (const flag of ['--ab SWITCH=VALUE', 'McNemar exact p', '--call-servers --workspace DIR']) expect(io.stdout()).toContain(flag);
  });
});
