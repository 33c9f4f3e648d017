// Several assignments made as one config delta (one `jp q` with several `--cfg`, one `jp config set
// --id` with several KEY=VALUE, one approved tool call with several writes): they are applied in the
// order written, so for each field the later assignment wins (jp-today 3.3 "in command-line order").
// One row per enable field, each played through every path that gathers assignments into a delta.
import { describe, expect, it } from 'vitest';
import { layer, scenario, step, stepErrors, timelineOf } from '../scenario/test-helpers';

const BASE = layer('[conversation.tools.x]\nsource = "local"\nenable = { availability = "on", allow_toggle = "any" }\n[conversation.tools.admin]\nsource = "local"\n');

// [the two assignments' key suffix after conversation.tools.x.enable, the first value, the second value]
const ROWS: readonly (readonly [string, string, string])[] = [
  ['.availability', 'off', 'discoverable'],
  ['.availability', 'discoverable', 'off'],
  ['.allow_toggle', 'never', 'if_named'],
  ['.allow_toggle', 'if_named', 'never'],
  ['', 'off', 'discoverable'],
];

/** The tool's effective [availability, allow_toggle] at the last position. */
function finalEnable(text: string): [string, string] {
  const t = timelineOf(text);
  expect(stepErrors(t).filter((e) => e !== undefined)).toEqual([]);
  const state = t.engine.state('x');
  return [state?.enable.availability.value ?? 'none', state?.enable.allowToggle.value ?? 'none'];
}

/** What the second assignment alone would leave (the first one overwritten wherever the second writes). */
function secondAlone(key: string, second: string): [string, string] {
  return finalEnable(scenario(BASE, step(`jp q --cfg 'conversation.tools.x.enable${key}=${second}' hi`)));
}

describe('several assignments in one delta: the later one wins each field it writes', () => {
  it.each(ROWS)('--cfg x.enable%s=%s then =%s', (key, first, second) => {
    const got = finalEnable(scenario(BASE, step(`jp q --cfg 'conversation.tools.x.enable${key}=${first}' --cfg 'conversation.tools.x.enable${key}=${second}' hi`)));
    expect(got).toEqual(secondAlone(key, second));
    expect(got).not.toEqual(secondAlone(key, first));
  });

  it.each(ROWS)('jp config set --id x.enable%s=%s then =%s', (key, first, second) => {
    const got = finalEnable(scenario(BASE, step(`jp config set --id conversation.tools.x.enable${key}=${first} conversation.tools.x.enable${key}=${second}`)));
    expect(got).toEqual(secondAlone(key, second));
    expect(got).not.toEqual(secondAlone(key, first));
  });

  it.each(ROWS)('one tool call writing x.enable%s=%s then =%s', (key, first, second) => {
    const calls = `[ { tool = "admin", args = {}, writes = ["conversation.tools.x.enable${key}=${first}", "conversation.tools.x.enable${key}=${second}"], approved = true } ]`;
    const got = finalEnable(scenario(BASE, step("jp q 'go'", undefined, `[[steps.cycles]]\ncalls = ${calls}\n[[steps.cycles]]\nreply = "done"\n`)));
    expect(got).toEqual(secondAlone(key, second));
    expect(got).not.toEqual(secondAlone(key, first));
  });
});
