// The open questions: every policy switch beside the RFD question it answers,
// with its current value as a control. Flipping one re-runs the scenario and
// shows, position by position, what changed (sets, search results, requests
// and their array order, cache). The worker derives both runs and diffs them.
import { DEFAULT_POLICY, POLICY_CHOICES, POLICY_KEYS, POLICY_QUESTIONS } from '../../core';
import type { Policy, PolicyKey } from '../../core';
import { usePolicyDiff } from '../../derive/labHooks';
import type { PolicyDiffView } from '../../derive/labProtocol';
import { useWorkbench } from '../../state/context';
import type { PolicyFlip } from '../../state/labSlice';
import { formatBytes } from '../../components/Measures';
import './questions.css';

const LABELS: Record<PolicyKey, string> = {
  ranking: 'ranking',
  substring_match: 'substring_match',
  report_match_count: 'report_match_count',
  forced_off_tool: 'forced_off_tool',
  promoted_position: 'promoted_position',
  never_blocks_promotion: 'never_blocks_promotion',
  hide_unapproved: 'hide_unapproved',
  categories_prompt: 'categories_prompt',
  provider: 'provider',
};

let flipCounter = 0;

function Switch({ k, value, onFlip }: { readonly k: PolicyKey; readonly value: Policy[PolicyKey]; readonly onFlip: (k: PolicyKey, v: Policy[PolicyKey]) => void }) {
  const choices = POLICY_CHOICES[k] as readonly Policy[PolicyKey][];
  const changed = value !== DEFAULT_POLICY[k];
  if (choices.length > 3) {
    return (
      <select aria-label={LABELS[k]} data-testid={`policy-${k}`} value={String(value)} onChange={(e) => onFlip(k, choices.find((c) => String(c) === e.target.value) ?? value)}>
        {choices.map((c) => (
          <option key={String(c)} value={String(c)}>{String(c)}{c === DEFAULT_POLICY[k] ? ' (default)' : ''}</option>
        ))}
      </select>
    );
  }
  return (
    <div className={`q-seg ${changed ? 'changed' : ''}`} role="radiogroup" aria-label={LABELS[k]} data-testid={`policy-${k}`}>
      {choices.map((c) => (
        <label key={String(c)} className={c === value ? 'on' : ''}>
          <input type="radio" name={`policy-${k}`} value={String(c)} checked={c === value} onChange={() => onFlip(k, c)} />
          {String(c)}
          {c === DEFAULT_POLICY[k] && <span className="q-default">default</span>}
        </label>
      ))}
    </div>
  );
}

