// RFD 108 "CLI directives": what -t and -T do against off, discoverable and on, and how allow_toggle
// decides which of them may move a tool (bulk or named; RFD 081's rule, semantics.md section 2).
import { tomlString } from '../scenario/doc';
import { availabilityAt, cell, counts, entryWhere, localTool, moveWords, run, scenarioRef } from './run';
import type { Ran } from './run';
import type { RfdCell, RfdRow, RfdTable } from './types';

const AVAILABILITIES = ['off', 'discoverable', 'on'] as const;

/** The RFD's table, cell by cell (allow_toggle = "any": every directive may move every tool). */
const STATED: Readonly<Record<'-t' | '-T', readonly string[]>> = {
  '-t': ['→ on', '→ on', 'no-op'],
  '-T': ['no-op', '→ off', '→ off'],
};

function directiveRow(flag: '-t' | '-T'): RfdRow {
  const layer = AVAILABILITIES.map((a) => localTool(`tool_${a}`, tomlString(a), `A tool whose availability is ${a}.`)).join('\n');
  const after = flag === '-t' ? ['on', 'on', 'on'] : ['off', 'off', 'off'];
  const ran = run({
    name: `RFD 108 directive table: ${flag} against off, discoverable and on`,
    description: `One tool at each availability, allow_toggle "any"; a bulk ${flag} (no name) visits every configured tool. The RFD's row: ${STATED[flag].join(', ')}.`,
    layer,
    rest: `[[steps]]
command = ${tomlString(`jp q 'Directive ${flag}' ${flag}`)}

[steps.expect]
availability = { ${AVAILABILITIES.map((a, i) => `tool_${a} = "${after[i] ?? ''}"`).join(', ')} }`,
  });
  const t = ran.timeline;
  const end = t.steps[0]?.position ?? 0;
  const cells = AVAILABILITIES.map((a, i) => cell(STATED[flag][i] ?? '', moveWords(availabilityAt(t, 0, `tool_${a}`), availabilityAt(t, end, `tool_${a}`))));
  return { id: `directive${flag}`, label: flag === '-t' ? '-t / --tool' : '-T / --no-tool', cells, scenario: scenarioRef(ran, entryWhere(t, (e) => e.kind === 'delta' && e.step === 1)), expectations: counts(ran) };
}

const TOGGLES = ['any', 'if_named', 'never'] as const;

type Form = { readonly flag: '-t' | '-T'; readonly named: boolean };

const FORMS: readonly Form[] = [
  { flag: '-t', named: false },
  { flag: '-t', named: true },
  { flag: '-T', named: false },
  { flag: '-T', named: true },
];

/** For a discoverable tool: a bulk directive skips a tool it may not move; a named one fails on a locked tool. */
function statedToggle(form: Form, toggle: (typeof TOGGLES)[number]): string {
  const move = form.flag === '-t' ? '→ on' : '→ off';
  if (toggle === 'any') return move;
  if (toggle === 'if_named') return form.named ? move : 'no-op';
  return form.named ? 'error: locked-discoverable' : 'no-op';
}

function toggleCell(ran: Ran, form: Form, toggle: (typeof TOGGLES)[number], stepNo: number): RfdCell {
  const t = ran.timeline;
  const rec = t.steps[stepNo - 1];
  const before = stepNo === 1 ? 0 : (t.steps[stepNo - 2]?.position ?? 0);
  const name = `tool_${toggle}`;
  const computed = rec?.error !== undefined ? (rec.error.includes('locked-discoverable') ? 'error: locked-discoverable' : `error: ${rec.error}`) : moveWords(availabilityAt(t, before, name), availabilityAt(t, rec?.position ?? 0, name));
  return cell(statedToggle(form, toggle), computed, rec?.error);
}

function toggleRow(form: Form): RfdRow {
  const layer = TOGGLES.map((x) => localTool(`tool_${x}`, `{ availability = "discoverable", allow_toggle = "${x}" }`, `A discoverable tool with allow_toggle = "${x}".`)).join('\n');
  const label = `${form.flag}${form.named ? ' NAME' : ''}`;
  // A bulk directive is one step; a named one is one step per tool, as a failing step changes nothing.
  const steps = form.named
    ? TOGGLES.map((x) => {
        const stated = statedToggle(form, x);
        const expect = stated.startsWith('error') ? `error = ["locked-discoverable"]` : `availability = { tool_${x} = "${stated === 'no-op' ? 'discoverable' : stated.slice(2)}" }`;
        return `[[steps]]\ncommand = ${tomlString(`jp q 'Directive ${label}' ${form.flag} tool_${x}`)}\n\n[steps.expect]\n${expect}\n`;
      })
    : [`[[steps]]\ncommand = ${tomlString(`jp q 'Directive ${label}' ${form.flag}`)}\n\n[steps.expect]\navailability = { ${TOGGLES.map((x) => `tool_${x} = "${statedToggle(form, x) === 'no-op' ? 'discoverable' : statedToggle(form, x).slice(2)}"`).join(', ')} }\n`];
  const ran = run({
    name: `allow_toggle against ${label} on a discoverable tool`,
    description: `Three discoverable tools, allow_toggle any, if_named and never. allow_toggle decides which directives may move a tool: a bulk directive silently skips a tool it may not move; a named one that would move a locked tool is an error.`,
    layer,
    rest: steps.join('\n'),
  });
  const cells = TOGGLES.map((x, i) => toggleCell(ran, form, x, form.named ? i + 1 : 1));
  return { id: `toggle${form.flag}${form.named ? 'name' : ''}`, label, cells, scenario: scenarioRef(ran, entryWhere(ran.timeline, (e) => e.kind === 'step' && e.step === (form.named ? 3 : 1))), expectations: counts(ran) };
}

export function directiveTables(): RfdTable[] {
  return [
    {
      id: 'directives',
      title: 'CLI directives against the three availabilities',
      source: 'Design › CLI directives',
      note: 'Each tool with allow_toggle = "any"; a bulk directive (no name) visits every configured tool.',
      columns: ['off', 'discoverable', 'on'],
      rows: [directiveRow('-t'), directiveRow('-T')],
    },
    {
      id: 'allow-toggle',
      title: 'allow_toggle decides which directives may move a discoverable tool',
      source: 'Design › CLI directives ("that axis is unchanged"), RFD 081; semantics.md §2',
      note: 'A bulk directive silently skips a tool it may not move; a named one that would move a locked tool is an error naming the lock.',
      columns: ['allow_toggle = "any"', '"if_named"', '"never"'],
      rows: FORMS.map(toggleRow),
    },
  ];
}
