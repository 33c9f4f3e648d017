// Numbers as JP writes them (issue 18 item 3): a float written in a layer (`1.0`, `3e2`) or in a
// tools/list file keeps serde_json's `1.0` / `300.0` in every provider's body and in the cost.
import { describe, expect, it } from 'vitest';
import { run } from '../turn/test-kit';
import { definitionCost, utf8ByteLength } from './cost';
import { toJson } from '../json/serde';
import { readCatalogue } from '../import/catalogue';
import { PROVIDER_IDS } from './types';
import { scenarioDocFromText, writeScenario } from '../scenario/doc';

const LAYER = `
[conversation.tools.'*']
enable = "on"

[conversation.tools.scale]
source = "local"
summary = "Scale a service."

[conversation.tools.scale.parameters.factor]
type = "number"
default = 1.0
enum = [3e2, 1.5, 2]
summary = "Factor."

[conversation.tools.scale.parameters.replicas]
type = "integer"
default = 3
summary = "Replicas."
`;

const BODY = `
[[steps]]
command = "jp q go"
`;

describe('floats keep their written kind through rendering and cost', () => {
  it.each(PROVIDER_IDS)('%s: the tools JSON writes 1.0 and 300.0, and integers stay integers', (provider) => {
    const t = run({ policy: { ranking: 'substring', provider }, layer: LAYER, body: BODY });
    const r = t.requests[0]?.rendered();
    expect(r).toBeDefined();
    expect(r?.toolsJson).toContain('"default":1.0');
    expect(r?.toolsJson).toContain('[300.0,1.5,2]');
    expect(r?.toolsJson).toMatch(/"default":3[,}]/);
    expect(r?.toolsJson).not.toMatch(/"default":1[,}]/);
  });

  it('definition cost counts the .0 bytes: 2 per whole float (default 1.0, enum 300.0)', () => {
    const t = run({ policy: { ranking: 'substring', provider: 'anthropic' }, layer: LAYER, body: BODY });
    const def = t.requests[0]?.definitions.get('scale');
    expect(def).toBeDefined();
    if (!def) return;
    const schema = '{"type":"object","properties":{"factor":{"type":"number","description":"Factor.","default":1.0,"enum":[300.0,1.5,2]},"replicas":{"type":"integer","description":"Replicas.","default":3}},"additionalProperties":false,"required":[]}';
    expect(definitionCost(def)).toBe(utf8ByteLength('scale') + utf8ByteLength('Scale a service.') + utf8ByteLength(schema));
    // What JSON.stringify would have counted: four bytes fewer.
    expect(utf8ByteLength(JSON.stringify(JSON.parse(schema)))).toBe(utf8ByteLength(schema) - 4);
  });

  it('a tools/list file keeps its whole floats too', () => {
    const text = '{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"x":{"type":"number","minimum":0.0,"default":2.50,"maximum":1e3}}}}]}';
    const read = readCatalogue(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const tool = read.catalogue.servers[0]?.tools[0];
    expect(toJson(tool?.inputSchema)).toBe('{"type":"object","properties":{"x":{"type":"number","minimum":0.0,"default":2.5,"maximum":1000.0}}}');
  });
});

describe('floats in a scenario call', () => {
  it('render as written in the tool call arguments, and search_tools refuses a float limit as serde would', () => {
    const t = run({
      policy: { ranking: 'substring', provider: 'openai' },
      layer: `${LAYER}\n[conversation.tools.other]\nsource = "local"\nenable = "discoverable"\nsummary = "Other."\n`,
      body: `
[[steps]]
command = "jp q go"
  [[steps.cycles]]
  calls = [ { tool = "scale", args = { factor = 2.0, replicas = 3 } }, { tool = "search_tools", args = { query = "scale", limit = 5.0 } } ]
  [[steps.cycles]]
  reply = "ok"
`,
    });
    expect(t.requests[1]?.rendered().messagesJson).toContain('"arguments":"{\\"factor\\":2.0,\\"replicas\\":3}"');
    const search = t.calls.find((c) => c.tool === 'search_tools');
    expect(search?.status).toBe('error');
    expect(search?.error).toContain('got the float 5.0');
  });
});

describe('the scenario document (the UI model) reads a whole float as its number', () => {
  it('a float in call arguments and inline tools writes back as a number, never as an object', () => {
    const text = `name = "f"
[servers.s]
tools = [ { name = "t", description = "T.", inputSchema = { type = "object", properties = { x = { type = "number", default = 1.0 } } } } ]
[[steps]]
command = "jp q go"
  [[steps.cycles]]
  calls = [ { tool = "t", args = { x = 2.0 } } ]
`;
    const read = scenarioDocFromText(text);
    if (!read.ok) throw new Error(read.errors.map((e) => e.message).join('; '));
    const written = writeScenario(read.doc);
    expect(written).toContain('default = 1');
    expect(written).toContain('x = 2');
    expect(written).not.toContain('value');
  });
});
