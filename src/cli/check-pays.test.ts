// `tool-workbench check` pays only for what it prints (issue 23.5): a plain check renders no request
// (not even its messages to bytes) and prices nothing, unless an expectation key, `--json`, `--bodies`
// or `--cost` needs it. Counted at the two doors every rendering and every price goes through.
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layer, scenarioText, search, turn } from '../core/turn/test-kit';
import { main } from './main';
import type { Io } from './main';
import type * as Render from '../core/providers/render';
import type * as Cost from '../core/providers/cost';

const counts = vi.hoisted(() => ({ render: 0, price: 0 }));

vi.mock('../core/providers/render', async (importOriginal) => {
  const real = await importOriginal<typeof Render>();
  return {
    ...real,
    renderRequest: (...args: Parameters<typeof real.renderRequest>) => {
      counts.render++;
      return real.renderRequest(...args);
    },
  };
});

vi.mock('../core/providers/cost', async (importOriginal) => {
  const real = await importOriginal<typeof Cost>();
  return {
    ...real,
    definitionCost: (...args: Parameters<typeof real.definitionCost>) => {
      counts.price++;
      return real.definitionCost(...args);
    },
  };
});

function check(args: readonly string[], text: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readFile: (p) => {
      if (resolve(p) !== resolve('s.toml')) throw new Error(`ENOENT: no such file, open '${p}'`);
      return text;
    },
  };
  return { code: main(['check', ...args, 's.toml'], io), out, err };
}

const tools = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`tool_${i}`, { ...(i % 5 === 0 ? { enable: '"on"' } : {}), summary: `Tool ${i} reads files number ${i}.` }]));
const body = (expect: string): string => [turn('jp q one', [[search('files', 3)]]), turn('jp q two', [[search('reads', 2)]]), `[[steps]]\ncommand = "jp q three"\n  [[steps.cycles]]\n  reply = "ok"\n  expect = { ${expect} }\n`].join('\n');

afterEach(() => {
  counts.render = 0;
  counts.price = 0;
});

describe('check pays only for what it prints', () => {
  it('a plain check with set expectations renders nothing and prices nothing', () => {
    const r = check([], scenarioText({ layer: layer(tools), body: body('offered_includes = ["tool_0"]') }));
    expect(r.out).toContain('1 passed, 0 failed');
    expect(counts).toEqual({ render: 0, price: 0 });
  });

  it('a cache expectation renders; an overhead_chars expectation prices', () => {
    check([], scenarioText({ layer: layer(tools), body: body('cache = "hit"') }));
    expect(counts.render).toBeGreaterThan(0);
    expect(counts.price).toBe(0);
    counts.render = 0;
    check([], scenarioText({ layer: layer(tools), body: body('overhead_chars = { offered = 1 }') }));
    expect(counts.price).toBeGreaterThan(0);
  });

  it('--json renders every request and prices it', () => {
    const r = check(['--json'], scenarioText({ layer: layer(tools), body: body('offered_includes = ["tool_0"]') }));
    expect(r.code).toBe(0);
    expect(counts.render).toBeGreaterThan(0);
    expect(counts.price).toBeGreaterThan(0);
  });
});
