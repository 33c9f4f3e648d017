// The auto model: a deterministic stand-in for the model, so a catalogue can be demoed in the
// simulator and task sets can run headless (`auto` policy) without an LLM. A pure function of what a
// headless run has at one cycle: the user's request, the request's permitted tools (offered ones
// marked) with their definitions, and the calls of the turn so far with their search results. Every
// decision carries its one-line reason. It is never used by the conformance tests.
//
// One action per cycle:
// 1. After a tool other than the builtins ran this turn, reply with what it returned.
// 2. After a search: call the offered tool that fits the request best (what the search promoted
//    first among equals); if the search returned nothing, search once more with the request's most
//    specific word; else reply that nothing fits, and why.
// 3. Before any search: call the offered tool that covers the request, if one does.
// 4. Else search with the request's keywords, when search_tools is offered; else reply.
//
// A tool fits a question ("Why did the deploy fail?") when it only reads, and an order ("Open a Linear
// issue...") when it changes things by the verb the order means ("create"): a question never deploys.
// It covers the request, and no search is needed, when it fits and its words hold half of a
// question's keywords, or two of an order's (its object, "linear issue"; the rest of an order is
// content). One shared word ("fail" in "failed job") is not enough to skip the search.
// Arguments: see args.ts.
import { DESCRIBE_TOOLS, SEARCH_TOOLS } from '../catalogue/builtins';
import type { ToolDefinition } from '../catalogue/types';
import type { Plain } from '../scenario/doc';
import type { PromotionStatus } from '../turn/fold';
import { describeSources, fillArguments } from './args';
import type { ParamInfo } from './args';
import { actionOf, intentOf, keywords, stemOf, wordsOf } from './words';
import type { Intent, ToolAction } from './words';

/** One tool of the open request: permitted, offered or not, with its definition. */
export interface AutoTool {
  readonly name: string;
  readonly offered: boolean;
  /** Absent only for a name the run could not resolve; such a tool is never chosen. */
  readonly definition?: ToolDefinition;
}

/** A call made earlier in the turn, as the timeline records it (a CallRecord fits). */
export interface AutoCall {
  readonly tool: string;
  readonly args?: unknown;
  readonly status: 'ok' | 'error';
  readonly result: string;
  readonly error?: string;
  readonly search?: { readonly query: string; readonly returned: readonly { readonly name: string; readonly status: PromotionStatus }[]; readonly total?: number };
}

export interface AutoInput {
  /** The user's request: the query of the turn's `jp q`. */
  readonly query: string;
  /** The open request's permitted tools, in array order, offered ones marked. */
  readonly tools: readonly AutoTool[];
  /** The calls of this turn so far, in order. */
  readonly calls: readonly AutoCall[];
  /** Cycles of this turn already answered. */
  readonly cycles: number;
}

export type AutoAction =
  | { readonly kind: 'search'; readonly query: string; readonly limit: number; readonly why: string }
  | { readonly kind: 'call'; readonly tool: string; readonly args: { [key: string]: Plain }; readonly why: string }
  | { readonly kind: 'reply'; readonly text: string; readonly why: string };

/** Few results: each one returned is promoted, and every promoted definition costs context from then on. */
export const SEARCH_LIMIT = 3;
export const MAX_CYCLES = 6;
const BUILTINS: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOLS]);

/** What the model made of the request: its intent and its keywords. */
interface Reading {
  readonly intent: Intent;
  readonly topics: readonly string[];
}

function readRequest(query: string): Reading {
  return { intent: intentOf(query), topics: keywords(query) };
}

function schemaType(schema: Record<string, unknown>): string {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string').join(' | ');
  return 'any';
}

export function paramsOf(def: ToolDefinition): ParamInfo[] {
  return [...def.parameters].map(([name, schema]) => {
    const docs = def.docs.parameters.get(name);
    const description = docs?.summary ?? docs?.description ?? (typeof schema.description === 'string' ? schema.description : '');
    return { name, type: schemaType(schema), required: def.required.includes(name), description, ...(Array.isArray(schema.enum) ? { enum: schema.enum as Plain[] } : {}) };
  });
}

function summaryOf(def: ToolDefinition): string {
  return def.docs.summary ?? def.schemaDescription ?? def.docs.description ?? '';
}

