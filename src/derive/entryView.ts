// A timeline entry as the timeline panel's row: its label, depth and the links a row needs. Its own
// module so the hosts that show rows (host.ts for the document, tasksHost.ts for a task's scratch
// copy) share it without importing each other.
import type { Timeline, TimelineEntry } from '../core';
import type { EntryView } from './protocol';

export function entryView(e: TimelineEntry, index: number, t: Timeline): EntryView {
  switch (e.kind) {
    case 'base':
      return { index, kind: 'base', depth: 0, label: 'base config', position: e.position };
    case 'step':
      return { index, kind: 'step', depth: 0, label: e.command, position: e.position, step: e.step, ...(e.error ? { error: e.error } : {}) };
    case 'delta': {
      const p = t.positions[e.position];
      const ev = p?.event;
      const sources = ev && ev.kind === 'delta' ? ev.sources : [];
      const changed = p?.changes.map((c) => `${c.name} → ${c.after.enable.availability.value}`) ?? [];
      const delta = ev && ev.kind === 'delta' ? ev.delta : undefined;
      const words = ev && ev.kind === 'delta' ? ev.detail : undefined;
      const label = sources.includes('promotion') && words?.startsWith('promotion:') ? words : `delta ${delta ?? ''}`;
      return {
        index, kind: 'delta', depth: 1, label, detail: changed.slice(0, 12).join(', ') + (changed.length > 12 ? ` and ${changed.length - 12} more` : ''),
        position: e.position, step: e.step, ...(e.cycle !== undefined ? { cycle: e.cycle } : {}), sources,
        ...(delta !== undefined ? { delta } : {}), ...(words !== undefined ? { words } : {}),
      };
    }
    case 'layer-edit': {
      const ev = t.positions[e.position]?.event;
      const changed = t.positions[e.position]?.changes.map((c) => `${c.name} → ${c.after.enable.availability.value}`) ?? [];
      return {
        index, kind: 'layer-edit', depth: 1, label: `layer ${e.layer} edited`, position: e.position, step: e.step, sources: ['config-set'],
        ...(ev?.kind === 'layer-edit' ? { words: ev.detail } : {}),
        ...(changed.length > 0 ? { detail: changed.slice(0, 12).join(', ') + (changed.length > 12 ? ` and ${changed.length - 12} more` : '') } : {}),
      };
    }
    case 'turn':
      return { index, kind: 'turn', depth: 1, label: `turn: ${JSON.stringify(e.query)}`, position: e.position, step: e.step };
    case 'request': {
      const r = t.requests[e.request];
      const n = r?.array.length ?? 0;
      return { index, kind: 'request', depth: 2, label: `cycle ${e.cycle}: request (${n} tools, ${r?.cost.offered ?? 0} B)`, position: e.position, step: e.step, cycle: e.cycle, request: e.request };
    }
    case 'call': {
      const c = e.call;
      const label = c.search
        ? `search_tools(${JSON.stringify(c.search.query)}) → ${c.search.returned.length}${c.search.total !== undefined ? ` of ${c.search.total}` : ''}`
        : `${c.tool}(${JSON.stringify(c.args)})`;
      return {
        index, kind: 'call', depth: 3, label, position: e.position, step: e.step, cycle: e.cycle, callStatus: c.status, tool: c.tool,
        ...(c.error ? { error: c.error } : {}), ...(c.search ? { search: c.search } : {}), detail: c.result.slice(0, 400),
      };
    }
    case 'reply':
      return { index, kind: 'reply', depth: 2, label: `reply: ${JSON.stringify(e.text)}`, position: e.position, step: e.step, cycle: e.cycle };
    case 'restart':
      return { index, kind: 'restart', depth: 2, label: 'restart: the cycle\'s buffer is discarded and its calls run again', position: e.position, step: e.step, cycle: e.cycle };
    case 'warning':
      return { index, kind: 'warning', depth: 1, label: e.message, position: e.position, ...(e.step !== undefined ? { step: e.step } : {}) };
  }
}
