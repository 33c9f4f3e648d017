import { describe, expect, it } from 'vitest';
import { describeToolsDefinition, searchToolsDefinition } from './builtins';
import { parametersSchema } from './schema';
import { definitionCost } from '../providers/cost';

describe('describe_tools', () => {
  it('is a builtin run unattended, with only a description (summary falls back to it)', () => {
    expect(describeToolsDefinition.kind).toBe('builtin');
    expect(describeToolsDefinition.run).toBe('unattended');
    expect(describeToolsDefinition.schemaDescription).toBe(
      'Get detailed descriptions and usage examples for one or more tools.',
    );
    expect(describeToolsDefinition.required).toEqual(['tools']);
  });

  it('renders the parameters schema JP renders (181 bytes)', () => {
    const json = JSON.stringify(parametersSchema(describeToolsDefinition));
    expect(json).toBe(
      '{"type":"object","properties":{"tools":{"type":"array","description":"Array of tool names to describe","items":{"type":"string"}}},"additionalProperties":false,"required":["tools"]}',
    );
    expect(json.length).toBe(181);
  });

  it('costs 14 + 67 + 181 = 262 bytes', () => {
    expect(describeToolsDefinition.name.length).toBe(14);
    expect(describeToolsDefinition.schemaDescription?.length).toBe(67);
    expect(definitionCost(describeToolsDefinition)).toBe(262);
  });
});

describe('search_tools', () => {
  it('has query (string, required) then limit (integer 1..50, default 10)', () => {
    const def = searchToolsDefinition;
    expect(def.kind).toBe('builtin');
    expect(def.run).toBe('unattended');
    expect(def.schemaDescription).toBe('Search the available tools by keyword and load the matches into context.');
    expect([...def.parameters.keys()]).toEqual(['query', 'limit']);
    expect(def.required).toEqual(['query']);
    const schema = parametersSchema(def) as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.query).toMatchObject({ type: 'string' });
    expect(schema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(typeof schema.properties.query?.description).toBe('string');
    expect(typeof schema.properties.limit?.description).toBe('string');
    expect([...def.docs.parameters.keys()]).toEqual(['query', 'limit']);
  });
});
