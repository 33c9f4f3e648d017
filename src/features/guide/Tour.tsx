// The guided tour, for presenters: a card that steps through TOUR with the keyboard (→ or Enter next,
// ← back, Escape ends), selecting the row each step is about and outlining the region it explains.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTimeline } from '../../derive/hooks';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { tourFor } from './steps';
import './guide.css';

interface Box {
  readonly top: number;
  readonly left: number;
  readonly width: number;
  readonly height: number;
}

function useTargetBox(selector: string | undefined, key: unknown): Box | undefined {
  const [box, setBox] = useState<Box | undefined>(undefined);
  useLayoutEffect(() => {
    if (!selector) return;
    const measure = () => {
      const el = document.querySelector(selector);
      if (!el) return setBox(undefined);
      el.scrollIntoView({ block: 'nearest' });
      const r = el.getBoundingClientRect();
      setBox({ top: r.top, left: r.left, width: r.width, height: r.height });
    };
    measure();
    const frame = requestAnimationFrame(measure);
    window.addEventListener('resize', measure);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', measure);
    };
  }, [selector, key]);
  return box;
}

export function Tour() {
  const step = useWorkbench((s) => s.tourStep);
  // Off (nearly always): nothing here reads the derivation, so no answer re-renders it.
  return step === undefined ? null : <TourCard step={step} />;
}

function TourCard({ step }: { readonly step: number }) {
  const store = useWorkbenchStore();
  const setStep = useWorkbench((s) => s.setTourStep);
  const selected = useWorkbench((s) => s.selectedEntry);
  const { data: view } = useTimeline();
  const card = useRef<HTMLDivElement>(null);
  // The stops this document has: a user's own, with no promotion, has no promotion stop. Memoized on
  // the view: a stop whose words fit the document is a new object, and the effect below selects its
  // row again whenever the stop changes, which must not happen on every render (a row clicked mid-tour).
  const tour = useMemo(() => tourFor(view), [view]);
  const current = tour[step];

  useEffect(() => {
    if (!current || !view) return;
    const st = store.getState();
    if (st.page !== 'workbench') st.setPage('workbench');
    const entry = current.entry?.(view);
    if (entry !== undefined) st.selectEntry(entry);
    if (current.dock) st.setDockTab(current.dock);
  }, [current, view, store]);
  useEffect(() => {
    card.current?.focus();
  }, [step]);
  const box = useTargetBox(current?.target, `${step}:${selected ?? -1}:${view?.revision ?? 0}`);

  if (!current) return null;
  const last = step === tour.length - 1;
  const go = (n: number) => setStep(n < 0 || n >= tour.length ? undefined : n);
  return (
    <>
      {box && <div className="tour-outline" aria-hidden="true" style={{ top: box.top - 3, left: box.left - 3, width: box.width + 6, height: box.height + 6 }} />}
      <div
        ref={card}
        className="tour-card"
        role="dialog"
        aria-modal="false"
        aria-labelledby="tour-title"
        aria-describedby="tour-body"
        tabIndex={-1}
        data-testid="tour"
        data-step={step}
        onKeyDown={(e) => {
          if (e.key === 'ArrowRight' || e.key === 'Enter' || e.key === 'PageDown') {
            e.preventDefault();
            go(step + 1);
          } else if (e.key === 'ArrowLeft' || e.key === 'PageUp') {
            e.preventDefault();
            go(Math.max(0, step - 1));
          } else if (e.key === 'Escape') {
            e.preventDefault();
            go(-1);
          }
        }}
      >
        <p className="tour-count">
          Tour · step {step + 1} of {tour.length}
        </p>
        <h2 id="tour-title">{current.title}</h2>
        <p id="tour-body">{current.body}</p>
        <div className="tour-buttons">
          <button type="button" onClick={() => go(step - 1)} disabled={step === 0}>
            ← Back
          </button>
          <button type="button" onClick={() => go(step + 1)} data-testid="tour-next">
            {last ? 'Finish' : 'Next →'}
          </button>
          <button type="button" onClick={() => go(-1)}>
            End the tour
          </button>
          <span className="tour-keys">← → or Enter · Esc ends</span>
        </div>
      </div>
    </>
  );
}
