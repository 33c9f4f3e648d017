// Every table of the RFD view, in the RFD's order. Pure: the browser's worker and `tool-workbench
// report` call this same function; the token counter is passed in (o200k_base where the shell has it
// loaded, else the bytes/4 estimate).
import { approximateTokenCounter } from '../providers/cost';
import type { TokenCounter } from '../providers/cost';
import { consumersTable } from './consumers';
import { directiveTables } from './directives';
import { foldTable } from './fold';
import { phasesTable } from './phases';
import { providerTable } from './providers';
import { rowAgrees } from './types';
import type { RfdTable } from './types';

export function rfdTables(tokens: TokenCounter = approximateTokenCounter): RfdTable[] {
  return [...directiveTables(), consumersTable(), foldTable(), providerTable(tokens), phasesTable()];
}

/** How many rows agree with the RFD, and how many do not. */
export function rfdCounts(tables: readonly RfdTable[]): { agree: number; disagree: number } {
  let agree = 0;
  let disagree = 0;
  for (const t of tables) {
    for (const r of t.rows) {
      if (rowAgrees(r)) agree++;
      else disagree++;
    }
  }
  return { agree, disagree };
}
