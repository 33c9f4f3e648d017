// `tool-workbench snapshot`: starts a workspace's servers (named on the command
// line, so no page confirms them; each command is printed), takes every page of
// each server's tools/list, writes one catalogue file, and stops them all. JP's
// rule decides the outcome: a required server that fails is the error JP would
// abort with; an optional one is a warning and is left out.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { MAX_CATALOGUE_BYTES } from '../core/import/catalogue';
import { snapshotCatalogue, snapshotServersToml } from '../core/import/snapshot';
import type { SnapshotServer } from '../core/import/snapshot';
import { forTerminal, terminalOf } from './log';
import { Masker } from './secrets';
import { Upstream } from './upstream';
import { Watchdog } from './watchdog';
import { WorkspaceError, Workspaces } from './workspaces';

export interface SnapshotOptions {
  readonly workspace: string;
  readonly persona?: string;
  readonly out: string;
}

/** Every page of `tools/list`, within the importer's size cap (a bigger list fails at once, saying so). */
export async function listAllTools(up: Upstream, maxPages = 200): Promise<unknown[]> {
  const tools: unknown[] = [];
  const cursors = new Set<string>();
  let bytes = 2;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await up.forward('tools/list', cursor !== undefined ? { cursor } : undefined);
    const list = Array.isArray(result.tools) ? (result.tools as unknown[]) : [];
    for (const t of list) {
      tools.push(t);
      bytes += Buffer.byteLength(JSON.stringify(t)) + 1;
    }
    if (bytes > MAX_CATALOGUE_BYTES) throw new Error(`${up.name}: the tool list passed ${MAX_CATALOGUE_BYTES} bytes after ${page} pages (${tools.length} tools); a catalogue holds at most that`);
    cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    if (cursor === undefined) return tools;
    if (cursors.has(cursor)) throw new Error(`${up.name}: the server sent the cursor ${JSON.stringify(cursor)} twice; paging would never end`);
    cursors.add(cursor);
    if (page >= maxPages) throw new Error(`${up.name}: still paging after ${maxPages} pages`);
  }
}

/** Resolves to the exit status: 0 written, 1 a required server failed, 2 bad arguments or files. */
export async function snapshot(options: SnapshotOptions, io: { out(text: string): void; err(text: string): void }): Promise<number> {
  // One masker for everything this command prints or writes (a server may echo its key anywhere).
  const masker = new Masker();
  const terminal = terminalOf((t) => io.out(t), masker);
  // Through the same door as the terminal's lines: a server's error (its stderr tail) may hide characters.
  const err = (t: string) => io.err(forTerminal(t, masker, true));
  const watchdog = new Watchdog([process.argv[1] as string, '__watchdog']);
  const workspaces = new Workspaces();
  let plan;
  let root: string;
  let jpDir: string;
  try {
    const w = workspaces.open(options.workspace);
    root = w.root;
    jpDir = w.jpDir;
    plan = workspaces.plan(w.id, options.persona);
  } catch (e) {
    if (e instanceof WorkspaceError) {
      err(`tool-workbench snapshot: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  for (const p of plan.problems) err(`warning: ${p.layer !== undefined ? `${p.layer}: ` : ''}${p.message}\n`);
  for (const n of plan.notStarted) terminal.line(`${n.server}: not started, as JP would not start it: ${n.reason}`);
  if (plan.specs.length === 0) {
    err(
      plan.notStarted.length > 0
        ? `tool-workbench snapshot: JP would start none of ${jpDir}'s MCP servers${options.persona !== undefined ? ` with persona ${options.persona}` : ''}: no enabled or discoverable tool uses one\n`
        : `tool-workbench snapshot: ${jpDir} declares no [providers.mcp.*] server${options.persona !== undefined ? ` with persona ${options.persona}` : ''}\n`,
    );
    return 2;
  }
  const context = { terminal, masker, watchdog };
  const jpStarts = (name: string) => plan.servers.find((s) => s.name === name)?.jpStarts ?? true;
  const ups = plan.specs.map((spec) => new Upstream(spec.name, { kind: 'stdio', spec, cwd: plan.cwd, from: 'the command line' }, context, spec.optional, jpStarts(spec.name)));
  try {
    await Promise.all(ups.map((u) => u.start()));
    const servers: SnapshotServer[] = [];
    for (const u of ups) {
      if (u.status !== 'running') {
        if (!u.jpStarts) {
          err(`warning: MCP server ${u.name} failed to start and is left out; JP would not start it (no tool names it), so nothing would abort: ${u.error ?? ''}\n`);
          continue;
        }
        if (u.optional) {
          err(`warning: optional MCP server ${u.name} failed to start and is left out: ${u.error ?? ''}\n`);
          continue;
        }
        err(`tool-workbench snapshot: MCP server ${u.name} failed to start; JP would abort with:\n${u.error ?? ''}\n`);
        return 1;
      }
      const tools = await listAllTools(u);
      const v = u.view();
      // Everything the server said of itself, as it said it (not the SDK's parse of it).
      const said = u.initializeResult;
      servers.push({
        name: u.name,
        tools,
        ...(v.serverInfo ? { serverInfo: v.serverInfo } : {}),
        ...(v.protocolVersion !== undefined ? { protocolVersion: v.protocolVersion } : {}),
        ...(typeof said?.instructions === 'string' ? { instructions: said.instructions } : {}),
        ...(v.capabilities ? { capabilities: v.capabilities } : {}),
      });
      terminal.line(`${u.name}: ${tools.length} tools from ${v.serverInfo?.name ?? u.name} ${v.serverInfo?.version ?? ''} (MCP ${v.protocolVersion ?? '?'})`);
    }
    const snap = snapshotCatalogue(
      `snapshot of ${basename(root)}`,
      // The file is meant to be committed: the workspace by its folder's name, never this machine's path to it.
      `The tool lists of ${basename(root)}/.jp's MCP servers${options.persona !== undefined ? ` (persona ${options.persona})` : ''}, taken by tool-workbench snapshot.`,
      servers,
    );
    for (const w of snap.warnings) err(`warning: ${w}\n`);
    writeFileSync(options.out, masker.mask(`${JSON.stringify(snap.value, null, 2)}\n`));
    terminal.line(`wrote ${options.out}: ${servers.length} server${servers.length === 1 ? '' : 's'}. A scenario replays it offline with:`);
    for (const line of snapshotServersToml(basename(options.out), servers.map((s) => s.name)).trimEnd().split('\n')) terminal.line(`  ${line}`);
    return 0;
  } catch (e) {
    err(`tool-workbench snapshot: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    await Promise.all(ups.map((u) => u.stop()));
    watchdog.close();
  }
}
