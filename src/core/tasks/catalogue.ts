// A catalogue file as a scenario with every tool discoverable, as `tool-workbench import --policy
// discoverable --keep 0 --scenario` writes it: how a task set is run against a bare catalogue.
import { readCatalogue } from '../import/catalogue';
import { applyImport, buildImport } from '../import/generate';
import { EMPTY_DOC } from '../scenario/doc';
import type { ScenarioDoc } from '../scenario/doc';

/** The scenario document, or the catalogue's errors. `server` names a single tools/list reply's server. */
export function allDiscoverableDoc(text: string, fileName: string, server: string): { ok: true; doc: ScenarioDoc; warnings: readonly string[] } | { ok: false; errors: readonly string[] } {
  const read = readCatalogue(text, fileName);
  if (!read.ok) return { ok: false, errors: read.errors };
  const base: ScenarioDoc = { ...EMPTY_DOC, name: `${fileName}, every tool discoverable`, layers: [] };
  const result = buildImport(read.catalogue, {
    policy: { kind: 'discoverable', keep: 0, offDestructive: false },
    origin: fileName,
    ...(read.catalogue.form !== 'multi-server' ? { serverNames: [server] } : {}),
    into: base,
  });
  return { ok: true, doc: applyImport(base, result), warnings: read.catalogue.warnings };
}


