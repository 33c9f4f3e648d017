// The Tasks tab's bar (the task set in, the policy and its switches, run and export) and the run's
// summary and comparison. Untrusted text (requests, tool names) renders as text only.
import { useState } from 'react';
import type { DragEvent } from 'react';
import { OUTCOMES, OUTCOME_LABELS, POLICY_NAMES, resultsCsv, resultsJsonl, searchRatios } from '../../core';
import type { Outcome, PolicyName, TaskRun } from '../../core';
import { downloadBlob } from '../../components/download';
import { readFileText } from '../../components/readText';
import { setTaskState, toggleOutcome, useTaskStore } from './taskStore';
import type { FinishedRun } from './taskStore';

const POLICY_HELP: Readonly<Record<PolicyName, string>> = {
  never: 'never searches: the floor, the RFD\'s silent failure',
  request: 'searches with the request\'s own words: the ranking\'s ceiling',
  auto: 'the auto model: keyword queries, up to two searches',
  categories: 'searches only when the request names a category of the prompt',
};

async function loadFile(file: File): Promise<void> {
  const r = await readFileText(file);
  if (!r.ok) setTaskState({ error: `${file.name}:${r.error}` });
  else setTaskState({ text: r.text, source: file.name, error: undefined });
}

export function exportRun(run: TaskRun, kind: 'jsonl' | 'csv'): void {
  const name = `tasks-${run.policy}${run.categories ? '-categories' : ''}.${kind}`;
  if (kind === 'jsonl') downloadBlob(name, new Blob([resultsJsonl(run)], { type: 'application/jsonl' }));
  else downloadBlob(name, new Blob([resultsCsv(run)], { type: 'text/csv' }));
}

