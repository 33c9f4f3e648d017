// The process entry of the bundled CLI (see scripts/build-cli.mjs).
import { main } from './main';

const fail = (e: unknown) => {
  process.stderr.write(`tool-workbench: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 2;
};

try {
  const status = main(process.argv.slice(2));
  if (typeof status === 'number') process.exitCode = status;
  // serve and snapshot end their own servers first; then nothing is left to wait for.
  else status.then((code) => process.exit(code), fail);
} catch (e) {
  fail(e);
}
