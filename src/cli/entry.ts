// The process entry of the bundled CLI (see scripts/build-cli.mjs).
import { main } from './main';
import { line } from './print';

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  // main catches what it runs; this is the last guard. A message, never a stack trace.
  process.stderr.write(line(`tool-workbench: internal error: ${e instanceof Error ? e.message : String(e)}`));
  process.exitCode = 2;
}
