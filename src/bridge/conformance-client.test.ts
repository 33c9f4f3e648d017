// The official MCP conformance suite's client scenarios (@modelcontextprotocol/conformance, pinned)
// against the bridge's own client (fixtures/conformance-client.ts drives an Upstream): the handshake,
// a tool call, a server's question answered with its defaults, and a stream the server cuts mid-call
// that must resume (GET with Last-Event-ID, after the server's retry) instead of hanging.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endsItsProcesses, FIXTURES, ROOT } from './testServe';

// Whatever a failing test leaves running ends with the file (issue 34.7).
endsItsProcesses();

const CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// tsx by its path: the suite runs the client in a folder of its own, where `--import tsx` resolves nothing.
const CLIENT = `${process.execPath} --import ${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')} ${join(FIXTURES, 'conformance-client.ts')}`;

function runScenario(scenario: string): Promise<{ code: number | null; out: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'wb-conformance-client-'));
  const proc = spawn(process.execPath, ['--import', join(FIXTURES, 'conformance-node20.mjs'), CLI, 'client', '--command', CLIENT, '--scenario', scenario], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((ok) => proc.once('exit', (code) => ok({ code, out })));
}

describe("the conformance suite's client scenarios against the bridge's client", () => {
  it.each(['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'])('%s passes', async (scenario) => {
    const { code, out } = await runScenario(scenario);
    expect(out).not.toMatch(/timed out/u);
    expect(out).not.toMatch(/FAILURE|✗/u);
    expect(out).toMatch(/Passed: [1-9]\d*\/\d+/u);
    expect(code, out).toBe(0);
  }, 90_000);
});
