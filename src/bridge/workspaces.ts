// JP workspaces the user opened through the bridge, and the plans of servers to
// start that the user confirmed. The bridge reads a workspace's files from disk
// itself and computes every command from them (the page only names the workspace
// and the plan): a page, a scenario, a share link or a dropped file can show a
// command but never send one. A plan runs only once the user has confirmed it,
// at most once, within a minute of being made; a plan with hidden characters
// (bidi controls, zero-width or control characters) only with a second, explicit
// confirmation of them.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { HiddenInPlan, OpenedWorkspace, PlanView } from '../bridge-protocol';
import { hiddenIn } from '../core/workspace/hidden';
import { loadLayer } from '../core/config/layer';
import { mergeConfigs } from '../core/config/merge';
import { EMPTY_CONFIG } from '../core/config/read';
import { serversJpStarts } from '../core/workspace/servers-started';
import { loadWorkspace, WORKSPACE_CODES } from '../core/workspace/load';
import { commandLine, mcpLaunchSpecs } from '../core/workspace/mcp-servers';
import type { McpLaunchSpec } from '../core/workspace/mcp-servers';
import { readTomlTree } from '../cli/workspace';

/** A plan as the bridge keeps it: what the page is shown, and the specs behind it. */
export interface Plan extends PlanView {
  readonly specs: readonly McpLaunchSpec[];
}

export class WorkspaceError extends Error {}

/** A plan with hidden characters, started without their second confirmation. */
export class HiddenUnconfirmed extends WorkspaceError {}

/** Every hidden character in the plan's names, commands, arguments, folder and variable names. */
export function hiddenInSpecs(specs: readonly McpLaunchSpec[], cwd: string): HiddenInPlan[] {
  const out: HiddenInPlan[] = [];
  for (const s of specs) {
    const fields: [string, string][] = [['name', s.name], ['command', s.command], ...s.arguments.map((a, i): [string, string] => [`argument ${i + 1}`, a]), ['folder', cwd], ...s.variables.map((v, i): [string, string] => [`variable ${i + 1}`, v])];
    for (const [where, text] of fields) {
      const chars = hiddenIn(text);
      if (chars.length > 0) out.push({ server: s.name, where, chars });
    }
  }
  return out;
}

/** How long a plan may wait for its confirmation (ms). */
export const PLAN_TTL_MS = 60_000;

/** The `.jp` folder at `path`: the folder itself, or the one inside it. */
export function findJpFolder(path: string): { root: string; jpDir: string } {
  const abs = resolve(path);
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) throw new WorkspaceError(`no such folder: ${abs}`);
  if (!stat.isDirectory()) throw new WorkspaceError(`not a folder: ${abs}`);
  if (basename(abs) === '.jp') return { root: dirname(abs), jpDir: abs };
  const inner = join(abs, '.jp');
  if (statSync(inner, { throwIfNoEntry: false })?.isDirectory()) return { root: abs, jpDir: inner };
  throw new WorkspaceError(`${abs} has no .jp folder: open a JP project (the folder that holds .jp) or its .jp folder`);
}

const token = () => randomBytes(12).toString('base64url');

export class Workspaces {
  private readonly opened = new Map<string, OpenedWorkspace>();
  private readonly plans = new Map<string, Plan>();

