// The header, one row at 1024 px and wider whatever the provider, the switches or the counts: the
// scenario's name (it shrinks first), the provider and ranking, the policy switches changed from their
// defaults, the check's one count (the timeline shows the same; clicking it goes to the first failing
// row), other features' buttons, and the palette.
import type { ReactNode } from 'react';
import { DEFAULT_POLICY, POLICY_CHOICES, POLICY_KEYS } from '../../core';
import type { ProviderId } from '../../core';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { useTimelineStatus } from '../../derive/hooks';
import { useCommands } from '../../commands/context';
import { shortcutLabel } from '../../commands/registry';
import './header.css';

// Reads the derivation's status itself: only this marker re-renders as each keystroke's derivation starts and ends.
function CheckStatus() {
  const { data: view, isFetching: fetching } = useTimelineStatus();
  const store = useWorkbenchStore();
  const registry = useCommands();
  const timing = view ? (fetching ? 'deriving…' : `derived in ${view.millis} ms`) : 'deriving…';
  let body: ReactNode = null;
  if (view && view.scenarioErrors.length > 0) body = <span className="fail">scenario error</span>;
  else if (view && view.failed > 0) {
    body = (
      <button type="button" className="hd-status-btn fail" onClick={() => void registry.run('check.firstProblem', { store })} title={`${timing}. Go to the first failing row of the timeline.`} data-testid="check-status-link">
        {view.passed} passed, {view.failed} failed
      </button>
    );
  } else if (view) body = <span className="pass" title={timing}>{view.passed} passed, 0 failed</span>;
  return (
    <span className="hd-status" role="status" aria-live="polite" data-testid="check-status">
      {body}
      <span className="hd-timing" aria-hidden="true">{view && !fetching ? `${view.millis} ms` : ''}</span>
    </span>
  );
}

/** `actions`: buttons other features place in the header (Share, the RFD view, the tour), before the palette button. */
export function Header({ actions }: { readonly actions?: ReactNode } = {}) {
  const name = useWorkbench((s) => s.doc.name);
  const policy = useWorkbench((s) => s.doc.policy);
  const setName = useWorkbench((s) => s.setName);
  const setPolicy = useWorkbench((s) => s.setPolicy);
  const openPalette = useWorkbench((s) => s.setPaletteOpen);
  const setDockTab = useWorkbench((s) => s.setDockTab);
  const changed = POLICY_KEYS.filter((k) => policy[k] !== DEFAULT_POLICY[k]).length;
  return (
    <header className="header">
      <h1 title="Tool Catalogue Workbench">
        <span className="hd-brand-long">Tool Catalogue Workbench</span>
        <span className="hd-brand-short" aria-hidden="true">Workbench</span>
      </h1>
      <input className="name" aria-label="Scenario name" value={name} onChange={(e) => setName(e.target.value)} title={name} />
      <label className="hd-select" title="The provider whose request shape and prefix cache the timeline shows">
        <span className="hd-label">provider</span>
        <select aria-label="Provider" value={policy.provider} onChange={(e) => setPolicy('provider', e.target.value as ProviderId)}>
          {POLICY_CHOICES.provider.map((p) => (
            <option key={p} value={p}>{p}</option>
          ))}
        </select>
      </label>
      <label className="hd-select" title="The ranking the simulated search_tools uses">
        <span className="hd-label">ranking</span>
        <select aria-label="Ranking" value={policy.ranking} onChange={(e) => setPolicy('ranking', e.target.value as 'bm25' | 'substring')}>
          {POLICY_CHOICES.ranking.map((p) => (
            <option key={p} value={p}>{p}</option>
          ))}
        </select>
      </label>
      <button type="button" className="hd-switches" onClick={() => setDockTab('questions')} aria-label={`Policy switches, ${changed} changed`} title="The RFD's open questions as policy switches (Open questions tab)">
        switches
        {changed > 0 && (
          <span className="hd-count">
            {changed}
            <span className="hd-count-word"> changed</span>
          </span>
        )}
      </button>
      <span className="spacer" />
      <CheckStatus />
      {actions}
      <button type="button" onClick={() => openPalette(true)} aria-label="Open the command palette" title="Every action, by name">
        {shortcutLabel('Mod+K')}
      </button>
    </header>
  );
}
