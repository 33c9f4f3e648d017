// The header: the scenario's name, the provider and ranking, the policy
// switches changed from their defaults, the check status, and the palette.
import { DEFAULT_POLICY, POLICY_CHOICES, POLICY_KEYS } from '../../core';
import type { ProviderId } from '../../core';
import { useWorkbench } from '../../state/context';
import { useTimeline } from '../../derive/hooks';
import { shortcutLabel } from '../../commands/registry';
import type { ReactNode } from 'react';

/** `actions`: buttons other features place in the header (e.g. Share), before the palette button. */
export function Header({ actions }: { readonly actions?: ReactNode } = {}) {
  const name = useWorkbench((s) => s.doc.name);
  const policy = useWorkbench((s) => s.doc.policy);
  const setName = useWorkbench((s) => s.setName);
  const setPolicy = useWorkbench((s) => s.setPolicy);
  const openPalette = useWorkbench((s) => s.setPaletteOpen);
  const setDockTab = useWorkbench((s) => s.setDockTab);
  const { data: view, isFetching } = useTimeline();
  const changed = POLICY_KEYS.filter((k) => policy[k] !== DEFAULT_POLICY[k]).length;
  return (
    <header className="header">
      <h1>Tool Catalogue Workbench</h1>
      <input className="name" aria-label="Scenario name" value={name} onChange={(e) => setName(e.target.value)} size={Math.max(12, name.length)} />
      <label>
        provider
        <select aria-label="Provider" value={policy.provider} onChange={(e) => setPolicy('provider', e.target.value as ProviderId)}>
          {POLICY_CHOICES.provider.map((p) => (
            <option key={p} value={p}>{p}</option>
          ))}
        </select>
      </label>
      <label>
        ranking
        <select aria-label="Ranking" value={policy.ranking} onChange={(e) => setPolicy('ranking', e.target.value as 'bm25' | 'substring')}>
          {POLICY_CHOICES.ranking.map((p) => (
            <option key={p} value={p}>{p}</option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => setDockTab('questions')} aria-label={`Policy switches, ${changed} changed`}>
        policy switches{changed > 0 ? ` (${changed} changed)` : ''}
      </button>
      <span className="spacer" />
      <span className="status" role="status" aria-live="polite" data-testid="check-status">
        {view && view.scenarioErrors.length > 0 && <span className="fail">scenario error</span>}
        {view && view.scenarioErrors.length === 0 && (
          <>
            <span className={view.failed > 0 ? 'fail' : 'pass'}>{view.passed} passed, {view.failed} failed</span>
            {isFetching ? ' · deriving…' : ` · ${view.millis} ms`}
          </>
        )}
      </span>
      {actions}
      <button type="button" onClick={() => openPalette(true)} aria-label="Open the command palette">
        {shortcutLabel('Mod+K')}
      </button>
    </header>
  );
}
