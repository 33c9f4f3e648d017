// What the command-line tests share: an Io that keeps what a command printed.
import { readFileSync } from 'node:fs';
import type { Io } from './main';

/** An Io that reads real files and keeps stdout and stderr for the test to read. */
export function capture(): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (t) => void (out += t), err: (t) => void (err += t), readFile: (p) => readFileSync(p, 'utf8'), stdout: () => out, stderr: () => err };
}
