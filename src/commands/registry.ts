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

/** Commands that come and go with the state (one per recent document, say): listed when asked. */
export type CommandSource = (ctx: CommandContext) => readonly Command[];

export class CommandRegistry {
  private readonly commands = new Map<string, Command>();
  private readonly sources: CommandSource[] = [];
  register(...commands: Command[]): this {
    for (const c of commands) this.commands.set(c.id, c);
    return this;
  }
  registerSource(source: CommandSource): this {
    this.sources.push(source);
    return this;
  }
  get(id: string, ctx?: CommandContext): Command | undefined {
    return this.commands.get(id) ?? (ctx ? this.fromSources(ctx).find((c) => c.id === id) : undefined);
  }
  /** The registered commands, then (given the context) those the sources offer now. */
  list(ctx?: CommandContext): Command[] {
    return [...this.commands.values(), ...(ctx ? this.fromSources(ctx) : [])];
  }
  run(id: string, ctx: CommandContext): void | Promise<void> {
    const c = this.get(id, ctx);
    if (!c) throw new Error(`no command ${id}`);
    return c.run(ctx);
  }
  private fromSources(ctx: CommandContext): Command[] {
    return this.sources.flatMap((s) => s(ctx));
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
