// The turn simulator: type a jp command to append a step, then act as the
// model cycle by cycle (search, call a tool, describe tools, reply), or let the
// auto model play the turn. Every action is an ordinary scenario step.
import { useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { parseCommand } from '../../core';
import { useTimeline } from '../../derive/hooks';
import { useRequestTools } from '../../derive/labHooks';
import { useDeriveClient } from '../../derive/queries';
import type { EntryView, RequestView, TimelineView } from '../../derive/protocol';
import type { RequestToolView } from '../../derive/labProtocol';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { CacheWord, formatBytes, JoinedChip, SearchStatus } from '../../components/Measures';
import { addStep, autoTurn, callTool, recordLastStep, reply } from './actions';
import { checkArgs } from './args';
import { RunOnServer } from './RunOnServer';
import { placeholderArgs } from './autoModel';
import { openTurn, requestOf, stepEntries } from './turn';
import type { OpenTurn } from './turn';
import './simulator.css';

function PromptLine({ onAuto, busy }: { readonly onAuto: () => void; readonly busy: boolean }) {
  const store = useWorkbenchStore();
  const text = useWorkbench((s) => s.simPrompt);
  const setText = useWorkbench((s) => s.setSimPrompt);
  const parsed = useMemo(() => (text.trim() === '' ? undefined : parseCommand(text)), [text]);
  const error = parsed && !parsed.ok ? parsed.error : undefined;
  const submit = () => {
    if (!parsed || !parsed.ok) return;
    if (addStep(store, text).ok) setText('');
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    }
  };
  const start = error ? Math.max(0, error.column - 1) : 0;
  const end = error ? Math.max(start + 1, error.endColumn - 1) : 0;
  return (
    <div className="sim-prompt">
      <div className="sim-prompt-row">
        <span className="sim-prompt-sign" aria-hidden="true">$</span>
        <input
          className={`mono ${error ? 'invalid' : ''}`}
          data-testid="sim-prompt"
          aria-label="jp command"
          aria-invalid={error !== undefined}
          aria-describedby="sim-prompt-help"
          placeholder="jp q 'your first query'   or   jp config set --id conversation.tools.NAME.enable=on"
          value={text}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
        />
        <button type="button" onClick={submit} disabled={!parsed || !parsed.ok} data-testid="sim-add-step">
          Add step
        </button>
        <button type="button" onClick={onAuto} disabled={busy} data-testid="sim-auto" title="Play the open turn (or the typed jp q) with the deterministic auto model">
          {busy ? 'Auto model…' : 'Auto model'}
        </button>
      </div>
      <div id="sim-prompt-help" className="sim-prompt-help" aria-live="polite">
        {error ? (
          <div className="sim-error" role="alert" data-testid="sim-prompt-error">
            <code className="sim-echo">
              {text.slice(0, start)}
              <mark>{text.slice(start, end) || ' '}</mark>
              {text.slice(end)}
            </code>
            <span>
              column {error.column}: {error.message}
            </span>
          </div>
        ) : parsed?.ok ? (
          <span className="muted">Enter appends the step: {parsed.command.kind === 'query' ? `a turn asking ${JSON.stringify(parsed.command.query)}` : 'a config edit'}.</span>
        ) : (
          <span className="muted">Type a jp command; it is checked as you type.</span>
        )}
      </div>
    </div>
  );
}

type Mode = 'search' | 'call' | 'describe' | 'reply';

function ToolPicker({ tools, value, onChange }: { readonly tools: readonly RequestToolView[]; readonly value: string; readonly onChange: (v: string) => void }) {
  const offered = tools.filter((t) => t.offered);
  const others = tools.filter((t) => !t.offered);
  return (
    <>
      <input className="mono" list="sim-tools" aria-label="Tool to call" data-testid="sim-tool" value={value} onChange={(e) => onChange(e.target.value)} placeholder="tool name" spellCheck={false} />
      <datalist id="sim-tools">
        {offered.map((t) => (
          <option key={t.name} value={t.name}>offered</option>
        ))}
        {others.map((t) => (
          <option key={t.name} value={t.name}>permitted, not offered</option>
        ))}
      </datalist>
    </>
  );
}

