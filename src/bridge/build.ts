// `npm start` and `npx tool-workbench serve` build the app when it is missing or
// older than its sources, so a fresh clone and an edited checkout both serve what
// is on disk. The build is Vite's own (`vite build`, a child process), its output
// on stderr so stdout's first line stays the address.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The project folder: the nearest folder upwards whose package.json is this project's. */
export function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'tool-catalogue-workbench') return dir;
      } catch {
        // Not ours; keep looking.
      }
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the project folder above ${from}`);
  }
}

function newest(dir: string, skip: (name: string) => boolean): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const p = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p, skip) : statSync(p).mtimeMs);
  }
  return max;
}

/** Why the app needs building (a sentence), or undefined when dist/ is newer than every source. */
export function staleness(root: string): string | undefined {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'the app is not built yet';
  const at = statSync(built).mtimeMs;
  // What the page is made of; the command line and the bridge are not in it.
  const skip = (name: string) => name.endsWith('.test.ts') || name === 'cli' || name === 'bridge';
  const sources = Math.max(newest(join(root, 'src'), skip), ...['index.html', 'vite.config.ts', 'package-lock.json'].map((f) => (existsSync(join(root, f)) ? statSync(join(root, f)).mtimeMs : 0)));
  return sources > at ? 'the sources are newer than the built app' : undefined;
}

/** Runs `vite build` in `root`, its output to `log`. */
export async function buildApp(root: string, log: (text: string) => void): Promise<void> {
  let vite: string;
  try {
    vite = join(dirname(createRequire(join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    throw new Error('cannot build the app: vite is not installed (run `npm install` first)');
  }
  await new Promise<void>((ok, fail) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => log(d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => log(d.toString('utf8')));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`vite build failed (exit ${code})`))));
  });
}
