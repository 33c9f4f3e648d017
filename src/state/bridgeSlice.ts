// The local bridge's part of the page's state: which scenario servers are reached
// through it (server name → its endpoint on this origin) and the workspace it opened
// by path. Session state only: none of it is saved in the document, so a scenario,
// a share link or a dropped file never points the page at a bridge by itself.
import type { StoreApi } from 'zustand/vanilla';
import type { HiddenInPlan, OpenedWorkspace, PlannedServer } from '../bridge-protocol';
import type { ScenarioDoc, ServerDoc } from '../core';
import { edited } from './lineage';

/** The workspace the bridge opened by path (its id in the bridge, its folders). */
export type BridgedWorkspace = OpenedWorkspace;

export interface BridgeSlice {
  /** Scenario server name → the bridge endpoint its live session uses. */
  bridgeLinks: ReadonlyMap<string, string>;
  bridgeWorkspace: BridgedWorkspace | undefined;
  /** The plan the "Start servers" dialog asks about (the bridge computed it from the files on disk). */
  bridgeConfirm: BridgeConfirm | undefined;
  linkBridge(server: string, endpoint: string | undefined): void;
  setBridgeWorkspace(w: BridgedWorkspace | undefined): void;
  setBridgeConfirm(c: BridgeConfirm | undefined): void;
  /** Adds a server to the document when it has none of that name (one revision); an existing one is kept. */
  ensureServer(server: ServerDoc): void;
}

export interface BridgeConfirm {
  readonly planId: string;
  readonly workspace: string;
  readonly jpDir: string;
  readonly persona?: string;
  readonly servers: readonly PlannedServer[];
  readonly problems: readonly string[];
  /** Declared servers JP would not start (none of the tools using them is enabled), with why. */
  readonly notStarted: readonly { readonly server: string; readonly reason: string }[];
  /** Hidden characters in the plan: shown escaped, and confirmed a second time before it starts. */
  readonly hidden: readonly HiddenInPlan[];
  /** Planned servers the bridge already runs with that command: left as they are (issue 34.5). */
  readonly running?: readonly string[];
}

interface DocState {
  doc: ScenarioDoc;
  revision: number;
}

export function bridgeSlice<S extends BridgeSlice & DocState>(set: StoreApi<S>['setState'], get: StoreApi<S>['getState']): BridgeSlice {
  const put = (partial: Partial<BridgeSlice & DocState>) => set(partial as Partial<S>);
  return {
    bridgeLinks: new Map(),
    bridgeWorkspace: undefined,
    linkBridge: (server, endpoint) => {
      const m = new Map(get().bridgeLinks);
      if (endpoint === undefined) m.delete(server);
      else m.set(server, endpoint);
      put({ bridgeLinks: m });
    },
    setBridgeWorkspace: (bridgeWorkspace) => put({ bridgeWorkspace }),
    bridgeConfirm: undefined,
    setBridgeConfirm: (bridgeConfirm) => put({ bridgeConfirm }),
    ensureServer: (server) => {
      const s = get();
      if (s.doc.servers.some((x) => x.name === server.name)) return;
      put({ doc: edited(s.doc, { ...s.doc, servers: [...s.doc.servers, server] }), revision: s.revision + 1 });
    },
  };
}
