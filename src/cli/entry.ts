// The process entry of the bundled CLI (see scripts/build-cli.mjs).
import { main } from './main';

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`tool-workbench: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 2;
}
