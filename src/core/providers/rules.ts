// Provider rules: what each provider documents that it refuses (or accepts but loses), as data with
// its source in each provider's module (its descriptor's `names` and `schemaKeywords`), and pure checks
// over a request as JP renders it. A finding is a diagnostic:
// - error: the provider would refuse the request (HTTP 400);
// - warning: the provider accepts it, but information is lost on the way.
// The simulator keeps JP's body where JP itself would send a refused one (this is a simulator of
// JP) and flags it here; where JP sends an accepted body, render.ts renders that. Per-request checks
// (forced tool, empty content, JP's Ollama parameters) are in request-rules.ts.
import { isJsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import { PROVIDERS, providerOf } from './registry';
import type { ProviderId } from './types';

export type ProviderRuleId = 'tool-name' | 'tool-name-length' | 'empty-content' | 'forced-absent' | 'schema-keyword' | 'ollama-parameters';

/** Where a rule is written down, and when it was read. */
export interface RuleSource {
  readonly document: string;
  readonly read: string;
}

export interface ProviderDiagnostic {
  readonly rule: ProviderRuleId;
  readonly severity: 'error' | 'warning';
  readonly provider: ProviderId;
  readonly message: string;
  /** The tool the finding is about, when it is about one. */
  readonly tool?: string;
  readonly source: RuleSource;
}

export const PROVIDER_WORDS: Readonly<Record<ProviderId, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.id, p.words])) as Record<ProviderId, string>;

// ── Tool names ───────────────────────────────────────────────────────────────────────────────

export interface NameRule {
  /** The characters a name may hold (checked one by one, so a message can name the first bad one). */
  readonly allowed: RegExp;
  /** What may come first, when the provider restricts it. */
  readonly first?: RegExp;
  readonly words: string;
  /** Longest name the provider takes, in characters. */
  readonly max: number;
  /** A shorter limit some of the provider's documents still give: over it is a warning. */
  readonly documentedMax?: { readonly max: number; readonly source: RuleSource };
  readonly source: RuleSource;
}

/** The provider's rule for tool names; undefined where it publishes none (nothing is checked). */
export function nameRule(provider: ProviderId): NameRule | undefined {
  const names = providerOf(provider).names;
  return 'allowed' in names ? names : undefined;
}

const nameCache = new Map<ProviderId, Map<string, readonly ProviderDiagnostic[]>>();
export const NONE: readonly ProviderDiagnostic[] = [];

function quoteChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return c === ' ' ? 'a space' : code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `\`${c}\``;
}

/** The findings for one tool name, character by character (checkToolName answers a clean name without it). */
export function nameFindings(provider: ProviderId, name: string): readonly ProviderDiagnostic[] {
  const rule = nameRule(provider);
  if (!rule) return NONE;
  const out: ProviderDiagnostic[] = [];
  const who = PROVIDER_WORDS[provider];
  const chars = [...name];
  const bad = chars.find((c) => !rule.allowed.test(c));
  const first = chars[0];
  if (bad !== undefined) {
    out.push({ rule: 'tool-name', severity: 'error', provider, tool: name, source: rule.source, message: `${who} refuses the tool name \`${name}\`: it holds ${quoteChar(bad)}; a name may hold only ${rule.words}` });
  } else if (rule.first && first !== undefined && !rule.first.test(first)) {
    out.push({ rule: 'tool-name', severity: 'error', provider, tool: name, source: rule.source, message: `${who} refuses the tool name \`${name}\`: it starts with ${quoteChar(first)}; a name may hold only ${rule.words}` });
  }
  if (chars.length > rule.max) {
    out.push({ rule: 'tool-name-length', severity: 'error', provider, tool: name, source: rule.source, message: `${who} refuses the tool name \`${name}\`: it is ${chars.length} characters long; the limit is ${rule.max}` });
  } else if (rule.documentedMax && chars.length > rule.documentedMax.max) {
    out.push({ rule: 'tool-name-length', severity: 'warning', provider, tool: name, source: rule.documentedMax.source, message: `the tool name \`${name}\` is ${chars.length} characters long: within ${who}'s ${rule.max}, but over the ${rule.documentedMax.max} that older ${who} API versions document` });
  }
  return out.length > 0 ? out : NONE;
}