/** How a tool stands against the request. */
interface Fit {
  readonly tool: AutoTool & { readonly definition: ToolDefinition };
  readonly action: ToolAction;
  /** It reads, or it changes by the verb the request orders. */
  readonly fits: boolean;
  /** How many of the request's keywords its words hold. */
  readonly covered: number;
  readonly verbMatches: boolean;
}

function fitOf(tool: AutoTool & { readonly definition: ToolDefinition }, reading: Reading): Fit {
  const def = tool.definition;
  const action = actionOf({ name: def.name, backendName: def.backendName, summary: summaryOf(def), ...(def.annotations ? { annotations: def.annotations } : {}) });
  const own = new Set(wordsOf([def.name, summaryOf(def), def.docs.description ?? '', ...def.parameters.keys()].join(' ')).map(stemOf));
  const covered = reading.topics.filter((t) => own.has(stemOf(t))).length;
  const verbMatches = reading.intent.kind === 'change' && action.kind === 'change' && action.verb === reading.intent.verb;
  // A question is answered by reading; an order only by a tool that does what it orders.
  const fits = reading.intent.kind === 'read' ? action.kind === 'read' : verbMatches;
  return { tool, action, fits, covered, verbMatches };
}

const needed = (reading: Reading): number => Math.max(1, Math.ceil(reading.topics.length / 2));

/** Higher is better: the verb the request orders first, then the keywords held. */
const rank = (f: Fit): number => (f.verbMatches ? 1000 : 0) + f.covered;

function resolved(tools: readonly AutoTool[]): (AutoTool & { readonly definition: ToolDefinition })[] {
  return tools.filter((t): t is AutoTool & { readonly definition: ToolDefinition } => t.definition !== undefined && !BUILTINS.has(t.name));
}

function callOf(f: Fit, query: string, reading: Reading, because: string): AutoAction {
  const { args, sources } = fillArguments(query, f.tool.name, paramsOf(f.tool.definition), reading.topics);
  return { kind: 'call', tool: f.tool.name, args, why: `${because}; ${describeSources(sources)}` };
}

const held = (f: Fit, reading: Reading): string => `${f.covered} of ${reading.topics.length} keywords`;

function doesWhat(f: Fit): string {
  return f.action.kind === 'read' ? 'only reads' : `does "${f.action.verb}", as the request asks`;
}

/** Why a tool that ranked above the chosen one was passed over. */
function passedOver(f: Fit, reading: Reading): string {
  if (!f.fits) return f.action.kind === 'change' ? `${f.tool.name} would ${f.action.verb}, which the request did not ask for` : `${f.tool.name} only reads, and the request asks for a change`;
  return `${f.tool.name} holds ${held(f, reading)}`;
}

function replyAfterCall(called: AutoCall): AutoAction {
  if (called.status === 'error') return { kind: 'reply', text: `${called.tool} failed: ${called.error ?? called.result}`, why: `${called.tool} was called this turn and failed` };
  const first = called.result.split('\n').find((l) => l.trim() !== '') ?? '';
  const text = first.length > 200 ? `${first.slice(0, 199)}…` : first;
  return { kind: 'reply', text: `From ${called.tool}: ${text}`, why: `${called.tool} was called this turn; its result answers the request` };
}

/** The request's most specific keyword: the longest, the later one on a tie (nouns tend to come last). */
function narrowest(topics: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const t of topics) if (best === undefined || t.length >= best.length) best = t;
  return best;
}

/** The keywords, an order's own word replaced by the verb it means ("open" by "create"). */
function searchQuery(reading: Reading): string {
  const { intent } = reading;
  return reading.topics.map((w) => (intent.kind === 'change' && w === intent.word ? intent.verb : w)).join(' ');
}

