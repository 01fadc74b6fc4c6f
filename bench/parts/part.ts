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

/**
 * One numbered part of issue #7: measures and returns its rows. A figure it cannot measure is a failure: it throws
 * (the part's rows become one FAILED row with the reason) or returns a `failedRow` for that figure alone.
 */
export interface BenchPart {
  readonly id: string;
  readonly title: string;
  run(context: BenchContext): Promise<ResultRow[]>;
}
