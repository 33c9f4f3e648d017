// The `enable` forms of semantics section 1: shorthands set both fields, a table
// sets only what it names, and `state` is the permanent legacy alias.
import type { TomlValue } from './toml-ast';
import type { AllowToggle, Availability, Origin, PartialEnable, Sourced } from './types';
import { ALLOW_TOGGLES, AVAILABILITIES } from './types';

export const ENABLE_VALUE_ERROR = (written: string): string =>
  `invalid enable value: '${written}', expected a boolean, one of "on", "off", "explicit", "always", "discoverable", or an { availability, allow_toggle } table`;
export const BOTH_KEYS_ERROR =
  'enable has both `state` and `availability`; keep `availability` (`state` is the legacy spelling)';
export const unknownEnableKeyError = (key: string): string =>
  `unknown key \`${key}\` in enable; expected availability, allow_toggle (or the legacy state)`;

/** The presets behind each shorthand: [availability, allow_toggle]. */
export const SHORTHANDS: ReadonlyMap<string, readonly [Availability, AllowToggle]> = new Map([
  ['true', ['on', 'any']],
  ['on', ['on', 'any']],
  ['false', ['off', 'any']],
  ['off', ['off', 'any']],
  ['always', ['on', 'never']],
  ['explicit', ['off', 'if_named']],
  ['discoverable', ['discoverable', 'any']],
] as const);

export type EnableResult = { ok: true; enable: PartialEnable } | { ok: false; message: string; node: TomlValue; code: string };

function sourced<T>(value: T, origin: Origin): Sourced<T> {
  return { value, origin };
}

/** A shorthand string or boolean, as a layer or a `--cfg X.enable=VALUE` writes it. */
export function shorthandEnable(written: string, origin: Origin): PartialEnable | undefined {
  const preset = SHORTHANDS.get(written);
  if (!preset) return undefined;
  return { availability: sourced(preset[0], origin), allowToggle: sourced(preset[1], origin) };
}

export function parseAvailability(value: unknown): Availability | undefined {
  return typeof value === 'string' && (AVAILABILITIES as readonly string[]).includes(value) ? (value as Availability) : undefined;
}

export function parseAllowToggle(value: unknown): AllowToggle | undefined {
  return typeof value === 'string' && (ALLOW_TOGGLES as readonly string[]).includes(value) ? (value as AllowToggle) : undefined;
}

export const AVAILABILITY_VALUE_ERROR = (written: string): string =>
  `invalid availability: '${written}', expected one of "on", "off", "discoverable"`;
export const ALLOW_TOGGLE_VALUE_ERROR = (written: string): string =>
  `invalid allow_toggle: '${written}', expected one of "any", "never", "if_named", "if_named_or_group"`;
export const STATE_VALUE_ERROR = (written: string): string => `invalid state: '${written}', expected true or false`;

function writtenText(node: TomlValue): string {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'integer':
    case 'float':
    case 'boolean':
    case 'datetime':
      return String(node.value);
    case 'array':
      return '[...]';
    default:
      return '{...}';
  }
}

/** Reads an `enable` node in any accepted form. `origin(node)` gives each value its origin. */
export function readEnable(node: TomlValue, origin: (n: TomlValue) => Origin): EnableResult {
  if (node.kind === 'boolean') {
    return { ok: true, enable: shorthandEnable(String(node.value), origin(node)) ?? {} };
  }
  if (node.kind === 'string') {
    const enable = shorthandEnable(node.value, origin(node));
    if (enable) return { ok: true, enable };
    return { ok: false, message: ENABLE_VALUE_ERROR(node.value), node, code: 'enable-value' };
  }
  if (node.kind !== 'table') {
    return { ok: false, message: ENABLE_VALUE_ERROR(writtenText(node)), node, code: 'enable-value' };
  }
  const state = node.entries.get('state');
  const availability = node.entries.get('availability');
  if (state && availability) {
    return { ok: false, message: BOTH_KEYS_ERROR, node: state.value, code: 'enable-both-keys' };
  }
  for (const [key, entry] of node.entries) {
    if (key !== 'state' && key !== 'availability' && key !== 'allow_toggle') {
      return { ok: false, message: unknownEnableKeyError(key), node: entry.value, code: 'enable-unknown-key' };
    }
  }
  let result: { availability?: Sourced<Availability>; allowToggle?: Sourced<AllowToggle> } = {};
  if (availability) {
    const v = availability.value;
    const parsed = v.kind === 'string' ? parseAvailability(v.value) : undefined;
    if (!parsed) return { ok: false, message: AVAILABILITY_VALUE_ERROR(writtenText(v)), node: v, code: 'availability-value' };
    result = { ...result, availability: sourced(parsed, origin(v)) };
  }
  if (state) {
    const v = state.value;
    if (v.kind !== 'boolean') return { ok: false, message: STATE_VALUE_ERROR(writtenText(v)), node: v, code: 'state-value' };
    result = { ...result, availability: sourced(v.value ? 'on' : 'off', origin(v)) };
  }
  const allow = node.entries.get('allow_toggle');
  if (allow) {
    const v = allow.value;
    const parsed = v.kind === 'string' ? parseAllowToggle(v.value) : undefined;
    if (!parsed) return { ok: false, message: ALLOW_TOGGLE_VALUE_ERROR(writtenText(v)), node: v, code: 'allow-toggle-value' };
    result = { ...result, allowToggle: sourced(parsed, origin(v)) };
  }
  return { ok: true, enable: result };
}

/** Per-field merge: a field the upper value sets wins; an unset field keeps the lower one. */
export function mergeEnable(lower: PartialEnable, upper: PartialEnable): PartialEnable {
  if (!upper.availability && !upper.allowToggle) return lower;
  if (!lower.availability && !lower.allowToggle) return upper;
  return {
    availability: upper.availability ?? lower.availability,
    allowToggle: upper.allowToggle ?? lower.allowToggle,
  };
}

/** The word JP uses for a locked tool, from its current availability. */
export function lockedWord(availability: Availability): string {
  return availability === 'on' ? 'locked-on' : availability === 'off' ? 'locked-off' : 'locked-discoverable';
}
