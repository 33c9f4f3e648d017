// Reading a `[workspace]` folder from disk for the core's workspace loader.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { CheckHost } from '../core/scenario/report';
import { loadWorkspace, WORKSPACE_CODES } from '../core/workspace/load';

/** Every `*.toml` under `root`, keyed by its `/`-separated path relative to `root`. */
export function readTomlTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const seenDirs = new Set<string>();
  const walk = (dir: string): void => {
    const real = realpathSync(dir);
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name);
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true);
      if (isDir) walk(path);
      else if (entry.name.endsWith('.toml')) files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** The node shell's `loadWorkspace`: `workspace.path` is relative to the scenario file's folder `dir`. */
export function workspaceHost(dir: string): Pick<CheckHost, 'loadWorkspace'> {
  return {
    loadWorkspace: (scenario) => {
      const ws = scenario.workspace;
      if (!ws) return { layers: [], diagnostics: [] };
      const root = resolve(dir, ws.path);
      const stat = statSync(root, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) {
        return { error: `${stat ? 'not a folder' : 'no such folder'}: ${root} (path = "${ws.path}", relative to the scenario file)` };
      }
      let files: Map<string, string>;
      try {
        files = readTomlTree(root);
      } catch (e) {
        return { error: `cannot read ${root}: ${e instanceof Error ? e.message : String(e)}` };
      }
      const loaded = loadWorkspace(files, { ...(ws.persona !== undefined ? { persona: ws.persona } : {}), folderName: basename(root) });
      const unknown = loaded.loadDiagnostics.find((d) => d.code === WORKSPACE_CODES.persona);
      if (unknown) return { error: unknown.message };
      // The layers' own diagnostics come back when the run loads them; pass only the loading ones.
      return { layers: loaded.layers, diagnostics: loaded.loadDiagnostics };
    },
  };
}
