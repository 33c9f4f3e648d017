// Opening a JP workspace: a `.jp` folder's files, as text, into ordinary layers
// (lowest precedence first, each named by its file) plus diagnostics. Pure: the
// shell reads the folder, this module only sees a map of paths to text.
//
// Paths are relative to the `.jp` folder itself: `config.toml`,
// `config/personas/dev.toml`, `mcp/tools/fs/read_file.toml`.
//
// What JP does (crates/jp_config/src/util.rs, crates/jp_cli/src/config_pipeline.rs):
// - The workspace file is `.jp/config.toml`.
// - `extends` entries are paths or globs relative to the file that names them. Each extended file
//   loads before that file (or after it, for `{ path, strategy = "after" }`), with its own extends
//   first, recursively. Glob matches load in sorted order; a glob that matches nothing is fine; a
//   plain path that does not exist is skipped (JP warns; here it is an error diagnostic).
// - `config_load_paths` are relative to the workspace root (the folder that holds `.jp`). `--cfg
//   NAME` takes, in the first load path where it exists, the file `NAME`, else `NAME.toml` (or
//   another config extension), and merges it (with its extends) above the workspace config. A
//   persona is applied the same way. `inherit` does not apply to `--cfg` files.
//
// Where the workbench differs:
// - JP has no cycle check (a cycle recurses until the stack overflows); here a cycle is a
//   diagnostic and the file that closes it is not loaded again.
// - JP loads a file once per reference, so a file extended twice is merged twice. Here each file is
//   one layer, kept at its LAST place in JP's order. For every value a later layer replaces (all
//   the tool keys the workbench simulates) this gives JP's result exactly: the last merge of a
//   file is the one that decides. It differs only in append-merged lists and in the config order
//   of a tool first named by a file that moved.
// - Only TOML files are read. JP's default `extends = ["config.d/**/*"]` is not applied.
import { loadLayer, positioned } from '../config/layer';
import type { Layer, LoadedLayer } from '../config/layer';
import type { Span } from '../config/toml-ast';
import { LineIndex } from '../config/toml-ast';
import type { Diagnostic, ExtendsEntry } from '../config/types';
import { basenameOf, comparePaths, dirnameOf, globFiles, isGlob, joinPath, normalizePath, parseGlob, withExtension } from './glob';

export const WORKSPACE_CONFIG = 'config.toml';

/**
 * What either shell reads of a folder at most: a JP workspace is a few hundred kilobytes in a few
 * dozen files, so these only stop a folder that is not one (a home directory, a link to `/`) from
 * being read whole.
 */
export const WORKSPACE_LIMITS = { entries: 20_000, bytes: 64 * 1024 * 1024 } as const;
/** Folders never worth listing when someone opens a whole project. */
export const WORKSPACE_SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', 'target', '__MACOSX', '.hg', '.svn']);
/** JP's config extensions, in the order `--cfg NAME` tries them. */
export const CONFIG_EXTENSIONS = ['toml', 'json', 'json5', 'yaml', 'yml'] as const;

export interface WorkspaceOptions {
  /** A persona name, applied like `jp --cfg NAME`. */
  readonly persona?: string;
  /** The name of the folder the paths are relative to (default `.jp`); `config_load_paths` are relative to its parent. */
  readonly folderName?: string;
}

export interface WorkspaceLoad {
  /** Lowest precedence first; each named by its path relative to the `.jp` folder. */
  readonly layers: Layer[];
  /** Every problem, each naming its file: loading problems, then each layer's own (syntax, bad values). */
  readonly diagnostics: Diagnostic[];
  /**
   * Only the loading problems (cycles, missing files, unknown persona): what loading the layers
   * again (as `runScenario` does) would not report by itself.
   */
  readonly loadDiagnostics: Diagnostic[];
  /** Persona names found directly in the config load paths, sorted. */
  readonly personas: string[];
  /** The config load paths, relative to the `.jp` folder, in search order. */
  readonly loadPaths: string[];
  /** The persona's file, when one was asked for and found. */
  readonly personaFile?: string;
}

/** The `.jp` folder's files (path → text), see the module comment for the paths. */
export type WorkspaceFiles = ReadonlyMap<string, string>;

export const WORKSPACE_CODES = {
  cycle: 'extends-cycle',
  missing: 'extends-missing',
  outside: 'extends-outside',
  noConfig: 'workspace-no-config',
  loadPath: 'load-path-outside',
  persona: 'unknown-persona',
  glob: 'extends-glob',
  linkOutside: 'link-outside',
  notAFile: 'not-a-file',
} as const;

/** Where a malformed glob is wrong: that character of the entry's string when it is written plainly (no escapes), else the whole entry. */
function globErrorSpan(text: string, entry: ExtendsEntry, index: number | undefined): Span {
  const { start, end } = entry.span;
  const raw = text.slice(start, end);
  const plain = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw.slice(1, -1) === entry.path;
  return plain && index !== undefined ? { start: start + 1 + index, end: start + 2 + index } : entry.span;
}

