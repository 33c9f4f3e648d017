// The stdio reader's cap (issue 27.4): a message line may be exactly the cap, split over any
// chunks; one byte more fails the server, and none of that line's bytes are kept.
import { describe, expect, it } from 'vitest';
import { LineReader, LineTooLong } from './stdio';

describe('LineReader', () => {
  const CAP = 16;

  it('passes a line of exactly the cap, however the chunks split it', () => {
    const line = 'x'.repeat(CAP);
    for (let cut = 0; cut <= CAP; cut++) {
      const r = new LineReader(CAP);
      expect([...r.push(Buffer.from(line.slice(0, cut))), ...r.push(Buffer.from(`${line.slice(cut)}\n`))]).toEqual([line]);
    }
  });

  it('fails a line one byte over the cap as soon as it passes it, split or not', () => {
    expect(() => new LineReader(CAP).push(Buffer.from(`${'x'.repeat(CAP + 1)}\n`))).toThrow(LineTooLong);
    const r = new LineReader(CAP);
    expect(r.push(Buffer.from('x'.repeat(CAP)))).toEqual([]);
    expect(() => r.push(Buffer.from('y'))).toThrow(/a message line over/u);
  });

  it('counts bytes, not characters: a multi-byte character that crosses the cap fails the line', () => {
    expect(new LineReader(CAP).push(Buffer.from(`${'x'.repeat(CAP - 2)}é\n`))).toEqual([`${'x'.repeat(CAP - 2)}é`]);
    expect(() => new LineReader(CAP).push(Buffer.from(`${'x'.repeat(CAP - 1)}é\n`))).toThrow(LineTooLong);
  });

  it('reads many short lines from one chunk, CR LF or LF', () => {
    expect(new LineReader(CAP).push(Buffer.from('a\r\nb\n\nc\n'))).toEqual(['a', 'b', '', 'c']);
  });
});
