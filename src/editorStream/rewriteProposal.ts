import * as vscode from 'vscode';
import { TrackedRangeSink } from './trackedRangeSink';

export const REWRITE_SCHEME = 'promptreel-rewrite';

export type ProposalState = 'streaming' | 'ready' | 'accepted' | 'rejected';

/**
 * A rewrite shown as a diff before it touches the document: the right side of the diff is a virtual document, the
 * current text of the original with the selection (tracked through the user's edits) replaced by the proposal.
 * Streamed text only changes that virtual document; `accept` applies the replacement to the original in one edit.
 */
export class RewriteProposal extends TrackedRangeSink {
  private proposed = '';
  private updates = 0;
  state: ProposalState = 'streaming';

  constructor(
    readonly id: string,
    document: vscode.TextDocument,
    range: vscode.Range,
    readonly uri: vscode.Uri,
    private readonly changed: (uri: vscode.Uri) => void,
  ) {
    super(document, range);
  }

  protected override get following(): boolean {
    return !this.decided;
  }

  protected override documentChanged(): void {
    this.changed(this.uri);
  }

  get text(): string {
    return this.proposed;
  }

  get edits(): number {
    return this.updates;
  }

  /** The whole text of the right side of the diff. */
  content(): string {
    const text = this.document.getText();
    const { start, end } = this.tracker.range;
    return text.slice(0, start) + this.proposed + text.slice(end);
  }

  async append(text: string): Promise<void> {
    if (!text || this.stopReason) return;
    this.proposed += text.replace(/\r\n|\r|\n/g, this.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
    this.updates++;
    this.changed(this.uri);
  }

  async finish(rest: string): Promise<void> {
    await this.append(rest);
    if (this.state === 'streaming') this.state = 'ready';
  }

  /**
   * Replaces the original selection with the proposal in one edit (one undo step) and returns the range of the new
   * text, or undefined when the edit did not apply.
   */
  async apply(): Promise<vscode.Range | undefined> {
    const range = this.range;
    const start = this.tracker.range.start;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(this.document.uri, range, this.proposed);
    this.state = 'accepted';
    if (!(await vscode.workspace.applyEdit(edit))) {
      this.state = 'ready';
      return undefined;
    }
    return new vscode.Range(this.document.positionAt(start), this.document.positionAt(start + this.proposed.length));
  }

  /** The diff was closed or the proposal dropped: no more text is taken. */
  discard(): void {
    if (this.state === 'streaming' || this.state === 'ready') this.state = 'rejected';
    this.stop('closed');
  }

  private get decided(): boolean {
    return this.state === 'accepted' || this.state === 'rejected';
  }
}
