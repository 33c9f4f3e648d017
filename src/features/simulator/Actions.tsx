// The model's response to the open cycle, by hand: search, call a tool, describe tools, or reply.
import { useMemo, useState } from 'react';
import { fillArguments } from '../../core';
import type { OpenTurn } from '../../core';
import { useRequestTools } from '../../derive/labHooks';
import type { RequestView } from '../../derive/protocol';
import type { RequestToolView } from '../../derive/labProtocol';
import { useWorkbenchStore } from '../../state/context';
import { callTool, reply } from './actions';
import { checkArgs } from './args';
import { RunOnServer } from './RunOnServer';

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

/** `blocked`: the step did not start (no request); the panel disables these actions and says why. */
export function Actions({ open, request, blocked = false }: { readonly open: OpenTurn; readonly request: RequestView | undefined; readonly blocked?: boolean }) {
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
            callTool(store, open.stepIndex, 'search_tools', { query, ...(limit.trim() !== '' ? { limit: limitNumber } : {}) });
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
          {!searchOffered && request !== undefined && <p className="muted">search_tools is not offered in this request (no discoverable tool is registered); the call gets the executor&apos;s error.</p>}
          {query.trim() === '' && !blocked && <p className="muted">An empty query is an error result (&quot;query must not be empty&quot;), as the RFD says.</p>}
        </form>
      )}
      {mode === 'call' && (
        <form
          className="sim-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (args.ok && args.value && tool.trim() !== '') callTool(store, open.stepIndex, tool.trim(), args.value);
          }}
        >
          <label>
            tool
            <ToolPicker tools={tools} value={tool} onChange={(v) => {
              setTool(v);
              const t = tools.find((x) => x.name === v);
              if (t && (argsText.trim() === '' || argsText.trim() === '{}')) setArgsText(JSON.stringify(fillArguments('', t.name, t.params, []).args, null, 1));
            }} />
          </label>
          <p className="muted sim-tool-info" data-testid="sim-tool-info">
            {request === undefined ? 'The tools load with the request.' : tool.trim() === '' ? `${tools.filter((t) => t.offered).length} offered and ${tools.filter((t) => !t.offered).length} more permitted tools.`
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
      {mode === 'call' && shownRun !== undefined && <RunOnServer key={shownRun.name} tool={shownRun} stepIndex={open.stepIndex} text={argsText} onText={setArgsText} />}
      {mode === 'describe' && (
        <form
          className="sim-form"
          onSubmit={(e) => {
            e.preventDefault();
            const names = describe.split(/[\s,]+/u).filter((n) => n !== '');
            callTool(store, open.stepIndex, 'describe_tools', { tools: names });
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
            reply(store, open.stepIndex, replyText);
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
      {!blocked && (
        <p className="muted sim-open" data-testid="sim-open">
          Step {open.stepIndex + 1}, cycle {open.cycle} awaits the model · {JSON.stringify(open.query)}
        </p>
      )}
    </div>
  );
}
