// The per-row availability menu: on, discoverable, off. It floats over the
// virtualized list (rows clip their content), opens at its trigger, and
// follows the menu keyboard pattern: ↑/↓ move, Enter picks, Escape closes.
import { useEffect, useRef } from 'react';
import { AvailabilityBadge } from '../../components/Availability';
import { AVAILABILITIES } from './filter';
import type { Availability } from './filter';

export interface MenuState {
  readonly tool: string;
  readonly current: Availability;
  readonly top: number;
  readonly left: number;
  /** The element that opened it, to return focus to. */
  readonly trigger: HTMLElement;
}

const HELP: Record<Availability, string> = {
  on: 'offered in every request',
  discoverable: 'found by search, promoted on use',
  off: 'neither offered nor searchable',
};

export function AvailabilityMenu({ state, onPick, onClose }: { readonly state: MenuState; readonly onPick: (a: Availability) => void; readonly onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const items = ref.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]');
    const i = AVAILABILITIES.indexOf(state.current);
    items?.[Math.max(0, i)]?.focus();
    const away = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', away, true);
    return () => document.removeEventListener('pointerdown', away, true);
  }, [state, onClose]);
  const close = () => {
    onClose();
    state.trigger.focus();
  };
  return (
    <div
      ref={ref}
      className="st-popover"
      role="menu"
      aria-label={`Availability of ${state.tool}`}
      style={{ top: state.top, left: state.left }}
      onKeyDown={(e) => {
        const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
        const at = items.indexOf(document.activeElement as HTMLElement);
        if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
        else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
        else if (e.key === 'Home') items[0]?.focus();
        else if (e.key === 'End') items[items.length - 1]?.focus();
        else if (e.key === 'Escape' || e.key === 'Tab') close();
        else return;
        e.preventDefault();
      }}
    >
      <div className="st-popover-title" aria-hidden="true">
        Set in the layers
      </div>
      {AVAILABILITIES.map((a) => (
        <button
          key={a}
          type="button"
          role="menuitemradio"
          aria-checked={a === state.current}
          tabIndex={-1}
          onClick={() => {
            onPick(a);
            close();
          }}
        >
          <span className="st-check" aria-hidden="true">
            {a === state.current ? '✓' : ''}
          </span>
          <AvailabilityBadge value={a} />
          <span className="st-popover-help">{HELP[a]}</span>
        </button>
      ))}
    </div>
  );
}
