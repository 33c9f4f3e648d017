import { describe, expect, it } from 'vitest';
import { applySplice } from './quick-fix';
import { summaryFix } from './findability-fix';

const layer = `[conversation.tools.notify] # pages people
source = "local"

[conversation.tools.other]
source = "local"
`;

describe('findability quick fix', () => {
  it('adds a summary to the tool\'s table, keeping every other byte', () => {
    const s = summaryFix(layer, 'notify', 'Page the "on-call" engineer.');
    expect(s && applySplice(layer, s)).toBe(`[conversation.tools.notify] # pages people
source = "local"
summary = "Page the \\"on-call\\" engineer."

[conversation.tools.other]
source = "local"
`);
  });

  it('replaces a summary in place', () => {
    const text = '[conversation.tools.notify]\nsummary = "Notify."\n';
    const s = summaryFix(text, 'notify', 'Notify (page, oncall).');
    expect(s && applySplice(text, s)).toBe('[conversation.tools.notify]\nsummary = "Notify (page, oncall)."\n');
  });

  it('nothing to do when the summary is already that, or the layer does not parse', () => {
    expect(summaryFix('[conversation.tools.notify]\nsummary = "A."\n', 'notify', 'A.')).toBeUndefined();
    expect(summaryFix('[conversation.tools.notify\n', 'notify', 'A.')).toBeUndefined();
  });
});
