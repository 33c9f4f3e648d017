// The request inspector: for the selected cycle (the selected row's request, or
// the nearest one before it), the request in the chosen provider's shape, its
// definition cost (bytes and tokens, offered against permitted, the saving),
// the cache against the previous request with the first differing point, and
// the Anthropic directives mode's availability blocks.
import { lazy, Suspense } from 'react';
import { useRequestDetail, useTimelineRow } from '../../derive/hooks';
import { useSelectedRequest, useTokens } from '../../derive/labHooks';
import type { CacheDifference } from '../../derive/labProtocol';
import type { RequestView } from '../../derive/protocol';
import { useWorkbench } from '../../state/context';
import { CacheStatusWord, formatBytes, formatCount, formatPercent, JoinedChip } from '../../components/Measures';
import './requests.css';
import { useCacheStatuses, useCosts } from '../../derive/costHooks';

const JsonViewer = lazy(() => import('./JsonViewer'));

function Difference({ d }: { readonly d: CacheDifference }) {
  const mark = (rest: string) => (
    <>
      <mark className="diff-char">{rest.slice(0, 1) || '∅'}</mark>
      <span className="diff-rest">{rest.slice(1)}</span>
    </>
  );
  return (
    <figure className="diff" data-testid="cache-difference">
      <figcaption>
        First difference at byte {formatCount(d.offset)}, in the {d.section === 'tools' ? 'tools array' : d.section === 'system' ? 'system prompt' : 'messages'}. The shared prefix is greyed; the first differing character is marked.
      </figcaption>
      <div className="diff-line">
        <span className="diff-label">previous</span>
        <code>
          <span className="diff-same">{d.clipped ? '…' : ''}{d.before}</span>
          {mark(d.previous)}
        </code>
      </div>
      <div className="diff-line">
        <span className="diff-label">this</span>
        <code>
          <span className="diff-same">{d.clipped ? '…' : ''}{d.before}</span>
          {mark(d.current)}
        </code>
      </div>
    </figure>
  );
}

/** What the chosen provider would refuse (error) or lose (warning) in this request, with each rule's source. */
function Findings({ findings, provider }: { readonly findings: RequestView['findings']; readonly provider: string }) {
  if (findings.length === 0) {
    return (
      <p className="req-findings-none muted" data-testid="request-findings">
        <span className="word finding-ok">accepted</span> Nothing in this request breaks a documented {provider} rule.
      </p>
    );
  }
  return (
    <section className="req-findings" aria-label="Provider rules" data-testid="request-findings">
      <h3>Provider rules ({provider})</h3>
      <ul>
        {findings.map((f, i) => (
          <li key={i} data-severity={f.severity}>
            <span className={`word finding-${f.severity}`}>{f.severity === 'error' ? 'refused' : 'loses information'}</span> {f.message}
            <div className="req-finding-source muted">Source: {f.source}</div>
          </li>
        ))}
      </ul>
      {findings.some((f) => f.severity === 'error') && <p className="muted">This is the body JP would send: the simulator keeps it and flags what the provider would refuse.</p>}
    </section>
  );
}

function choiceText(choice: unknown): string {
  if (choice === undefined) return 'not sent (auto)';
  return typeof choice === 'string' ? choice : JSON.stringify(choice);
}

/** The request's prompt-cache figures in the provider's cache model, priced at the chosen model (issue 13). */
function CacheBreakdown({ id }: { readonly id: number }) {
  // The conversation alone: the inspector needs no counterfactual runs.
  const { data } = useCosts(true, false);
  const c = data?.requests[id];
  if (!data || !c) return null;
  const n = (v: number) => v.toLocaleString('en-US');
  return (
    <div className="cost-breakdown" data-testid="request-cache-breakdown">
      {n(c.input)} input tokens: <strong>{n(c.cacheRead)} read</strong> from the cache, {n(c.cacheWrite)} written, {n(c.uncached)} uncached; {n(c.output)} output
      {data.money ? ` · $${c.usd.toFixed(6)} at ${data.model} (${data.priced})` : ' · local: prefill tokens, no money'}
      <div className="muted">{c.reason}</div>
    </div>
  );
}

