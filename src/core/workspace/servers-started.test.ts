// Which servers JP starts (jp-today §1.6, §4.7; RFD 108 phase 2): a table over enable forms,
// the '*' layer, layers that turn a tool off, and servers no tool names.
import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import { mergeConfigs } from '../config/merge';
import { EMPTY_CONFIG } from '../config/read';
import { serversJpStarts } from './servers-started';

const tool = (name: string, server: string, enable?: string) => `[conversation.tools.${name}]\nsource = "mcp.${server}"\n${enable !== undefined ? `enable = ${enable}\n` : ''}`;
const merged = (...texts: string[]) => texts.map((text, i) => loadLayer({ name: `l${i + 1}`, text }).config).reduce(mergeConfigs, EMPTY_CONFIG);

describe('serversJpStarts', () => {
  const cases: { name: string; layers: string[]; declared: string[]; discoverable?: boolean; started: string[]; notStarted: string[] }[] = [
    { name: 'a tool with no enable is on (the fallback): its server starts', layers: [tool('read', 'fs')], declared: ['fs'], started: ['fs'], notStarted: [] },
    { name: 'a server no tool names is not started', layers: [tool('read', 'fs')], declared: ['fs', 'memory'], started: ['fs'], notStarted: ['memory'] },
    { name: 'a server whose only tool is off is not started', layers: [tool('read', 'fs', 'false')], declared: ['fs'], started: [], notStarted: ['fs'] },
    { name: '"explicit" is off until named: not started', layers: [tool('read', 'fs', '"explicit"')], declared: ['fs'], started: [], notStarted: ['fs'] },
    { name: 'one on tool of several starts the server', layers: [tool('read', 'fs', 'false') + tool('write', 'fs', '"on"')], declared: ['fs'], started: ['fs'], notStarted: [] },
    { name: 'a discoverable tool starts its server under RFD 108', layers: [tool('search', 'docs', '"discoverable"')], declared: ['docs'], started: ['docs'], notStarted: [] },
    { name: 'today, with no discoverable, it does not', layers: [tool('search', 'docs', '"discoverable"')], declared: ['docs'], discoverable: false, started: [], notStarted: ['docs'] },
    { name: "'*' off turns off every tool without its own enable", layers: [`[conversation.tools.'*']\nenable = false\n${tool('read', 'fs')}${tool('note', 'memory', 'true')}`], declared: ['fs', 'memory'], started: ['memory'], notStarted: ['fs'] },
    { name: 'a later layer turning the tool off wins', layers: [tool('read', 'fs', 'true'), '[conversation.tools.read]\nenable = false\n'], declared: ['fs'], started: [], notStarted: ['fs'] },
    { name: 'a later layer turning it on wins', layers: [tool('read', 'fs', 'false'), '[conversation.tools.read]\nenable = { availability = "on" }\n'], declared: ['fs'], started: ['fs'], notStarted: [] },
    { name: 'local and builtin tools start nothing', layers: ['[conversation.tools.x]\nsource = "local"\n[conversation.tools.y]\nsource = "builtin"\n'], declared: ['fs'], started: [], notStarted: ['fs'] },
    { name: 'a tool naming an undeclared server starts nothing', layers: [tool('read', 'ghost')], declared: ['fs'], started: [], notStarted: ['fs'] },
    { name: 'declaration order, not tool order', layers: [tool('a', 'second') + tool('b', 'first')], declared: ['first', 'second'], started: ['first', 'second'], notStarted: [] },
  ];

  it.each(cases)('$name', ({ layers, declared, discoverable, started, notStarted }) => {
    const r = serversJpStarts(merged(...layers), declared, discoverable !== undefined ? { discoverable } : {});
    expect(r.started.map((s) => s.server)).toEqual(started);
    expect(r.notStarted.map((s) => s.server)).toEqual(notStarted);
  });

  it('names the tools that need a server, and why another is left alone', () => {
    const r = serversJpStarts(merged(tool('read', 'fs') + tool('write', 'fs', 'false') + tool('note', 'memory', 'false')), ['fs', 'memory', 'spare']);
    expect(r.started).toEqual([{ server: 'fs', tools: ['read'] }]);
    expect(r.notStarted).toEqual([
      { server: 'memory', named: true, reason: 'no enabled tool uses it (note is off)' },
      { server: 'spare', named: false, reason: 'no tool names it (source = "mcp.spare")' },
    ]);
  });
});
