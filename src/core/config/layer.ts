// A config layer file: its text parsed into a PartialConfig plus positioned
// diagnostics. Loading never throws.
import { readConfig, EMPTY_CONFIG } from './read';
import { parseToml } from './toml';
import type { Span, TomlValue } from './toml-ast';
import { LineIndex } from './toml-ast';
import type { Diagnostic, PartialConfig } from './types';

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
    span,
    line: a.line,
    column: a.column,
    endLine: b.line,
    endColumn: b.column,
    ...(code ? { code } : {}),
  };
}

export function loadLayer(layer: Layer): LoadedLayer {
  const diagnostics: Diagnostic[] = [];
  let index: LineIndex | undefined;
  const lines = (): LineIndex => (index ??= new LineIndex(layer.text));
  try {
    const doc = parseToml(layer.text);
    for (const e of doc.errors) diagnostics.push(positioned(layer.name, lines(), 'error', e.message, e.span, 'syntax'));
    const config = readConfig(doc.root, {
      origin: (node: TomlValue | Span) => ({ kind: 'layer', layer: layer.name, span: 'kind' in node ? node.span : node }),
      report: (severity, message, at, code) => diagnostics.push(positioned(layer.name, lines(), severity, message, at, code)),
    });
    return { name: layer.name, config, diagnostics };
  } catch (err) {
    // A bug in the reader must not take the workbench down: report it where the user looks.
    diagnostics.push({ severity: 'error', message: `internal error reading layer: ${String(err)}`, layer: layer.name, line: 1, column: 1 });
    return { name: layer.name, config: EMPTY_CONFIG, diagnostics };
  }
}
