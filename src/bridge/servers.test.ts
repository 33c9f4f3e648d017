// Real servers as JP runs them (issue 28), against hostile servers written for these tests
// (fixtures/hostile.mjs) driven by the bridge's own Upstream: noise on stdout, a hung server.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';
import { terminalOf } from './log';
import { Masker } from './secrets';
import { eventually, FIXTURES } from './testServe';
import { Upstream } from './upstream';

const spec = (name: string, args: readonly string[]): McpLaunchSpec => ({
  name,
  command: process.execPath,
  arguments: [join(FIXTURES, 'hostile.mjs'), ...args],
  variables: [],
  optional: false,
  startupTimeoutSecs: 20,
  layers: ['test'],
});

const started: Upstream[] = [];
function upstream(name: string, args: readonly string[]): Upstream {
  const masker = new Masker();
  const up = new Upstream(name, { kind: 'stdio', spec: spec(name, args), cwd: FIXTURES, from: 'the test' }, { terminal: terminalOf(() => undefined, masker), masker });
  started.push(up);
  return up;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.stop()));
});

describe('noise on stdout', () => {
  it('skips a line that is no JSON-RPC message, keeps it in the log, and goes on', async () => {
    const up = upstream('noisy', ['noisy']);
    await up.start();
    expect(up.error).toBeUndefined();
    expect(up.status).toBe('running');
    const tools = await up.forward('tools/list', undefined);
    expect((tools.tools as { name: string }[]).map((t) => t.name)).toEqual(['ask']);
    const stdout = up.logSince(0).filter((e) => e.stream === 'stdout').map((e) => e.text);
    expect(stdout).toEqual(['noise: handling initialize', 'booting the noisy server', '{"level":"info","msg":"ready"}', 'noise: handling tools/list']);
  });
});
