// The worker side of findabilityProtocol.ts: the core's findability report of a derived timeline,
// its diagnostics at each tool's declaration, and notes per MCP server. Indexes come from the
// SharedIndexes the runs use; a report is kept while its inputs (catalogue, discoverable set,
// ranking, tasks) stay the same, so a keystroke in a step does not recompute it.
import { atRiskWords, compareFindability, FINDABILITY_RANKERS, findabilityInputAt, findabilityReportInSteps, parseEvalQueries } from '../core';
import type { Diagnostic, FindabilityReport, Timeline } from '../core';
import type { FindabilityFixView, FindabilityView, ServerFindabilityNote, ToolDeclaration } from './findabilityProtocol';
import type { SharedIndexes } from './searchIndexes';
import { inSlices, noSlices } from './dispatch';
import type { Slicer } from './dispatch';

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const pct = (x: number) => `${Math.round(x * 100)}%`;

export class FindabilityHost {
  private cache: { key: string; report: FindabilityReport; taskErrors: string[] } | undefined;

  constructor(
    private readonly timelineOf: (revision: number) => Timeline,
    private readonly indexes: SharedIndexes,
    /** A layer offset as line and column, in the layer text of that revision. */
    private readonly positionOf: (revision: number, layer: string, offset: number) => { line: number; column: number },
  ) {}

  /** A query per tool and ranking: run a tool at a time (`slicer`), so a newer keystroke's derivation is answered between two tools. */
  private async report(t: Timeline, tasksText: string, slicer: Slicer): Promise<{ report: FindabilityReport; taskErrors: string[]; millis: number }> {
    const started = now();
    const input = findabilityInputAt(t);
    const key = [this.indexes.catalogueId(input.docs), input.discoverable.join('\u0001'), input.ranking, input.substringMatch, tasksText].join('\u0000');
    if (this.cache?.key === key) return { ...this.cache, millis: 0 };
    const parsed = tasksText.trim() === '' ? { queries: [], errors: [] } : parseEvalQueries(tasksText);
    const rankers = FINDABILITY_RANKERS.map((r) => ({ ...r, build: (docs: Parameters<typeof r.build>[0]) => this.indexes.index(r, docs) }));
    const report = await inSlices(findabilityReportInSteps({ ...input, rankers, ...(parsed.queries.length > 0 ? { tasks: parsed.queries } : {}) }), slicer);
    this.cache = { key, report, taskErrors: parsed.errors };
    return { report, taskErrors: parsed.errors, millis: now() - started };
  }

  async findability({ revision, tasks, baseline }: { revision: number; tasks?: string; baseline?: FindabilityReport }, slicer: Slicer = noSlices): Promise<FindabilityView> {
    const t = this.timelineOf(revision);
    const { report, taskErrors, millis } = await this.report(t, tasks ?? '', slicer);
    const states = t.statesAt(0);
    const declarations: ToolDeclaration[] = [];
    for (const tool of report.tools) {
      const d = states.get(tool.name)?.config.declared;
      if (d?.kind === 'layer') declarations.push({ tool: tool.name, layer: d.layer, ...this.positionOf(revision, d.layer, d.span.start) });
    }
    const declared = new Map(declarations.map((d) => [d.tool, d]));
    const diagnostics: Diagnostic[] = [];
    const fixes: FindabilityFixView[] = [];
    const notes = new Map<string, ServerFindabilityNote['tools'][number][]>();
    // Every server with a discoverable tool gets a note, so its card can say "none at risk" too.
    for (const tool of report.tools) if (tool.server !== undefined && !notes.has(tool.server)) notes.set(tool.server, []);
    for (const tool of report.tools) {
      if (tool.status === 'findable') continue;
      const status = tool.status;
      if (tool.server !== undefined) {
        const list = notes.get(tool.server) ?? [];
        list.push({ name: tool.name, status, word: tool.word, reason: tool.reasons[0]?.text ?? '', beatenBy: tool.beatenBy });
        notes.set(tool.server, list);
      }
      const at = declared.get(tool.name);
      if (!at) continue;
      const headline = status === 'unreachable' ? `search_tools does not return \`${tool.name}\` within the top ${report.limit} for any of its own words` : tool.word === 'thinly described'
          ? `\`${tool.name}\` is thinly described: search_tools finds it by its own words (${pct(tool.score)} of its queries, best rank ${tool.best ?? 'none'}), but a task in other words will miss it`
          : `\`${tool.name}\` is hard to find with search_tools (${pct(tool.score)} of its queries find it in the top ${report.limit})`;
      const beaten = tool.beatenBy.length > 0 ? ` Tools that beat it: ${tool.beatenBy.join(', ')}.` : '';
      diagnostics.push({
        severity: 'info',
        code: 'findability',
        layer: at.layer,
        line: at.line,
        column: at.column,
        message: `${headline}: ${tool.reasons.map((r) => r.text).join('; ')}.${beaten}${tool.fix ? ` Quick fix: ${tool.fix.title}.` : ''}`,
      });
      if (tool.fix) fixes.push({ ...at, title: tool.fix.title, summary: tool.fix.summary });
    }
    return {
      revision,
      report,
      diagnostics,
      fixes,
      declarations,
      servers: [...notes.entries()].map(([server, tools]) => {
        const own = report.tools.filter((t) => t.server === server);
        return { server, discoverable: own.length, words: atRiskWords(own), tools };
      }),
      ...(baseline ? { comparison: compareFindability(baseline, report) } : {}),
      taskErrors,
      millis,
    };
  }
}
