// A live MCP server's status as a word (connecting, running, failed: REASON,
// offline, not connected), with the server's name or the failure's sentence. Text only.
import type { LiveStatus } from '../live/queries';
import { REASON_WORDS } from '../live/queries';
import { formatCount } from './Measures';
import './live-status.css';

export function liveWord(status: LiveStatus): string {
  if (status.kind === 'failed') return `failed: ${REASON_WORDS[status.reason]}`;
  if (status.kind === 'connecting') return `${status.phase}…`;
  return status.kind === 'unconfirmed' ? 'not connected' : status.kind;
}

export function LiveStatusLine({
  status,
  info,
  tools,
  timeoutMs,
}: {
  readonly status: LiveStatus;
  readonly info?: { name: string; version: string; title?: string } | undefined;
  readonly tools?: { count: number; pages: number } | undefined;
  /** While connecting: how long before it gives up. */
  readonly timeoutMs?: number | undefined;
}) {
  const word = liveWord(status);
  return (
    <span className="live-status" role="status" aria-live="polite" data-testid="live-status" data-status={status.kind}>
      <span className={`status-word ${status.kind}`}>{word}</span>
      {status.kind === 'running' && info && (
        <span>
          {info.title ?? info.name} {info.version}
          {tools ? ` · ${formatCount(tools.count)} tools in ${tools.pages} page${tools.pages === 1 ? '' : 's'}` : ''}
        </span>
      )}
      {status.kind === 'connecting' && timeoutMs !== undefined && <span className="muted">gives up after {Math.round(timeoutMs / 1000)} s, or cancel</span>}
      {status.kind === 'failed' && <span className="reason">{status.message}</span>}
    </span>
  );
}
