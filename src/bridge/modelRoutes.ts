// The bridge's /bridge/models routes (issue 26): the page asks the user's real model through the
// bridge, never itself (its CSP stays). Behind the same door as every /bridge/ route (token, Origin,
// Host: security.ts), and every reply leaves through the bridge's masked `send`.
//
//   GET  /bridge/models       each provider's key source and base URL (never a key)
//   POST /bridge/models/key   { provider, key }: a key kept in this process's memory only ('' forgets it)
//   POST /bridge/models/ask   { provider, model, body, task?, cycle? }: JP's rendered body sent to the model
//
// With `serve --record FILE`, every exchange is appended to FILE (recording.ts: masked, never a key).
import type { ModelAnswerView, ModelProviderView } from '../bridge-protocol';
import { isProviderId } from '../core/providers/registry';
import type { ProviderId } from '../core/providers/types';
import type { Terminal } from './log';
import { ModelKeys, sendToModel } from './models';
import type { SendOptions } from './models';
import { exchangeLine, Recording, requestHash } from './recording';
import type { Masker } from './secrets';

export class ModelRouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_MODEL_CHARS = 200;

function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && !Array.isArray(o) && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

function providerField(o: unknown): ProviderId {
  const p = field(o, 'provider');
  if (typeof p !== 'string' || !isProviderId(p)) throw new ModelRouteError(400, 'provider must be one of the workbench\'s provider ids');
  return p;
}

function optionalIndex(o: unknown, key: string, min: number): number | undefined {
  const v = field(o, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new ModelRouteError(400, `${key} must be an integer from ${min}`);
  return v;
}

export interface ModelDeskOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly masker: Masker;
  readonly terminal: Terminal;
  /** `serve --record FILE`. */
  readonly record?: string;
  readonly send?: SendOptions;
}

/** The bridge's side of the user's model: keys, the sender, the recording. */
export class ModelDesk {
  readonly keys: ModelKeys;
  private readonly recording: Recording;

  constructor(private readonly options: ModelDeskOptions) {
    this.keys = new ModelKeys(options.env, options.masker);
    this.recording = options.record !== undefined ? Recording.open(options.record, options.masker) : new Recording(undefined, options.masker);
  }

  providers(): ModelProviderView[] {
    return this.keys.status();
  }

  setKey(body: unknown): ModelProviderView[] {
    const provider = providerField(body);
    const key = field(body, 'key');
    if (typeof key !== 'string' || /[\r\n\0]/u.test(key)) throw new ModelRouteError(400, 'key must be a string on one line');
    this.keys.setTyped(provider, key);
    this.options.terminal.line(key.trim() === '' ? `the page forgot its ${provider} key` : `the page gave a ${provider} key (kept in this process's memory only)`);
    return this.providers();
  }

  async ask(body: unknown, how: string): Promise<ModelAnswerView> {
    const provider = providerField(body);
    const model = field(body, 'model');
    if (typeof model !== 'string' || model.trim() === '' || model.length > MAX_MODEL_CHARS || /\p{Cc}/u.test(model)) throw new ModelRouteError(400, `model must be a model name of 1 to ${MAX_MODEL_CHARS} characters`);
    const request = field(body, 'body');
    if (typeof request !== 'object' || request === null || Array.isArray(request)) throw new ModelRouteError(400, 'body must be the rendered request body (a JSON object)');
    const task = optionalIndex(body, 'task', 0);
    const cycle = optionalIndex(body, 'cycle', 1);
    const sent = await sendToModel(provider, model, request, this.keys, this.options.masker, this.options.send);
    const line = exchangeLine(sent, { ...(task !== undefined ? { task } : {}), ...(cycle !== undefined ? { cycle } : {}) }, new Date().toISOString());
    this.recording.add(line);
    this.options.terminal.line(`${provider} ${model}: request ${line.hash.slice(0, 12)} asked by ${how}: ${sent.error !== undefined ? `failed (${sent.error})` : `${sent.reply?.calls.length ?? 0} tool call(s)`}`);
    return { status: sent.status, ...(sent.reply ? { reply: sent.reply } : {}), ...(sent.error !== undefined ? { error: sent.error } : {}), hash: requestHash(provider, model, sent.request), attempts: sent.attempts };
  }
}
