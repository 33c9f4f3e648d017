// What the import would make: the starting policy, the catalogue's servers (named here), and every
// tool with its availability and MCP hints, with what discovery saves.
import { useMemo } from 'react';
import type { Dispatch } from 'react';
import type { GeneratedTool } from '../../core';
import { AvailabilityBadge } from '../../components/Availability';
import { countOf, formatBytes, formatCount } from '../../components/Measures';
import { SavingsSummary } from '../../components/Savings';
import { ToolHintBadges } from '../../components/ToolHints';
import type { ImportPreview, ServerAbout } from '../../derive/serversProtocol';
import type { ImportAction, ImportForm, ServerMode } from './importForm';

type Ready = Extract<ImportPreview, { ok: true }>;

export function PolicySection({ form, dispatch }: { readonly form: ImportForm; readonly dispatch: Dispatch<ImportAction> }) {
  const { kind } = form;
  return (
    <section className="import-policy" aria-label="Starting policy">
      <fieldset>
        <legend>Starting policy</legend>
        <label>
          <input type="radio" name="policy" checked={kind === 'discoverable'} onChange={() => dispatch({ type: 'policy-chosen', kind: 'discoverable' })} data-testid="policy-discoverable" />
          all discoverable, keep the
          <input
            type="number"
            min={0}
            max={500}
            value={form.keep}
            onChange={(e) => dispatch({ type: 'keep-typed', value: e.target.value })}
            aria-label="How many of the most useful tools stay on"
            style={{ width: '4.5em' }}
            data-testid="policy-keep"
          />
          most useful on{kind === 'per-server' ? ' (per server)' : ''}
        </label>
        <label>
          <input type="radio" name="policy" checked={kind === 'on'} onChange={() => dispatch({ type: 'policy-chosen', kind: 'on' })} data-testid="policy-on" />
          all on
        </label>
        <label>
          <input type="radio" name="policy" checked={kind === 'per-server'} onChange={() => dispatch({ type: 'policy-chosen', kind: 'per-server' })} data-testid="policy-per-server" />
          per server
        </label>
        <label className="destructive-off">
          <input type="checkbox" checked={form.offDestructive} onChange={(e) => dispatch({ type: 'destructive-off-set', on: e.target.checked })} data-testid="policy-off-destructive" />
          destructive tools start off
        </label>
      </fieldset>
      <p className="muted useful-note">
        “Most useful”: tools named with a general verb (search, list, get, read…), then read-only ones, then those with fewer required parameters and shorter names. Destructive tools are never kept on by it.
      </p>
    </section>
  );
}

