// A deterministic, realistic-looking tool catalogue for the benchmarks: names like
// `jira_create_issue` or `getWeatherForecast`, descriptions of one sentence to a
// paragraph, typed parameters, shaped like ../shared/data/catalogues (see below).
import type { SearchDocument } from '../src/core/search/types';

/** mulberry32: a small seeded PRNG, so every run benchmarks the same catalogue. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = (
  'github gitlab bitbucket jira linear asana trello notion confluence slack discord teams zoom webex gmail outlook ' +
  'calendar drive dropbox box onedrive s3 gcs azure aws gcp kubernetes docker terraform ansible pulumi datadog sentry ' +
  'pagerduty opsgenie grafana prometheus newrelic splunk stripe paypal square adyen shopify woocommerce magento ' +
  'quickbooks xero netsuite salesforce hubspot pipedrive zendesk freshdesk intercom twilio vonage sendgrid mailgun ' +
  'mailchimp klaviyo figma miro canva airtable smartsheet postgres mysql sqlite mongodb redis cassandra dynamodb ' +
  'elastic opensearch snowflake bigquery redshift databricks airflow dbt kafka rabbitmq openweather mapbox ' +
  'googlemaps spotify soundcloud youtube vimeo twitch twitter mastodon bluesky reddit hackernews arxiv pubmed ' +
  'semanticscholar wikipedia wolfram newsapi alphavantage coinbase binance kraken amadeus skyscanner booking airbnb ' +
  'yelp tripadvisor deepl ocrspace pdfco gsheets gdocs excel powerpoint onenote evernote todoist clickup monday ' +
  'basecamp harvest toggl clockify bamboohr workday greenhouse lever gusto docusign hellosign pandadoc zapier ifttt ' +
  'homeassistant hue sonos nest tesla strava fitbit garmin myfitnesspal epic cerner fhir openfda clinicaltrials ' +
  'courtlistener sec edgar fred worldbank census openalex crossref zotero mendeley overleaf leetcode kaggle ' +
  'huggingface replicate openai anthropic cohere pinecone weaviate qdrant chroma supabase firebase vercel netlify ' +
  'cloudflare fastly heroku render railway flyio digitalocean linode hetzner namecheap godaddy letsencrypt'
).split(' ');
const VERBS = (
  'list get create update delete search fetch send run cancel rerun approve merge close open archive restore ' +
  'upload download export import sync schedule publish subscribe unsubscribe translate summarize analyze convert ' +
  'resize crop compress validate deploy rollback scale restart query index tag assign comment review invite ' +
  'remove rename move copy share lock unlock pin unpin star watch follow mute snooze forward reply draft book ' +
  'reserve refund charge invoice quote estimate forecast predict classify detect extract transcribe annotate ' +
  'geocode route compare rank recommend monitor benchmark profile audit scan backup replicate migrate provision'
).split(' ');
const OBJECTS = (
  'issue pull_request workflow workflow_run repository branch commit release file folder user team member ' +
  'message channel thread meeting event invoice payment customer subscription refund order product cart ' +
  'ticket incident alert dashboard metric log trace bucket object table record row column schema document ' +
  'page comment label milestone project task sprint board card contact lead deal campaign email attachment ' +
  'image video playlist track album artist podcast episode forecast article paper citation quote rate report ' +
  'secret deployment pod service cluster job node volume snapshot certificate domain dns_record firewall_rule ' +
  'load_balancer container image_tag artifact package dependency vulnerability license webhook api_key token ' +
  'session role permission policy group organization workspace space wiki note bookmark reminder habit workout ' +
  'route place restaurant hotel flight itinerary reservation booking review rating coupon discount shipment ' +
  'parcel warehouse inventory supplier purchase_order budget expense receipt payroll employee candidate ' +
  'interview offer contract signature template form survey response poll quiz course lesson exam grade ' +
  'patient appointment prescription lab_result trial drug recall filing statute case_law opinion dataset model ' +
  'embedding prompt completion transcript caption subtitle translation glossary stock_price exchange_rate ' +
  'portfolio transaction wallet block device sensor thermostat light scene automation'
).split(' ');
const ADJECTIVES = (
  'recent open closed archived public private shared pending failed active scheduled draft starred unread ' +
  'overdue upcoming expired verified flagged deleted pinned trending popular nearby internal external ' +
  'encrypted compressed duplicate stale critical blocked resolved merged'
).split(' ');
const PURPOSES = [
  'Useful when you need to inspect the current state before making changes.',
  'Results are paginated; pass a cursor to continue.',
  'Requires write access to the target resource.',
  'Returns at most one hundred items per call.',
  'Supports filtering by owner, status and date range.',
  'The operation is idempotent and safe to retry.',
  'Times are reported in UTC.',
  'Prefer the bulk variant for more than fifty items.',
  'Rate limited to sixty requests per minute per token.',
  'Large payloads are streamed and truncated after ten megabytes.',
  'Use this before editing to avoid overwriting concurrent changes.',
  'Only administrators can perform this action on shared resources.',
  'Deleted items stay recoverable from the trash for thirty days.',
  'Accepts natural language dates such as "next Friday".',
  'Returns a signed link that expires after one hour.',
  'Sorting defaults to most recently updated first.',
];
const PARAM_NAMES = (
  'owner repo id query limit cursor status since until channelId text email amount currency path branch title ' +
  'body labels assignee dueDate location language format timeout-seconds page perPage sort order fields ' +
  'includeArchived dryRun region zone projectId workspaceId userId teamId orgId startTime endTime timezone ' +
  'latitude longitude radius units url headers method payload tags priority severity environment version ' +
  'namespace replicas image tag commitSha baseBranch headBranch reviewers message subject recipients cc ' +
  'attachments fileName mimeType width height quality prompt model temperature maxTokens'
).split(' ');
const PARAM_PHRASES = [
  'Identifier of the %s.', 'Only %ss matching this value.', 'The %s to use; defaults to the account default.',
  'Maximum number of %ss to return.', 'Name of the %s, case-insensitive.', 'ISO 8601 timestamp for the %s.',
  'Filter by %s status.', 'The %s to update.', 'Comma-separated list of %ss.', 'When true, include archived %ss.',
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

function words(s: string): string {
  return s.replace(/_/g, ' ');
}

function camel(s: string): string {
  return s.replace(/[_-](\w)/g, (_, c: string) => c.toUpperCase());
}

/** Most parameter descriptions are particular to their tool (GitHub's server: 82% of their text is distinct). */
function paramDescription(rand: () => number, name: string, service: string, object: string): string {
  const noun = rand() < 0.5 ? words(rand() < 0.6 ? object : pick(rand, OBJECTS)) : name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/-/g, ' ').toLowerCase();
  const phrase = pick(rand, PARAM_PHRASES).replace('%s', noun);
  const r = rand();
  if (r < 0.3) return phrase;
  if (r < 0.55) return `${phrase.slice(0, -1)} in ${service}.`;
  if (r < 0.75) return `${phrase} Only ${pick(rand, ADJECTIVES)} ${words(object)}s are considered.`;
  if (r < 0.9) return `${phrase} Defaults to the ${pick(rand, ADJECTIVES)} ${words(pick(rand, OBJECTS))} of the ${service} ${pick(rand, ['account', 'workspace', 'project', 'organization', 'team'])}.`;
  return `${phrase} See ${camel(`${pick(rand, VERBS)}_${object}`)} for the accepted values.`;
}

