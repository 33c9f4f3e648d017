// RFD 108's tables as the engine computes them: each row is a small scenario run through the core, and
// each cell sets the RFD's statement beside what the run produced. The browser's RFD view and the HTML
// report (`tool-workbench report`) show the same values.

/** One cell: the RFD's statement, the run's value, and whether they agree. */
export interface RfdCell {
  readonly stated: string;
  readonly computed: string;
  readonly agrees: boolean;
  /** A measured figure or an explanation shown beside the computed value. */
  readonly detail?: string;
}

/** The scenario behind a row, and the timeline row (an index into the run's entries) that shows it. */
export interface RfdScenario {
  readonly name: string;
  /** The whole scenario file, as `tool-workbench check` runs it. */
  readonly text: string;
  readonly entry: number;
}

export interface RfdRow {
  readonly id: string;
  /** The row's head, in the RFD's words. */
  readonly label: string;
  readonly cells: readonly RfdCell[];
  /** Words of the RFD shown beside the row as they are (its "Why" column); never computed. */
  readonly quote?: string;
  readonly scenario: RfdScenario;
  /** The scenario's own expectations (they state the RFD's value too): how many passed and failed. */
  readonly expectations: { readonly passed: number; readonly failed: number };
}

export interface RfdTable {
  readonly id: string;
  readonly title: string;
  /** Where the RFD states it ("Design › CLI directives"). */
  readonly source: string;
  readonly note?: string;
  /** Column heads, after the row head. */
  readonly columns: readonly string[];
  /** The head of the rows' `quote` column, when they have one. */
  readonly quoteColumn?: string;
  readonly rows: readonly RfdRow[];
}

/** Whether every cell of every row agrees with the RFD and every expectation passed. */
export function tableAgrees(table: RfdTable): boolean {
  return table.rows.every(rowAgrees);
}

export function rowAgrees(row: RfdRow): boolean {
  return row.cells.every((c) => c.agrees) && row.expectations.failed === 0;
}
