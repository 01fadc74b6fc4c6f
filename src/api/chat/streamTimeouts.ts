export interface StreamTimeouts {
  firstTokenMs: number;
  idleMs: number;
  /** To open a connection, when the model wants its own (else the dispatcher's 15 s). */
  connectMs?: number;
}

/** Reasoning models may think for minutes before the first token; a healthy stream is never silent for two. */
export const DEFAULT_STREAM_TIMEOUTS: StreamTimeouts = { firstTokenMs: 300_000, idleMs: 120_000 };
