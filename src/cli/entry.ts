// The process entry of the bundled CLI (see scripts/build-cli.mjs).
import { main, mainAsync } from './main';
import { line } from './print';

// main catches what it runs; this is the last guard. A message, never a stack trace.
const fail = (e: unknown) => {
  process.stderr.write(line(`tool-workbench: internal error: ${e instanceof Error ? e.message : String(e)}`));
  process.exitCode = 2;
};

try {
  const argv = process.argv.slice(2);
  // serve and snapshot end their own servers first; then nothing is left to wait for.
  const long = mainAsync(argv);
  if (long) long.then((code) => process.exit(code), fail);
  else process.exitCode = main(argv);
} catch (e) {
  fail(e);
}
