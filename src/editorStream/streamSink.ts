import type * as vscode from 'vscode';

/** Why a sink refuses more text before the stream ended. */
export type SinkStopReason = 'edited' | 'closed';

/** Where streamed text goes: the document itself (inline) or a proposal shown in a diff. */
export interface StreamSink {
  /** Fires when the target can take no more text (the user edited the text being written, or closed it). */
  readonly onDidStop: vscode.Event<SinkStopReason>;
  readonly stopReason: SinkStopReason | undefined;
  /** The text written so far. */
  readonly text: string;
  /** How many times the target was changed. */
  readonly edits: number;
  /** Writes one batch; called at most once per frame and never concurrently. */
  append(text: string): Promise<void>;
  /**
   * Writes the last text (possibly empty; nothing once stopped) and ends the writing: for the document, in one edit
   * that also closes the undo step.
   */
  finish(rest: string): Promise<void>;
}