interface ParsedFile {
  readonly loaded: LoadedLayer;
  readonly index: LineIndex;
}

/** One loadWorkspace call's steps, and what they share: the files parsed so far and the problems found. */
class WorkspaceLoader {
  readonly diagnostics: Diagnostic[] = [];
  readonly #seen = new Set<string>();
  readonly #parsed = new Map<string, ParsedFile>();
  /** Expansions of files no cycle was cut below (a cut depends on the path that reached the file). */
  readonly #expanded = new Map<string, readonly string[]>();

  constructor(
    private readonly files: WorkspaceFiles,
    private readonly folder: string,
  ) {}

  parse(path: string): ParsedFile {
    let p = this.#parsed.get(path);
    if (!p) {
      const text = this.files.get(path) ?? '';
      p = { loaded: loadLayer({ name: path, text }), index: new LineIndex(text) };
      this.#parsed.set(path, p);
    }
    return p;
  }

  report(file: string, message: string, code: string, span?: Span, severity: Diagnostic['severity'] = 'error'): void {
    const d: Diagnostic = span
      ? positioned(file, this.parse(file).index, severity, message, span, code)
      : { severity, message, layer: file, line: 1, column: 1, code };
    const key = `${d.layer ?? ''}:${d.line ?? 0}:${d.column ?? 0}:${d.message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.diagnostics.push(d);
  }

  /** The files one extends entry names, sorted for a glob. */
  targets(file: string, entry: ExtendsEntry): string[] {
    const { files, folder } = this;
    const path = normalizePath(joinPath(dirnameOf(file), entry.path));
    if (path === undefined || path === '') {
      this.report(file, `extends \`${entry.path}\`: the path leaves the ${folder} folder, which is all the workbench reads`, WORKSPACE_CODES.outside, entry.span);
      return [];
    }
    if (isGlob(entry.path)) {
      // The entry's own pattern first, so the position is inside what the user wrote.
      const own = parseGlob(entry.path);
      const found = own.ok ? globFiles(path, files.keys()) : own;
      if (Array.isArray(found)) return found;
      const at = own.ok ? undefined : own.index;
      this.report(file, `extends \`${entry.path}\`: not a valid glob: ${found.message}`, WORKSPACE_CODES.glob, globErrorSpan(files.get(file) ?? '', entry, at));
      return [];
    }
    if (!files.has(path)) {
      this.report(file, `extends \`${entry.path}\`: no such file \`${path}\` (JP skips it with a warning)`, WORKSPACE_CODES.missing, entry.span);
      return [];
    }
    return [path];
  }

  /** The expansion of a file: JP's load order for it, with repeats. */
  expand(file: string, stack: readonly string[]): { order: string[]; cut: boolean } {
    const known = this.#expanded.get(file);
    if (known) return { order: [...known], cut: false };
    const { config } = this.parse(file).loaded;
    const here = [...stack, file];
    const order: string[] = [];
    let cut = false;
    const visit = (entry: ExtendsEntry): void => {
      for (const target of this.targets(file, entry)) {
        if (here.includes(target)) {
          const loop = [...here.slice(here.indexOf(target)), target].join(' → ');
          this.report(file, `extends cycle: ${loop}; \`${target}\` is not loaded again here`, WORKSPACE_CODES.cycle, entry.span);
          cut = true;
          continue;
        }
        const sub = this.expand(target, here);
        cut ||= sub.cut;
        order.push(...sub.order);
      }
    };
    const entries = config.extendsEntries ?? [];
    for (const e of entries) if (e.strategy === 'before') visit(e);
    order.push(file);
    for (const e of entries) if (e.strategy === 'after') visit(e);
    if (!cut) this.#expanded.set(file, order);
    return { order, cut };
  }

  /**
   * Config load paths, from the workspace files in load order, each with the file that named it
   * first. JP appends them layer by layer, sorting and de-duplicating each file's list.
   */
  configLoadPaths(baseFiles: readonly string[]): { loadPaths: string[]; owners: Map<string, string> } {
    const loadPaths: string[] = [];
    const owners = new Map<string, string>();
    for (const file of baseFiles) {
      const clp = this.parse(file).loaded.config.configLoadPaths;
      if (!clp) continue;
      for (const raw of [...new Set(clp.value)].sort()) {
        const rel = relativeToFolder(raw, this.folder);
        if (rel === undefined) {
          const span = clp.origin.kind === 'layer' ? clp.origin.span : undefined;
          this.report(file, `config_load_paths \`${raw}\` is outside the ${this.folder} folder, which is all the workbench reads; it is not searched`, WORKSPACE_CODES.loadPath, span, 'warning');
          continue;
        }
        if (!loadPaths.includes(rel)) {
          loadPaths.push(rel);
          owners.set(rel, file);
        }
      }
    }
    return { loadPaths, owners };
  }

  /** The persona's file under the load paths, or a problem reported where the first load path is set. */
  personaFile(persona: string, loadPaths: readonly string[], owners: ReadonlyMap<string, string>, personas: readonly string[]): string | undefined {
    const found = findInLoadPaths(this.files, persona, loadPaths);
    if (found !== undefined) return found;
    const owner = loadPaths[0] !== undefined ? owners.get(loadPaths[0]) : undefined;
    const where = loadPaths.length > 0 ? `under the config load paths (${loadPaths.map((p) => p || '.').join(', ')})` : 'because the workspace sets no config_load_paths';
    const available = personas.length > 0 ? `; available: ${personas.join(', ')}` : '';
    const clp = owner ? this.parse(owner).loaded.config.configLoadPaths : undefined;
    const span = clp?.origin.kind === 'layer' ? clp.origin.span : undefined;
    this.report(owner ?? WORKSPACE_CONFIG, `unknown persona \`${persona}\`: no config file \`${persona}\` ${where}${available}`, WORKSPACE_CODES.persona, span);
    return undefined;
  }
}

