// describe_tools' text as the model reads it (describe.ts, issue 35): a section per described tool with
// its summary, a description only where it says more, examples, and the parameters that have more than
// a summary; the names it cannot describe listed after them.
import { describe, expect, it } from 'vitest';
import { run, turn } from './test-kit';

const LAYER = `[conversation.tools.full]
source = "local"
enable = "on"
summary = "Full."
description = "Full in detail."
examples = "full --fast"

[conversation.tools.full.parameters.p1]
type = "string"
summary = "P one."
description = "P one in detail."
examples = "p1 = 1"

[conversation.tools.full.parameters.p2]
type = "string"
summary = "P two only."

[conversation.tools.full.parameters.p3]
type = "string"
summary = "P three."
description = "P three."

[conversation.tools.full.parameters.p4]
type = "string"
examples = "p4 = 4"

[conversation.tools.full.parameters.p5]
type = "string"
summary = "P five."
examples = "p5 = 5"

[conversation.tools.same]
source = "local"
enable = "on"
summary = "Same."
description = "Same."

[conversation.tools.bare]
source = "local"
enable = "on"

[conversation.tools.short]
source = "local"
enable = "on"
summary = "Short."
`;

const describeResult = (tools: string): string | undefined => run({ layer: LAYER, body: turn('jp q go', [[`{ tool = "describe_tools", args = { tools = ${tools} } }`]]) }).calls[0]?.result;

describe('the text of describe_tools', () => {
  it('every part of a section, sections split by a rule, then the names without documentation', () => {
    expect(describeResult('["full", "same", "bare", "short", "nope", "x"]')).toBe(
      [
        '## full\n\nFull.\n\nFull in detail.\n\n### Examples\n\nfull --fast\n\n### Parameters\n\n',
        '#### `p1`\n\nP one.\n\nP one in detail.\n\np1 = 1\n\n#### `p3`\n\nP three.\n\n#### `p4`\n\np4 = 4\n\n#### `p5`\n\nP five.\n\np5 = 5',
        '\n---\n\n## same\n\nSame.',
        '\n---\n\n## bare',
        '\n---\n\n## short\n\nShort.',
        '\n\nNo additional documentation available for: nope, x',
      ].join(''),
    );
  });

  it('one tool: its section alone; only unknown names: the list alone', () => {
    expect(describeResult('["same"]')).toBe('## same\n\nSame.');
    expect(describeResult('["nope"]')).toBe('No additional documentation available for: nope');
  });
});

describe('describe_tools given no list of names', () => {
  it.each(['5', '"same"', '["same"]', '{ tools = ["same", 1] }', '{ tool = ["same"] }'])('args = %s: the invalid-parameter error', (args) => {
    const c = run({ layer: LAYER, body: turn('jp q go', [[`{ tool = "describe_tools", args = ${args} }`]]) }).calls[0];
    expect([c?.status, c?.result]).toEqual(['error', 'Missing or invalid `tools` parameter.']);
  });
});
