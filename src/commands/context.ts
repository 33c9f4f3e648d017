import { createContext, useContext } from 'react';
import type { CommandRegistry } from './registry';

export const CommandsContext = createContext<CommandRegistry | null>(null);

export function useCommands(): CommandRegistry {
  const c = useContext(CommandsContext);
  if (!c) throw new Error('no CommandRegistry in context');
  return c;
}
