import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { Disposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import { WorkspaceBoundary } from '../../workspace/workspaceBoundary';
import type { Mention } from '../core/model';
import type { MentionTarget } from './core/mentionTarget';
import { activeFileUri, fileMention, folderMention, sourceLabel } from './fileMentions';
import { gitChangesMention, otherBranches, workspaceRepository } from './gitChanges';
import { MentionError } from './mentionError';
import { mentionSource } from './mentionPlace';
import { suggestMentions } from './mentionSuggestions';
import { problemsMention } from './problemsMention';
import { terminalOutputMention, terminalSelectionMention } from './terminalMentions';
import { TerminalOutputRecorder } from './terminalOutput';
import { WorkspaceFileIndex } from './workspaceFileIndex';

/** How long the list of branches is reused while the user types (a workspace without Git is asked again sooner). */
const BRANCHES_TTL_MS = 10_000;
const NO_REPOSITORY_TTL_MS = 2_000;

/**
 * What a chat message can mention in this workspace: the popup's suggestions, the text each mention brings, and
 * opening a mention's source. One per window, shared by every chat page.
 */
export class WorkspaceMentions extends Disposable {
  /** What is inside the workspace and what is hidden: the one decision the mentions and the chat's tools share. */
  readonly boundary: WorkspaceBoundary;
  readonly files: WorkspaceFileIndex;
  readonly terminal: TerminalOutputRecorder;
  private branchCache: { until: number; branches: Promise<readonly string[] | undefined> } | undefined;

  constructor(private readonly log: ComponentLogger) {
    super();
    this.boundary = this._register(new WorkspaceBoundary(log));
    this.files = this._register(new WorkspaceFileIndex(this.boundary, log));
    this.terminal = this._register(new TerminalOutputRecorder());
  }

  suggest(query: string): ReturnType<typeof suggestMentions> {
    return suggestMentions(query, { boundary: this.boundary, files: this.files, terminal: this.terminal, branches: () => this.branches() });
  }

  /** The mention a popup entry (or a dropped file) stands for, with its text read now. Throws a MentionError. */
  async resolve(target: MentionTarget): Promise<Mention> {
    switch (target.kind) {
      case 'file':
      case 'openEditor':
        return fileMention(await this.source(target.uri), target.kind);
      case 'folder': {
        const folder = await this.source(target.uri);
        if (!('isFolder' in folder) || !folder.isFolder) throw new MentionError(t('{0} is not a folder.', sourceLabel(folder)));
        return folderMention(
          folder,
          (await this.files.visibleFiles(folder.root, folder.relative)).map((file) => file.path),
        );
      }
      case 'currentFile': {
        const uri = activeFileUri();
        if (!uri) throw new MentionError(t('No file is open in an editor.'));
        return fileMention(await mentionSource(this.boundary, uri), 'currentFile');
      }
      case 'symbol':
        return fileMention(await this.source(target.uri), 'symbol', { startLine: target.startLine, endLine: target.endLine, symbol: target.name });
      case 'problems':
        return problemsMention(target.scope, this.boundary);
      case 'gitChanges':
        return gitChangesMention(target.scope, target.ref);
      case 'terminalSelection':
        return terminalSelectionMention();
      case 'terminalOutput':
        return terminalOutputMention(this.terminal);
    }
  }

  /** A file or folder dropped on the composer, as a mention. */
  async resolveUri(uri: vscode.Uri): Promise<Mention> {
    const source = await mentionSource(this.boundary, uri);
    const isFolder = 'isFolder' in source && source.isFolder;
    return this.resolve({ kind: isFolder ? 'folder' : 'file', uri: uri.toString() });
  }

  private source(uri: string): ReturnType<typeof mentionSource> {
    return mentionSource(this.boundary, vscode.Uri.parse(uri, true));
  }

  /** Shows where a mention came from: the file (at its lines), or the view that holds it. */
  async open(mention: Mention): Promise<void> {
    if (mention.uri) {
      const uri = vscode.Uri.parse(mention.uri, true);
      if (mention.kind === 'folder') {
        await vscode.commands.executeCommand('revealInExplorer', uri);
        return;
      }
      const selection = mention.startLine ? new vscode.Range(mention.startLine - 1, 0, (mention.endLine ?? mention.startLine) - 1, 0) : undefined;
      await vscode.window.showTextDocument(uri, { preview: true, ...(selection ? { selection } : {}) });
      return;
    }
    const command = {
      problems: 'workbench.actions.view.problems',
      gitChanges: 'workbench.view.scm',
      terminalSelection: 'terminal.focus',
      terminalOutput: 'terminal.focus',
    }[mention.kind as 'problems' | 'gitChanges' | 'terminalSelection' | 'terminalOutput'];
    if (command) await vscode.commands.executeCommand(command);
  }

  private branches(): Promise<readonly string[] | undefined> {
    const now = Date.now();
    if (!this.branchCache || now > this.branchCache.until) {
      const cache = { until: now + BRANCHES_TTL_MS, branches: Promise.resolve<readonly string[] | undefined>(undefined) };
      cache.branches = workspaceRepository()
        .then((repository) => {
          if (!repository) cache.until = now + NO_REPOSITORY_TTL_MS;
          return repository ? otherBranches(repository) : undefined;
        })
        .catch((error: unknown) => {
          this.log.debug(`Could not list the Git branches: ${String(error)}`);
          return undefined;
        });
      this.branchCache = cache;
    }
    return this.branchCache.branches;
  }
}
