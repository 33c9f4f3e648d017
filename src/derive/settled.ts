// A value once it has stopped changing for a while: the heavy per-revision queries (the findability
// report, the cost model's cache statuses) ask for the revision typing has paused on, so a keystroke's
// derivation never waits in the worker behind the previous keystroke's whole-conversation work.
import { useEffect, useState } from 'react';

/** After this pause in typing, a revision counts as settled. */
export const SETTLE_MS = 300;

export function useSettled<T>(value: T, ms: number = SETTLE_MS): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
