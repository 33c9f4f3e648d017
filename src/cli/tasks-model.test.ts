// `tool-workbench tasks --model` against a fake provider on loopback (Anthropic's and OpenAI's wire
// formats): the estimate and --yes, the summary line, the calibration table, a recording that holds no
// key, resume from it, a replay with no network giving the same outcomes, the budget cap keeping the
// finished tasks, and bad arguments.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../../e2e/fakeProvider';
import type { FakeProvider, Received, Scripted } from '../../e2e/fakeProvider';
import type { Io } from './main';
import { main } from './main';
import { capture } from './test-kit';
import { modelTasksCommand } from './tasks-model';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const demo = resolve(root, 'src/app/demo-scenario.toml');
const demoTasks = resolve(root, 'scenarios/data/demo-tasks.jsonl');
const KEY = 'sk-ant-test-KEY-9f8e7d6c5b4a3210';
const OPENAI_KEY = 'sk-proj-test-KEY-0a1b2c3d4e5f6789';
const dir = mkdtempSync(join(tmpdir(), 'tasks-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A model that searches with the user's words first, then answers; it sends usage with a cache read. */
function searcher(r: Received): Scripted {
  // The scenario's earlier steps are in the conversation too: only the last message tells this turn's state.
  const messages = (r.body.messages ?? r.body.input) as unknown[];
  const last = JSON.stringify(messages[messages.length - 1] ?? '');
  if (last.includes('"tool_result"') || last.includes('"function_call_output"')) return { kind: 'reply', text: 'Done.', usage: { uncached: 50, cacheRead: 900, output: 5 } };
  const words = last.replace(/"(role|user|content|type|text)"/gu, ' ').replace(/[^a-zA-Z ]/gu, ' ').trim();
  return { kind: 'reply', calls: [['search_tools', { query: words.split(/\s+/u).slice(-4).join(' ') }]], usage: { uncached: 1000, cacheWrite: 200, output: 20 } };
}

const env = (url: string): Record<string, string> => ({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url, OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${url}/v1` });
const SUMMARY = /^tasks 18: met up front \d+, met by search \d+, silent misses \d+, impossible \d+; searched in \d+ of 18 tasks; search rate \d+% \(searched in \d+ of the \d+ tasks? a search would have helped\)$/mu;
const run = (args: string[], io: Io, e: Record<string, string>) => modelTasksCommand(['--scenario', demo, '--tasks', demoTasks, ...args], io, { env: e, send: { sleep: () => Promise.resolve() }, now: () => '2026-12-02T12:00:00.000Z' });

describe('tasks --model PROVIDER:MODEL', () => {
  it('prints the estimate and sends nothing without --yes, exiting 0 (issue 33: 1 reads as a failure to scripts)', async () => {
    fake = await startFakeProvider(searcher);
    const io = capture();
    expect(await run(['--model', 'anthropic:claude-haiku-4-5'], io, env(fake.url))).toBe(0);
    expect(io.stderr()).toMatch(/^estimate: 18 tasks, about \d+ requests to Anthropic claude-haiku-4-5, about \$0\.\d{4} \(claude-haiku-4-5 at the price table of 2026-12-01\)/mu);
    expect(io.stderr()).toContain('nothing sent: add --yes');
    expect(fake.received).toHaveLength(0);
  });

  it.each([['anthropic', 'claude-haiku-4-5'], ['openai', 'gpt-5-mini']])('%s: records, resumes, replays with no network to the same outcomes; no key in any file or output', async (provider, model) => {
    fake = await startFakeProvider(searcher);
    const file = join(dir, `${provider}.jsonl`);
    const io = capture();
    expect(await run(['--model', `${provider}:${model}`, '--record', file, '--yes', '--concurrency', '3'], io, env(fake.url))).toBe(0);
    expect(io.stdout()).toMatch(SUMMARY);
    expect(io.stdout()).toContain('calibration: tokens per request, billed by');
    // The fake bills every first request as a cache write and every later one as a read: the rows where
    // that parts most from the cache model are named, each with its reason.
    expect(io.stdout()).toMatch(/^differ most \(input tokens the bill and the model split or count differently\):\n {2}task \d+ cycle \d+: \d+ apart; the provider (read|wrote|counted) \d+ /mu);
    expect(io.stderr()).toMatch(/^\[18\/18\] \$0\.\d{4} task \d+: /mu);
    const sent = fake.received.length;
    expect(sent).toBeGreaterThanOrEqual(18);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(sent);

    // Resume: the same file answers every request; nothing is sent again.
    const again = capture();
    expect(await run(['--model', `${provider}:${model}`, '--record', file, '--yes', '--json'], again, env(fake.url))).toBe(0);
    expect(fake.received.length).toBe(sent);
    expect(again.stderr()).toContain(`resuming: ${sent} exchanges`);

    // Replay: the fake is gone, the outcomes are bit-identical to the recorded run's.
    await fake.close();
    fake = undefined;
    const replay = capture();
    expect(await run(['--model', `${provider}:${model}`, '--replay', file, '--json'], replay, env('http://127.0.0.1:1'))).toBe(0);
    expect(JSON.parse(replay.stdout())).toEqual(JSON.parse(again.stdout()));
    const first = JSON.parse(again.stdout()) as { results: { outcome: string }[] };
    expect(first.results.map((r) => r.outcome)).toContain('met-by-search');

    // No key anywhere: every file written and everything printed, searched.
    const written = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    for (const text of [written, io.stdout(), io.stderr(), again.stdout(), again.stderr(), replay.stdout(), replay.stderr()]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OPENAI_KEY);
    }
  });

  it('--max-usd stops sending and keeps the finished tasks', async () => {
    fake = await startFakeProvider(searcher);
    const io = capture();
    // Each task costs two requests of about $0.0011 at Haiku's prices: $0.004 stops after two tasks.
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', '--max-usd', '0.004', '--yes'], io, env(fake.url))).toBe(0);
    expect(io.stdout()).toMatch(/^stopped by the budget cap: \$0\.00\d+ spent of \$0\.00: 1[56] tasks not run; rerun with --record on the same file to resume$/mu);
    expect(io.stdout()).toMatch(/^tasks [23]: /mu);
    expect(fake.received.length).toBeLessThanOrEqual(6);
  });

  it('credentials written in a base URL are in nothing it prints (issue 33)', async () => {
    const io = capture();
    const secret = 'base-url-PASS-5566778899';
    const query = 'base-url-QKEY-1122334455';
    const e = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: `http://jp:${secret}@127.0.0.1:1/?api-key=${query}` };
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', '--yes'], io, e)).toBe(1);
    expect(io.stdout()).toContain('task 1: stopped: could not reach Anthropic at http://***:***@127.0.0.1:1/?api-key=***');
    for (const text of [io.stdout(), io.stderr()]) for (const s of [secret, query, KEY]) expect(text).not.toContain(s);
  });

  it('a provider error stops that task with its message, and the run goes on', async () => {
    fake = await startFakeProvider((r, n) => (n === 0 ? { kind: 'status', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'boom' } } } : searcher(r)));
    const io = capture();
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', '--yes'], io, env(fake.url))).toBe(1);
    expect(io.stdout()).toContain('task 1: stopped: Anthropic failed (500): boom');
    expect(io.stdout()).toMatch(SUMMARY);
  });

  it.each([
    [['--model', 'acme:x'], '--model takes PROVIDER:MODEL with PROVIDER one of anthropic'],
    [['--model', 'anthropic'], '--model takes PROVIDER:MODEL'],
    [['--model', 'anthropic:m', '--concurrency', '0'], '--concurrency takes an integer from 1 to 16, got `0`'],
    [['--model', 'anthropic:m', '--max-usd', 'lots'], '--max-usd takes a number from 0 to 10000, got `lots`'],
    [['--model', 'anthropic:no-such-model', '--max-usd', '1'], '--max-usd needs a price: the price table (2026-12-01) has no row for anthropic:no-such-model'],
    [['--model', 'anthropic:m', '--record', 'a', '--replay', 'b'], '--record and --replay exclude each other'],
    [['--model', 'anthropic:m', '--replay', '/nonexistent/r.jsonl'], '/nonexistent/r.jsonl'],
  ])('%j → exit 2, one clear line', async (args, message) => {
    const io = capture();
    expect(await run(args, io, {})).toBe(2);
    expect(io.stderr()).toContain(message);
  });

  it('tasks --help names --model and its options', () => {
    const io = capture();
    expect(main(['tasks', '--help'], io)).toBe(0);
    for (const flag of ['--model PROVIDER:MODEL', '--record FILE', '--replay FILE', '--max-usd N', '--concurrency N', '--yes']) expect(io.stdout()).toContain(flag);
  });

  it('a replay of another task set says what is missing and sends nothing', async () => {
    const io = capture();
    const empty = join(dir, 'empty.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(empty, '');
    expect(await run(['--model', 'anthropic:claude-haiku-4-5', '--replay', empty], io, env('http://127.0.0.1:1'))).toBe(1);
    expect(io.stdout()).toMatch(/task 1: stopped: .*empty\.jsonl has no reply for task 1, cycle 1 \(request [0-9a-f]{12}\)/u);
  });
});
