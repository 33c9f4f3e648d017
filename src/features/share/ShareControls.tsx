// The share button (a popover with the link, copy and download) and the banner
// that offers the work a shared link replaced back (from Recent documents).
import { useEffect, useRef, useState } from 'react';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { downloadScenario, restorePrevious, shareUrl } from './share';
import './share.css';

export function ShareButton() {
  const store = useWorkbenchStore();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const toggle = () => {
    if (!open) {
      setUrl(shareUrl(store.getState().doc));
      setCopied(false);
    }
    setOpen(!open);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const kb = (url.length / 1000).toFixed(1);
  return (
    <div className="share" ref={box}>
      <button type="button" onClick={toggle} aria-expanded={open} aria-haspopup="dialog" data-testid="share-button">
        Share
      </button>
      {open && (
        <div className="share-pop" role="dialog" aria-label="Share this scenario">
          <label htmlFor="share-url">A link that opens this whole scenario ({kb} KB, compressed)</label>
          <div className="share-row">
            <input id="share-url" readOnly value={url} data-testid="share-url" onFocus={(e) => e.target.select()} spellCheck={false} />
            <button type="button" onClick={() => void copy()} data-testid="share-copy">{copied ? 'Copied' : 'Copy'}</button>
          </div>
          {url.length > 64_000 && <p className="share-warn">A long link: some chat apps and browsers cut links this long. Downloading the file is safer.</p>}
          <div className="share-row">
            <button type="button" onClick={() => downloadScenario(store.getState().doc)} data-testid="share-download">Download scenario file</button>
            <span className="muted">exactly what <code>tool-workbench check FILE</code> runs</span>
          </div>
        </div>
      )}
    </div>
  );
}

export function SharedBanner() {
  const store = useWorkbenchStore();
  const previous = useWorkbench((s) => s.sharedPrevious);
  const name = useWorkbench((s) => s.doc.name);
  const setPrevious = useWorkbench((s) => s.setSharedPrevious);
  if (!previous) return null;
  return (
    <div className="banner info shared-banner" role="status" data-testid="shared-banner">
      <span className="msg">
        Opened a shared scenario, “{name}”. Your previous work (“{previous.name}”) is kept.
      </span>
      <button type="button" onClick={() => void restorePrevious(store)} data-testid="shared-restore">Restore your previous work</button>
      <button type="button" onClick={() => setPrevious(undefined)} data-testid="shared-keep">Keep the shared scenario</button>
    </div>
  );
}
