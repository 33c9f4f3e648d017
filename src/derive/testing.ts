// For tests: a derivation answered as the test hook's snapshot assembles it (every row and request),
// since the page's answer is small and its rows come in windows.
import type { DeriveHost } from './host';
import type { TimelineSnapshot } from './protocol';

export function deriveWhole(host: DeriveHost, params: Parameters<DeriveHost['derive']>[0]): TimelineSnapshot {
  const view = host.derive(params);
  return host.timelineSnapshot({ revision: view.revision });
}
