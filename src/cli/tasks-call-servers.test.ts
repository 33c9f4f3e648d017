// `tool-workbench tasks --model ... --call-servers --workspace DIR` (issue 33 §2, the CLI half): a
// model's call to a tool of the workspace's running servers (here the real filesystem MCP server) is
// sent to it, each call printed; a tool whose `run` is `unattended` runs without a question, the others
// are asked on the terminal (y/N) or refused where no terminal can ask; without --call-servers every
// call stays simulated.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../../e2e/fakeProvider';
import type { FakeProvider, Received, Scripted } from '../../e2e/fakeProvider';
import { serverBin, tempWorkspace } from '../bridge/testServe';
import type { Io } from './main';
import { modelTasksCommand } from './tasks-model';
import { capture } from './test-kit';

const KEY = 'sk-ant-test-KEY-calls-0011223344';
const node = process.execPath;
const root = tempWorkspace((r) => `[providers.mcp.fs]\ntype = "stdio"\ncommand = ${JSON.stringify(node)}\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(join(r, 'data'))}]\n[conversation.tools.list_directory]\nsource = "mcp.fs"\n`);
const data = join(root, 'data');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const schema = (props: Record<string, string>) => `{ type = "object", properties = { ${Object.keys(props).map((k) => `${k} = { type = "string" }`).join(', ')} } }`;
const scenario = join(root, 'calls.toml');
writeFileSync(
  scenario,
  `name = "calls to the workspace's filesystem server"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.list_directory]
source = "mcp.fs"
enable = "on"
run = "unattended"
[conversation.tools.write_file]
source = "mcp.fs"
enable = "on"
run = "ask"
'''
[servers.fs]
tools = [
  { name = "list_directory", description = "List a directory.", inputSchema = ${schema({ path: 'string' })} },
  { name = "write_file", description = "Write a file.", inputSchema = ${schema({ path: 'string', content: 'string' })} },
]
`,
);
const tasks = join(root, 'tasks.jsonl');
writeFileSync(tasks, `${JSON.stringify({ query: 'List the data folder', relevant: ['list_directory'] })}\n${JSON.stringify({ query: 'Write a note', relevant: ['write_file'] })}\n`);
const note = join(data, 'note.txt');

/** The model calls list_directory for the first task and write_file for the second, then answers. */
function caller(r: Received): Scripted {
  const messages = r.body.messages as { content: unknown }[];
  const last = JSON.stringify(messages[messages.length - 1]?.content ?? '');
  if (last.includes('tool_result')) return { kind: 'reply', text: 'Done.' };
  if (JSON.stringify(r.body.messages).includes('List the data folder')) return { kind: 'reply', calls: [['list_directory', { path: data }]] };
  return { kind: 'reply', calls: [['write_file', { path: note, content: 'written by the model' }]] };
}

/** The tool result the model was sent for the task whose request names `query`. */
function resultSent(fake: FakeProvider, query: string): string {
  const second = fake.received.find((r) => JSON.stringify(r.body.messages).includes(query) && JSON.stringify(r.body.messages).includes('tool_result'));
  return JSON.stringify(second?.body.messages ?? '');
}

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  rmSync(note, { force: true });
});

/** `confirm` null: no terminal can ask (as under CI, whatever terminal runs the tests). */
const run = (args: string[], io: Io, confirm: ((q: string) => Promise<boolean>) | null = null) =>
  modelTasksCommand(['--scenario', scenario, '--tasks', tasks, '--model', 'anthropic:claude-haiku-4-5', '--yes', ...args], io, {
    env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake?.url ?? '' },
    send: { sleep: () => Promise.resolve() },
    watchdog: false,
    confirm,
  });

describe('tasks --model --call-servers --workspace DIR', () => {
  it('without --call-servers every call is simulated: nothing reaches the server', async () => {
    fake = await startFakeProvider(caller);
    const io = capture();
    expect(await run([], io)).toBe(0);
    expect(resultSent(fake, 'List the data folder')).not.toContain('hello.txt');
    expect(io.stderr()).not.toContain('starting fs');
  });

  it('an unattended tool runs on the server; a tool that asks is refused where no terminal can ask', async () => {
    fake = await startFakeProvider(caller);
    const io = capture();
    expect(await run(['--call-servers', '--workspace', root], io)).toBe(0);
    expect(io.stderr()).toContain(`starting fs (from the command line): ${node} ${serverBin('filesystem')}`);
    expect(resultSent(fake, 'List the data folder')).toContain('[FILE] hello.txt');
    expect(io.stderr()).toMatch(/^call list_directory on fs \(run = "unattended"\): ran: \[FILE\] hello\.txt/mu);
    expect(io.stderr()).toMatch(/^call write_file on fs \(run = "ask"\): refused: no terminal to ask on/mu);
    expect(resultSent(fake, 'Write a note')).toContain('not run: write_file has run = \\"ask\\" and no terminal could ask');
    expect(existsSync(note)).toBe(false);
  }, 60_000);

  it('a tool that asks runs after a y on the terminal, and not after an N', async () => {
    fake = await startFakeProvider(caller);
    const asked: string[] = [];
    const yes = capture();
    expect(await run(['--call-servers', '--workspace', root], yes, (q) => (asked.push(q), Promise.resolve(true)))).toBe(0);
    expect(asked).toEqual([`run write_file on fs with {"path":${JSON.stringify(note)},"content":"written by the model"}?`]);
    expect(readFileSync(note, 'utf8')).toBe('written by the model');
    expect(yes.stderr()).toMatch(/^call write_file on fs \(run = "ask"\): ran after a y: /mu);
    rmSync(note);

    const no = capture();
    expect(await run(['--call-servers', '--workspace', root], no, () => Promise.resolve(false))).toBe(0);
    expect(existsSync(note)).toBe(false);
    expect(no.stderr()).toMatch(/^call write_file on fs \(run = "ask"\): refused on the terminal/mu);
  }, 60_000);

  it.each([
    [['--call-servers'], '--call-servers needs --workspace DIR'],
    [['--workspace', '/tmp'], '--workspace is for --call-servers'],
    [['--call-servers', '--workspace', '/tmp', '--replay', '/tmp/x.jsonl'], '--call-servers and --replay exclude each other'],
  ])('%j → exit 2', async (args, message) => {
    const io = capture();
    expect(await run(args, io)).toBe(2);
    expect(io.stderr()).toContain(message);
  });
});