const wholeNames = new WeakMap<NameRule, RegExp>();

/** `rule.allowed` (one character) as a test of a whole name. */
function wholeName(rule: NameRule): RegExp {
  let re = wholeNames.get(rule);
  if (!re) {
    const one = rule.allowed.source.replace(/^\^/u, '').replace(/\$$/u, '');
    wholeNames.set(rule, (re = new RegExp(`^(?:${one})*$`, rule.allowed.flags)));
  }
  return re;
}

/**
 * Whether a name draws no finding, answered without taking it apart: every character allowed (the
 * providers' allowed characters are ASCII, so its length is its count of characters), the first one
 * too, and within the lengths. At 100,000 tools, splitting every name into characters was ~30 MB of
 * garbage an open, and memoizing every name kept a Map of them all per provider.
 */
function isCleanName(rule: NameRule, name: string): boolean {
  if (!wholeName(rule).test(name)) return false;
  if (rule.first && name.length > 0 && !rule.first.test(name.charAt(0))) return false;
  return name.length <= Math.min(rule.max, rule.documentedMax?.max ?? rule.max);
}

/** The findings for one tool name under a provider (a name with findings memoized per provider). */
export function checkToolName(provider: ProviderId, name: string): readonly ProviderDiagnostic[] {
  const rule = nameRule(provider);
  if (!rule || isCleanName(rule, name)) return NONE;
  let byName = nameCache.get(provider);
  if (!byName) {
    byName = new Map();
    nameCache.set(provider, byName);
  }
  let found = byName.get(name);
  if (!found) {
    found = nameFindings(provider, name);
    byName.set(name, found);
  }
  return found;
}

// ── Schema keywords ──────────────────────────────────────────────────────────────────────────

export interface KeywordRule {
  readonly keywords: ReadonlySet<string>;
  readonly why: string;
  readonly source: RuleSource;
}

/** Every keyword of `rule` used anywhere in a schema, as `path: keyword`. */
function schemaKeywords(schema: unknown, rule: KeywordRule, path: string, out: string[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => schemaKeywords(item, rule, `${path}/${i}`, out));
    return;
  }
  if (!isJsonObject(schema)) return;
  for (const key of Object.keys(schema)) {
    // Inside `properties`, keys are parameter names, not keywords.
    if (path.endsWith('/properties') || !rule.keywords.has(key)) schemaKeywords(schema[key], rule, `${path}/${key}`, out);
    else {
      out.push(`${path}/${key}`);
      schemaKeywords(schema[key], rule, `${path}/${key}`, out);
    }
  }
}

const keywordCache = new WeakMap<ToolDefinition, Map<ProviderId, readonly ProviderDiagnostic[]>>();

/** Schema keywords the provider refuses in one tool's parameters (memoized per definition). */
export function checkToolSchema(provider: ProviderId, def: ToolDefinition): readonly ProviderDiagnostic[] {
  const rule = providerOf(provider).schemaKeywords;
  if (!rule) return NONE;
  let byProvider = keywordCache.get(def);
  if (!byProvider) {
    byProvider = new Map();
    keywordCache.set(def, byProvider);
  }
  const cached = byProvider.get(provider);
  if (cached) return cached;
  const found: string[] = [];
  for (const [name, schema] of def.parameters) schemaKeywords(schema, rule, name, found);
  const out: readonly ProviderDiagnostic[] =
    found.length === 0
      ? NONE
      : [{ rule: 'schema-keyword', severity: 'error', provider, tool: def.name, source: rule.source, message: `${PROVIDER_WORDS[provider]} refuses the parameters of \`${def.name}\`: ${found.map((p) => `\`${p.slice(p.lastIndexOf('/') + 1)}\` at ${p}`).join(', ')}; ${rule.why}` }];
  byProvider.set(provider, out);
  return out;
}
