// What discovery saves, as the core measured it: all on (JP today, the Cost tab's run of that name) against the
// discoverable setup, in bytes and tokens, beside the RFD's figures ("tens of
// thousands of tokens"; selection degrades past 30–50 tools).
import type { Savings } from '../core';
import { SELECTION_THRESHOLD } from '../core';
import { formatBytes, formatCount } from './Measures';
import './savings.css';

function tokens(n: number | undefined): string {
  return n === undefined ? 'counting…' : `~${formatCount(n)} tokens`;
}

/** A tool-count axis with the 30–50 band and where both setups fall on it. */
export function SelectionScale({ all, offered }: { readonly all: number; readonly offered: number }) {
  const max = Math.max(60, Math.ceil((all * 1.05) / 10) * 10);
  const at = (n: number) => `${Math.min(100, (n / max) * 100)}%`;
  return (
    <div className="selection-scale" role="img" aria-label={`Tool counts: all on ${all}, discoverable ${offered}; selection degrades past ${SELECTION_THRESHOLD.low}–${SELECTION_THRESHOLD.high} tools`}>
      <div className="track">
        <div className="band" style={{ left: at(SELECTION_THRESHOLD.low), width: `calc(${at(SELECTION_THRESHOLD.high)} - ${at(SELECTION_THRESHOLD.low)})` }} title="30–50 tools: where tool selection degrades (RFD 108, after Anthropic)" />
        <div className="mark all" style={{ left: at(all) }} />
        <div className="mark offered" style={{ left: at(offered) }} />
      </div>
      <div className="scale-labels" aria-hidden="true">
        <span>0</span>
        <span className="band-label" style={{ left: at(SELECTION_THRESHOLD.low) }}>
          {SELECTION_THRESHOLD.low}–{SELECTION_THRESHOLD.high} tools: selection degrades
        </span>
        <span>{formatCount(max)}</span>
      </div>
      <div className="scale-legend" aria-hidden="true">
        <span><i className="mark-key offered" /> discoverable setup: {formatCount(offered)} tools offered</span>
        <span><i className="mark-key all" /> all on (JP today): {formatCount(all)} tools</span>
      </div>
    </div>
  );
}

export function SavingsSummary({ savings, compact = false }: { readonly savings: Savings; readonly compact?: boolean }) {
  const s = savings;
  return (
    <div className="savings" data-testid="savings">
      <table className="savings-table">
        <caption className="sr-only">Definition cost: all on (JP today) against the discoverable setup</caption>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">tools in the array</th>
            <th scope="col">definition bytes</th>
            <th scope="col" title={s.tokenBasis?.why}>
              tokens <span className="muted" data-testid="savings-token-basis">({s.tokenBasis?.label ?? 'loading'})</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <tr data-testid="savings-all">
            <th scope="row" title="Every tool that is not off, the discoverable ones turned on, and describe_tools: the Cost tab's all-on run">all on (JP today)</th>
            <td>{formatCount(s.all.tools)}</td>
            <td>{formatBytes(s.all.bytes)}</td>
            <td>{tokens(s.all.tokens)}</td>
          </tr>
          <tr data-testid="savings-discoverable">
            <th scope="row">discoverable setup</th>
            <td>{formatCount(s.discoverable.tools)}</td>
            <td>{formatBytes(s.discoverable.bytes)}</td>
            <td>{tokens(s.discoverable.tokens)}</td>
          </tr>
          <tr className="saved" data-testid="savings-saved">
            <th scope="row">saved per request</th>
            <td />
            <td>
              {formatBytes(s.saved.bytes)} ({s.saved.percent}%)
            </td>
            <td>{tokens(s.saved.tokens)}</td>
          </tr>
        </tbody>
      </table>
      <p className={`rfd verdict-${s.rfd.verdict}`} data-testid="savings-rfd">
        {s.rfd.sentence}
      </p>
      {!compact && <SelectionScale all={s.all.tools} offered={s.discoverable.tools} />}
      <p className="selection" data-testid="savings-selection">
        {s.selection.sentence}
      </p>
    </div>
  );
}
