// A bridged server's capabilities as the card words them (issue 34.3): JP's client capabilities (the
// default: what JP is offered is what is listed), or sampling, elicitation and roots forwarded to the
// page, with the tools that adds marked wherever the card lists tools, since JP would never see them.
import type { ServerView } from '../../bridge-protocol';

export const NOT_OFFERED = 'not offered to JP';

export interface ForwardingWords {
  /** What the server runs with now. */
  readonly state: string;
  /** The button that switches it (a reconnect). */
  readonly action: string;
  readonly title: string;
}

export function forwardingWords(v: Pick<ServerView, 'forwardsToPage' | 'kind'>): ForwardingWords {
  const restart = v.kind === 'stdio' ? 'restarts the server' : 'reconnects to the server';
  return v.forwardsToPage === true
    ? {
        state: 'forwards sampling, elicitation and roots to this page',
        action: "Use JP's capabilities",
        title: `Declare what JP's client declares (no sampling, elicitation or roots), so it lists what JP is offered; this ${restart}`,
      }
    : {
        state: "JP's client capabilities (no sampling, elicitation or roots)",
        action: 'Forward to this page',
        title: `Declare sampling, elicitation and roots and hand the server's questions to this page; tools it adds for such a client are marked "${NOT_OFFERED}"; this ${restart}`,
      };
}

/**
 * Tool names for a sentence, the first `max` named, each JP is not offered marked so, then "and N more"
 * (counting how many of the rest are unmarked so a hidden one still shows it was there).
 */
export function namesMarked(names: readonly string[], notOffered: ReadonlySet<string>, max = 8): string {
  const word = (n: string) => (notOffered.has(n) ? `${n} (${NOT_OFFERED})` : n);
  if (names.length <= max) return names.map(word).join(', ');
  const rest = names.slice(max);
  const hidden = rest.filter((n) => notOffered.has(n)).length;
  return `${names.slice(0, max).map(word).join(', ')} and ${rest.length} more${hidden > 0 ? ` (${hidden} ${NOT_OFFERED})` : ''}`;
}
