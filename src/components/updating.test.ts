// The "updating…" marker waits SHOW_AFTER_MS before it shows, and hides at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHOW_AFTER_MS, showAfterDelay } from './Updating';

describe('the updating marker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows once a wait has lasted SHOW_AFTER_MS, not before', () => {
    const set = vi.fn();
    showAfterDelay(true, set);
    vi.advanceTimersByTime(SHOW_AFTER_MS - 1);
    expect(set).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(set).toHaveBeenCalledWith(true);
  });

  it('never shows for a wait that ends sooner (a keystroke answered quickly)', () => {
    const set = vi.fn();
    const cleanup = showAfterDelay(true, set);
    vi.advanceTimersByTime(SHOW_AFTER_MS / 2);
    cleanup?.();
    vi.advanceTimersByTime(SHOW_AFTER_MS * 10);
    expect(set).not.toHaveBeenCalled();
  });

  it('hides at once when the wait ends', () => {
    const set = vi.fn();
    expect(showAfterDelay(false, set)).toBeUndefined();
    expect(set).toHaveBeenCalledWith(false);
  });
});
