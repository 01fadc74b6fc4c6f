import { CommandIds } from '../common/contributions';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CommandHandler } from '../workbench/registerCommands';
import { Emitter } from '../common/emitter';
import * as z from 'zod/mini';
import { t } from '../api/l10n';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { showMessage, type ShownMessage } from '../workbench/showMessage';
import { REWRITE_SCHEME, RewriteProposal } from './rewriteProposal';

export const REWRITE_PENDING_CONTEXT = 'promptreel.rewritePending';

/** What Accept / Reject did; the commands return it. */
export interface RewriteDecision {
  id?: string;
  decision: 'accepted' | 'rejected' | 'none';
  /** Why nothing was done, for `decision: 'none'`. */
  reason?: 'no-proposal' | 'still-streaming' | 'selection-edited' | 'document-closed' | 'edit-failed';
}

const idArgument = z.union([
  z.string().check(z.minLength(1)),
  z.pipe(
    z.object({ id: z.string().check(z.minLength(1)) }),
    z.transform((value) => value.id),
  ),
]);

/**
 * The rewrites waiting in a diff: serves their virtual documents, opens the diff, and runs Accept / Reject (from the
 * diff's title bar, the notification, or the palette). Closing the diff rejects the proposal.
 */
export class RewriteProposals extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changedEmitter = this._register(new Emitter<vscode.Uri>());
  readonly onDidChange = this.changedEmitter.event;
  private readonly proposals = new Map<string, RewriteProposal>();
  private nextId = 1;
  /** Accept and Reject, registered with the editor commands (whose code this loads with). */
  readonly handlers: Readonly<Record<string, CommandHandler>> = {
    [CommandIds.editor.acceptRewrite]: (arg?: unknown) => this.accept(arg),
    [CommandIds.editor.rejectRewrite]: (arg?: unknown) => this.reject(arg),
  };

  constructor(private readonly log: ComponentLogger) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(REWRITE_SCHEME, this));
    this._register(
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        for (const tab of event.closed) {
          const proposal = this.fromTab(tab);
          if (proposal) this.drop(proposal, 'the diff was closed');
        }
      }),
    );
    this._register({ dispose: () => [...this.proposals.values()].forEach((proposal) => proposal.dispose()) });
  }

  get pending(): readonly RewriteProposal[] {
    return [...this.proposals.values()];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.proposals.get(idOf(uri) ?? '')?.content() ?? '';
  }

  create(document: vscode.TextDocument, range: vscode.Range): RewriteProposal {
    const id = String(this.nextId++);
    const name = path.basename(document.uri.path) || 'untitled';
    const uri = vscode.Uri.from({ scheme: REWRITE_SCHEME, path: `/${id}/${name}` });
    const proposal = new RewriteProposal(id, document, range, uri, (changed) => this.changedEmitter.fire(changed));
    this.proposals.set(id, proposal);
    this.updateContext();
    return proposal;
  }

  /** Opens the diff: the document on the left, the proposal on the right. */
  async show(proposal: RewriteProposal, instruction: string): Promise<void> {
    const right = await vscode.workspace.openTextDocument(proposal.uri);
    if (right.languageId !== proposal.document.languageId) {
      await vscode.languages.setTextDocumentLanguage(right, proposal.document.languageId).then(undefined, () => undefined);
    }
    const title = t('{0} ↔ Rewrite: {1}', path.basename(proposal.document.uri.path) || t('Untitled'), ellipsis(instruction, 40));
    await vscode.commands.executeCommand('vscode.diff', proposal.document.uri, proposal.uri, title, { preview: false });
  }

  /** The notification that asks for a decision once the proposal is complete (not awaited); returns what it shows. */
  offerDecision(proposal: RewriteProposal, message: string, severity: 'info' | 'error' = 'info'): ShownMessage {
    return showMessage(severity, message, [
      { title: t('Accept'), command: CommandIds.editor.acceptRewrite, args: [proposal.id] },
      { title: t('Reject'), command: CommandIds.editor.rejectRewrite, args: [proposal.id] },
    ]);
  }

  async accept(arg?: unknown): Promise<RewriteDecision> {
    const proposal = this.find(arg);
    if (!proposal) return { decision: 'none', reason: 'no-proposal' };
    if (proposal.state === 'streaming') {
      showMessage('info', t('The rewrite is still arriving: accept it when it is complete, or stop it first.'), [
        { title: t('Stop'), command: CommandIds.editor.cancelEditorStream },
      ]);
      return { id: proposal.id, decision: 'none', reason: 'still-streaming' };
    }
    if (proposal.stopReason) {
      const reason = proposal.stopReason === 'edited' ? 'selection-edited' : 'document-closed';
      const edited = reason === 'selection-edited';
      showMessage(
        'warning',
        edited
          ? t('The rewrite cannot be applied: the selected text was edited meanwhile. Run Rewrite Selection again.')
          : t('The rewrite cannot be applied: the document was closed. Run Rewrite Selection again.'),
      );
      this.drop(proposal, edited ? 'the selected text was edited meanwhile' : 'the document was closed');
      return { id: proposal.id, decision: 'none', reason };
    }
    const range = await proposal.apply();
    if (!range) {
      showMessage('error', t('The rewrite could not be applied to the document.'), [{ title: t('Show Logs'), command: 'promptreel.showLogs' }]);
      return { id: proposal.id, decision: 'none', reason: 'edit-failed' };
    }
    this.log.info(`Accepted rewrite ${proposal.id} (${proposal.text.length} characters).`);
    await this.close(proposal);
    await vscode.window.showTextDocument(proposal.document, { selection: range, preview: false });
    return { id: proposal.id, decision: 'accepted' };
  }

  async reject(arg?: unknown): Promise<RewriteDecision> {
    const proposal = this.find(arg);
    if (!proposal) return { decision: 'none', reason: 'no-proposal' };
    this.log.info(`Rejected rewrite ${proposal.id}.`);
    proposal.discard();
    await this.close(proposal);
    return { id: proposal.id, decision: 'rejected' };
  }

  /** Closes the diff of a proposal and forgets it. */
  private async close(proposal: RewriteProposal): Promise<void> {
    this.forget(proposal);
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => proposalUriOf(tab)?.toString() === proposal.uri.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  private drop(proposal: RewriteProposal, why: string): void {
    if (!this.proposals.has(proposal.id)) return;
    this.log.info(`Dropped rewrite ${proposal.id}: ${why}.`);
    proposal.discard();
    this.forget(proposal);
  }

  private forget(proposal: RewriteProposal): void {
    this.proposals.delete(proposal.id);
    proposal.dispose();
    this.updateContext();
  }

  /** By id (notification buttons), by the proposal's URI (diff title bar), or the one in the active diff, or the newest. */
  private find(arg: unknown): RewriteProposal | undefined {
    if (arg instanceof vscode.Uri) return this.proposals.get(idOf(arg) ?? '');
    const id = idArgument.safeParse(arg);
    if (id.success) return this.proposals.get(id.data);
    const active = vscode.window.tabGroups.activeTabGroup.activeTab;
    return (active && this.fromTab(active)) || this.pending.at(-1);
  }

  private fromTab(tab: vscode.Tab): RewriteProposal | undefined {
    const uri = proposalUriOf(tab);
    return uri && this.proposals.get(idOf(uri) ?? '');
  }

  private updateContext(): void {
    void vscode.commands.executeCommand('setContext', REWRITE_PENDING_CONTEXT, this.proposals.size > 0);
  }
}

/** The proposal shown on the right of a diff tab, if the tab is one of ours. */
function proposalUriOf(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  return input instanceof vscode.TabInputTextDiff && input.modified.scheme === REWRITE_SCHEME ? input.modified : undefined;
}

function idOf(uri: vscode.Uri): string | undefined {
  return /^\/([^/]+)\//.exec(uri.path)?.[1];
}

function ellipsis(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
