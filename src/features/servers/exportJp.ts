// Export the scenario's catalogue as JP config: the core writes the files
// (src/core/import/export.ts); this zips them for a download.
import { strToU8, zipSync } from 'fflate';
import { exportJpConfig } from '../../core';
import { downloadBlob } from '../../components/download';
import type { WorkbenchStore } from '../../state/store';

export function exportJpZip(store: WorkbenchStore): void {
  const s = store.getState();
  const out = exportJpConfig(s.doc);
  const files: Record<string, Uint8Array> = {};
  for (const f of out.files) files[`.jp/${f.path}`] = strToU8(f.text);
  const slug = s.doc.name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario';
  downloadBlob(`${slug}-jp-config.zip`, new Blob([zipSync(files) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
  const stripped = out.stripped.length > 0 ? ` Removed ${out.stripped.length} workbench-only key${out.stripped.length === 1 ? '' : 's'} (${out.stripped.map((k) => k.path).slice(0, 3).join(', ')}${out.stripped.length > 3 ? ', …' : ''}).` : '';
  s.showBanner('info', `Exported ${out.files.length} JP config files (.jp/config.toml extends the rest in layer order).${stripped}`);
}
