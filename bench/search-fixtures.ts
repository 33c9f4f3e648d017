// A deterministic, realistic-looking tool catalogue for the search benchmarks:
// names like `jira_create_issue` or `getWeatherForecast`, one to three sentence
// descriptions, two to four documented parameters each.
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
  'github gitlab bitbucket jira linear asana trello notion confluence slack discord teams zoom gmail outlook ' +
  'calendar drive dropbox box s3 gcs azure aws gcp kubernetes docker terraform datadog sentry pagerduty grafana ' +
  'prometheus stripe paypal shopify quickbooks xero salesforce hubspot zendesk intercom twilio sendgrid mailchimp ' +
  'figma miro airtable postgres mysql mongodb redis elastic snowflake bigquery openweather maps spotify youtube ' +
  'twitter reddit arxiv pubmed wikipedia news finance crypto flights hotels weather translate ocr pdf sheets docs'
).split(' ');
const VERBS = (
  'list get create update delete search fetch send run cancel rerun approve merge close open archive restore ' +
  'upload download export import sync schedule publish subscribe translate summarize analyze convert resize ' +
  'validate deploy rollback scale restart query index tag assign comment review invite remove rename move copy'
).split(' ');
const OBJECTS = (
  'issue pull_request workflow workflow_run repository branch commit release file folder user team member ' +
  'message channel thread meeting event invoice payment customer subscription refund order product cart ' +
  'ticket incident alert dashboard metric log trace bucket object table record row document page comment ' +
  'label milestone project task sprint board card contact lead deal campaign email attachment image video ' +
  'playlist track forecast article paper quote rate report secret deployment pod service cluster job'
).split(' ');
const ADJECTIVES = 'recent open closed archived public private shared pending failed active scheduled draft'.split(' ');
const PURPOSES = [
  'Useful when you need to inspect the current state before making changes.',
  'Results are paginated; pass a cursor to continue.',
  'Requires write access to the target resource.',
  'Returns at most one hundred items per call.',
  'Supports filtering by owner, status and date range.',
  'The operation is idempotent and safe to retry.',
  'Times are reported in UTC.',
  'Prefer the bulk variant for more than fifty items.',
];
const PARAMS: [string, string][] = [
  ['owner', 'The account or organisation that owns the resource.'],
  ['repo', 'Repository name, without the owner.'],
  ['id', 'Identifier of the item.'],
  ['query', 'Free-text search terms.'],
  ['limit', 'Maximum number of results to return.'],
  ['cursor', 'Pagination cursor from a previous call.'],
  ['status', 'Only items in this state.'],
  ['since', 'Only items changed after this ISO 8601 timestamp.'],
  ['channelId', 'The channel to post into.'],
  ['text', 'Message body in Markdown.'],
  ['email', 'Recipient email address.'],
  ['amount', 'Amount in the smallest currency unit.'],
  ['currency', 'Three-letter ISO currency code.'],
  ['path', 'Path of the file inside the repository or bucket.'],
  ['branch', 'Branch name; defaults to the default branch.'],
  ['title', 'A short title.'],
  ['body', 'The full text.'],
  ['labels', 'Labels to apply.'],
  ['assignee', 'User to assign.'],
  ['dueDate', 'Due date (YYYY-MM-DD).'],
  ['location', 'City name or latitude,longitude.'],
  ['language', 'Target language code, e.g. de or ja.'],
  ['format', 'Output format: json, csv or markdown.'],
  ['timeout-seconds', 'Give up after this many seconds.'],
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

function words(s: string): string {
  return s.replace(/_/g, ' ');
}

export function generateTools(count: number, seed = 108): SearchDocument[] {
  const rand = prng(seed);
  const docs: SearchDocument[] = [];
  const used = new Set<string>();
  for (let i = 0; docs.length < count; i++) {
    const service = pick(rand, SERVICES);
    const verb = pick(rand, VERBS);
    const object = pick(rand, OBJECTS);
    const style = rand();
    let name =
      style < 0.7
        ? `${service}_${verb}_${object}`
        : style < 0.9
          ? `${verb}${object.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}`
          : `${service}-${verb}-${object.replace(/_/g, '-')}`;
    if (used.has(name)) name = `${name}_${i}`;
    used.add(name);
    const adjective = pick(rand, ADJECTIVES);
    const summary = `${verb[0]?.toUpperCase()}${verb.slice(1)} ${adjective} ${words(object)}s in ${service}.`;
    const extra = [pick(rand, PURPOSES)];
    if (rand() < 0.5) extra.push(`Works with ${pick(rand, SERVICES)} ${words(pick(rand, OBJECTS))}s and ${words(pick(rand, OBJECTS))}s.`);
    const paramCount = 2 + Math.floor(rand() * 3);
    const params = new Map<string, string>();
    while (params.size < paramCount) {
      const [p, d] = pick(rand, PARAMS);
      params.set(p, d);
    }
    docs.push({
      name,
      order: docs.length,
      parameterNames: [...params.keys()],
      summary,
      description: [summary, ...extra].join(' '),
      parameterDescriptions: [...params.values()],
    });
  }
  return docs;
}

/** Short keyword queries, the kind a model writes. */
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
