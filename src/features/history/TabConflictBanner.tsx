// Another tab saved the document this tab has open: this tab stops autosaving (so
// nothing is overwritten) and offers the two ways out.
import { useWorkbench } from '../../state/context';
import { timeOf } from './commands';

export function TabConflictBanner() {
  const conflict = useWorkbench((s) => s.tabConflict);
  const sync = useWorkbench((s) => s.tabSync);
  if (!conflict || !sync) return null;
  return (
    <div className="banner error tab-conflict" role="alert" data-testid="tab-conflict">
      <span className="msg">
        Another tab saved a different version of this document (noticed at {timeOf(conflict.at)}). This tab has stopped autosaving, so neither version is overwritten.
      </span>
      <button type="button" onClick={() => void sync.reloadTheirs()} title="Open the other tab's version here; this tab's version goes to Recent documents" data-testid="tab-reload-theirs">
        Reload theirs
      </button>
      <button type="button" onClick={() => void sync.keepMine()} title="Save this tab's version, named “… (copy)”; the other tab's version goes to Recent documents" data-testid="tab-keep-mine">
        Keep mine as a copy
      </button>
    </div>
  );
}
