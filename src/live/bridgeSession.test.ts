// Headers typed for an HTTP server reached through the bridge: `Name: value` lines.
import { describe, expect, it } from 'vitest';
import { parseHeaderLines } from './bridgeSession';

describe('parseHeaderLines', () => {
  it('reads one header a line, skipping blank lines, keeping colons in values', () => {
    expect(parseHeaderLines('Authorization: Bearer a:b\n\n  X-Api-Key:k  \n')).toEqual({ headers: { Authorization: 'Bearer a:b', 'X-Api-Key': 'k' } });
  });

  it('names the line that is not a header', () => {
    expect(parseHeaderLines('X-Ok: 1\nnot a header')).toEqual({ error: 'line 2: write a header as Name: value' });
    expect(parseHeaderLines('Bad Name: 1')).toEqual({ error: 'line 1: write a header as Name: value' });
  });
});
