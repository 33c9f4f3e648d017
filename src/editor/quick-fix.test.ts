import { describe, expect, it } from 'vitest';
import { loadLayer } from '../core';
import { applySplice, keepAvailabilityFix } from './quick-fix';

/** Applies the fix at the `enable-both-keys` diagnostic the core reports. */
function fix(text: string): string | undefined {
  const d = loadLayer({ name: 'l', text }).diagnostics.find((x) => x.code === 'enable-both-keys');
  expect(d, 'the core reports enable-both-keys').toBeDefined();
  const s = keepAvailabilityFix(text, d?.span?.start ?? 0);
  return s ? applySplice(text, s) : undefined;
}

describe('keep availability (remove the legacy state)', () => {
  it.each([
    ['state first in an inline table', '[conversation.tools.x]\nenable = { state = false, availability = "on" }\n', '[conversation.tools.x]\nenable = { availability = "on" }\n'],
    ['state last in an inline table', '[conversation.tools.x]\nenable = { availability = "on", state = false }\n', '[conversation.tools.x]\nenable = { availability = "on" }\n'],
    ['state between, in a tool written inline', '[conversation.tools]\nx = { enable = { allow_toggle = "any", state = true ,  availability = "off" } }\n', '[conversation.tools]\nx = { enable = { allow_toggle = "any", availability = "off" } }\n'],
    ['an [enable] table', '[conversation.tools.x.enable]\nstate = false\navailability = "on"\n', '[conversation.tools.x.enable]\navailability = "on"\n'],
    ['a trailing comment stays', '[conversation.tools.x.enable]\navailability = "on"\nstate = true # old\n', '[conversation.tools.x.enable]\navailability = "on"\n# old\n'],
    ['dotted keys', '[conversation.tools.x]\nenable.state = false\nenable.availability = "on"\nrun = "ask"\n', '[conversation.tools.x]\nenable.availability = "on"\nrun = "ask"\n'],
    ["the defaults table", "[conversation.tools.'*']\nenable = { availability = \"discoverable\", state = false }", "[conversation.tools.'*']\nenable = { availability = \"discoverable\" }"],
    ['the last line without a newline', '[conversation.tools.x.enable]\navailability = "on"\nstate = true', '[conversation.tools.x.enable]\navailability = "on"'],
  ])('%s', (_, before, after) => {
    const out = fix(before);
    expect(out).toBe(after);
    expect(loadLayer({ name: 'l', text: out ?? '' }).diagnostics).toEqual([]);
  });

  it('picks the table nearest the diagnostic when several have both keys', () => {
    const text = '[conversation.tools.a]\nenable = { state = false, availability = "on" }\n[conversation.tools.b]\nenable = { availability = "off", state = true }\n';
    const at = text.indexOf('state = true');
    const s = keepAvailabilityFix(text, at);
    expect(s && applySplice(text, s)).toBe('[conversation.tools.a]\nenable = { state = false, availability = "on" }\n[conversation.tools.b]\nenable = { availability = "off" }\n');
  });

  it('nothing to fix without both keys', () => {
    expect(keepAvailabilityFix('[conversation.tools.x]\nenable = { state = false }\n', 30)).toBeUndefined();
  });

  it('works when a later part of the file does not parse', () => {
    const text = '[conversation.tools.x]\nenable = { state = false, availability = "on" }\n[[[broken';
    const s = keepAvailabilityFix(text, text.indexOf('state'));
    expect(s && applySplice(text, s)).toBe('[conversation.tools.x]\nenable = { availability = "on" }\n[[[broken');
  });
});
