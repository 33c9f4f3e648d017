// The project's prompt-cache scenario, checked with the tokenizer the command line and the workbench use.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario/report';
import { createTokenCounter } from '../providers/tokens';

const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scenarios/prompt-cache-openai.toml');

describe('scenarios/prompt-cache-openai.toml', () => {
  it('pins what an appended promotion reads from the cache on OpenAI, and the expiry', async () => {
    const counter = await createTokenCounter();
    const text = readFileSync(file, 'utf8');
    const report = checkScenario('prompt-cache-openai.toml', text, {}, {}, { counter });
    expect(report.failures).toEqual([]);
    expect(report.expectations.filter((e) => e.key === 'cache_tokens')).toHaveLength(2);
    // The same conversation in config order reads nothing at the promotion: the pin then fails.
    const order = checkScenario('x', text.replace('\npromoted_position = "append"\n', '\npromoted_position = "config_order"\n'), {}, {}, { counter });
    const pin = order.expectations.find((e) => e.key === 'cache_tokens');
    expect(pin).toMatchObject({ pass: false, actual: { read: 0 } });
  });
});
