import { describe, expect, it } from 'vitest';
import { loadLayer } from '../config/layer';
import { resolveTool, resolvedSearchDocument } from './resolve';
import type { SimServer } from './resolve';
import { searchDocument } from './search-document';
import type { McpToolEntry } from './tools-list';

const LAYER = `
[conversation.tools.a]
source = "mcp.x.a"
description = "Ours {{description}} more. Next"
[conversation.tools.a.parameters.p]
description = "pre {{description}}"
summary = "P."
[conversation.tools.a.parameters.__proto__]
description = "Proto. Param"
[conversation.tools.a.parameters.nope]
summary = "Not on the server"
[conversation.tools.b]
source = "mcp.x.b"
summary = "B."
[conversation.tools.c]
source = "mcp.x.c"
[conversation.tools.d]
source = "local"
summary = "D."
[conversation.tools.d.parameters.p]
examples = ["a", 1]
[conversation.tools.d.parameters.q]
summary = "Same"
description = "Same"
[conversation.tools.d.parameters.r]
description = "Only a description. Of r"
[conversation.tools.e]
source = "builtin.thing"
description = "E only\\nsecond line"
[conversation.tools.f]
source = "local"
`;

const entries: McpToolEntry[] = [
  {
    name: 'a',
    description: 'Server a. Does things.\nMore',
    inputSchema: JSON.parse('{"type":"object","properties":{"p":{"type":"string","description":"Server p. More."},"__proto__":{"description":5},"z":[1],"w":{"description":"W. x"}},"required":["p"]}') as Record<string, unknown>,
  },
  { name: 'b', description: '', inputSchema: { properties: { x: { type: 'string' }, y: { description: 'Y desc\nmore' } } } },
  { name: 'c', description: 'No sentence end', inputSchema: { properties: 'not an object' } },
];
const servers = new Map<string, SimServer>([['x', { name: 'x', status: 'running', tools: new Map(entries.map((e) => [e.name, e])) }]]);

describe('resolvedSearchDocument', () => {
  it("equals the definition's search document, whether or not the definition is built yet", () => {
    const { config, diagnostics } = loadLayer({ name: 'l', text: LAYER });
    expect(diagnostics).toEqual([]);
    expect(config.tools.size).toBe(6);
    for (const tool of config.tools.values()) {
      const fresh = resolveTool(tool, 'ask', servers);
      const built = resolveTool(tool, 'ask', servers);
      if (!fresh.ok || !built.ok) throw new Error(`${tool.name} does not resolve`);
      const expected = searchDocument(built.definition, 3);
      expect(resolvedSearchDocument(fresh, 3), tool.name).toStrictEqual(expected);
      expect(resolvedSearchDocument(built, 3), tool.name).toStrictEqual(expected);
    }
  });
});
