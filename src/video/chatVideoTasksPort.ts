import type * as vscode from 'vscode';

/** A video task as `/video` reports it. */
export interface ParticipantVideoTask {
  readonly id: string;
  readonly model: string;
  /** The service's own status string, shown as is. */
  readonly status: string;
  readonly state: 'running' | 'completed' | 'failed';
  /** 0–100 when the service reports it. */
  readonly progress?: number;
  readonly failure?: string;
}

/** What a task with the configured defaults would cost, shown before it is created (the charge gate's quote). */
export interface ParticipantVideoQuote {
  /** The quote's id: the follow-up that confirms it names it, and it is accepted once. */
  id: string;
  model: string;
  /** `5 s · 720p · adaptive`. */
  settings: string;
  /** `$0.40`, when the model's price is known. */
  price?: string;
  /** `$0.40 · $2.80 left after`, or that the price is not known. */
  cost: string;
  /** Why the key may not cover it, and what the open folder's settings chose; the user may still go on. */
  warning?: string;
}

/**
 * What `/video` needs from the Video feature: create a task with the configured defaults (it then shows in the
 * Video Tasks tree and the poller follows it), read it, hear about changes, and the commands behind its buttons.
 */
export interface ParticipantVideoTasks {
  /**
   * Sends the request of a quote the user confirmed; `not-confirmed` when that quote was used already (a replayed
   * turn) or is not known any more. Not cancellable, since a request that reached the service may be charged.
   */
  create(quoteId: string): Promise<ParticipantVideoTask | 'not-confirmed'>;
  /** The quote of a task for `prompt` with the configured defaults, or undefined when no video model is set. */
  quote(prompt: string): Promise<ParticipantVideoQuote | undefined>;
  get(id: string): ParticipantVideoTask | undefined;
  readonly onDidChange: vscode.Event<void>;
  downloadCommand(id: string): vscode.Command;
  openCommand(id: string): vscode.Command;
}
