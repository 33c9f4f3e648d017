// A catalogue's own sizes for the break-even sweep: the tokens of each tool definition as the
// timeline's provider renders it, split into the tools offered from the start and the discoverable
// ones, plus the builtins and the system prompt.
import { describeToolsDefinition, searchToolsDefinition } from '../catalogue/builtins';
import type { ToolDefinition } from '../catalogue/types';
import { renderRequest } from '../providers/render';
import type { ProviderId } from '../providers/types';
import { SYSTEM_PROMPT } from '../turn/request';
import type { Timeline } from '../turn/timeline';
import { everDiscoverable } from './counterfactual';
import { requestSegments } from './segments';
import type { TokenMemo } from './segments';

export interface CatalogueSizes {
  readonly onTools: readonly number[];
  readonly discoverableTools: readonly number[];
  readonly discoverableNames: readonly string[];
  readonly builtins: { readonly describe: number; readonly search: number };
  readonly systemTokens: number;
}

/** Tokens of each definition, rendered as one array for the provider (each element with its separator). */
function renderedSizes(provider: ProviderId, defs: readonly ToolDefinition[], memo: TokenMemo): { tools: number[]; system: number } {
  const rendered = renderRequest({ provider: provider === 'anthropic-directives' ? 'anthropic' : provider, tools: defs, toolChoice: { kind: 'auto' }, system: SYSTEM_PROMPT, messages: [] });
  const segments = requestSegments(rendered, memo);
  return { tools: segments.filter((s) => s.section === 'tools').map((s) => s.tokens), system: segments.find((s) => s.section === 'system')?.tokens ?? 0 };
}

export function catalogueSizes(t: Timeline, memo: TokenMemo, provider: ProviderId = t.policy.provider): CatalogueSizes {
  const discoverable = everDiscoverable(t);
  const isDiscoverable = new Set(discoverable);
  const states = t.statesAt(0);
  const on: ToolDefinition[] = [];
  const disc: ToolDefinition[] = [];
  for (const s of states.values()) {
    if (!s.resolution.ok) continue;
    if (isDiscoverable.has(s.name)) disc.push(s.resolution.definition);
    else if (s.enable.availability.value === 'on') on.push(s.resolution.definition);
  }
  const all = renderedSizes(provider, [...on, ...disc, describeToolsDefinition, searchToolsDefinition], memo);
  const n = on.length;
  return {
    onTools: all.tools.slice(0, n),
    discoverableTools: all.tools.slice(n, n + disc.length),
    discoverableNames: disc.map((d) => d.name),
    builtins: { describe: all.tools[n + disc.length] ?? 0, search: all.tools[n + disc.length + 1] ?? 0 },
    systemTokens: all.system,
  };
}

