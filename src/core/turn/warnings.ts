// Warnings about tools that cannot be resolved (an offline or unknown MCP server, a tool its server
// does not list). Each is given once, when it first matters: at load, or at the first invocation that
// would permit the tool (a later -t, a delta, or forcing it with -u). One warning per server and
// reason, not per tool, naming the tools it takes out of the permitted set.
import type { StreamEngine } from '../stream/engine';

export class UnresolvableWarnings {
  private readonly given = new Set<string>();
  // A resolution changes only with the catalogue version, so the unresolvable tools (in config order)
  // are listed once per version, not looked for among every tool at every step.
  private version = -1;
  private unresolvable: string[] = [];

  /**
   * A copy that has given the same warnings (a resumed run continues from it). It keeps the list of
   * unresolvable tools too: a fork resumes at a position with the same catalogue version, and a
   * layer edit patched in (derivation.ts) never changes whether a tool resolves; listing them again
   * walked every tool at each keystroke.
   */
  clone(): UnresolvableWarnings {
    const c = new UnresolvableWarnings();
    for (const k of this.given) c.given.add(k);
    c.version = this.version;
    // Shared: `due` replaces the list, never writes to it.
    c.unresolvable = this.unresolvable;
    return c;
  }

  /** The warnings not given yet about the tools that are unresolvable and not off (or forced) now. */
  due(engine: StreamEngine, forced?: string): string[] {
    const version = engine.current.catalogueVersion;
    if (version !== this.version) {
      const unresolvable: string[] = [];
      for (const s of engine.currentStates()) if (!s.resolution.ok) unresolvable.push(s.name);
      this.unresolvable = unresolvable;
      this.version = version;
    }
    const groups = new Map<string, { head: string; tools: string[] }>();
    for (const name of this.unresolvable) {
      const s = engine.state(name);
      if (!s || s.resolution.ok || (s.enable.availability.value === 'off' && s.name !== forced)) continue;
      const r = s.resolution;
      const key = r.reason === 'tool-missing' ? r.message : `${r.reason}:${r.server}`;
      const head =
        r.reason === 'server-offline' ? `MCP server \`${r.server}\` is not running` : r.reason === 'server-unknown' ? `MCP server \`${r.server}\` is not defined` : r.message;
      const g = groups.get(key) ?? { head, tools: [] };
      g.tools.push(s.name);
      groups.set(key, g);
    }
    const out: string[] = [];
    for (const [key, g] of groups) {
      const shown = g.tools.slice(0, 8).map((t) => `\`${t}\``).join(', ') + (g.tools.length > 8 ? ` and ${g.tools.length - 8} more` : '');
      const msg = g.head.includes('does not list') ? g.head : `${g.head}, so ${g.tools.length === 1 ? 'this tool is' : `these ${g.tools.length} tools are`} not available: ${shown}`;
      if (this.given.has(key + msg)) continue;
      this.given.add(key + msg);
      out.push(msg);
    }
    return out;
  }
}
