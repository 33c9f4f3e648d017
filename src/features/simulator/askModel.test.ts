// Why "Ask the model" cannot be pressed, in words shown beside it (issue 35), not only in a tooltip.
import { describe, expect, it } from 'vitest';
import { askBlockedReason } from './askModel';

describe('why Ask the model is disabled', () => {
  it('names what is missing: the open turn first, then the model name', () => {
    expect(askBlockedReason({ busy: false, stepIndex: undefined, model: 'claude-haiku-4-5' })).toMatch(/no request awaits the model/u);
    expect(askBlockedReason({ busy: false, stepIndex: 0, model: '' })).toBe('Type a model name to ask it.');
    expect(askBlockedReason({ busy: false, stepIndex: 0, model: '   ' })).toBe('Type a model name to ask it.');
  });

  it('gives no reason when it can be pressed, or while it is asking (the button says so)', () => {
    expect(askBlockedReason({ busy: false, stepIndex: 2, model: 'claude-haiku-4-5' })).toBeUndefined();
    expect(askBlockedReason({ busy: true, stepIndex: 2, model: 'claude-haiku-4-5' })).toBeUndefined();
  });
});
