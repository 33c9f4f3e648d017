// Provider rules: what each provider documents that it refuses (or accepts but loses), as data with
// its source, and pure checks over a request as JP renders it. A finding is a diagnostic:
// - error: the provider would refuse the request (HTTP 400);
// - warning: the provider accepts it, but information is lost on the way.
// The simulator keeps JP's body where JP itself would send a refused one (this is a simulator of
// JP) and flags it here; where JP sends an accepted body, render.ts renders that. Per-request checks
// (forced tool, empty content, JP's Ollama parameters) are in request-rules.ts.
import { isJsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
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

export const PROVIDER_WORDS: Readonly<Record<ProviderId, string>> = {
  anthropic: 'Anthropic',
  'anthropic-directives': 'Anthropic',
  openai: 'OpenAI',
  google: 'Gemini',
  openrouter: 'OpenRouter',
  cerebras: 'Cerebras',
  ollama: 'Ollama',
  llamacpp: 'llama.cpp',
};

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

const ANTHROPIC_NAMES: NameRule = {
  allowed: /^[a-zA-Z0-9_-]$/,
  words: 'letters a-z and A-Z, digits, `_` and `-`',
  max: 64,
  source: {
    document: 'Anthropic Messages API, Tool.name: "Must match the regex ^[a-zA-Z0-9_-]{1,64}$" (the API\'s OpenAPI schema, components/schemas/Tool)',
    read: '2026-12',
  },
};

const OPENAI_NAMES: NameRule = {
  allowed: /^[a-zA-Z0-9_-]$/,
  words: 'letters a-z and A-Z, digits, `_` and `-`',
  max: 64,
  source: {
    document: 'OpenAI API reference, function name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64" (openai 7.55.0 resources/shared.d.ts FunctionDefinition.name)',
    read: '2026-12',
  },
};

const NAME_RULES: Readonly<Record<ProviderId, NameRule | undefined>> = {
  anthropic: ANTHROPIC_NAMES,
  'anthropic-directives': ANTHROPIC_NAMES,
  openai: OPENAI_NAMES,
  google: {
    allowed: /^[a-zA-Z0-9_.:-]$/,
    first: /^[a-zA-Z_]$/,
    words: 'letters a-z and A-Z, digits, `_`, `.`, `:` and `-`, starting with a letter or `_`',
    max: 128,
    documentedMax: {
      max: 64,
      source: { document: 'Gemini API v1beta FunctionDeclaration.name: "with a maximum length of 64" (generativelanguage v1beta reference; Vertex AI v1 says 128)', read: '2026-12' },
    },
    source: {
      document: 'Gemini API FunctionDeclaration.name: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 128" (@google/genai 3.1.0 genai.d.ts)',
      read: '2026-12',
    },
  },
  openrouter: {
    ...OPENAI_NAMES,
    source: { document: 'OpenRouter chat API, ChatFunctionTool.function.name: "a-z, A-Z, 0-9, underscores, dashes, max 64 chars" (@openrouter/sdk 1.3.19 models/chatfunctiontool.d.ts)', read: '2026-12' },
  },
  // Cerebras, Ollama and llama.cpp publish no rule for tool names (Cerebras SDK 1.91.0, ollama 0.6.4
  // types, llama.cpp server README, read 2026-12): nothing is checked for them.
  cerebras: undefined,
  ollama: undefined,
  llamacpp: undefined,
};

export function nameRule(provider: ProviderId): NameRule | undefined {
  return NAME_RULES[provider];
}

const nameCache = new Map<ProviderId, Map<string, readonly ProviderDiagnostic[]>>();
export const NONE: readonly ProviderDiagnostic[] = [];

function quoteChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return c === ' ' ? 'a space' : code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `\`${c}\``;
}

function checkName(provider: ProviderId, name: string): readonly ProviderDiagnostic[] {
  const rule = NAME_RULES[provider];
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

/** The findings for one tool name under a provider (memoized per provider and name). */
export function checkToolName(provider: ProviderId, name: string): readonly ProviderDiagnostic[] {
  let byName = nameCache.get(provider);
  if (!byName) {
    byName = new Map();
    nameCache.set(provider, byName);
  }
  let found = byName.get(name);
  if (!found) {
    found = checkName(provider, name);
    byName.set(name, found);
  }
  return found;
}

// ── Schema keywords ──────────────────────────────────────────────────────────────────────────

interface KeywordRule {
  readonly keywords: ReadonlySet<string>;
  readonly why: string;
  readonly source: RuleSource;
}

// OpenAI's strict mode (Structured Outputs) takes a subset of JSON Schema. JP's strict conversion
// flattens `allOf` and resolves `$ref` with siblings (schema.ts); these survive it and are refused.
const STRICT_KEYWORDS: KeywordRule = {
  keywords: new Set(['oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas']),
  why: 'strict mode (Structured Outputs) supports a subset of JSON Schema without it',
  source: {
    document: 'OpenAI Structured Outputs guide, "Supported schemas": composition keywords allOf, not, dependentRequired, dependentSchemas, if, then, else are not supported; the API answers "\'oneOf\' is not permitted" (community.openai.com t/932422)',
    read: '2026-12',
  },
};

const KEYWORD_RULES: Readonly<Record<ProviderId, KeywordRule | undefined>> = {
  anthropic: undefined,
  'anthropic-directives': undefined,
  openai: STRICT_KEYWORDS,
  google: undefined,
  openrouter: STRICT_KEYWORDS,
  cerebras: undefined,
  ollama: undefined,
  llamacpp: undefined,
};

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
  const rule = KEYWORD_RULES[provider];
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
