// What the local bridge (src/bridge, node) and the page (src/live/bridge.ts) say
// to each other over HTTP under /bridge/: one declaration of each reply and
// request body, so the two sides cannot drift apart. Types only: importing this
// module adds no code to the page and no node to the bridge's readers.
import type { HiddenChar } from '../core/workspace/hidden';
import type { McpLaunchProblem } from '../core/workspace/mcp-servers';
import type { ModelReply } from '../core/providers/reply';
import type { ProviderId } from '../core/providers/types';

/**
 * `POST /bridge/session` with `{ "code": "..." }` (the code in the address `serve` printed, spent by
 * this request) and the bridge's own Origin: the session token every other request carries as
 * `Authorization: Bearer TOKEN`.
 */
export interface SessionRequest {
  readonly code: string;
}

/** `GET /bridge/info`: which bridge this is and which MCP protocol versions it speaks. */
export interface BridgeInfo {
  readonly app: string;
  readonly version: string;
  readonly protocolVersions: readonly string[];
  readonly latestProtocolVersion: string;
  /**
   * After this many seconds without a request from any page the bridge stops its servers (0: never).
   * Each open tab sends a heartbeat well within it, whatever document it shows (issue 24.3).
   */
  readonly idleStopSecs?: number;
}

export type ServerStatus = 'starting' | 'running' | 'failed' | 'stopped';

/** What the page sees of one server the bridge holds (`GET /bridge/servers`): never a secret. */
export interface ServerView {
  /** Its name in the bridge (its endpoint's path): `fs-2` when another workspace's `fs` is held too. */
  readonly name: string;
  /**
   * The name the workspace declares it under (`[providers.mcp.NAME]`): the scenario's name for it,
   * which `source = "mcp.NAME"` names, whatever the bridge calls it.
   */
  readonly declaredAs?: string;
  readonly kind: 'stdio' | 'http';
  readonly status: ServerStatus;
  readonly error?: string;
  readonly optional: boolean;
  /** False: a workspace's server JP would not start (no tool names it yet), started to list its tools. */
  readonly jpStarts?: boolean;
  /**
   * Whether the bridge forwards the server's sampling, elicitation and roots requests to the page,
   * declaring those capabilities (tools a server registers only for such a client are then listed,
   * though JP is never offered them). False by default: the bridge declares what JP's client does.
   */
  readonly forwardsToPage?: boolean;
  /**
   * While it forwards: the tools it lists now that it did not list to JP's capabilities (listed by the
   * bridge just before it reconnected with forwarding), which JP would never be offered. Absent when
   * not forwarding, or when the bridge could not list them under JP's capabilities.
   */
  readonly notOfferedToJp?: readonly string[];
  /** Where a stdio command came from ("workspace /x/.jp", "the command line"). */
  readonly from?: string;
  readonly commandLine?: string;
  readonly cwd?: string;
  /** Names only: the values stay in the bridge's environment. */
  readonly variables?: readonly string[];
  readonly missingVariables?: readonly string[];
  readonly url?: string;
  /** Names only: header values stay in the bridge. */
  readonly headerNames?: readonly string[];
  readonly transport?: 'stdio' | 'streamable' | 'sse';
  /**
   * The server wants the user to authorize (OAuth, MCP 2025-11-25 basic/authorization): the page asks
   * the user, naming `authorizationServer`, and opens `url` in the user's browser only if they agree.
   * The authorization server sends the browser back to the bridge (`/bridge/oauth/callback`), which
   * exchanges the code and connects. `stepUp`: the session runs and wants more scope; the request
   * that asked is repeated once authorized.
   */
  readonly authorization?: { readonly url: string; readonly authorizationServer: string; readonly scope?: string; readonly stepUp: boolean };
  /** The bridge holds an OAuth token for the server (in its memory only; never shown). */
  readonly oauthAuthorized?: boolean;
  /** Whole, as the server sent it: name, version, and title, description, icons, websiteUrl or any other field it gave. */
  readonly serverInfo?: { readonly name: string; readonly version: string; readonly title?: string; readonly [field: string]: unknown };
  /** What the server said it can do, as it sent it. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly protocolVersion?: string;
  /** The server's own reply to `initialize`, when it refused the protocol versions the bridge speaks. */
  readonly refusal?: string;
  readonly instructions?: string;
  readonly pid?: number;
  /** Milliseconds since the epoch. */
  readonly startedAt?: number;
  /**
   * Seconds since a ping the idle server has not answered was sent (absent while it answers): it is
   * not stopped for that, as JP stops nothing for it; the user may Stop it. A busy server (a request
   * in flight) is not pinged, so a long call never shows here.
   */
  readonly notAnsweringSecs?: number;
  /** The sequence number of the server's newest log entry. */
  readonly lastLog: number;
  /** The MCP endpoint the page connects to, a path on the bridge's origin. */
  readonly endpoint: string;
}

/** `stdout`: a line a stdio server wrote that is no JSON-RPC message (skipped, kept here). */
export type LogStream = 'stderr' | 'stdout' | 'request' | 'response' | 'notification' | 'bridge';

/** One line of a server's log (`GET /bridge/servers/NAME/log?after=SEQ`), secrets masked. */
export interface LogEntry {
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly at: number;
  readonly stream: LogStream;
  readonly text: string;
}

