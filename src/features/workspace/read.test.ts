// Finding the `.jp` folder in whatever was opened, and reading only its `*.toml` files.
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { collect, displayName, readZip, underRoot, workspaceRoot } from './read';

describe('workspaceRoot', () => {
  it('takes the .jp folder itself, the project holding it, or a folder with a config.toml', () => {
    expect(workspaceRoot(['.jp/config.toml', '.jp/mcp/tools/plan.toml'])).toBe('.jp');
    expect(workspaceRoot(['proj/README.md', 'proj/.jp/config.toml', 'proj/.jp/config/personas/dev.toml', 'proj/Cargo.toml'])).toBe('proj/.jp');
    expect(workspaceRoot(['copy/config.toml', 'copy/mcp/x.toml'])).toBe('copy');
    expect(workspaceRoot(['config.toml', 'a/b.toml'])).toBe('');
  });

  it('prefers the shallowest .jp with a config.toml and skips vendored folders', () => {
    expect(workspaceRoot(['p/.jp/config.toml', 'p/sub/.jp/config.toml', 'p/node_modules/x/.jp/config.toml'])).toBe('p/.jp');
    expect(workspaceRoot(['p/node_modules/x/.jp/config.toml', 'p/crates/config.toml'])).toBe('p/crates');
    expect(workspaceRoot(['p/.jp/mcp/tools/a.toml'])).toBe('p/.jp');
    expect(workspaceRoot(['__MACOSX/.jp/config.toml', 'ws/.jp/config.toml'])).toBe('ws/.jp');
  });
});

describe('underRoot', () => {
  it('keeps only .toml files under the root, keyed relative to it', () => {
    const m = underRoot(['p/.jp/config.toml', 'p/.jp/notes.md', 'p/.jp/mcp/tools/a.toml', 'p/Cargo.toml', 'p/.jp/target/x.toml'], 'p/.jp');
    expect([...m.keys()]).toEqual(['config.toml', 'mcp/tools/a.toml']);
  });
});

describe('collect and readZip', () => {
  it('reads a zip of a project, only its .jp folder', async () => {
    const zip = zipSync({
      'proj/.jp/config.toml': strToU8('extends = ["tools/*.toml"]\n'),
      'proj/.jp/tools/a.toml': strToU8('[conversation.tools.a]\nsource = "local"\n'),
      'proj/.jp/README.md': strToU8('# not read'),
      'proj/Cargo.toml': strToU8('[package]\n'),
    });
    const ws = await readZip(zip, 'proj.zip');
    expect(ws.source).toBe('proj.zip: proj/.jp');
    expect(Object.keys(ws.files)).toEqual(['config.toml', 'tools/a.toml']);
    expect(ws.files['tools/a.toml']).toContain('conversation.tools.a');
  });

  it('refuses a file that is not a zip, and a folder with no .toml', async () => {
    await expect(readZip(new Uint8Array([1, 2, 3]), 'x.zip')).rejects.toThrow(/x\.zip is not a readable zip/u);
    await expect(collect([{ path: 'f/readme.md', read: () => Promise.resolve('') }], 'f')).rejects.toThrow(/holds no \.toml files/u);
  });

  it('names what was opened', () => {
    expect(displayName('jp-workspace', 'jp-workspace/.jp')).toBe('jp-workspace/.jp');
    expect(displayName('.jp', '.jp')).toBe('.jp');
    expect(displayName('ws.zip', '.jp')).toBe('ws.zip: .jp');
    expect(displayName('ws.zip', '')).toBe('ws.zip');
  });
});
