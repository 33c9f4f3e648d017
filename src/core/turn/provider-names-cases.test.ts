// Load diagnostics of a tool declared in a layer other than the first (issue 35: survivors of
// provider-names.ts and run.ts's missingSources): each is placed by its own layer's text, at the line
// and column of its table header there, not by another layer's.
import { describe, expect, it } from 'vitest';
import { run } from './test-kit';

const BASE = `[conversation.tools.first]
source = "local"`;

const SECOND = `# the second layer

[conversation.tools.fine]
source = "local"

[conversation.tools.'bad name']
source = "local"

   [conversation.tools.nosource]
summary = "No source."`;

describe('a load diagnostic of a tool in the second layer', () => {
  it('the provider\'s refused name and the missing source, at their headers in that layer', () => {
    const t = run({ policy: { ranking: 'substring', provider: 'anthropic' }, layers: [{ name: 'base', text: BASE }, { name: 'second', text: SECOND }], body: '[[steps]]\ncommand = "jp q go"' });
    const at = (code: string): unknown[] => t.diagnostics.filter((d) => d.code === code).map((d) => [d.severity, d.layer, d.line, d.column]);
    expect(at('provider-rule')).toEqual([['error', 'second', 6, 21]]);
    expect(at('missing-source')).toEqual([['warning', 'second', 9, 24]]);
  });
});
