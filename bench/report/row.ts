/** One line of the results table (and of the JSON). Numbers are in the unit named by `unit`. */
export interface ResultRow {
  part: string;
  figure: string;
  unit: string;
  /** Median of the repetitions; undefined when not measured. */
  ours?: number;
  /** The peer (SDK, curl) or the limit (raw read) it is compared with. */
  peer?: number;
  peerName?: string;
  /** ours / peer (`percent`, `times`) or ours − peer (`difference`, in `unit`). */
  ratio?: number;
  ratioKind?: 'percent' | 'times' | 'difference';
  goal: string;
  /** undefined: no goal for this figure, or not measured. */
  met?: boolean;
  /** Why the figure could not be measured (its part failed); the run then exits non-zero. */
  failed?: string;
  /** Spread of the repetitions and anything else the reader needs to trust the figure. */
  note?: string;
  samples?: { ours?: number[]; peer?: number[] };
}

export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  machine: { cpus: number; cpuModel: string; node: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  /** `git rev-parse --short HEAD`, with ` + uncommitted changes` when tracked files differ from it. */
  commit: string;
  command: string;
  rows: ResultRow[];
  details: Record<string, unknown>;
}
