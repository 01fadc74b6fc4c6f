// Pinned by `npm run bench -- --only editor`: time over the stream alone, and one undo step.
import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import { InsertionTracker } from './core/insertionTracker';
import type { SinkStopReason, StreamSink } from './streamSink';

/**
 * What the two sinks share: a range of a document that follows the user's edits elsewhere, and a stop when the user
 * edits that range itself ('edited') or closes the document ('closed'). Subclasses write the text.
 */
export abstract class TrackedRangeSink extends Disposable implements StreamSink {
  private readonly stopped = this._register(new Emitter<SinkStopReason>());
  readonly onDidStop = this.stopped.event;
  protected readonly tracker: InsertionTracker;
  private reason: SinkStopReason | undefined;

  abstract readonly text: string;
  abstract readonly edits: number;
  abstract append(text: string): Promise<void>;
  abstract finish(rest: string): Promise<void>;

  constructor(
    readonly document: vscode.TextDocument,
    range: vscode.Range,
  ) {
    super();
    this.tracker = new InsertionTracker({ start: document.offsetAt(range.start), end: document.offsetAt(range.end) });
    this._register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document !== this.document || event.contentChanges.length === 0 || !this.following) return;
        this.tracker.accept(event.contentChanges.map((change) => ({ offset: change.rangeOffset, length: change.rangeLength, text: change.text })));
        if (this.tracker.conflict) this.stop('edited');
        this.documentChanged();
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document === this.document) this.stop('closed');
      }),
    );
  }

  get stopReason(): SinkStopReason | undefined {
    return this.reason;
  }

  /** The tracked range's place in the document now. */
  get range(): vscode.Range {
    const { start, end } = this.tracker.range;
    return new vscode.Range(this.document.positionAt(start), this.document.positionAt(end));
  }

  /** Whether the user's edits are still followed (by default, until the sink stops). */
  protected get following(): boolean {
    return this.reason === undefined;
  }

  /** Called after each change of the document that was followed. */
  protected documentChanged(): void {}

  /** Called once, when the sink stops, before `onDidStop` fires. */
  protected stopping(): void {}

  protected stop(reason: SinkStopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.stopping();
    this.stopped.fire(reason);
  }
}
