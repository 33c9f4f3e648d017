// Effective values (semantics section 1): each enable field separately, the
// tool's own value, else '*', else on / any.
import type { EffectiveEnable, RunMode, ToolConfig, ToolDefaults } from './types';
import type { EffectiveField, AllowToggle, Availability } from './types';

const FALLBACK_AVAILABILITY: EffectiveField<Availability> = { value: 'on', from: 'fallback', origin: { kind: 'default' } };
const FALLBACK_ALLOW: EffectiveField<AllowToggle> = { value: 'any', from: 'fallback', origin: { kind: 'default' } };

export function effectiveEnable(tool: ToolConfig | undefined, defaults: ToolDefaults): EffectiveEnable {
  const ta = tool?.enable.availability;
  const tt = tool?.enable.allowToggle;
  const da = defaults.enable.availability;
  const dt = defaults.enable.allowToggle;
  return {
    availability: ta ? { value: ta.value, from: 'tool', origin: ta.origin } : da ? { value: da.value, from: 'defaults', origin: da.origin } : FALLBACK_AVAILABILITY,
    allowToggle: tt ? { value: tt.value, from: 'tool', origin: tt.origin } : dt ? { value: dt.value, from: 'defaults', origin: dt.origin } : FALLBACK_ALLOW,
  };
}

/** `run` falls back whole to '*', then to `ask` (semantics 8.18). */
export function effectiveRun(tool: ToolConfig | undefined, defaults: ToolDefaults): RunMode {
  return tool?.run?.value ?? defaults.run?.value ?? 'ask';
}

export type ToggleScope = 'bulk' | 'named';

/** Whether a directive of this scope may move a tool with this allow_toggle (jp-today 2.4). */
export function acceptsScope(allow: AllowToggle, scope: ToggleScope): boolean {
  switch (allow) {
    case 'any':
      return true;
    case 'never':
      return false;
    case 'if_named':
    case 'if_named_or_group':
      return scope === 'named';
  }
}