function Actions({ open, request }: { readonly open: OpenTurn; readonly request: RequestView | undefined }) {
  const store = useWorkbenchStore();
  const [mode, setMode] = useState<Mode>('search');
  const [query, setQuery] = useState('');
  const [limit, setLimit] = useState('10');
  const [tool, setTool] = useState('');
  const [argsText, setArgsText] = useState('{}');
  const [describe, setDescribe] = useState('');
  const [replyText, setReplyText] = useState('');
  const { data: toolsView } = useRequestTools(request?.id);
  const tools = useMemo(() => toolsView?.tools ?? [], [toolsView]);
  const picked = tools.find((t) => t.name === tool);
  // The tool a real run is for stays while the next request's tools load (a run records a call,
  // which opens that request), so its result stays on screen.
  const [runTool, setRunTool] = useState<RequestToolView | undefined>(undefined);
  if (picked?.server !== undefined && picked !== runTool && (runTool === undefined || runTool.name !== picked.name || runTool.server !== picked.server)) setRunTool(picked);
  const shownRun = runTool !== undefined && runTool.name === tool.trim() ? runTool : undefined;
  const args = checkArgs(argsText, picked);
  const limitNumber = Number(limit);
  const limitOk = limit.trim() === '' || (Number.isInteger(limitNumber) && limitNumber >= 1);
  const modes: { id: Mode; label: string }[] = [
    { id: 'search', label: 'search_tools' },
    { id: 'call', label: 'call a tool' },
    { id: 'describe', label: 'describe_tools' },
    { id: 'reply', label: 'reply' },
  ];
  const searchOffered = tools.some((t) => t.name === 'search_tools' && t.offered);
  return (
    <div className="sim-actions">
      <div className="sim-modes" role="radiogroup" aria-label="The model's response">
        {modes.map((m) => (
          <label key={m.id} className={mode === m.id ? 'on' : ''}>
            <input type="radio" name="sim-mode" value={m.id} checked={mode === m.id} onChange={() => setMode(m.id)} data-testid={`sim-mode-${m.id}`} />
            {m.label}
          </label>
        ))}
      </div>
      {mode === 'search' && (
        <form
          className="sim-form"
          onSubmit={(e) => {
            e.preventDefault();
            callTool(store, 'search_tools', { query, ...(limit.trim() !== '' ? { limit: limitNumber } : {}) });
          }}
        >
          <label>
            query
            <input data-testid="sim-search-query" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="keywords, e.g. workflow logs" />
          </label>
          <label className="narrow">
            limit
            <input data-testid="sim-search-limit" type="number" min={1} max={50} value={limit} onChange={(e) => setLimit(e.target.value)} aria-invalid={!limitOk} />
          </label>
          <button type="submit" disabled={!limitOk} data-testid="sim-search-submit">Call search_tools</button>
          {!searchOffered && <p className="muted">search_tools is not offered in this request (no discoverable tool is registered); the call gets the executor&apos;s error.</p>}
          {query.trim() === '' && <p className="muted">An empty query is an error result (&quot;query must not be empty&quot;), as the RFD says.</p>}
        </form>
      )}
      {mode === 'call' && (
        <form
          className="sim-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (args.ok && args.value && tool.trim() !== '') callTool(store, tool.trim(), args.value);
          }}
        >
          <label>
            tool
            <ToolPicker tools={tools} value={tool} onChange={(v) => {
              setTool(v);
              const t = tools.find((x) => x.name === v);
              if (t && (argsText.trim() === '' || argsText.trim() === '{}')) setArgsText(JSON.stringify(placeholderArgs(t), null, 1));
            }} />
          </label>
          <p className="muted sim-tool-info" data-testid="sim-tool-info">
            {tool.trim() === '' ? `${tools.filter((t) => t.offered).length} offered and ${tools.filter((t) => !t.offered).length} more permitted tools.`
              : picked ? `${picked.offered ? 'offered' : 'permitted, not offered (a discoverable tool runs when called)'}${picked.params.length > 0 ? ` · parameters: ${picked.params.map((p) => `${p.name}${p.required ? '*' : ''}: ${p.type}`).join(', ')}` : ' · no parameters'}`
              : 'not in the permitted set: the executor will answer that it is not available'}
          </p>
          <label className="grow">
            arguments (JSON)
            <textarea className="mono" rows={3} data-testid="sim-args" value={argsText} onChange={(e) => setArgsText(e.target.value)} aria-invalid={!args.ok} spellCheck={false} />
          </label>
          {args.error && <p className="sim-error" role="alert" data-testid="sim-args-error">line {args.error.line}, column {args.error.column}: {args.error.message}</p>}
          {args.warnings.map((w) => (
            <p key={w} className="sim-warning">{w}</p>
          ))}
          <button type="submit" disabled={!args.ok || tool.trim() === ''} data-testid="sim-call-submit">Call {tool.trim() || 'tool'}</button>
        </form>
      )}
      {mode === 'call' && shownRun !== undefined && <RunOnServer key={shownRun.name} tool={shownRun} />}
      {mode === 'describe' && (
        <form
          className="sim-form"
          onSubmit={(e) => {
            e.preventDefault();
            const names = describe.split(/[\s,]+/u).filter((n) => n !== '');
            callTool(store, 'describe_tools', { tools: names });
          }}
        >
          <label className="grow">
            tools (comma-separated)
            <input className="mono" data-testid="sim-describe" value={describe} onChange={(e) => setDescribe(e.target.value)} placeholder="github_get_job_logs, sentry_list_issues" list="sim-tools" />
          </label>
          <button type="submit" data-testid="sim-describe-submit">Call describe_tools</button>
        </form>
      )}
      {mode === 'reply' && (
        <form
          className="sim-form"
          onSubmit={(e) => {
            e.preventDefault();
            reply(store, replyText);
            setReplyText('');
          }}
        >
          <label className="grow">
            reply
            <input data-testid="sim-reply" value={replyText} onChange={(e) => setReplyText(e.target.value)} placeholder="The deploy failed on a type error." />
          </label>
          <button type="submit" data-testid="sim-reply-submit">Reply and end the turn</button>
        </form>
      )}
      <p className="muted sim-open" data-testid="sim-open">
        Step {open.stepIndex + 1}, cycle {open.cycle} awaits the model · {JSON.stringify(open.query)}
      </p>
    </div>
  );
}