  constructor(
    private readonly ttlMs = PLAN_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Opens a workspace (reads nothing yet but where it is); the same folder gets the same id. */
  open(path: string): OpenedWorkspace {
    const { root, jpDir } = findJpFolder(path);
    for (const w of this.opened.values()) if (w.jpDir === jpDir) return w;
    const w = { id: token(), root, jpDir };
    this.opened.set(w.id, w);
    return w;
  }

  /** Every workspace opened so far (a reloaded page finds its folder here, issue 34.5). */
  list(): OpenedWorkspace[] {
    return [...this.opened.values()];
  }

  get(id: string): OpenedWorkspace {
    const w = this.opened.get(id);
    if (!w) throw new WorkspaceError(`no open workspace ${JSON.stringify(id)}; open it again`);
    return w;
  }

  /** Every `*.toml` under the `.jp` folder, read now. */
  files(id: string): Map<string, string> {
    const w = this.get(id);
    try {
      return readTomlTree(w.jpDir);
    } catch (e) {
      throw new WorkspaceError(`cannot read ${w.jpDir}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * The servers JP would start for the workspace (with the persona), computed from the files on disk
   * now: those of its enabled and discoverable tools (serversJpStarts), to run in the workspace's root,
   * the folder that holds `.jp`: JP runs its servers "as if launched from the selected workspace root"
   * (RFD 087's root-as-working-directory invariant), and a workspace's relative arguments (`"data"`,
   * `command = "just"` with its justfile) mean that folder, wherever the bridge runs.
   */
  plan(id: string, persona?: string): Plan {
    const w = this.get(id);
    const cwd = w.root;
    const loaded = loadWorkspace(this.files(id), { ...(persona !== undefined ? { persona } : {}), folderName: basename(w.jpDir) });
    const unknown = loaded.loadDiagnostics.find((d) => d.code === WORKSPACE_CODES.persona);
    if (unknown) throw new WorkspaceError(unknown.message);
    const layers = loaded.layers.map(loadLayer);
    const { servers: declared, problems } = mcpLaunchSpecs(layers);
    const jp = serversJpStarts(layers.map((l) => l.config).reduce(mergeConfigs, EMPTY_CONFIG), declared.map((s) => s.name));
    const starts = new Set(jp.started.map((s) => s.server));
    // A server no tool names yet is started all the same, to list its tools (the only way to write
    // their tables), but as one JP would not start: its failure aborts nothing. A server whose tools
    // are all off is left alone, as JP leaves it.
    const unnamed = new Set(jp.notStarted.filter((n) => !n.named).map((n) => n.server));
    const specs = declared.filter((s) => starts.has(s.name) || unnamed.has(s.name));
    this.expire();
    const plan: Plan = {
      id: token(),
      workspace: w.id,
      ...(persona !== undefined ? { persona } : {}),
      servers: specs.map((s) => ({
        name: s.name,
        commandLine: commandLine(s),
        command: s.command,
        arguments: s.arguments,
        cwd,
        variables: s.variables,
        optional: s.optional,
        jpStarts: starts.has(s.name),
        startupTimeoutSecs: s.startupTimeoutSecs,
        ...(s.checksum ? { checksum: s.checksum } : {}),
      })),
      problems,
      notStarted: jp.notStarted.filter((n) => n.named).map(({ server, reason }) => ({ server, reason })),
      cwd,
      hidden: hiddenInSpecs(specs, cwd),
      expiresAt: this.clock() + this.ttlMs,
      specs,
    };
    this.plans.set(plan.id, plan);
    return plan;
  }

  /**
   * The user said yes to this plan: it is spent (a second start of it is refused), and its servers
   * may start now (and again from the Servers panel, as the same commands). A plan with hidden
   * characters needs `hiddenConfirmed`.
   */
  confirm(planId: string, hiddenConfirmed = false): Plan {
    this.expire();
    const plan = this.plans.get(planId);
    if (!plan) throw new WorkspaceError('that plan is unknown, spent or expired (a plan runs once, within a minute): press Start servers again and confirm');
    if (plan.hidden.length > 0 && !hiddenConfirmed) throw new HiddenUnconfirmed('this plan has hidden characters in its commands: it starts only once they are confirmed too (hiddenConfirmed)');
    this.plans.delete(planId);
    return plan;
  }

  /** Plans nobody confirmed in time are dropped. */
  expire(): void {
    const now = this.clock();
    for (const [id, p] of this.plans) if (p.expiresAt <= now) this.plans.delete(id);
  }
}
