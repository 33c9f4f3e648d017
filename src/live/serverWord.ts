// The word for a tool's server in a Sets row. The sets are derived from the status the document
// recorded, but a row that reads "running" beside "server stopped now" (or for a server that failed to
// start) contradicts itself: a live server's row states its real status now, and the recorded one
// only where the two differ. Pure.
import type { ServerStatus } from '../bridge-protocol';
import type { LiveStatus } from './queries';

export interface ServerWord {
  readonly word: string;
  readonly tone: 'ok' | 'bad' | 'plain';
  /** The status the document recorded (and the sets follow), when the live one differs from it. */
  readonly recorded?: string;
}

const LIVE_WORDS: Record<LiveStatus['kind'], string> = {
  running: 'running',
  offline: 'stopped',
  failed: 'failed',
  connecting: 'connecting',
  unconfirmed: 'not connected',
};

/** `live`: the server's live state, or undefined for a simulated server (no URL, no bridge link). */
export function serverWord(recorded: string, live: LiveStatus | undefined): ServerWord {
  if (live === undefined) return { word: recorded, tone: recorded === 'running' ? 'ok' : 'bad' };
  const word = LIVE_WORDS[live.kind];
  const tone = live.kind === 'running' ? 'ok' : live.kind === 'offline' || live.kind === 'failed' ? 'bad' : 'plain';
  // Only a settled state contradicts the recording (a connection under way says nothing yet).
  const differs = (live.kind === 'running' && recorded !== 'running') || ((live.kind === 'offline' || live.kind === 'failed') && recorded === 'running');
  return differs ? { word, tone, recorded } : { word, tone };
}

/**
 * A server the bridge was asked to start and that failed is not wanted running, so its live state would
 * read "offline" (stopped): it failed. Undefined when the bridge says otherwise (or the server is wanted).
 */
export function bridgeStartFailure(wanted: boolean, view: { readonly status: ServerStatus; readonly error?: string } | undefined): LiveStatus | undefined {
  if (wanted || view?.status !== 'failed') return undefined;
  return { kind: 'failed', reason: 'protocol', message: `it failed to start: ${view.error ?? 'no reason given'}` };
}
