// Help: the README's tour, shipped with the app (no network), beside the guided tour's start.
import { useEffect, useRef } from 'react';
import readme from '../../../README.md?raw';
import { useWorkbench } from '../../state/context';
import { forReaders, section } from './readme';
import { WhatItIsFor } from './Welcome';
import type { Run } from './readme';

// The README's tour without the source paths it names for contributors: Help is for a user.
const TOUR_BLOCKS = forReaders(section(readme, 'A short tour'));

function Runs({ runs }: { readonly runs: readonly Run[] }) {
  return (
    <>
      {runs.map((r, i) => (r.bold ? <strong key={i}>{r.text}</strong> : r.code ? <code key={i}>{r.text}</code> : <span key={i}>{r.text}</span>))}
    </>
  );
}

export function Help({ onClose }: { readonly onClose: () => void }) {
  const setTourStep = useWorkbench((s) => s.setTourStep);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  const items = TOUR_BLOCKS.filter((b) => b.kind === 'item');
  const paragraphs = TOUR_BLOCKS.filter((b) => b.kind === 'paragraph');
  return (
    <div className="help-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className="help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="help-title"
        tabIndex={-1}
        data-testid="help"
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
      >
        <h2 id="help-title">What the workbench is for</h2>
        <p className="help-intro">
          <WhatItIsFor />
        </p>
        <h3>A short tour</h3>
        <ul>
          {items.map((b, i) => (
            <li key={i}>
              <Runs runs={b.runs} />
            </li>
          ))}
        </ul>
        {paragraphs.map((b, i) => (
          <p key={i}>
            <Runs runs={b.runs} />
          </p>
        ))}
        <div className="help-buttons">
          <button
            type="button"
            onClick={() => {
              onClose();
              setTourStep(0);
            }}
          >
            Start the guided tour
          </button>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
