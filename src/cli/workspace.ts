// Reading a `[workspace]` folder from disk for the core's workspace loader. The
// folder is all that is read: every symbolic link is resolved and one that
// leads out of the folder is not followed (a `.jp/root -> /` once made `check`
// walk the whole filesystem), only regular files are read, and the walk stops
// at the same limits as the page's (WORKSPACE_LIMITS).
import { readdirSync, realpathSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../core/config/types';
import type { CheckHost } from '../core/scenario/report';
import { loadWorkspace, WORKSPACE_CODES, WORKSPACE_LIMITS, WORKSPACE_SKIP_DIRS } from '../core/workspace/load';
import { InputError, readErrorText, readInputFile, systemMessage } from './read';

export interface WorkspaceFolder {
  /** Every `*.toml` file, keyed by its `/`-separated path relative to the folder. */
  readonly files: Map<string, string>;
  /** What was left unread and why (links out of the folder, `*.toml` entries that are not files), as warnings. */
  readonly skipped: Diagnostic[];
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Reads the folder `root`; throws an InputError when it is over the limits or a file in it cannot be used. */
export function readWorkspaceFolder(root: string): WorkspaceFolder {
  const files = new Map<string, string>();
  const skipped: Diagnostic[] = [];
  const top = realpathSync(root);
  const inside = (real: string): boolean => real === top || real.startsWith(top.endsWith(sep) ? top : `${top}${sep}`);
  const seenDirs = new Set<string>([top]);
  let entries = 0;
  let bytes = 0;
  const skip = (rel: string, message: string, code: string): void => {
    skipped.push({ severity: 'warning', message: `${rel}: ${message}`, code });
  };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
      entries += 1;
      if (entries > WORKSPACE_LIMITS.entries) throw new InputError(`the folder holds more than ${WORKSPACE_LIMITS.entries} entries; a JP workspace has a few dozen: name its .jp folder`);
      const path = join(dir, entry.name);
      const rel = relative(root, path).split(sep).join('/');
      let real = path;
      if (entry.isSymbolicLink()) {
        try {
          real = realpathSync(path);
        } catch (e) {
          skip(rel, `a symbolic link that leads nowhere (${systemMessage(e)}); not read`, WORKSPACE_CODES.linkOutside);
          continue;
        }
        if (!inside(real)) {
          skip(rel, `a symbolic link out of the workspace folder (to ${real}); not followed, only the folder itself is read`, WORKSPACE_CODES.linkOutside);
          continue;
        }
      }
      const st = statSync(real, { throwIfNoEntry: false });
      if (st?.isDirectory()) {
        if (WORKSPACE_SKIP_DIRS.has(entry.name) || seenDirs.has(real)) continue;
        seenDirs.add(real);
        walk(path);
        continue;
      }
      if (!entry.name.endsWith('.toml')) continue;
      if (!st?.isFile()) {
        skip(rel, 'not a regular file; not read', WORKSPACE_CODES.notAFile);
        continue;
      }
      bytes += st.size;
      if (bytes > WORKSPACE_LIMITS.bytes) throw new InputError(`the .toml files exceed ${WORKSPACE_LIMITS.bytes / 1024 / 1024} MB; a JP workspace is a few hundred kilobytes`);
      try {
        files.set(rel, readInputFile(real));
      } catch (e) {
        throw new InputError(readErrorText(rel, e));
      }
    }
  };
  walk(root);
  return { files, skipped };
}

/** Every `*.toml` under `root`, keyed by its `/`-separated path relative to `root`. */
export function readTomlTree(root: string): Map<string, string> {
  return readWorkspaceFolder(root).files;
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
      let folder: WorkspaceFolder;
      try {
        folder = readWorkspaceFolder(root);
      } catch (e) {
        return { error: `cannot read ${root}: ${e instanceof Error ? e.message : String(e)}` };
      }
      const loaded = loadWorkspace(folder.files, { ...(ws.persona !== undefined ? { persona: ws.persona } : {}), folderName: basename(root) });
      const unknown = loaded.loadDiagnostics.find((d) => d.code === WORKSPACE_CODES.persona);
      if (unknown) return { error: unknown.message };
      // The layers' own diagnostics come back when the run loads them; pass only the loading ones.
      return { layers: loaded.layers, diagnostics: [...folder.skipped, ...loaded.loadDiagnostics] };
    },
  };
}