export function loadWorkspace(files: WorkspaceFiles, options: WorkspaceOptions = {}): WorkspaceLoad {
  const folder = options.folderName ?? '.jp';
  const loader = new WorkspaceLoader(files, folder);

  // 1. The workspace config and everything it extends.
  const sequence: string[] = [];
  if (files.has(WORKSPACE_CONFIG)) sequence.push(...loader.expand(WORKSPACE_CONFIG, []).order);
  else loader.report(WORKSPACE_CONFIG, `the workspace has no ${WORKSPACE_CONFIG} (the ${folder} folder's own config file)`, WORKSPACE_CODES.noConfig);

  // 2. Config load paths, and the personas they hold.
  const { loadPaths, owners } = loader.configLoadPaths(lastOccurrences(sequence));
  const personas = personaNames(files, loadPaths);

  // 3. The persona, like `--cfg NAME`: merged above the workspace, its extends first.
  const personaFile = options.persona !== undefined ? loader.personaFile(options.persona, loadPaths, owners, personas) : undefined;
  if (personaFile !== undefined) sequence.push(...loader.expand(personaFile, []).order);

  const order = lastOccurrences(sequence);
  const layers: Layer[] = order.map((name) => ({ name, text: files.get(name) ?? '' }));
  const fileDiagnostics = order.flatMap((name) => loader.parse(name).loaded.diagnostics);
  const loadDiagnostics = loader.diagnostics;
  // Files that failed to parse but were never loaded as layers do not exist: every parsed file is a layer.
  return {
    layers,
    diagnostics: [...loadDiagnostics, ...fileDiagnostics],
    loadDiagnostics,
    personas,
    loadPaths,
    ...(personaFile !== undefined ? { personaFile } : {}),
  };
}

/** Keeps each path once, at its last place. */
function lastOccurrences(sequence: readonly string[]): string[] {
  const last = new Map<string, number>();
  sequence.forEach((p, i) => last.set(p, i));
  return sequence.filter((p, i) => last.get(p) === i);
}

/** A path relative to the workspace root, made relative to the `.jp` folder (`undefined` outside it). */
function relativeToFolder(path: string, folder: string): string | undefined {
  const n = normalizePath(path);
  if (n === undefined) return undefined;
  if (n === folder) return '';
  return n.startsWith(`${folder}/`) ? n.slice(folder.length + 1) : undefined;
}

/** JP's `find_file_in_load_path` over each load path in turn: `NAME` as is, else with each config extension. */
export function findInLoadPaths(files: WorkspaceFiles, name: string, loadPaths: readonly string[]): string | undefined {
  if (name === '' || name.startsWith('/')) return undefined;
  for (const lp of loadPaths) {
    const path = normalizePath(joinPath(lp, name));
    if (path === undefined || path === '') continue;
    if (files.has(path)) return path;
    for (const ext of CONFIG_EXTENSIONS) {
      const p = withExtension(path, ext);
      if (files.has(p)) return p;
    }
  }
  return undefined;
}

/** The config files directly in the load paths, by name without extension. */
export function personaNames(files: WorkspaceFiles, loadPaths: readonly string[]): string[] {
  const names = new Set<string>();
  for (const path of files.keys()) {
    if (!loadPaths.includes(dirnameOf(path))) continue;
    const base = basenameOf(path);
    const dot = base.lastIndexOf('.');
    if (dot <= 0 || !(CONFIG_EXTENSIONS as readonly string[]).includes(base.slice(dot + 1))) continue;
    names.add(base.slice(0, dot));
  }
  return [...names].sort(comparePaths);
}
