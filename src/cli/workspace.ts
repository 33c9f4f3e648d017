// Reading a `[workspace]` folder from disk for the core's workspace loader.
import type { CheckHost } from '../core/scenario/report';

export function workspaceHost(_dir: string): Pick<CheckHost, 'loadWorkspace'> {
  return {};
}