function DiffView({ diff, flip, onUndo }: { readonly diff: PolicyDiffView; readonly flip: PolicyFlip; readonly onUndo: () => void }) {
  const selectEntry = useWorkbench((s) => s.selectEntry);
  if (diff.scenarioError) return <p className="sim-error">The scenario does not run: {diff.scenarioError}</p>;
  const e = diff.expectations;
  return (
    <section className="q-diff" aria-label="What changed" data-testid="policy-diff">
      <header>
        <h3>
          <code>{flip.key}</code>: {String(diff.from)} → {String(diff.to)}
        </h3>
        <button type="button" onClick={onUndo} data-testid="policy-undo">Flip back to {String(diff.from)}</button>
      </header>
      <ul className="q-summary">
        <li>requests changed: <strong data-testid="diff-requests-changed">{diff.requests.changed}</strong> of {diff.requests.after}</li>
        <li>calls changed: <strong>{diff.calls.changed}</strong> of {diff.calls.after}</li>
        <li data-testid="diff-prefix-reused">cache prefix reused: {diff.cache.before.reused} of {diff.cache.before.requests} requests → <strong>{diff.cache.after.reused} of {diff.cache.after.requests}</strong></li>
        {diff.prompt && (
          <li data-testid="diff-cached-tokens">
            tokens read from the prompt cache: {diff.prompt.cacheRead.before.toLocaleString('en-US')} → <strong>{diff.prompt.cacheRead.after.toLocaleString('en-US')}</strong>
            {diff.prompt.money ? ` · conversation $${diff.prompt.usd.before.toFixed(5)} → $${diff.prompt.usd.after.toFixed(5)} at ${diff.prompt.model.after} (${diff.prompt.priced})` : ' (local runtime: prefill tokens, no money)'}
          </li>
        )}
        <li>offered definitions sent, all requests: {formatBytes(diff.cost.before)} → <strong>{formatBytes(diff.cost.after)}</strong></li>
        <li>expectations: {e.before.passed} passed, {e.before.failed} failed → <strong className={e.after.failed > 0 ? 'fail' : 'pass'}>{e.after.passed} passed, {e.after.failed} failed</strong></li>
      </ul>
      {diff.rows.length === 0 ? (
        <p className="muted" data-testid="diff-none">Nothing this scenario shows changes under this switch. Its question is not exercised here: add a step that touches it.</p>
      ) : (
        <ol className="q-rows">
          {diff.rows.map((row, i) => (
            <li key={i} data-kind={row.kind} className="q-row">
              <div className="q-where">
                {row.entry !== undefined ? (
                  <button type="button" className="linklike" onClick={() => selectEntry(row.entry)} title="Select this row in the timeline">{row.where}</button>
                ) : row.where}
              </div>
              {row.changes.map((c, j) => (
                <div key={j} className="q-change" data-what={c.what}>
                  <div className="q-what">{c.what}</div>
                  <div className="q-ba">
                    <div className="q-before"><span className="q-val">{String(diff.from)}</span>{c.before}</div>
                    <div className="q-after"><span className="q-val">{String(diff.to)}</span>{c.after}</div>
                  </div>
                </div>
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function QuestionsPanel() {
  const policy = useWorkbench((s) => s.doc.policy);
  const doc = useWorkbench((s) => s.doc);
  const revision = useWorkbench((s) => s.revision);
  const setPolicy = useWorkbench((s) => s.setPolicy);
  const flip = useWorkbench((s) => s.lastFlip);
  const setFlip = useWorkbench((s) => s.setLastFlip);
  // The diff always compares the current document at the flip's old value against its current value.
  const params = flip ? { id: flip.id, revision, doc: { ...doc, policy: { ...doc.policy, [flip.key]: flip.from } }, key: flip.key, value: doc.policy[flip.key] } : undefined;
  const { data: diff, isFetching } = usePolicyDiff(params);
  const onFlip = (k: PolicyKey, v: Policy[PolicyKey]) => {
    if (policy[k] === v) return;
    flipCounter += 1;
    setFlip({ id: flipCounter, key: k, from: policy[k], to: v });
    setPolicy(k, v as never);
  };
  const undo = () => {
    if (!flip) return;
    setPolicy(flip.key, flip.from as never);
    setFlip(undefined);
  };
  return (
    <div className="q" data-testid="questions-panel">
      <div className="q-list" role="region" aria-label="Policy switches and the questions they answer" tabIndex={0}>
        <table>
          <thead>
            <tr><th scope="col">RFD 108&apos;s open question</th><th scope="col">switch</th></tr>
          </thead>
          <tbody>
            {POLICY_KEYS.map((k) => (
              <tr key={k} className={flip?.key === k ? 'flipped' : ''} data-policy={k}>
                <td>
                  <code className="q-key">{k}</code>
                  <p className="q-question">{POLICY_QUESTIONS[k]}</p>
                </td>
                <td>
                  <Switch k={k} value={policy[k]} onFlip={onFlip} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="q-result" aria-live="polite" role="region" aria-label="What changed" tabIndex={0}>
        {!flip && <p className="muted">Flip a switch: the scenario re-runs with it and the changes appear here, position by position (sets, search results, requests and their array order, cache).</p>}
        {flip && doc.policy[flip.key] === flip.from && <p className="muted">The switch is back at {String(flip.from)}: nothing differs.</p>}
        {flip && doc.policy[flip.key] !== flip.from && !diff && <p className="muted">Re-running the scenario…</p>}
        {flip && diff && doc.policy[flip.key] !== flip.from && diff.key === flip.key && (
          <>
            {isFetching && <p className="muted">Updating…</p>}
            <DiffView diff={diff} flip={flip} onUndo={undo} />
          </>
        )}
      </div>
    </div>
  );
}
