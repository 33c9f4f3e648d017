// A config layer file: its text parsed into a PartialConfig plus positioned
// diagnostics. Loading never throws.
import type { Anchor } from './anchors';
import { anchorsOf, layerOrigins, plainSpan } from './anchors';
import type { EarlyRead, ReadContext, ToolsEntryRead } from './read';
import { readConfig, readToolsEntry, EMPTY_CONFIG } from './read';
import { parseToml, RunReopened } from './toml';
import type { Span, TomlDocument, TomlEntry, TomlSection, TomlTable, TomlValue } from './toml-ast';
import { LineIndex } from './toml-ast';
import type { Diagnostic, Origin, PartialConfig, Sourced } from './types';

export interface Layer {
  readonly name: string;
  readonly text: string;
}

export interface LoadedLayer {
  readonly name: string;
  readonly config: PartialConfig;
  readonly diagnostics: readonly Diagnostic[];
}

export function positioned(
  layer: string,
  index: LineIndex,
  severity: Diagnostic['severity'],
  message: string,
  span: Span,
  code?: string,
): Diagnostic {
  const a = index.position(span.start);
  const b = index.position(span.end);
  return {
    severity,
    message,
    layer,
    span: plainSpan(span),
    line: a.line,
    column: a.column,
    endLine: b.line,
    endColumn: b.column,
    ...(code ? { code } : {}),
  };
}

export function loadLayer(layer: Layer): LoadedLayer {
  return readLayer(layer).loaded;
}

/** What a whole parse of a layer leaves for the incremental parse (incremental.ts) to start from. */
export interface ReadLayer {
  readonly loaded: LoadedLayer;
  /** The headers, in document order, when `hooks` were given and the text parsed without an error. */
  readonly sections?: readonly TomlSection[];
  /** The syntax tree's root (with `hooks`, when the text parsed without an error). */
  readonly root?: TomlTable;
  /** The diagnostics loaded.diagnostics holds (the same array, for the hooks' counts). */
  readonly diagnostics: readonly Diagnostic[];
  /** The anchors the origins' spans are read through (anchors.ts): the root's, then one per header. */
  readonly anchors?: readonly Anchor[];
  /** The line index of the text (built if a diagnostic asked for a position). */
  readonly lines: LineIndex;
}

/** readConfig's hooks, told how many diagnostics the layer has so far (where each entry's start). */
export interface LayerHooks {
  beforeTools?(diagnostics: number): void;
  toolsEntry?(entry: TomlEntry, read: ToolsEntryRead, diagnostics: number): void;
}

/** loadLayer, calling `hooks` and keeping the headers (for the incremental parse, incremental.ts). `release`: false reads the tree whole (the reference the tests compare with). */
export function readLayer(layer: Layer, hooks?: LayerHooks, release = true): ReadLayer {
  const diagnostics: Diagnostic[] = [];
  const index = new LineIndex(layer.text);
  const lines = (): LineIndex => index;
  try {
    // Every origin's span is kept relative to its header section (anchors.ts), whichever way the layer
    // is loaded, so a whole parse and an incremental one give the same values. The anchors grow as the
    // headers are read: a tool is read as its run of headers ends (`releaseRun`), its tree then let go.
    const anchors = anchorsOf([]);
    const at = layerOrigins(anchors, layer.name);
    const origin = (node: TomlValue | Span): Origin => at.origin('kind' in node ? node.span : node);
    const sourced = <T>(value: T, node: TomlValue): Sourced<T> => at.sourced(value, node.span);
    const early = new Map<TomlEntry, EarlyRead>();
    const section = (start: number): void => {
      anchors.push({ base: start });
    };
    let doc: TomlDocument;
    try {
      if (!release) throw new RunReopened();
      doc = parseToml(layer.text, {
        sections: true,
        section,
        releaseRun: (entry) => {
          const reports: Parameters<ReadContext['report']>[] = [];
          early.set(entry, { read: readToolsEntry(entry, { origin, sourced, report: (...r) => reports.push(r) }), reports });
        },
      });
    } catch (e) {
      if (!(e instanceof RunReopened)) throw e;
      // A tool's headers come back after another's: read the tree whole.
      anchors.length = 1;
      early.clear();
      doc = parseToml(layer.text, { sections: true, section });
    }
    for (const e of doc.errors) diagnostics.push(positioned(layer.name, lines(), 'error', e.message, e.span, 'syntax'));
    const config = readConfig(
      doc.root,
      {
        origin,
        sourced,
        report: (severity, message, at, code) => diagnostics.push(positioned(layer.name, lines(), severity, message, at, code)),
      },
      hooks && {
        beforeTools: () => hooks.beforeTools?.(diagnostics.length),
        toolsEntry: (entry, read) => hooks.toolsEntry?.(entry, read, diagnostics.length),
      },
      early,
    );
    const loaded = { name: layer.name, config, diagnostics };
    return hooks && doc.errors.length === 0 && doc.sections ? { loaded, sections: doc.sections, root: doc.root, diagnostics, anchors, lines: index } : { loaded, diagnostics, lines: index };
  } catch (err) {
    // A bug in the reader must not take the workbench down: report it where the user looks.
    diagnostics.push({ severity: 'error', message: `internal error reading layer: ${String(err)}`, layer: layer.name, line: 1, column: 1 });
    return { loaded: { name: layer.name, config: EMPTY_CONFIG, diagnostics }, diagnostics, lines: index };
  }
}
