// Every action is a command: the toolbar, the keyboard shortcuts, the palette
// (Ctrl/⌘+K) and the tests all run the same records (Excalidraw's pattern).
import type { WorkbenchStore } from '../state/store';

export interface CommandContext {
  readonly store: WorkbenchStore;
}

export interface Command {
  readonly id: string;
  readonly title: string;
  /** e.g. "Mod+K", "Alt+ArrowDown". `Mod` is ⌘ on macOS, Ctrl elsewhere. */
  readonly shortcut?: string;
  readonly group?: string;
  run(ctx: CommandContext): void | Promise<void>;
}

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();
  register(...commands: Command[]): this {
    for (const c of commands) this.commands.set(c.id, c);
    return this;
  }
  get(id: string): Command | undefined {
    return this.commands.get(id);
  }
  list(): Command[] {
    return [...this.commands.values()];
  }
  run(id: string, ctx: CommandContext): void | Promise<void> {
    const c = this.commands.get(id);
    if (!c) throw new Error(`no command ${id}`);
    return c.run(ctx);
  }
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/u.test(navigator.platform);

/** Whether a keyboard event matches a shortcut like "Mod+Shift+S". */
export function matchesShortcut(e: KeyboardEvent, shortcut: string): boolean {
  const parts = shortcut.split('+');
  const key = parts[parts.length - 1] ?? '';
  const mods = new Set(parts.slice(0, -1));
  const mod = isMac ? e.metaKey : e.ctrlKey;
  if (mods.has('Mod') !== mod) return false;
  if (mods.has('Shift') !== e.shiftKey) return false;
  if (mods.has('Alt') !== e.altKey) return false;
  return e.key.toLowerCase() === key.toLowerCase();
}

export function shortcutLabel(shortcut: string): string {
  return shortcut.replace('Mod', isMac ? '⌘' : 'Ctrl').replace('Shift', isMac ? '⇧' : 'Shift').replace('Alt', isMac ? '⌥' : 'Alt');
}
