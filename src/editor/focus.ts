// Moving the keyboard focus out of an element to the next (or previous) focusable one in the page's
// order: the layer editor's "Esc then Tab". DOM-only, no Monaco.
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]';

function tabbable(el: HTMLElement): boolean {
  if (el.matches(':disabled') || el.closest('[inert]') || el.tabIndex < 0) return false;
  if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
  return el.getClientRects().length > 0;
}

/** Focuses the first tabbable element after `from` (or the last before it), outside it. */
export function focusBeside(from: HTMLElement, where: 'before' | 'after'): boolean {
  const all = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !from.contains(el) && tabbable(el));
  const follows = (el: HTMLElement) => (from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const target = where === 'after' ? all.find(follows) : all.filter((el) => !follows(el)).at(-1);
  if (!target) return false;
  target.focus();
  return true;
}
