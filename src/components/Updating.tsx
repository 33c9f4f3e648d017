// The "updating…" marker a panel shows while the derive worker answers for a newer revision than the
// one on screen. Announced politely; its width is kept when idle so the header does not shift.
import './updating.css';

export function Updating({ on }: { readonly on: boolean }) {
  return (
    <span className={`updating ${on ? 'on' : ''}`} role="status" aria-live="polite">
      {on ? 'updating…' : ''}
    </span>
  );
}
