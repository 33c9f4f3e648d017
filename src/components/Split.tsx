// A resizable two-or-more pane split. Gutters drag with the pointer and move
// with the arrow keys; sizes persist per id in localStorage.
import { Children, Fragment, useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';

export interface SplitProps {
  readonly id: string;
  readonly direction?: 'horizontal' | 'vertical';
  /** Initial sizes in percent, one per child. */
  readonly initial: readonly number[];
  readonly min?: number;
  readonly children: ReactNode;
}

function load(id: string, initial: readonly number[]): number[] {
  try {
    const raw = localStorage.getItem(`split:${id}`);
    const v = raw ? (JSON.parse(raw) as unknown) : undefined;
    if (Array.isArray(v) && v.length === initial.length && v.every((x) => typeof x === 'number')) return v as number[];
  } catch {
    // Sizes are a convenience; a bad stored value falls back to the defaults.
  }
  return [...initial];
}

export function Split({ id, direction = 'horizontal', initial, min = 10, children }: SplitProps) {
  const [sizes, setSizes] = useState(() => load(id, initial));
  const root = useRef<HTMLDivElement>(null);
  const panes = Children.toArray(children);
  useEffect(() => {
    localStorage.setItem(`split:${id}`, JSON.stringify(sizes));
  }, [id, sizes]);
  const resize = useCallback(
    (gutter: number, deltaPercent: number) => {
      setSizes((prev) => {
        const next = [...prev];
        const a = (next[gutter] ?? 0) + deltaPercent;
        const b = (next[gutter + 1] ?? 0) - deltaPercent;
        if (a < min || b < min) return prev;
        next[gutter] = a;
        next[gutter + 1] = b;
        return next;
      });
    },
    [min],
  );
  const onPointerDown = (gutter: number) => (e: PointerEvent<HTMLDivElement>) => {
    const el = root.current;
    if (!el) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const rect = el.getBoundingClientRect();
    const total = direction === 'horizontal' ? rect.width : rect.height;
    let last = direction === 'horizontal' ? e.clientX : e.clientY;
    const move = (ev: globalThis.PointerEvent) => {
      const now = direction === 'horizontal' ? ev.clientX : ev.clientY;
      resize(gutter, ((now - last) / total) * 100);
      last = now;
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  const onKeyDown = (gutter: number) => (e: KeyboardEvent<HTMLDivElement>) => {
    const back = direction === 'horizontal' ? 'ArrowLeft' : 'ArrowUp';
    const fwd = direction === 'horizontal' ? 'ArrowRight' : 'ArrowDown';
    if (e.key === back) resize(gutter, -2);
    else if (e.key === fwd) resize(gutter, 2);
    else return;
    e.preventDefault();
  };
  return (
    <div ref={root} className={`split ${direction}`}>
      {panes.map((child, i) => (
        <Fragment key={`p${i}`}>
          <div className="pane" style={{ flexBasis: `${sizes[i] ?? 0}%`, flexGrow: 0, flexShrink: 1 }}>
            {child}
          </div>
          {i < panes.length - 1 && (
            <div
              className="gutter"
              role="separator"
              tabIndex={0}
              aria-orientation={direction === 'horizontal' ? 'vertical' : 'horizontal'}
              aria-label={`Resize (${id} ${i + 1})`}
              aria-valuenow={Math.round(sizes[i] ?? 0)}
              aria-valuemin={min}
              aria-valuemax={100 - min}
              onPointerDown={onPointerDown(i)}
              onKeyDown={onKeyDown(i)}
            />
          )}
        </Fragment>
      ))}
    </div>
  );
}