export function ServersTable({ ok, form, dispatch }: { readonly ok: Ready; readonly form: ImportForm; readonly dispatch: Dispatch<ImportAction> }) {
  const perServer = form.kind === 'per-server';
  return (
    <section className="import-servers" aria-label="Servers">
      <table>
        <thead>
          <tr>
            <th scope="col">server name in the scenario</th>
            <th scope="col">tools</th>
            {perServer && <th scope="col">starts</th>}
            <th scope="col">about</th>
          </tr>
        </thead>
        <tbody>
          {ok.servers.flatMap((s, i) => [
            <tr key={i}>
              <td>
                <input
                  value={form.names[i] ?? s.name}
                  onChange={(e) => dispatch({ type: 'server-renamed', index: i, name: e.target.value })}
                  aria-label={`Name of server ${s.key ?? s.name}`}
                  spellCheck={false}
                  data-testid="import-server-name"
                />
              </td>
              <td className="num">{formatCount(s.tools)}</td>
              {perServer && (
                <td>
                  <select
                    value={form.modes[s.name] ?? 'discoverable'}
                    onChange={(e) => dispatch({ type: 'server-mode-chosen', server: s.name, mode: e.target.value as ServerMode })}
                    aria-label={`How ${s.name}'s tools start`}
                  >
                    <option value="discoverable">discoverable</option>
                    <option value="on">on</option>
                    <option value="off">off</option>
                  </select>
                </td>
              )}
              <td className="about" title={s.description}>
                {s.key !== undefined && s.key !== s.name ? <code>{s.key}</code> : null} {s.category ? `[${s.category}] ` : ''}
                {s.description}
              </td>
            </tr>,
            s.about && (
              <tr key={`${i} about`} className="server-about-row">
                <td colSpan={perServer ? 4 : 3}>
                  <AboutServer about={s.about} />
                </td>
              </tr>
            ),
          ])}
        </tbody>
      </table>
      {ok.servers.map((s, i) =>
        s.taken !== undefined ? (
          <p key={i} className="import-renamed" role="status" data-testid="import-server-renamed">
            <code>{s.taken}</code> is already a server of this scenario: this one is imported as <code>{s.name}</code>. Type another name above to choose it.
          </p>
        ) : null,
      )}
    </section>
  );
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * What a snapshot holds of the server itself, as text: serverInfo (its title, version, description,
 * website and how many icons: never fetched), the protocol version, the capabilities it declared and
 * its instructions.
 */
function AboutServer({ about }: { readonly about: ServerAbout }) {
  const info = about.serverInfo ?? {};
  const icons = Array.isArray(info.icons) ? info.icons.length : 0;
  const known = new Set(['name', 'version', 'title', 'description', 'websiteUrl', 'icons']);
  const other = Object.keys(info).filter((k) => !known.has(k));
  return (
    <dl className="server-about" data-testid="import-server-about">
      {(text(info.title) ?? text(info.name)) !== undefined && (
        <>
          <dt>server</dt>
          <dd data-testid="about-server">
            {text(info.title) ?? text(info.name)}
            {text(info.title) !== undefined && text(info.name) !== undefined && (
              <>
                {' '}
                (<code>{text(info.name)}</code>)
              </>
            )}
            {text(info.version) !== undefined && ` ${text(info.version)}`}
          </dd>
        </>
      )}
      {text(info.description) !== undefined && (
        <>
          <dt>says</dt>
          <dd data-testid="about-description">{text(info.description)}</dd>
        </>
      )}
      {text(info.websiteUrl) !== undefined && (
        <>
          <dt>website</dt>
          <dd>
            <code data-testid="about-website">{text(info.websiteUrl)}</code>
          </dd>
        </>
      )}
      {icons > 0 && (
        <>
          <dt>icons</dt>
          <dd>{icons} (not loaded)</dd>
        </>
      )}
      {other.length > 0 && (
        <>
          <dt>other fields</dt>
          <dd>
            {other.map((k) => (
              <code key={k}>{k} </code>
            ))}
          </dd>
        </>
      )}
      {about.protocolVersion !== undefined && (
        <>
          <dt>MCP</dt>
          <dd>{about.protocolVersion}</dd>
        </>
      )}
      {about.capabilities && (
        <>
          <dt>can</dt>
          <dd data-testid="about-capabilities">{Object.keys(about.capabilities).join(', ') || 'nothing declared'}</dd>
        </>
      )}
      {about.instructions !== undefined && (
        <>
          <dt>instructions</dt>
          <dd className="about-instructions" data-testid="about-instructions">
            {about.instructions}
          </dd>
        </>
      )}
    </dl>
  );
}

/** At most this many tools are listed; the filter finds the others. */
const SHOWN = 300;

function matches(t: GeneratedTool, q: string): boolean {
  return t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q) || (t.hints.title ?? '').toLowerCase().includes(q);
}

export function ToolPreview({ ok, filter, dispatch }: { readonly ok: Ready; readonly filter: string; readonly dispatch: Dispatch<ImportAction> }) {
  const { result } = ok;
  const rows = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = q === '' ? result.tools : result.tools.filter((t) => matches(t, q));
    return { shown: all.slice(0, SHOWN), total: all.length };
  }, [result, filter]);
  const warnings = ok.warnings.length;
  return (
    <section className="import-preview" aria-label="Preview">
      <div className="preview-head">
        <strong data-testid="import-counts">
          {countOf(result.tools.length, 'tool')}: {result.counts.on} on · {result.counts.discoverable} discoverable · {result.counts.off} off
        </strong>
        <span className="muted">
          layer <code>{result.layer.name}</code> · {formatBytes(ok.bytes)} read in {ok.millis} ms
        </span>
        {warnings > 0 && (
          <span className="warn" title={ok.warnings.join('\n')}>
            {warnings} warning{warnings === 1 ? '' : 's'} (nothing lost)
          </span>
        )}
      </div>
      <SavingsSummary savings={ok.savings} />
      <input type="search" placeholder="Filter tools…" value={filter} onChange={(e) => dispatch({ type: 'filter-typed', text: e.target.value })} aria-label="Filter the tools" className="tool-filter" />
      <ul className="tool-list" aria-label="Tools to import" data-testid="import-tools" tabIndex={0}>
        {rows.shown.map((t) => (
          <li key={t.name} data-tool={t.name}>
            <code className="name">{t.name}</code>
            <AvailabilityBadge value={t.availability} />
            <ToolHintBadges readOnly={t.hints.readOnly} destructive={t.hints.destructive} />
            <span className="title">{t.hints.title ?? t.description.split('\n')[0]}</span>
            {ok.servers.length > 1 && <span className="server muted">{t.server}</span>}
          </li>
        ))}
        {rows.total > rows.shown.length && <li className="muted">…and {formatCount(rows.total - rows.shown.length)} more: filter to find them.</li>}
      </ul>
    </section>
  );
}