/** `POST /bridge/servers`: reach an HTTP MCP server from the bridge. */
export interface ConnectHttpRequest {
  readonly url: string;
  /** Unset: named from the server's `serverInfo.name`. */
  readonly name?: string;
  /** Sent on every request to the server; kept in the bridge, never shown, logged or saved. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly transport?: 'auto' | 'streamable' | 'sse';
}

/** A workspace opened by its path (`POST /bridge/workspaces`). */
export interface OpenedWorkspace {
  readonly id: string;
  /** The project folder, the one that holds `.jp` (JP's workspace root): the servers run in it (PlanView.cwd). */
  readonly root: string;
  /** The `.jp` folder the files are read from. */
  readonly jpDir: string;
}

/** Where in a plan a hidden character stands, and which ones (each shown escaped, `\u202E`). */
export interface HiddenInPlan {
  readonly server: string;
  /** "name", "command", "argument 2", "folder", "variable 1" */
  readonly where: string;
  readonly chars: readonly HiddenChar[];
}

/** One server "Start servers" would run, exactly as it would run. */
export interface PlannedServer {
  readonly name: string;
  readonly commandLine: string;
  /** The command and its arguments as words, exactly as they will be passed (no shell runs them). */
  readonly command: string;
  readonly arguments: readonly string[];
  readonly cwd: string;
  /** Names only: the values stay in the bridge's environment. */
  readonly variables: readonly string[];
  readonly optional: boolean;
  /**
   * JP starts it: an enabled (or discoverable) tool uses it. False for a server no tool names yet,
   * started only to list its tools: its failure would abort nothing in JP.
   */
  readonly jpStarts: boolean;
  readonly startupTimeoutSecs: number;
  readonly checksum?: { readonly algorithm: string; readonly value: string };
}

/** `POST /bridge/workspaces/ID/plan`: what the user is asked to confirm. */
export interface PlanView {
  readonly id: string;
  readonly workspace: string;
  readonly persona?: string;
  /** The servers to start: those of its enabled (and discoverable) tools, and those no tool names yet (to list their tools). */
  readonly servers: readonly PlannedServer[];
  /** Declared servers left alone, as JP leaves them, each with why (none of the tools that use it is enabled). */
  readonly notStarted: readonly { readonly server: string; readonly reason: string }[];
  /** Where the servers run: the workspace's root, the folder that holds `.jp` (RFD 087's root-as-working-directory), as JP runs them. */
  readonly cwd: string;
  readonly problems: readonly McpLaunchProblem[];
  /** Hidden characters anywhere in the plan: it starts only with `hiddenConfirmed` (a second confirmation). */
  readonly hidden: readonly HiddenInPlan[];
  /** Milliseconds since the epoch: the plan can be confirmed once, until then. */
  readonly expiresAt: number;
}

/** `POST /bridge/workspaces/ID/start`: the plan the user confirmed. */
export interface StartPlanRequest {
  readonly plan: string;
  /** The user confirmed a second time, having seen the plan's hidden characters escaped. */
  readonly hiddenConfirmed?: boolean;
}

/**
 * `POST /bridge/servers/NAME/forwarding`: forward the server's sampling, elicitation and roots requests
 * to the page (declaring those capabilities), or declare what JP's client does (none). Either
 * reconnects the server (a stdio one restarts); the reply is its view (`forwardsToPage`).
 */
export interface ForwardingRequest {
  readonly forward: boolean;
}

/** The reply bodies, by route. */
export interface Replies {
  readonly session: { readonly token: string };
  readonly servers: { readonly servers: readonly ServerView[] };
  /**
   * `POST /bridge/workspaces/ID/start`: the plan's servers, and those of them that already ran for the
   * workspace with the same command (not started again: a second Start starts nothing, issue 34.5).
   */
  readonly started: { readonly servers: readonly ServerView[]; readonly alreadyRunning: readonly string[] };
  /**
   * `GET /bridge/workspaces`: the workspaces the bridge opened by path, so that a page reloaded (or
   * showing another document) re-attaches to the servers the bridge runs for its folder (issue 34.5).
   */
  readonly workspaces: { readonly workspaces: readonly OpenedWorkspace[] };
  readonly server: { readonly server: ServerView };
  readonly log: { readonly entries: readonly LogEntry[] };
  readonly workspace: { readonly workspace: OpenedWorkspace; readonly files: Readonly<Record<string, string>> };
  readonly plan: { readonly plan: PlanView };
  /** Any refusal or failure (4xx, 5xx). */
  readonly error: { readonly error: string };
  /** `GET /bridge/models`, `POST /bridge/models/key`: each provider's key source and base URL (never a key). */
  readonly models: { readonly providers: readonly ModelProviderView[] };
  /** `POST /bridge/models/ask`: the model's reply, or why there is none. */
  readonly modelAnswer: ModelAnswerView;
}

// ── Issue 26: the user's real model, reached through the bridge (src/bridge/models.ts) ──

/** Where a provider's key comes from: this process's environment, typed in the page (memory only), none. */
export type ModelKeySource = 'environment' | 'page' | 'none' | 'not needed';

export interface ModelProviderView {
  readonly provider: ProviderId;
  readonly words: string;
  readonly keyVariable?: string;
  readonly keySource: ModelKeySource;
  readonly baseVariable: string;
  readonly base: string;
}

/** `POST /bridge/models/key`: a key for this bridge's memory only ('' forgets it). */
export interface ModelKeyRequest {
  readonly provider: ProviderId;
  readonly key: string;
}

/** `POST /bridge/models/ask`: JP's rendered body for one request, exactly as the page rendered it. */
export interface ModelAskRequest {
  readonly provider: ProviderId;
  readonly model: string;
  readonly body: unknown;
  /** Where the request belongs, for the recording: a task (0-based) and its turn's cycle (1-based). */
  readonly task?: number;
  readonly cycle?: number;
}

export interface ModelAnswerView {
  /** The provider's HTTP status (0: no reply came). */
  readonly status: number;
  readonly reply?: ModelReply;
  readonly error?: string;
  /** The recorded request's hash. */
  readonly hash: string;
  readonly attempts: number;
}
