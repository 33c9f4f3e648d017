// A snapshot file: each server's tools validated as the importer reads them, server names that
// are data, and the [servers] tables that replay it.
import { describe, expect, it } from 'vitest';
import { parseMultiServerCatalogue } from '../catalogue/tools-list';
import { snapshotCatalogue, snapshotServersToml } from './snapshot';

const tool = (name: string) => ({ name, description: `${name}.`, inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } });

describe('snapshotCatalogue', () => {
  it('reads back, server by server, with serverInfo and protocolVersion beside the tools', () => {
    const snap = snapshotCatalogue('snap', 'desc', [
      { name: 'fs', tools: [tool('read'), tool('write')], serverInfo: { name: 'secure-filesystem-server', version: '0.2.0' }, protocolVersion: '2025-11-25' },
      { name: '__proto__', tools: [tool('x')] },
    ]);
    expect(snap.warnings).toEqual([]);
    const back = parseMultiServerCatalogue(snap.value);
    expect(back.errors).toEqual([]);
    expect(back.servers.map((s) => [s.name, s.tools.map((t) => t.name)])).toEqual([
      ['fs', ['read', 'write']],
      ['__proto__', ['x']],
    ]);
    expect(back.servers[0]?.tools[0]?.execution).toEqual({ taskSupport: 'optional' });
    expect(JSON.stringify(snap.value)).toContain('"serverInfo":{"name":"secure-filesystem-server","version":"0.2.0"},"protocolVersion":"2025-11-25"');
  });

  it('drops a tool the importer would refuse, saying which', () => {
    const snap = snapshotCatalogue('s', 'd', [{ name: 'a', tools: [tool('ok'), { description: 'no name' }] }]);
    expect(snap.warnings).toEqual(['a: tools[1]: missing name']);
    expect(parseMultiServerCatalogue(snap.value).servers[0]?.tools.map((t) => t.name)).toEqual(['ok']);
  });

  it('writes the [servers] tables that name each server of the file', () => {
    expect(snapshotServersToml('snap.json', ['fs', 'my server'])).toBe('[servers.fs]\ncatalogue = "snap.json#fs"\n\n[servers."my server"]\ncatalogue = "snap.json#my server"\n');
  });
});
