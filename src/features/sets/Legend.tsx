// The sets' counts, each with its chip and its word, and a legend that says what each set, chip and
// badge means in the RFD's words (the first screen explains itself).
import { useId, useState } from 'react';
import { AvailabilityBadge } from '../../components/Availability';
import type { ToolCount } from '../../core';

export const SET_MEANINGS = {
  permitted: 'The model may call it: availability on or discoverable (or forced with -u), and its MCP server is running. describe_tools and the executor read this set.',
  offered: "Its definition is in the request's tools array up front: availability on, the forced tool, and the builtins.",
  searchable: 'search_tools can find it: availability discoverable and not offered. A search promotes what it returns.',
  configured: 'Every [conversation.tools.NAME] of the layers, plus the builtins describe_tools and (once registered) search_tools.',
} as const;

const AVAILABILITY_MEANINGS: readonly [string, string][] = [
  ['on', 'offered up front'],
  ['discoverable', 'permitted, offered once search_tools finds it'],
  ['off', 'neither offered nor searchable'],
];

export interface Counts {
  readonly configured: number;
  readonly permitted: number;
  readonly offered: number;
  readonly searchable: number;
}

function Count({ chip, word, n, label }: { readonly chip?: string; readonly word: keyof typeof SET_MEANINGS; readonly n: number; readonly label?: string }) {
  return (
    <span title={label !== undefined ? `${label}. ${SET_MEANINGS[word]}` : SET_MEANINGS[word]} data-set={word} {...(label !== undefined ? { 'data-label': label } : {})}>
      {chip && (
        <span className="chip in" aria-hidden="true">
          {chip}
        </span>
      )}
      {word} <b>{n}</b>
    </span>
  );
}

export function SetCounts({ counts, registered, tools }: { readonly counts: Counts; readonly registered: boolean; readonly tools?: ToolCount }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <div className="st-counts" data-testid="set-counts" aria-label="Counts">
        <Count chip="P" word="permitted" n={counts.permitted} />
        <Count chip="O" word="offered" n={counts.offered} />
        <Count chip="S" word="searchable" n={counts.searchable} />
        <Count word="configured" n={counts.configured} {...(tools ? { label: tools.label } : {})} />
        {!registered && <span className="st-unregistered" title="No tool is discoverable here, so search_tools is not registered">search_tools not registered</span>}
        <button type="button" className="st-legend-btn" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)} data-testid="sets-legend-toggle">
          {open ? 'Hide legend' : 'Legend'}
        </button>
      </div>
      {open && (
        <div className="st-legend" id={id} data-testid="sets-legend" role="region" aria-label="Legend of the sets" tabIndex={0}>
          <dl>
            {(['permitted', 'offered', 'searchable', 'configured'] as const).map((w) => (
              <div key={w}>
                <dt>
                  {w !== 'configured' && (
                    <span className="chip in" aria-hidden="true">
                      {w.charAt(0).toUpperCase()}
                    </span>
                  )}
                  {w}
                </dt>
                <dd>{SET_MEANINGS[w]}</dd>
              </div>
            ))}
            {AVAILABILITY_MEANINGS.map(([a, m]) => (
              <div key={a}>
                <dt>
                  <AvailabilityBadge value={a} />
                </dt>
                <dd>availability {a}: {m}</dd>
              </div>
            ))}
            <div>
              <dt>toggle</dt>
              <dd>allow_toggle: which -t / -T directives may move the tool (any; if_named: only when named; never: locked)</dd>
            </div>
          </dl>
        </div>
      )}
    </>
  );
}
