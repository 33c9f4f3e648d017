// The views of the derive methods behind the import dialog and the servers panel (issue 6).
// Their rows in methods.ts route them to serversHost.ts.
import type { ImportResult, Savings, ServerToolPlace } from '../core';

export interface ImportPolicyInput {
  readonly kind: 'on' | 'discoverable' | 'per-server';
  readonly keep: number;
  readonly offDestructive: boolean;
  /** `per-server`: [server name, mode] pairs. */
  readonly servers?: readonly (readonly [string, 'on' | 'discoverable' | 'off'])[];
}

export interface ImportPreviewParams {
  /** The catalogue as JSON text (a file, a paste) or as a live server's listed tools. */
  readonly source: { readonly kind: 'text'; readonly text: string } | { readonly kind: 'tools'; readonly tools: readonly unknown[]; readonly bytes: number };
  /** Where it came from (a file name, a URL), for messages and the layer's comment. */
  readonly origin: string;
  readonly policy: ImportPolicyInput;
  /** Names for the catalogue's servers, in order (empty entries: the catalogue's own). */
  readonly serverNames?: readonly string[];
  /** A live server's endpoint (one-server catalogues). */
  readonly url?: string;
  /** The document the import lands in (its revision's doc): names already taken. */
  readonly revision: number;
}

export interface CatalogueServerView {
  readonly key?: string;
  readonly name: string;
  /** The name asked for, when the scenario already has a server of that name (`name` is then another). */
  readonly taken?: string;
  readonly tools: number;
  readonly description?: string;
  readonly category?: string;
  /** What the file holds of the server itself (a snapshot): shown as text, icons never fetched. */
  readonly about?: ServerAbout;
}

export interface ServerAbout {
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
}

export type ImportPreview =
  | { readonly ok: false; readonly errors: readonly string[] }
  | {
      readonly ok: true;
      readonly form: string;
      readonly bytes: number;
      readonly warnings: readonly string[];
      readonly servers: readonly CatalogueServerView[];
      readonly result: ImportResult;
      /** What discovery saves on this catalogue alone, with the chosen policy. */
      readonly savings: Savings;
      /** Milliseconds to read, generate and index the catalogue in the worker. */
      readonly millis: number;
    };

export interface ServerView {
  readonly name: string;
  readonly status: 'running' | 'offline';
  readonly url?: string;
  readonly catalogue?: string;
  /** Tools the server lists (for a catalogue file: as loaded). */
  readonly listed: number;
  /** The scenario's configured tools that name it, where the core puts them at the position. */
  readonly places: readonly ServerToolPlace[];
}

export interface ServersView {
  readonly revision: number;
  readonly position: number;
  readonly servers: readonly ServerView[];
  /** What discovery saves at the position, per server and in total (tokens: o200k_base). */
  readonly savings: Savings;
}
