// "Recent documents": every document a replacement set aside, newest first, each
// with the time, what replaced it and its size; restoring one is a replacement too.
import { useEffect, useRef } from 'react';
import { MAX_RECENT, reasonText } from '../../state/history';
import { useWorkbench } from '../../state/context';
import { timeOf } from './commands';
import './history.css';

function size(chars: number): string {
  return chars < 1024 ? `${chars} characters` : `${(chars / 1024).toFixed(1)} K characters`;
}

export function RecentDocuments() {
  const open = useWorkbench((s) => s.recentOpen);
  const recent = useWorkbench((s) => s.recent);
  const setOpen = useWorkbench((s) => s.setRecentOpen);
  const restore = useWorkbench((s) => s.restoreRecent);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);
  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <div className="recent-backdrop" onMouseDown={close}>
      <div
        className="recent-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="recent-title"
        data-testid="recent-documents"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
        }}
      >
        <header className="recent-head">
          <h2 id="recent-title">Recent documents</h2>
          <span className="muted">the last {MAX_RECENT} documents that something replaced; restoring one keeps the current one here too</span>
          <span className="spacer" />
          <button type="button" onClick={close} aria-label="Close recent documents">
            Close
          </button>
        </header>
        {recent.length === 0 ? (
          <p className="recent-empty">Nothing replaced yet. Opening a shared link, a file, a workspace or the demo keeps the document it replaces here.</p>
        ) : (
          <ol className="recent-list" aria-label="Recent documents, newest first">
            {recent.map((e, i) => (
              <li key={e.id} data-testid="recent-entry" data-title={e.title}>
                <div className="recent-main">
                  <strong className="recent-title">{e.title}</strong>
                  <span className="recent-why">
                    {timeOf(e.at)} · {reasonText(e.reason)}
                  </span>
                  <span className="muted recent-size">
                    {size(e.chars)} of layers · {e.steps} step{e.steps === 1 ? '' : 's'}
                  </span>
                </div>
                <button
                  type="button"
                  ref={i === 0 ? first : undefined}
                  onClick={() => {
                    close();
                    void restore(e.id);
                  }}
                  aria-label={`Restore “${e.title}”, ${reasonText(e.reason)} at ${timeOf(e.at)}`}
                  data-testid="recent-restore"
                >
                  Restore
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

/** The header's button for the view. */
export function RecentButton() {
  const count = useWorkbench((s) => s.recent.length);
  const setOpen = useWorkbench((s) => s.setRecentOpen);
  return (
    <button type="button" onClick={() => setOpen(true)} aria-label={`Recent documents, ${count} kept`} title="Documents that a shared link, a file, a workspace or the demo replaced (Alt+H)" data-testid="recent-button">
      Recent{count > 0 ? ` (${count})` : ''}
    </button>
  );
}
