// The per-request provider rules: names and schema keywords of every tool in the array (rules.ts),
// a forced tool that is not in the array, empty message content, and each provider's own checks (JP's
// Ollama `parameters`), each provider's part read from its descriptor.
// They read JP's inputs to a request (its tools array before provider filtering, its tool choice and
// its conversation), so a timeline can check every request without rendering its tools array.
import { isJsonObject } from '../catalogue/schema';
import type { ToolDefinition } from '../catalogue/types';
import { providerOf } from './registry';
import { NONE, checkToolName, checkToolSchema } from './rules';
import type { ProviderDiagnostic } from './rules';
import type { ConversationMessage, ProviderId, ToolChoice } from './types';

export interface RequestCheckInput {
  readonly provider: ProviderId;
  /** JP's tools array, in order, before any provider filters it (llama.cpp's forced filter). */
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly messages: readonly ConversationMessage[];
}

function forcedAbsent(input: RequestCheckInput): ProviderDiagnostic[] {
  const choice = input.toolChoice;
  if (choice.kind !== 'function') return [];
  const { provider } = input;
  const forced = choice.name;
  // The forced tool is nearly always offered: the array's names are listed only when it is not.
  if (input.tools.some((d) => d.name === forced)) return [];
  const names = input.tools.map((d) => d.name);
  const { words, forced: rule } = providerOf(provider);
  const warning = rule.absent?.(forced, names);
  if (warning) return [{ rule: 'forced-absent', severity: 'warning', provider, tool: forced, source: warning.source ?? rule.source, message: warning.message }];
  return [{ rule: 'forced-absent', severity: 'error', provider, tool: forced, source: rule.source, message: `${words} refuses the request: tool_choice names \`${forced}\`, which is not in the tools array (${names.length} tools)` }];
}

/** What empty-content reads of one rendered message: its role, and whether its content is empty or holds an empty text block. */
interface Emptiness {
  readonly role: unknown;
  readonly empty: boolean;
  readonly emptyText: boolean;
}

function emptinessOf(m: unknown, content: string): Emptiness | undefined {
  if (!isJsonObject(m)) return undefined;
  const c = m[content];
  const empty = (Array.isArray(c) && c.length === 0) || c === '';
  const emptyText = Array.isArray(c) && c.some((b: unknown) => isJsonObject(b) && b.type === 'text' && b.text === '');
  return empty || emptyText ? { role: m.role, empty, emptyText } : undefined;
}

/**
 * The previous request's rendered message list per provider, and the messages in it that are empty
 * (index and what is empty). A conversation's next request renders the same message objects for what
 * it shares with the one before (wire.ts resumes the render; a rendered message is never changed), so
 * only the messages past the shared ones are read: over a conversation each rendered message's content
 * is read once, not once per request (a 50-turn conversation's requests read it ~150 times each). The
 * shared ones are found by identity alone, as the render itself finds them.
 */
interface SeenList {
  readonly list: readonly unknown[];
  readonly empties: readonly (readonly [number, Emptiness])[];
}

const seenLists = new Map<ProviderId, SeenList>();

function emptyContent(input: RequestCheckInput): ProviderDiagnostic[] {
  const { provider } = input;
  const { words, emptyContent: rule } = providerOf(provider);
  if (!rule || input.messages.length === 0) return [];
  // Only the messages are rendered, and only to their body (not serialized to bytes): an empty tools
  // array keeps this cheap at any catalogue size.
  const body = providerOf(provider).render({ tools: [], toolChoice: { kind: 'auto' }, system: '', messages: input.messages }).body;
  const list = isJsonObject(body) ? body[rule.list] : undefined;
  if (!Array.isArray(list)) return [];
  const prev = seenLists.get(provider);
  let shared = 0;
  if (prev) {
    const n = Math.min(prev.list.length, list.length);
    while (shared < n && prev.list[shared] === list[shared]) shared++;
  }
  const empties: (readonly [number, Emptiness])[] = [];
  if (prev) for (const e of prev.empties) if (e[0] < shared) empties.push(e);
  for (let i = shared; i < list.length; i++) {
    const e = emptinessOf(list[i], rule.content);
    if (e) empties.push([i, e]);
  }
  // Kept as it is, not copied: the list is this check's own render's, which no one else holds or changes.
  seenLists.set(provider, { list, empties });
  const out: ProviderDiagnostic[] = [];
  for (const [i, e] of empties) {
    // An empty final assistant message is allowed (its content is what the model continues).
    const last = i === list.length - 1 && e.role === 'assistant';
    if ((e.empty && !last) || e.emptyText) {
      out.push({ rule: 'empty-content', severity: 'error', provider, source: rule.source, message: `${words} refuses the request: ${rule.list}[${i}] (role ${String(e.role)}) has ${e.emptyText ? 'an empty text block' : 'no content'}` });
    }
  }
  return out;
}

/**
 * The previous request's tools array per provider, and its tools that draw findings (index, findings).
 * A conversation's next request offers mostly the same definitions in the same order (promotions are
 * appended, or inserted in config order), so the definitions both arrays share from the start, found by
 * identity, keep their findings and only the rest are checked: at 100,000 tools, testing each name of
 * each request's array again was most of the findings' time.
 */
interface SeenTools {
  readonly tools: readonly ToolDefinition[];
  readonly found: readonly (readonly [number, readonly ProviderDiagnostic[]])[];
}

const seenTools = new Map<ProviderId, SeenTools>();

function toolFindings(provider: ProviderId, tools: readonly ToolDefinition[]): ProviderDiagnostic[] {
  const prev = seenTools.get(provider);
  let shared = 0;
  if (prev) {
    const n = Math.min(prev.tools.length, tools.length);
    while (shared < n && prev.tools[shared] === tools[shared]) shared++;
  }
  const found: (readonly [number, readonly ProviderDiagnostic[]])[] = [];
  if (prev) for (const f of prev.found) if (f[0] < shared) found.push(f);
  for (let i = shared; i < tools.length; i++) {
    const def = tools[i] as ToolDefinition;
    const named = checkToolName(provider, def.name);
    const keywords = checkToolSchema(provider, def);
    if (named !== NONE || keywords !== NONE) found.push([i, named === NONE ? keywords : keywords === NONE ? named : [...named, ...keywords]]);
  }
  // Copied (a pointer copy, as cheap as the comparison): a caller changing its array in place must not
  // change what the next request is compared with.
  seenTools.set(provider, { tools: tools.slice(), found });
  const out: ProviderDiagnostic[] = [];
  for (const [, f] of found) out.push(...f);
  return out;
}

/** Every provider finding for one request, tool findings first, in array order. */
export function checkRequest(input: RequestCheckInput): ProviderDiagnostic[] {
  const out = toolFindings(input.provider, input.tools);
  out.push(...forcedAbsent(input), ...emptyContent(input));
  for (const check of providerOf(input.provider).checks) out.push(...check(input).map(({ rule, severity, ...rest }) => ({ rule, severity, provider: input.provider, ...rest })));
  return out;
}
