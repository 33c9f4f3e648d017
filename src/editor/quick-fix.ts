// The quick fix for "state beside availability" (diagnostic `enable-both-keys`):
// keep `availability`, remove the legacy `state = ...` pair with its comma and
// spacing (or its line), as one splice. Pure; uses the core's parser and the
// same pair-removal primitive its format-preserving edits use.
import { parseToml } from '../core';
import type { TomlTable, TomlValue } from '../core';
import type { TomlEntry } from '../core/config/toml-ast';
import { removePair } from '../core/config/edit-primitives';
import type { Splice } from '../core/config/edit-primitives';

export const BOTH_KEYS_CODE = 'enable-both-keys';
export const KEEP_AVAILABILITY_TITLE = 'Keep availability (remove the legacy state)';

interface Found {
  readonly state: TomlEntry;
  readonly inInline: boolean;
  readonly distance: number;
}

function visit(table: TomlTable, inInline: boolean, offset: number, best: { f?: Found }): void {
  const inside = inInline || table.origin === 'inline';
  const state = table.entries.get('state');
  if (state && table.entries.has('availability') && state.pairSpan) {
    const s = state.pairSpan;
    const distance = offset < s.start ? s.start - offset : offset > s.end ? offset - s.end : 0;
    if (!best.f || distance < best.f.distance) best.f = { state, inInline: inside, distance };
  }
  for (const e of table.entries.values()) visitValue(e.value, inside, offset, best);
}

function visitValue(v: TomlValue, inInline: boolean, offset: number, best: { f?: Found }): void {
  if (v.kind === 'table') visit(v, inInline, offset, best);
  else if (v.kind === 'table-array') for (const t of v.items) visit(t, inInline, offset, best);
  else if (v.kind === 'array') for (const item of v.items) visitValue(item, true, offset, best);
}

/**
 * The splice that removes the legacy `state` of the `enable` table holding both `state` and
 * `availability` nearest to `offset` (the diagnostic's position), or undefined when there is none.
 */
export function keepAvailabilityFix(text: string, offset: number): Splice | undefined {
  const doc = parseToml(text);
  const best: { f?: Found } = {};
  visit(doc.root, false, offset, best);
  if (!best.f) return undefined;
  return removePair(text, best.f.state, best.f.inInline);
}

/** Applies a splice (for tests and for the store when the editor is not loaded). */
export function applySplice(text: string, s: Splice): string {
  return text.slice(0, s.start) + s.insert + text.slice(s.end);
}
