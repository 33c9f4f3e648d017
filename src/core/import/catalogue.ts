// Reading a catalogue someone hands the importer: a file, pasted text or a live
// server's reply. Untrusted input: it is measured before it is parsed, every
// problem becomes a sentence, and a catalogue with a tool the importer would have
// to drop is refused whole (the user fixes the file rather than losing tools silently).
import { parseMultiServerCatalogue, parseToolsList } from '../catalogue/tools-list';
import type { McpToolEntry } from '../catalogue/tools-list';
import { utf8ByteLength } from '../providers/cost';
import { jsonProblemText, parseJson } from '../input/json';
import { parseJsonKeepingFloats } from '../json/parse';

/**
 * The largest catalogue the importer reads: 4 MiB of JSON. The largest real catalogue we have
 * (LiveMCPBench, 70 servers, 527 tools) is 1.1 MB; a bigger file is more likely a mistake (a
 * log, a dump) than a catalogue, and parsing it would stall the page.
 */
export const MAX_CATALOGUE_BYTES = 4 * 1024 * 1024;
/**
 * The most one MCP message from a live server may carry, on any path (the page's fetch, the
 * bridge's stdio line): a catalogue at the cap plus 64 KiB for the JSON-RPC envelope and framing.
 * A page of tools bigger than that could never be imported, so it is not read.
 */
export const MAX_MESSAGE_BYTES = MAX_CATALOGUE_BYTES + 64 * 1024;

export type CatalogueForm = 'tools/list' | 'json-rpc' | 'multi-server' | 'tool-array';

export interface ImportedServer {
  /** The name the catalogue gives it (the multi-server key), if any. */
  readonly key?: string;
  readonly description?: string;
  readonly category?: string;
  /** What a snapshot holds of the server itself: serverInfo whole, protocol version, instructions, capabilities. */
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly tools: readonly McpToolEntry[];
}

export interface Catalogue {
  readonly form: CatalogueForm;
  readonly servers: readonly ImportedServer[];
  /** Problems that lost nothing (a duplicate name, an ignored non-string description). */
  readonly warnings: readonly string[];
  readonly bytes: number;
}

export type CatalogueRead = { readonly ok: true; readonly catalogue: Catalogue } | { readonly ok: false; readonly errors: readonly string[] };

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: JsonObject, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A size check that needs no text: for a File's `size` before reading it. */
export function checkCatalogueSize(bytes: number, what = 'the catalogue'): string | undefined {
  if (bytes <= MAX_CATALOGUE_BYTES) return undefined;
  return `${what} is ${formatBytes(bytes)}; the importer reads at most ${formatBytes(MAX_CATALOGUE_BYTES)} of JSON (the largest real catalogue, LiveMCPBench's 527 tools, is 1.1 MB). Split it by server and import the parts.`;
}

// parseToolsList's messages for problems that drop nothing end in one of these.
const HARMLESS = /; (ignored|the first is kept)$/u;

function splitErrors(errors: readonly string[]): { fatal: string[]; warnings: string[] } {
  const fatal: string[] = [];
  const warnings: string[] = [];
  for (const e of errors) (HARMLESS.test(e) ? warnings : fatal).push(e);
  return { fatal, warnings };
}

function looksLikeHtml(text: string): boolean {
  return /^\s*</u.test(text);
}

const EXPECTED =
  'expected a tools/list reply ({"tools": [...]}), a JSON-RPC response carrying one, or a multi-server catalogue ([{"name", "tools": {"SERVER": {"tools": [...]}}}])';

/** Reads catalogue text: measured, parsed, its form recognised, every tool validated. */
export function readCatalogue(text: string, what = 'the catalogue'): CatalogueRead {
  const bytes = utf8ByteLength(text);
  const tooBig = checkCatalogueSize(bytes, what);
  if (tooBig) return { ok: false, errors: [tooBig] };
  if (text.trim() === '') return { ok: false, errors: [`${what} is empty; ${EXPECTED}`] };
  const read = parseJson(text, { parse: parseJsonKeepingFloats });
  if (!read.ok) {
    if (looksLikeHtml(text)) return { ok: false, errors: [`${what} is HTML, not JSON (a web page or an error page?); ${EXPECTED}`] };
    return { ok: false, errors: [jsonProblemText(what, read)] };
  }
  return readCatalogueValue(read.value, bytes, what);
}

/** The same checks on an already parsed value (a live server's reply). */
export function readCatalogueValue(value: unknown, bytes: number, what = 'the catalogue'): CatalogueRead {
  const refuse = (errors: readonly string[]): CatalogueRead => {
    const shown = errors.slice(0, 8);
    const more = errors.length > shown.length ? [`…and ${errors.length - shown.length} more problems`] : [];
    return { ok: false, errors: [...shown.map((e) => `${what}: ${e}`), ...more] };
  };
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    const multi = isObject(first) && isObject(own(first, 'tools'));
    if (multi) {
      const parsed = parseMultiServerCatalogue(value);
      const { fatal, warnings } = splitErrors(parsed.errors);
      if (fatal.length > 0) return refuse(fatal);
      if (parsed.servers.length === 0) return refuse(['the multi-server catalogue names no servers']);
      return {
        ok: true,
        catalogue: {
          form: 'multi-server',
          servers: parsed.servers.map(({ name, entry: _entry, ...rest }) => ({ key: name, ...rest })),
          warnings,
          bytes,
        },
      };
    }
    if (value.length === 0) return refuse([`an empty array has no tools; ${EXPECTED}`]);
    return single(parseToolsList({ tools: value }), 'tool-array', bytes, refuse);
  }
  if (isObject(value)) {
    if (own(value, 'tools') !== undefined) return single(parseToolsList(value), 'tools/list', bytes, refuse);
    const result = own(value, 'result');
    if (own(value, 'jsonrpc') !== undefined && isObject(result)) return single(parseToolsList(result), 'json-rpc', bytes, refuse);
    const error = own(value, 'error');
    if (own(value, 'jsonrpc') !== undefined && isObject(error)) {
      const message = own(error, 'message');
      return refuse([`it is a JSON-RPC error, not a tools/list reply: ${typeof message === 'string' ? message : JSON.stringify(error)}`]);
    }
  }
  return refuse([EXPECTED]);
}

function single(parsed: { tools: McpToolEntry[]; errors: string[] }, form: CatalogueForm, bytes: number, refuse: (e: readonly string[]) => CatalogueRead): CatalogueRead {
  const { fatal, warnings } = splitErrors(parsed.errors);
  if (fatal.length > 0) return refuse(fatal);
  if (parsed.tools.length === 0) return refuse(['the tools/list reply lists no tools']);
  return { ok: true, catalogue: { form, servers: [{ tools: parsed.tools }], warnings, bytes } };
}

/** A server name suggested by a file name: `github-mcp-server.tools-list.json` → `github-mcp-server`. */
export function serverNameFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/u).pop() ?? fileName;
  const stem = base.replace(/\.json$/iu, '').replace(/[._-]?tools[-_]?list$/iu, '').replace(/\.tools$/iu, '');
  // `github-mcp-server` → `github`, `mcp-server-git` → `git`: the affixes say nothing.
  const short = stem.replace(/[-_]mcp(?:[-_]server)?$/iu, '').replace(/^mcp[-_](?:server[-_])?/iu, '');
  return short || stem || 'server';
}