/** One parameter of a generated tool's inputSchema, typed as real catalogues type theirs. */
export interface GeneratedParameter {
  readonly name: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  readonly description: string;
  readonly enum?: readonly string[];
  readonly required: boolean;
}

/** A generated tools/list entry, with the search document the workbench derives from it. */
export interface GeneratedTool {
  readonly name: string;
  /** The first sentence of the description (what a JP layer would give as `summary`). */
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly GeneratedParameter[];
  readonly annotations?: { readonly title: string; readonly readOnlyHint: boolean; readonly destructiveHint?: boolean };
}

// Shapes measured on ../shared/data/catalogues (GitHub's MCP server, 117 tools, and LiveMCPBench's 510):
// - parameters per tool: median 2 (LiveMCPBench) to 5 (GitHub), tenth percentile 0, ninetieth 6 to 9;
// - parameter types: string 60%, number or integer 25%, boolean 6%, array 6%; an enum on one string in six;
// - descriptions: median 59 to 71 characters, ninetieth percentile 222 to 588 (a long tail of usage notes);
// - GitHub's tools carry annotations (title, readOnlyHint).
const PARAM_COUNTS = [0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 9, 12];
const ENUMS: readonly (readonly string[])[] = [
  ['asc', 'desc'], ['open', 'closed', 'all'], ['LEFT', 'RIGHT'], ['json', 'csv', 'markdown'], ['low', 'medium', 'high', 'critical'],
  ['created', 'updated', 'popularity'], ['KR', 'BR', 'EUW', 'NA', 'JP', 'SG'], ['metric', 'imperial'], ['draft', 'published', 'archived'],
];
const READ_VERBS = new Set(['list', 'get', 'search', 'fetch', 'query', 'export', 'download', 'compare', 'rank', 'recommend', 'monitor', 'forecast', 'predict', 'estimate', 'quote', 'geocode', 'route', 'analyze', 'summarize', 'translate', 'detect', 'classify', 'extract', 'validate', 'audit', 'scan', 'benchmark', 'profile']);
const DESTRUCTIVE_VERBS = new Set(['delete', 'remove', 'cancel', 'close', 'archive', 'rollback', 'refund', 'unsubscribe', 'lock', 'revoke']);
const LONG_NOTES = [
  'If the user names a specific %s, call this first instead of guessing.',
  'Example: to find every %s changed last week, pass since = "7 days ago" and sort = "updated".',
  'The response includes the %s identifier, its owner, status, timestamps and a link to open it in the browser.',
  'When the result is truncated, the last item carries a cursor; call again with it to read the next page of %ss.',
  'Errors are returned as text with a code (NOT_FOUND, FORBIDDEN, RATE_LIMITED) rather than raised.',
  'Fields that the caller may not read are omitted from the %s rather than redacted.',
  'For bulk changes to more than one hundred %ss, split the work into several calls.',
  'This tool never modifies data; it is safe to call repeatedly while exploring.',
];

