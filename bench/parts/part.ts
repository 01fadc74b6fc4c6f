import type { ResultRow } from '../report/row';
import type { StagedPackage } from '../size/stagePackage';
import type { ServiceProcess } from '../support/serviceProcess';

export interface BenchContext {
  /** Fewer repetitions, for trying the bench out; the figures are then less trustworthy. */
  readonly quick: boolean;
  /** Started lazily by the first part that needs it; one per run. */
  service(): Promise<ServiceProcess>;
  /** `npm run package` in a staged copy, made once per run (the shipped files, and the extension the host parts load). */
  stagedPackage(): Promise<StagedPackage>;
  log(line: string): void;
  /** Raw measurements and explanations that go into the JSON next to the rows. */
  readonly details: Record<string, unknown>;
}

/** One numbered part of issue #7: measures and returns its rows (never throws for a measurement it cannot make). */
export interface BenchPart {
  readonly id: string;
  readonly title: string;
  run(context: BenchContext): Promise<ResultRow[]>;
}

/** A row saying why a figure has no value yet. */
export function notMeasurable(part: string, figure: string, goal: string, reason: string): ResultRow {
  return { part, figure, unit: '—', goal, note: `not yet measurable: ${reason}` };
}
