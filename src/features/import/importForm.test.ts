import { describe, expect, it } from 'vitest';
import { DEFAULT_KEEP } from '../../core';
import type { ImportPreview } from '../../derive/serversProtocol';
import { DEFAULT_URL, importForm, initialForm, policyOf, previewRequest, problemsOf, serverNamesOf } from './importForm';
import type { ImportAction, ImportForm } from './importForm';

const run = (form: ImportForm, ...actions: ImportAction[]): ImportForm => actions.reduce(importForm, form);
const common = { policy: { kind: 'on' as const, keep: 0, offDestructive: false }, serverNames: [], revision: 3 };

describe('the import form', () => {
  it('opens on its source', () => {
    expect(initialForm({ kind: 'paste' })).toMatchObject({ tab: 'paste', file: undefined, refused: undefined, url: DEFAULT_URL, keep: DEFAULT_KEEP, kind: 'discoverable', offDestructive: true });
    expect(initialForm({ kind: 'url', url: 'http://127.0.0.1:9/mcp' })).toMatchObject({ tab: 'url', url: 'http://127.0.0.1:9/mcp' });
    expect(initialForm({ kind: 'file', fileName: 'a.json', text: '{}' })).toMatchObject({ tab: 'file', file: { name: 'a.json', text: '{}', version: 1 } });
    expect(initialForm({ kind: 'refused', fileName: 'a.json', error: 'too big' })).toMatchObject({ tab: 'file', file: undefined, refused: 'too big' });
  });

  it('a new file clears the refusal and the server names; each read is a new version', () => {
    const refused = initialForm({ kind: 'refused', fileName: 'a.json', error: 'too big' });
    const named = run(refused, { type: 'server-renamed', index: 1, name: 'gh' });
    expect(serverNamesOf(named.names)).toEqual(['', 'gh']);
    const read = run(named, { type: 'file-picked' }, { type: 'file-read', name: 'b.json', text: '[]' });
    expect(read).toMatchObject({ refused: undefined, names: {}, file: { name: 'b.json', version: 1 } });
    expect(run(read, { type: 'file-read', name: 'b.json', text: '[]' }).file?.version).toBe(2);
    expect(run(read, { type: 'file-picked' }, { type: 'file-refused', error: 'not JSON' })).toMatchObject({ file: undefined, refused: 'not JSON' });
  });

  it('pasted text is previewed once it settles, as a new version only when it changed', () => {
    const typed = run(initialForm({ kind: 'paste' }), { type: 'paste-typed', text: '{"tools": []}' });
    expect(previewRequest(typed, common, undefined).params).toBeUndefined();
    const settled = run(typed, { type: 'paste-settled' });
    expect(settled.pasted).toEqual({ text: '{"tools": []}', version: 1 });
    expect(run(settled, { type: 'paste-settled' })).toBe(settled);
    expect(previewRequest(settled, common, undefined)).toMatchObject({ sourceId: 'paste:1', params: { origin: 'pasted JSON', revision: 3 } });
  });

  it('numbers typed are clamped as the fields promise', () => {
    const f = initialForm({ kind: 'url' });
    expect(run(f, { type: 'keep-typed', value: '-4' }).keep).toBe(0);
    expect(run(f, { type: 'keep-typed', value: '7.9' }).keep).toBe(7);
    expect(run(f, { type: 'keep-typed', value: '' }).keep).toBe(0);
    expect(run(f, { type: 'timeout-typed', value: '' }).timeoutSec).toBe(1);
    expect(run(f, { type: 'timeout-typed', value: '45' }).timeoutSec).toBe(45);
  });

  it('per-server modes enter the policy only under per-server', () => {
    const f = run(initialForm({ kind: 'paste' }), { type: 'server-mode-chosen', server: 'gh', mode: 'off' });
    expect(policyOf(f)).toEqual({ kind: 'discoverable', keep: DEFAULT_KEEP, offDestructive: true });
    expect(policyOf(run(f, { type: 'policy-chosen', kind: 'per-server' }))).toEqual({ kind: 'per-server', keep: DEFAULT_KEEP, offDestructive: true, servers: [['gh', 'off']] });
  });

  it('a live server is previewed from its listed tools, once tried', () => {
    const f = run(initialForm({ kind: 'url' }), { type: 'url-typed', url: 'http://127.0.0.1:5/mcp' });
    const live = { tools: [{ name: 'x' }], bytes: 20, fetchedAt: 9 };
    expect(previewRequest(f, common, live).params).toBeUndefined();
    const tried = run(f, { type: 'server-tried', url: 'http://127.0.0.1:5/mcp' });
    expect(previewRequest(tried, common, live)).toMatchObject({ sourceId: 'live:http://127.0.0.1:5/mcp:9', params: { url: 'http://127.0.0.1:5/mcp', source: { kind: 'tools', bytes: 20 } } });
    expect(previewRequest(run(tried, { type: 'tab-chosen', tab: 'paste' }), common, live).sourceId).toBe('none');
  });

  it('a server tried through the bridge is recorded at its own URL, not at the bridge\'s endpoint', () => {
    const live = { tools: [], bytes: 20, fetchedAt: 9 };
    const endpoint = 'http://127.0.0.1:7/bridge/mcp/everything';
    const tried = run(initialForm({ kind: 'url' }), { type: 'server-tried', url: endpoint });
    const r = previewRequest(tried, common, live, 'http://127.0.0.1:5/mcp');
    // The source stays the endpoint's (the session's), the scenario gets the server's own URL.
    expect(r.sourceId).toBe(`live:${endpoint}:9`);
    expect(r.params).toMatchObject({ origin: 'http://127.0.0.1:5/mcp', url: 'http://127.0.0.1:5/mcp' });
    expect(previewRequest(tried, common, live).params).toMatchObject({ url: endpoint });
  });

  it('problems: the refused file (on its tab), the preview\'s errors, then a failed preview', () => {
    const refused = initialForm({ kind: 'refused', fileName: 'a.json', error: 'too big' });
    const bad: ImportPreview = { ok: false, errors: ['line 1: not a tools/list'] };
    expect(problemsOf(refused, bad, null, true)).toEqual(['too big']);
    expect(problemsOf(run(refused, { type: 'tab-chosen', tab: 'paste' }), bad, null, true)).toEqual(['line 1: not a tools/list']);
    const paste = initialForm({ kind: 'paste' });
    expect(problemsOf(paste, undefined, new Error('worker gone'), true)).toEqual(['the catalogue could not be read: worker gone']);
    expect(problemsOf(paste, undefined, new Error('worker gone'), false)).toEqual([]);
  });
});