function afterSearch(input: AutoInput, reading: Reading, searches: readonly AutoCall[]): AutoAction {
  const returned = searches.flatMap((c) => c.search?.returned ?? []);
  const found = new Set(returned.filter((r) => r.status === 'usable').map((r) => r.name));
  // The model sees every offered tool: what the search promoted, and what was offered before it.
  const fits = resolved(input.tools).filter((t) => t.offered).map((t) => fitOf(t, reading));
  let best: Fit | undefined;
  for (const f of fits) {
    if (!f.fits || f.covered === 0) continue;
    const score = rank(f) * 2 + (found.has(f.tool.name) ? 1 : 0);
    if (best === undefined || score > rank(best) * 2 + (found.has(best.tool.name) ? 1 : 0)) best = f;
  }
  if (best) {
    const how = found.has(best.tool.name) ? `search_tools returned ${best.tool.name}, usable` : `offered ${best.tool.name} fits best after the search`;
    const skipped = returned.map((r) => fits.find((f) => f.tool.name === r.name)).find((f): f is Fit => f !== undefined && f !== best && (!f.fits || rank(f) >= rank(best as Fit)));
    const note = skipped ? ` (${passedOver(skipped, reading)})` : '';
    return callOf(best, input.query, reading, `${how}; it ${doesWhat(best)} and holds ${held(best, reading)}${note}`);
  }
  const last = searches[searches.length - 1];
  // An order's verb finds the tools that do it; a question's most specific word finds its subject.
  const narrow = reading.intent.kind === 'change' ? reading.intent.verb : narrowest(reading.topics);
  if (searches.length === 1 && returned.length === 0 && last?.status === 'ok' && narrow !== undefined && narrow !== last.search?.query) {
    return { kind: 'search', query: narrow, limit: SEARCH_LIMIT, why: `search_tools("${last.search?.query ?? ''}") found nothing; searching once more for the request's most specific word` };
  }
  if (last?.status === 'error') return { kind: 'reply', text: `The search failed: ${last.error ?? last.result}`, why: 'search_tools answered with an error' };
  const unfit = returned.map((r) => fits.find((f) => f.tool.name === r.name)).find((f): f is Fit => f !== undefined && !f.fits);
  const intent = reading.intent;
  const why =
    returned.length === 0 ? 'the search found nothing'
    : intent.kind === 'change' && unfit ? `the search found no tool that does "${intent.verb}"`
    : unfit ? `the search found no tool that fits: ${passedOver(unfit, reading)}`
    : 'the search found no usable tool that holds the request\'s keywords';
  return { kind: 'reply', text: 'I found no tool for this request, so I cannot do it.', why };
}

/**
 * Whether an offered tool covers the request without a search. A question needs half of its keywords
 * in the tool's words. An order needs its verb and two of its keywords (the object: "a Linear issue"),
 * as the rest of an order is content ("for the failing orders test"), not a description of the tool.
 */
function covers(f: Fit, reading: Reading): boolean {
  if (!f.fits) return false;
  if (reading.intent.kind === 'read') return f.covered >= needed(reading);
  return f.verbMatches && f.covered >= Math.min(2, reading.topics.length);
}

/** The next action of the model at the open cycle. */
export function nextAutoAction(input: AutoInput): AutoAction {
  const reading = readRequest(input.query);
  const called = input.calls.find((c) => !BUILTINS.has(c.tool));
  if (called) return replyAfterCall(called);
  if (input.cycles >= MAX_CYCLES) return { kind: 'reply', text: 'I could not finish this in time.', why: `${MAX_CYCLES} cycles reached` };
  const searches = input.calls.filter((c) => c.tool === SEARCH_TOOLS);
  if (searches.length > 0) return afterSearch(input, reading, searches);
  if (reading.topics.length === 0) return { kind: 'reply', text: 'What would you like me to do?', why: 'the request has no keywords to act on' };
  const fits = resolved(input.tools).filter((t) => t.offered).map((t) => fitOf(t, reading));
  let best: Fit | undefined;
  for (const f of fits) if (f.fits && (best === undefined || rank(f) > rank(best))) best = f;
  if (best && covers(best, reading)) {
    return callOf(best, input.query, reading, `offered ${best.tool.name} covers the request: it ${doesWhat(best)} and holds ${held(best, reading)}`);
  }
  const closest = best ? `; closest offered: ${best.tool.name}, ${held(best, reading)}` : '';
  const canSearch = input.tools.some((t) => t.name === SEARCH_TOOLS && t.offered);
  if (canSearch) return { kind: 'search', query: searchQuery(reading), limit: SEARCH_LIMIT, why: `no offered tool covers the request (${closest.slice(2) || 'none holds its keywords'})` };
  return { kind: 'reply', text: 'None of my tools can do this.', why: `no offered tool covers the request${closest}, and search_tools is not offered` };
}
