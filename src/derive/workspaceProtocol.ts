// The views behind opening a JP workspace (issue 7). `derive` takes the workspace's files beside
// the document; `discoverable`'s row in methods.ts routes it to workspaceHost.ts.
import type { Diagnostic } from '../core';

/** A JP workspace folder's files, handed to the derive host with the document. */
export interface WorkspaceInput {
  /** Bumped on every change of the files; the host reuses its load while it stays the same. */
  readonly version: number;
  /** Every `*.toml` under the `.jp` folder: path relative to it → text, the user's edits applied. */
  readonly files: Readonly<Record<string, string>>;
}

export interface WorkspaceView {
  /** False when the scenario names a workspace but no folder was opened: it runs without it. */
  readonly loaded: boolean;
  /** The scenario's `[workspace] path`. */
  readonly path: string;
  readonly persona?: string;
  /** Persona names found in the config load paths, sorted. */
  readonly personas: readonly string[];
  readonly personaFile?: string;
  readonly loadPaths: readonly string[];
  /** The files that became layers, lowest precedence first. */
  readonly layers: readonly string[];
  /** The files the persona brought (its own and what it extends), a suffix of `layers`. */
  readonly personaLayers: readonly string[];
  readonly fileCount: number;
  /** Loading problems (cycles, missing files, unknown persona) then each file's own, each naming its file. */
  readonly diagnostics: readonly Diagnostic[];
  /** At the base position (before any step): tools at `on` (builtins included) and the sets' sizes. */
  /** `on` counts the builtins too, `builtins` names them (describe_tools, and search_tools once registered). */
  readonly counts: { readonly configured: number; readonly on: number; readonly discoverable: number; readonly permitted: number; readonly offered: number; readonly builtins: readonly string[] };
}

export interface CostFigures {
  /** Tools offered. */
  readonly tools: number;
  /** JP's definition cost of the offered set, UTF-8 bytes. */
  readonly bytes: number;
  /** The same definitions in tokens (`DiscoverableView.tokenCounter`). */
  readonly tokens: number;
}

export interface RankedToolView {
  readonly name: string;
  readonly rank: number;
  readonly calls: number;
  readonly mentions: number;
  readonly files: number;
  readonly permitted: boolean;
  readonly cost: number;
  readonly kept: boolean;
}

export interface DiscoverableView {
  readonly revision: number;
  readonly persona?: string;
  readonly keep: number;
  readonly layerName: string;
  readonly layerText: string;
  /** The document's generated layer already says exactly this. */
  readonly applied: boolean;
  /** The persona's tools at `on`, most used first. */
  readonly ranked: readonly RankedToolView[];
  readonly kept: number;
  readonly discoverable: number;
  /** What the token figures are: "estimate: o200k_base over the anthropic tools JSON". */
  readonly tokenCounter: string;
  /** Every request of the scenario's turns: without the generated layer (before) and with it (after). */
  readonly requests: readonly { readonly id: number; readonly step: number; readonly cycle: number; readonly before: CostFigures; readonly after: CostFigures }[];
  /** Set when the two runs made different requests (only the common ones are paired). */
  readonly note?: string;
  /** Set when the scenario does not parse or names no loaded workspace. */
  readonly error?: string;
}