function parameterType(rand: () => number): GeneratedParameter['type'] {
  const r = rand();
  return r < 0.6 ? 'string' : r < 0.73 ? 'number' : r < 0.86 ? 'integer' : r < 0.93 ? 'boolean' : 'array';
}

/**
 * A realistic tools/list catalogue: names like `jira_create_issue`, `getWeatherForecast` or
 * `github-merge-pull-request`, one to three sentence descriptions with a long tail of usage notes,
 * zero to a dozen typed parameters. Deterministic for a seed.
 */
export function generateCatalogue(count: number, seed = 108): GeneratedTool[] {
  const rand = prng(seed);
  const tools: GeneratedTool[] = [];
  const used = new Set<string>();
  for (let i = 0; tools.length < count; i++) {
    const service = pick(rand, SERVICES);
    const verb = pick(rand, VERBS);
    const object = pick(rand, OBJECTS);
    const style = rand();
    let name =
      style < 0.7
        ? `${service}_${verb}_${object}`
        : style < 0.9
          ? camel(`${verb}_${object}`)
          : `${service}-${verb}-${object.replace(/_/g, '-')}`;
    if (used.has(name)) name = `${name}_${i}`;
    used.add(name);
    const adjective = pick(rand, ADJECTIVES);
    const summary = `${verb[0]?.toUpperCase()}${verb.slice(1)} ${adjective} ${words(object)}s in ${service}.`;
    const extra = [pick(rand, PURPOSES)];
    if (rand() < 0.6) {
      extra.push(`Works with ${pick(rand, SERVICES)} ${words(pick(rand, OBJECTS))}s and ${pick(rand, ADJECTIVES)} ${words(pick(rand, OBJECTS))}s.`);
    }
    if (rand() < 0.3) extra.push(`Call ${camel(`${pick(rand, VERBS)}_${pick(rand, OBJECTS)}`)} first to ${pick(rand, VERBS)} the ${words(pick(rand, OBJECTS))}.`);
    // One tool in ten documents itself at length, as real servers' search and query tools do.
    if (rand() < 0.1) {
      const notes = 2 + Math.floor(rand() * 5);
      for (let n = 0; n < notes; n++) extra.push(pick(rand, LONG_NOTES).replace(/%s/g, words(pick(rand, OBJECTS))));
    }
    const paramCount = pick(rand, PARAM_COUNTS);
    const parameters: GeneratedParameter[] = [];
    const names = new Set<string>();
    while (names.size < paramCount) {
      const p = pick(rand, PARAM_NAMES);
      if (names.has(p)) continue;
      names.add(p);
      const type = parameterType(rand);
      const withEnum = type === 'string' && rand() < 0.17;
      parameters.push({
        name: p,
        type,
        description: paramDescription(rand, p, service, object),
        ...(withEnum ? { enum: pick(rand, ENUMS) } : {}),
        required: names.size === 1 || rand() < 0.25,
      });
    }
    const annotated = rand() < 0.4;
    tools.push({
      name,
      summary,
      description: [summary, ...extra].join(' '),
      parameters,
      ...(annotated
        ? { annotations: { title: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${words(object)}`, readOnlyHint: READ_VERBS.has(verb), ...(DESTRUCTIVE_VERBS.has(verb) ? { destructiveHint: true } : {}) } }
        : {}),
    });
  }
  return tools;
}

/** A generated tool as a tools/list entry (JSON). */
export function toolsListEntry(t: GeneratedTool): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of t.parameters) {
    properties[p.name] = { type: p.type, description: p.description, ...(p.enum ? { enum: p.enum } : {}), ...(p.type === 'array' ? { items: { type: 'string' } } : {}) };
  }
  return {
    name: t.name,
    description: t.description,
    inputSchema: { type: 'object', properties, required: t.parameters.filter((p) => p.required).map((p) => p.name) },
    ...(t.annotations ? { annotations: t.annotations } : {}),
  };
}

/** The search documents of generateCatalogue's tools. */
export function generateTools(count: number, seed = 108): SearchDocument[] {
  return generateCatalogue(count, seed).map((t, order) => ({
    name: t.name,
    order,
    parameterNames: t.parameters.map((p) => p.name),
    summary: t.summary,
    description: t.description,
    parameterDescriptions: t.parameters.map((p) => p.description),
  }));
}

/** Short keyword queries, the kind a model writes, and a few whole requests. */
export function generateQueries(count: number, seed = 42): string[] {
  const rand = prng(seed);
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.3) queries.push(`${pick(rand, VERBS)} ${words(pick(rand, OBJECTS))}`);
    else if (r < 0.55) queries.push(`${pick(rand, SERVICES)} ${words(pick(rand, OBJECTS))}`);
    else if (r < 0.75) queries.push(`${pick(rand, VERBS)} ${pick(rand, ADJECTIVES)} ${words(pick(rand, OBJECTS))}s ${pick(rand, SERVICES)}`);
    else if (r < 0.85) queries.push(pick(rand, SERVICES));
    else if (r < 0.95) queries.push(`${pick(rand, VERBS)}_${pick(rand, OBJECTS)}`);
    else queries.push(`how do I ${pick(rand, VERBS)} a ${words(pick(rand, OBJECTS))} in ${pick(rand, SERVICES)} and then ${pick(rand, VERBS)} it`);
  }
  return queries;
}
