import type { ResultRow } from './row';

/** A row for a figure the bench could not measure: its part failed, for `reason`. */
export function failedRow(part: string, figure: string, goal: string, reason: string): ResultRow {
  return { part, figure, unit: '—', goal, failed: reason };
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The rows that could not be measured. A figure that misses its goal was measured: it is not among them. */
export function failedRows(rows: readonly ResultRow[]): ResultRow[] {
  return rows.filter((row) => row.failed !== undefined);
}

/** 1 when any figure could not be measured; a goal not met does not fail the run. */
export function exitCode(rows: readonly ResultRow[]): 0 | 1 {
  return failedRows(rows).length > 0 ? 1 : 0;
}

/** The lines printed under the table when something failed, one per row that could not be measured. */
export function failureSummary(rows: readonly ResultRow[]): string[] {
  const failed = failedRows(rows);
  if (failed.length === 0) return [];
  return [
    `[bench] FAILED: ${failed.length} figure(s) could not be measured:`,
    ...failed.map((row) => `[bench]   ${row.part}: ${row.figure}: ${row.failed ?? ''}`),
  ];
}
