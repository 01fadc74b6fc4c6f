import * as vscode from 'vscode';
import { t } from '../api/l10n';
import type { ComponentLogger } from '../common/logger';
import type { TextChange } from './core/insertionTracker';
import { TrackedRangeSink } from './trackedRangeSink';

/** Edits refused because the document changed under them are retried with the new position this many times. */
const MAX_ATTEMPTS = 8;

/**
 * Writes streamed text into a document at a tracked place: it replaces `range` (the selection, or nothing at a
 * cursor) with the first batch and appends the later ones, wherever the user's edits elsewhere moved that place.
 * All edits form ONE undo step: the first edit sets an undo stop before it, later ones set none, and `finish`
 * closes the step (with the last text, or with an empty edit when there is none). Edits go through
 * `TextEditor.edit`, whose version check refuses an edit computed against a document the user changed meanwhile; it
 * is then recomputed from the tracked range. Should the user edit the text being written, or close the document,
 * the insertion stops and keeps what it wrote.
 */
export class DocumentInsertion extends TrackedRangeSink {
  private readonly replacing: boolean;
  private written = '';
  private editCount = 0;

  constructor(
    private editor: vscode.TextEditor,
    range: vscode.Range,
    private readonly highlight: vscode.TextEditorDecorationType,
    private readonly log: ComponentLogger,
  ) {
    super(editor.document, range);
    this.replacing = !range.isEmpty;
  }

  get text(): string {
    return this.written;
  }

  get edits(): number {
    return this.editCount;
  }

  async append(text: string): Promise<void> {
    await this.write(text, false);
  }

  async finish(rest: string): Promise<void> {
    this.clearHighlight();
    // The last text closes the undo step itself: one round trip to the editor instead of two.
    let closed = false;
    let failure: { error: unknown } | undefined;
    try {
      closed = await this.write(rest, true);
    } catch (error) {
      failure = { error };
    }
    if (!closed && this.editCount > 0 && this.stopReason !== 'closed') await this.closeUndoStep();
    if (failure) throw failure.error;
  }

  /** An empty insert whose only effect is the undo stop after it: it closes the one undo step of the stream. */
  private async closeUndoStep(): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const editor = this.liveEditor();
      if (!editor) return;
      const end = this.document.positionAt(this.tracker.range.end);
      try {
        if (await editor.edit((builder) => builder.insert(end, ''), { undoStopBefore: false, undoStopAfter: true })) return;
      } catch (error) {
        this.log.debug(`Could not close the undo step: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
    }
  }

  /** Writes one batch at the tracked place; `last` closes the undo step with it. True when it was written. */
  private async write(text: string, last: boolean): Promise<boolean> {
    if (!text) return false;
    const normalized = text.replace(/\r\n|\r|\n/g, this.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (this.stopReason) return false;
      const first = this.editCount === 0;
      const { start, end } = this.tracker.range;
      const change: TextChange =
        first && this.replacing ? { offset: start, length: end - start, text: normalized } : { offset: end, length: 0, text: normalized };
      const target = new vscode.Range(this.document.positionAt(change.offset), this.document.positionAt(change.offset + change.length));
      this.tracker.expect(change);
      const applied = await this.applyEdit(target, normalized, { undoStopBefore: first, undoStopAfter: last });
      const seen = this.tracker.takeSeen();
      if (applied && seen) {
        this.editCount++;
        this.written += normalized;
        if (!last) this.showProgress();
        return true;
      }
      if (applied) {
        // Applied, but not in the shape announced: the tracked range can no longer be trusted.
        this.log.warn('An edit was applied in an unexpected form; stopping the insertion.');
        this.stop('edited');
        return false;
      }
      this.log.debug(`The document changed under the edit (attempt ${attempt + 1}); retrying at the tracked position.`);
    }
    throw new Error(t('The document kept changing: the text could not be inserted.'));
  }

  override dispose(): void {
    this.clearHighlight();
    super.dispose();
  }

  protected override stopping(): void {
    this.clearHighlight();
  }

  private async applyEdit(range: vscode.Range, text: string, undo: { undoStopBefore: boolean; undoStopAfter: boolean }): Promise<boolean> {
    const editor = this.liveEditor();
    if (editor) {
      try {
        return await editor.edit((builder) => builder.replace(range, text), undo);
      } catch (error) {
        // Closed between the check and the edit: fall through to a workspace edit.
        this.log.debug(`The editor went away: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // No editor shows the document any more: a workspace edit still reaches it (its undo steps are its own).
    const edit = new vscode.WorkspaceEdit();
    edit.replace(this.document.uri, range, text);
    return vscode.workspace.applyEdit(edit);
  }

  /** The editor given, or another one showing the same document if that one was closed. */
  private liveEditor(): vscode.TextEditor | undefined {
    const visible = vscode.window.visibleTextEditors;
    if (visible.includes(this.editor)) return this.editor;
    const other = visible.find((editor) => editor.document === this.document);
    if (other) this.editor = other;
    return other;
  }

  private showProgress(): void {
    this.liveEditor()?.setDecorations(this.highlight, [this.range]);
  }

  private clearHighlight(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document === this.document) editor.setDecorations(this.highlight, []);
    }
  }
}
