// A layer's values keep where they were written as anchors (anchors.ts): one object a value, read as
// the `{ value, origin }` pair it stands for wherever a pair is read.
import { describe, expect, it } from 'vitest';
import { anchorsOf, LayerSourced, layerOrigins } from './anchors';
import { loadLayer } from './layer';
import { readConfig } from './read';
import { parseToml } from './toml';
import { sameValue } from '../turn/derivation';
import type { Origin } from './types';

const text = ['[conversation.tools.deploy]', 'summary = "Deploys an app."', '', '[conversation.tools.lint]', 'summary = "Lints."', ''].join('\n');

describe('LayerSourced', () => {
  it('is what a layer reads: each value with its layer and its span, one origin object however often asked', () => {
    const tool = loadLayer({ name: 'workspace', text }).config.tools.get('lint');
    const summary = tool?.summary;
    expect(summary).toBeInstanceOf(LayerSourced);
    expect(summary?.value).toBe('Lints.');
    expect(summary?.origin).toBe(summary?.origin);
    const at = text.indexOf('"Lints."');
    expect(summary?.origin).toMatchObject({ kind: 'layer', layer: 'workspace', span: { start: at, end: at + '"Lints."'.length } });
    // As JSON (check --json, a worker message through toJSON), the pair it stands for.
    expect(JSON.parse(JSON.stringify(summary))).toEqual({ value: 'Lints.', origin: { kind: 'layer', layer: 'workspace', span: { start: at, end: at + 8 } } });
  });

  it('reads its span through the anchors: text inserted above its section moves it', () => {
    const anchors = anchorsOf([0, 40]);
    const at = layerOrigins(anchors, 'l');
    const v = at.sourced('x', { start: 45, end: 48 });
    const span = (o: Origin) => (o.kind === 'layer' ? { start: o.span.start, end: o.span.end } : undefined);
    expect(span(v.origin)).toEqual({ start: 45, end: 48 });
    (anchors[2] as { base: number }).base += 10;
    expect(span(v.origin)).toEqual({ start: 55, end: 58 });
    expect(span(v.with(7).origin)).toEqual({ start: 55, end: 58 });
    expect(v.with(7).value).toBe(7);
  });

  it('a reader given no `sourced` gives plain pairs', () => {
    const doc = parseToml(text);
    const cfg = readConfig(doc.root, { origin: () => ({ kind: 'default' }), report: () => undefined });
    const summary = cfg.tools.get('deploy')?.summary;
    expect(summary).not.toBeInstanceOf(LayerSourced);
    expect(summary).toEqual({ value: 'Deploys an app.', origin: { kind: 'default' } });
  });

  it('equals a plain pair of the same value and origin, and no pair of another value or place', () => {
    const v = loadLayer({ name: 'workspace', text }).config.tools.get('lint')?.summary;
    if (!v) throw new Error('no summary');
    const span = { start: v.origin.kind === 'layer' ? v.origin.span.start : -1, end: v.origin.kind === 'layer' ? v.origin.span.end : -1 };
    expect(sameValue(v, { value: 'Lints.', origin: v.origin })).toBe(true);
    expect(sameValue({ value: 'Lints.', origin: v.origin }, v)).toBe(true);
    expect(sameValue(v, { value: 'Lints!', origin: v.origin })).toBe(false);
    expect(sameValue(v, { value: 'Lints.', origin: { kind: 'layer', layer: 'other', span } })).toBe(false);
    expect(sameValue(v, 'Lints.')).toBe(false);
    // Read again from the same text: equal, though every object is new.
    const again = loadLayer({ name: 'workspace', text }).config.tools.get('lint')?.summary;
    expect(again).not.toBe(v);
    expect(sameValue(v, again)).toBe(true);
  });
});
