// F6 and Shift+F6 move the focus from panel to panel (the header, the first screen's paragraph while it
// shows, Layers, Timeline, Sets, the Dock),
// as browsers and editors do. Tab alone walks every stop on the way: the sets panel has three a tool
// (over a hundred with the demo), so the dock was a hundred key presses from the editor (issue 24.13).
const PANELS = ['header.header', '[aria-label="What this workbench is for"]', 'section[aria-label="Layers"]', 'section[aria-label="Timeline"]', 'section[aria-label="Sets"]', 'section[aria-label="Dock"]'];
const TABBABLE = 'button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

function shown(el: HTMLElement): boolean {
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
}

/** Focuses the next (`step` 1) or previous (-1) panel's first stop: a tab list's selected tab, else its first control. */
export function focusPanel(step: 1 | -1, doc: Document = document): void {
  const panels = PANELS.map((s) => doc.querySelector<HTMLElement>(s)).filter((p): p is HTMLElement => p !== null && shown(p));
  if (panels.length === 0) return;
  const active = doc.activeElement;
  const at = panels.findIndex((p) => active !== null && p.contains(active));
  const from = at < 0 ? (step === 1 ? -1 : 0) : at;
  const next = panels[(from + step + panels.length) % panels.length];
  if (!next) return;
  const stops = [...next.querySelectorAll<HTMLElement>(TABBABLE)].filter(shown);
  const target = stops.find((el) => el.getAttribute('role') === 'tab' && el.getAttribute('aria-selected') === 'true' && next.getAttribute('aria-label') === 'Dock') ?? stops[0];
  if (target) {
    target.focus();
    return;
  }
  next.tabIndex = -1;
  next.focus();
}
