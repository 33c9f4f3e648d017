// The "updating…" marker a panel shows while the derive worker answers for a newer revision than the
// one on screen. Announced politely; its width is kept when idle so the header does not shift.
// It shows only once the wait has lasted SHOW_AFTER_MS: most keystrokes are answered sooner, and a
// marker that came and went with each of them was re-announced by screen readers at every keystroke
// and restyled and relaid out three panel heads twice a keystroke (at 1,000 tools ~10 % of the Blink
// heap garbage typing leaves, collected only with the page's rare major GCs).
import { useEffect, useState } from 'react';
import './updating.css';

/** A wait shorter than this is not shown: about the shortest a reader notices as a pause. */
export const SHOW_AFTER_MS = 150;

/** The marker's effect: hidden at once when the wait ends, shown SHOW_AFTER_MS after it starts; returns the cleanup. */
export function showAfterDelay(on: boolean, setShown: (shown: boolean) => void): (() => void) | undefined {
  if (!on) {
    setShown(false);
    return undefined;
  }
  const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
  return () => clearTimeout(timer);
}

export function Updating({ on }: { readonly on: boolean }) {
  const [shown, setShown] = useState(false);
  useEffect(() => showAfterDelay(on, setShown), [on]);
  const visible = on && shown;
  return (
    <span className={`updating ${visible ? 'on' : ''}`} role="status" aria-live="polite">
      {visible ? 'updating…' : ''}
    </span>
  );
}