export function RequestInspector() {
  const { view, request: id } = useSelectedRequest();
  const selectEntry = useWorkbench((s) => s.selectEntry);
  const { data: detail, isFetching } = useRequestDetail(id);
  const { data: tokens } = useTokens(id !== undefined);
  const statuses = useCacheStatuses(id ?? 0, id === undefined ? 0 : id + 1);
  // The facts come with the request's row (the same the timeline shows): small, and memoized in the worker.
  const { data: row } = useTimelineRow(id !== undefined ? view?.requestEntries[id] : undefined);
  if (!view) return <div className="empty">Deriving…</div>;
  if (view.requestCount === 0) return <div className="empty">No requests yet. Add a jp q step (Simulator tab) and its first request appears here.</div>;
  if (id === undefined) return <div className="empty">The selected row comes before the first request. Select a request row in the timeline, or use the buttons below.<br /><button type="button" onClick={() => goTo(view.requestEntries, 0, selectEntry)}>Show the first request</button></div>;
  const r: RequestView | undefined = row?.request ?? (detail?.id === id ? detail.view : undefined);
  if (!r) return <div className="empty">Reading request {id + 1}…</div>;
  const t = tokens?.requests[id];
  const saving = r.cost.permitted - r.cost.offered;
  const tokenSaving = t ? t.permitted - t.offered : undefined;
  return (
    <div className="req" data-testid="request-inspector" data-request={id}>
      <div className="req-side" role="region" aria-label="Request facts, cost and cache" tabIndex={0}>
        <div className="req-nav">
          <button type="button" aria-label="Previous request" disabled={id === 0} onClick={() => goTo(view.requestEntries, id - 1, selectEntry)}>◀</button>
          <strong data-testid="request-title">Request {id + 1} of {view.requestCount}</strong>
          <button type="button" aria-label="Next request" disabled={id >= view.requestCount - 1} onClick={() => goTo(view.requestEntries, id + 1, selectEntry)}>▶</button>
          <span className="muted">step {r.step}, cycle {r.cycle} · position {r.position}</span>
        </div>
        <section className="req-cache" aria-label="Prefix cache" data-testid="request-cache">
          <div>
            <CacheStatusWord cmp={r.cache} said={statuses?.[id]} /> <span>{id === 0 ? 'the first request of the conversation' : `against request ${id}`}: {r.cache.reason}</span>
          </div>
          {detail?.difference && <Difference d={detail.difference} />}
          <CacheBreakdown id={id} />
        </section>
        <Findings findings={r.findings} provider={view.policy.provider} />
        <dl className="req-facts">
          <dt>provider</dt>
          <dd><code>{detail?.provider ?? view.policy.provider}</code></dd>
          <dt>tool_choice</dt>
          <dd data-testid="request-tool-choice"><code>{r.toolChoice}</code>{detail && <span className="muted"> · on the wire: <code>{choiceText(detail.toolChoice)}</code></span>}</dd>
          <dt>tools array</dt>
          <dd>{r.arrayCount} entries{r.arrayCount !== r.offeredCount ? ` (the fixed catalogue; ${r.offeredCount} offered)` : ''}</dd>
        </dl>
        <table className="req-cost" data-testid="request-cost">
          <caption>Definition cost (JP&apos;s estimate: name + description + schema)</caption>
          <thead>
            <tr><th scope="col"></th><th scope="col">tools</th><th scope="col">bytes</th><th scope="col" title={tokens?.why}>tokens, estimated</th></tr>
          </thead>
          <tbody>
            <tr><th scope="row">offered</th><td className="num">{r.offeredCount}</td><td className="num" data-testid="cost-offered">{formatBytes(r.cost.offered)}</td><td className="num">{t ? formatCount(t.offered) : '…'}</td></tr>
            <tr><th scope="row">permitted</th><td className="num">{r.permittedCount}</td><td className="num" data-testid="cost-permitted">{formatBytes(r.cost.permitted)}</td><td className="num">{t ? formatCount(t.permitted) : '…'}</td></tr>
            <tr className="saving"><th scope="row">saving</th><td></td><td className="num" data-testid="cost-saving">{formatBytes(saving)} ({formatPercent(saving, r.cost.permitted)})</td><td className="num">{tokenSaving !== undefined && t ? `${formatCount(tokenSaving)} (${formatPercent(tokenSaving, t.permitted)})` : '…'}</td></tr>
          </tbody>
        </table>
        {tokens && (
          <p className="muted req-token-basis" data-testid="request-token-basis" title={tokens.why}>
            Tokens: {tokens.label}. {tokens.why}
          </p>
        )}
        {r.addedCount > 0 && (
          <div className="req-joined">
            <span className="muted">Joined the offered set since the previous request:</span>{' '}
            {r.added.map((n) => <JoinedChip key={n} name={n} why="since the previous request" />)}
            {r.addedCount > r.added.length && <span className="muted"> and {r.addedCount - r.added.length} more</span>}
          </div>
        )}
        {detail && detail.directiveBlocks.length > 0 && (
          <section className="req-blocks" aria-label="Tool availability blocks" data-testid="directive-blocks">
            <h3>Availability blocks in the conversation (Anthropic directives mode)</h3>
            <ol>
              {detail.directiveBlocks.map((b, i) => (
                <li key={i} data-block={b.type} className={i >= detail.newBlocksFrom ? 'new' : ''}>
                  <code>{b.type}</code> {i >= detail.newBlocksFrom && id > 0 ? <span className="word new-word">new in this request</span> : null}: {b.tools.length > 20 ? `${b.tools.slice(0, 20).join(', ')} and ${b.tools.length - 20} more` : b.tools.join(', ') || '(none)'}
                </li>
              ))}
            </ol>
          </section>
        )}
      </div>
      <div className="req-body">
        <div className="req-body-head">
          <span>Request body as <code>{detail?.provider ?? view.policy.provider}</code> receives it{detail ? ` · ${formatBytes(detail.prefixBytes)} compared by the cache` : ''}</span>
          {isFetching && <span className="muted">updating…</span>}
        </div>
        <Suspense fallback={<div className="empty">Loading the editor…</div>}>
          {detail ? <JsonViewer text={detail.bodyJson} label={`Request ${id + 1} body, read-only`} /> : <div className="empty">Rendering…</div>}
        </Suspense>
      </div>
    </div>
  );
}

function goTo(requestEntries: readonly number[], request: number, select: (i: number) => void): void {
  const row = requestEntries[request];
  if (row !== undefined) select(row);
}