/** `policyControls` false: the task set only (the model A/B has its own controls). */
export function TaskSetBar({ onRun, running, policyControls = true }: { readonly onRun: () => void; readonly running: boolean; readonly policyControls?: boolean }) {
  const text = useTaskStore((s) => s.text);
  const source = useTaskStore((s) => s.source);
  const settings = useTaskStore((s) => s.settings);
  const last = useTaskStore((s) => s.runs[0]);
  const [over, setOver] = useState(false);
  const set = (patch: Partial<typeof settings>) => setTaskState({ settings: { ...settings, ...patch } });
  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) void loadFile(file);
  };
  const lines = text.split('\n').filter((l) => l.trim() !== '').length;
  return (
    <div className={`tk-bar ${over ? 'tk-over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={onDrop} data-testid="tk-bar">
      <div className="tk-controls">
        <textarea
          className="tk-text"
          value={text}
          rows={1}
          spellCheck={false}
          data-testid="tk-input"
          aria-label="Task set: JSON lines of query and relevant tools"
          placeholder={'Task set: paste, drop or load JSONL, {"query": "...", "relevant": ["tool"]} per line'}
          onChange={(e) => setTaskState({ text: e.target.value, source: 'pasted' })}
        />
        <label className="tk-file">
          Load file…
          <input type="file" accept=".jsonl,.json,.txt" data-testid="tk-file" onChange={(e) => { const f = e.target.files?.[0]; if (f) void loadFile(f); e.target.value = ''; }} />
        </label>
        <span className="tk-source">{lines} line{lines === 1 ? '' : 's'}{source ? ` (${source})` : ''}</span>
        {policyControls ? (
          <>
            <label title={POLICY_HELP[settings.policy]}>
              policy{' '}
              <select aria-label="Policy" data-testid="tk-policy" value={settings.policy} onChange={(e) => set({ policy: e.target.value as PolicyName })}>
                {POLICY_NAMES.map((p) => <option key={p} value={p} title={POLICY_HELP[p]}>{p}</option>)}
              </select>
              <span className="tk-source"> {POLICY_HELP[settings.policy]}</span>
            </label>
            <label title="Adds the categories section (one line per searchable group) to the simulated system prompt, as [policy] categories_prompt does">
              <input type="checkbox" checked={settings.categories} data-testid="tk-categories" onChange={(e) => set({ categories: e.target.checked })} /> categories section in the prompt
            </label>
            <label>
              search limit{' '}
              <input type="number" min={1} max={50} value={settings.limit} aria-label="search_tools limit" className="tk-limit" onChange={(e) => { const n = Number(e.target.value); if (Number.isInteger(n) && n >= 1 && n <= 50) set({ limit: n }); }} />
            </label>
            <label title="Tokens and money of each task's turn against the same turn with every permitted tool on (slower)">
              <input type="checkbox" checked={settings.cost} onChange={(e) => set({ cost: e.target.checked })} /> tokens against all-on
            </label>
            <button type="button" className="primary" data-testid="tk-run" disabled={running} onClick={onRun}>{running ? 'Running…' : 'Run tasks'}</button>
            <button type="button" data-testid="tk-export-jsonl" disabled={!last} onClick={() => last && exportRun(last.run, 'jsonl')}>Export JSONL</button>
            <button type="button" data-testid="tk-export-csv" disabled={!last} onClick={() => last && exportRun(last.run, 'csv')}>Export CSV</button>
          </>
        ) : null}
      </div>
    </div>
  );
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

export function RunSummary({ finished }: { readonly finished: FinishedRun }) {
  const { run } = finished;
  const s = run.summary;
  const ratios = searchRatios(s, pct);
  const hidden = useTaskStore((st) => st.hidden);
  return (
    <div className="tk-summary" data-testid="tk-summary">
      <div className="tk-filters" role="group" aria-label="Show outcomes">
        <strong>{s.tasks} task{s.tasks === 1 ? '' : 's'}</strong>{' '}
        <span title="a stand-in for a model, not a real one">policy {finished.label}</span>
        {OUTCOMES.map((o: Outcome) => (
          <button key={o} type="button" className={`tk-filter tk-${o}`} aria-pressed={!hidden.has(o)} data-testid={`tk-filter-${o}`} onClick={() => toggleOutcome(o)} title={`Show or hide the tasks ${OUTCOME_LABELS[o]}`}>
            {OUTCOME_LABELS[o]} <span className="num">{s.counts[o]}</span>
          </button>
        ))}
        <span className="tk-rate" data-testid="tk-rate">
          {ratios.searched} · {ratios.rate}
        </span>
      </div>
      <div className="tk-note">
        {s.tokens ? `tokens ${s.tokens.tokens.toLocaleString('en-US')} against ${s.tokens.allOnTokens.toLocaleString('en-US')} with every permitted tool on; $${s.tokens.money.toFixed(4)} against $${s.tokens.allOnMoney.toFixed(4)} (${s.tokens.priced}) · ` : ''}
        categories section: {run.section.lines} line{run.section.lines === 1 ? '' : 's'}{run.section.tokens !== undefined ? `, ${run.section.tokens} tokens on every request` : ''}{run.categories ? ', in the system prompt' : ', not in the prompt'}
      </div>
      {run.unknownNames.length > 0 ? (
        <div className="tk-unknown" role="status" data-testid="tk-unknown">
          Not in the catalogue: {run.unknownNames.map((u) => `${u.name} (${u.tasks} task${u.tasks === 1 ? '' : 's'})`).join(', ')}
        </div>
      ) : null}
    </div>
  );
}

/** Two runs side by side: the counts of each, and the tasks whose outcome changed. */
export function RunComparison({ before, after, onOpen }: { readonly before: FinishedRun; readonly after: FinishedRun; readonly onOpen: (index: number) => void }) {
  const changed = after.run.results.filter((r) => {
    const b = before.run.results[r.index];
    return b !== undefined && b.query === r.query && b.outcome !== r.outcome;
  });
  return (
    <details className="tk-compare" aria-label="Two runs side by side" data-testid="tk-compare">
      <summary>
        Against the previous run ({before.label}): {changed.length} task{changed.length === 1 ? '' : 's'} changed outcome
      </summary>
      <table>
        <thead>
          <tr><th>run</th>{OUTCOMES.map((o) => <th key={o}>{OUTCOME_LABELS[o]}</th>)}<th title="searched in H of the K tasks a search would have helped (met by search or silently missed)">search rate</th></tr>
        </thead>
        <tbody>
          {[before, after].map((f, i) => (
            <tr key={f.id}>
              <th>{i === 0 ? 'before' : 'after'}: {f.label}</th>
              {OUTCOMES.map((o) => <td key={o} className="num">{f.run.summary.counts[o]}</td>)}
              {/* A ratio names what it divides (issue 24.7), here as in the run's summary line. */}
              <td className="num" data-testid="tk-compare-rate">{pct(f.run.summary.searchRate)} ({f.run.summary.searchedWhenHelpful} of {f.run.summary.helpedBySearch})</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul>
        {changed.slice(0, 50).map((r) => (
          <li key={r.index}>
            <button type="button" className="link" onClick={() => onOpen(r.index)}>{r.index + 1}. {r.query}</button>{' '}
            {OUTCOME_LABELS[before.run.results[r.index]?.outcome ?? r.outcome]} → {OUTCOME_LABELS[r.outcome]}
          </li>
        ))}
      </ul>
    </details>
  );
}