function RequestRow({ r, promotedBefore }: { readonly r: RequestView | undefined; readonly promotedBefore: boolean }) {
  if (!r) return null;
  return (
    <div className="sim-row sim-request" data-request={r.id} data-cycle={r.cycle}>
      <span className="sim-kind">request</span>
      <span>
        cycle {r.cycle}: {r.offered.length} tools offered · {formatBytes(r.cost.offered)} of definitions · <CacheWord status={r.cache.status} reason={r.cache.reason} />
      </span>
      {r.added.length > 0 && (
        <div className="sim-joined" data-testid="sim-joined">
          <span className="muted">joined the offered set{promotedBefore ? ' (promoted by the search above)' : ''}:</span>{' '}
          {r.added.map((n) => (
            <JoinedChip key={n} name={n} why={promotedBefore ? 'promotion' : 'delta'} />
          ))}
        </div>
      )}
    </div>
  );
}

function CallRow({ e }: { readonly e: EntryView }) {
  const s = e.search;
  return (
    <div className={`sim-row sim-call ${e.callStatus === 'error' ? 'is-error' : ''}`} data-call-status={e.callStatus}>
      <span className="sim-kind">call</span>
      <code className="sim-call-label">{e.label}</code>
      {e.callStatus === 'error' ? <span className="sim-error">error: {e.error}</span> : !s && <span className="sim-result">{e.detail}</span>}
      {s && (
        <div className="sim-search" data-testid="sim-search-result">
          <table>
            <caption>
              {s.returned.length} returned{s.total !== undefined ? ` of ${s.total} matches` : ' (no total: report_match_count is off)'} · limit {s.limit}
            </caption>
            <thead>
              <tr><th scope="col">tool</th><th scope="col">status</th><th scope="col">score</th><th scope="col">matched</th></tr>
            </thead>
            <tbody>
              {s.returned.map((h) => (
                <tr key={h.name} data-tool={h.name}>
                  <td><code>{h.name}</code></td>
                  <td><SearchStatus status={h.status} /></td>
                  <td className="num">{h.score.toFixed(2)}</td>
                  <td>{h.fields.join(', ').replaceAll('_', ' ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function TurnLog({ view, stepNo, open }: { readonly view: TimelineView; readonly stepNo: number; readonly open: boolean }) {
  const entries = stepEntries(view, stepNo);
  const lastReply = open ? entries.filter((e) => e.kind === 'reply').at(-1)?.index : undefined;
  let sawPromotion = false;
  return (
    <div className="sim-log" data-testid="sim-log">
      {entries.map((e) => {
        if (e.kind === 'step') return <div key={e.index} className={`sim-row sim-step ${e.error ? 'is-error' : ''}`}><code>{e.label}</code>{e.error && <span className="sim-error"> {e.error}</span>}</div>;
        if (e.kind === 'request') {
          const row = <RequestRow key={e.index} r={e.request !== undefined ? view.requests[e.request] : undefined} promotedBefore={sawPromotion} />;
          sawPromotion = false;
          return row;
        }
        if (e.kind === 'call') return <CallRow key={e.index} e={e} />;
        if (e.kind === 'delta') {
          if (e.sources?.includes('promotion')) sawPromotion = true;
          return <div key={e.index} className="sim-row sim-delta"><span className="sim-kind">delta</span><span>{e.label}</span></div>;
        }
        if (e.kind === 'reply' && e.index === lastReply) return <div key={e.index} className="sim-row sim-awaiting"><span className="sim-kind">model</span><span>awaiting the model&apos;s response (run as a file, this cycle ends the turn with an empty reply)</span></div>;
        if (e.kind === 'reply') return <div key={e.index} className="sim-row sim-reply" data-testid="sim-reply-row"><span className="sim-kind">reply</span><span>{e.label.replace(/^reply: /u, '')}</span></div>;
        if (e.kind === 'warning') return <div key={e.index} className="sim-row sim-warning">{e.label}</div>;
        return null;
      })}
    </div>
  );
}

export function SimulatorPanel() {
  const store = useWorkbenchStore();
  const client = useDeriveClient();
  const queryClient = useQueryClient();
  const doc = useWorkbench((s) => s.doc);
  const { data: view } = useTimeline();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | undefined>(undefined);
  const open = openTurn(doc);
  const stepNo = doc.steps.length;
  const reqId = open && view ? requestOf(view, open.stepIndex + 1, open.cycle) : undefined;
  const request = reqId !== undefined ? view?.requests[reqId] : undefined;

  const runAuto = async () => {
    setBusy(true);
    setNote(undefined);
    try {
      if (!openTurn(store.getState().doc)) {
        const typed = store.getState().simPrompt;
        const parsed = typed.trim() === '' ? undefined : parseCommand(typed);
        if (!parsed?.ok || parsed.command.kind !== 'query') {
          setNote('No turn is open: type a jp q command first, then press Auto model.');
          return;
        }
        addStep(store, typed);
        store.getState().setSimPrompt('');
      }
      const moves = await autoTurn(store, client, queryClient);
      if (moves.length === 0) {
        setNote('Auto model: the open turn has no request to answer (see the timeline for the step\'s error).');
        return;
      }
      setNote(`Auto model: ${moves.map((m) => (m.kind === 'search' ? `search_tools("${m.query}")` : m.kind === 'call' ? `${m.tool}(…)` : 'reply')).join(' → ')} (${moves[moves.length - 1]?.why ?? ''}).`);
    } catch (e) {
      setNote(`Auto model stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const record = async () => {
    const n = await recordLastStep(store, client, queryClient);
    setNote(`Recorded ${n} expectations on step ${stepNo}: the saved scenario now checks what is shown here.`);
  };

  return (
    <div className="sim">
      <PromptLine onAuto={() => void runAuto()} busy={busy} />
      <div className="sim-body">
        <div className="sim-left" role="region" aria-label="The model's response" tabIndex={0}>
          {open ? (
            <Actions key={open.stepIndex} open={open} request={request} />
          ) : (
            <p className="muted sim-closed" data-testid="sim-closed">
              {doc.steps.length === 0 ? 'No steps yet. Type jp q \'your first query\' above and press Enter.' : 'The last step is not awaiting the model. Type a jp q above to start a new turn.'}
            </p>
          )}
          <div className="sim-tools-row">
            <button type="button" onClick={() => void record()} disabled={doc.steps.length === 0} data-testid="sim-record" title="Write the results shown for the last step as its expectations">
              Record expectations
            </button>
            {note && <span className="sim-note" role="status" data-testid="sim-note">{note}</span>}
          </div>
        </div>
        <div className="sim-right" role="region" aria-label="The last step, as derived" tabIndex={0}>
          {view && stepNo > 0 ? <TurnLog view={view} stepNo={stepNo} open={open !== undefined} /> : <p className="muted">The last step&apos;s requests, calls and results appear here.</p>}
        </div>
      </div>
    </div>
  );
}
