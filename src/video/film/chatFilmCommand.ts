import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { CommandIds, LANGUAGE_MODEL_VENDOR } from '../../common/contributions';
import { codeSpan, escapeMarkdown } from '../../common/markdownText';
import type { ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import type { Connection } from '../../connection/connection';
import { abortOn } from '../../workbench/abortOn';
import { editorSelection, referencedContext, type ContextItem } from '../../workbench/chatContext';
import { failureResult, readyForChat, type ChatCommandHandler, type ParticipantResult } from '../../workbench/chatParticipant';
import { recoveryCommand } from '../../workbench/recoveryActions';
import { explainerModel } from '../codeExplainer';
import type { VideoRuntime } from '../videoRuntime';
import { plannedSeconds } from './core/storyboard';
import { draftFilm, type FilmCode } from './filmCommand';

/**
 * `@promptreel /film [what to focus on]`: a storyboard of the selected code (and of the files attached with `#`),
 * drafted as Generate Explainer Film from Selection drafts it, written to `.promptreel/films/` and opened in the
 * storyboard editor; the answer sums it up, with a button to open it. Nothing is charged for video here: the editor's
 * Shoot asks for the price first.
 */
export class FilmChatCommand implements ChatCommandHandler {
  constructor(
    private readonly video: VideoRuntime,
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {}

  async handle(
    request: vscode.ChatRequest,
    _context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<ParticipantResult> {
    const items = [editorSelection(), ...(await referencedContext(request.references, this.log))].filter(
      (item): item is ContextItem => item !== undefined && item.text.trim().length > 0,
    );
    const code = filmCode(items, request.prompt);
    if (!code) {
      stream.markdown(
        items.length
          ? t('A film is saved in the workspace folder of its code: open the folder of this file first.')
          : t('Select the code to explain in an editor (or attach a file with `#`), then ask `@promptreel /film` again.'),
      );
      return { metadata: { kind: 'setup' } };
    }
    const client = await readyForChat(this.connection, stream);
    if (!client) return { metadata: { kind: 'setup' } };
    if (!(await this.connection.allowChatCharge())) {
      stream.markdown(t('Not sent: your budget is spent. Change it in the settings (`promptreel.account.dailyBudget`, `promptreel.account.monthlyBudget`).'));
      return { metadata: { kind: 'setup' } };
    }
    // The model picked in the chat's model picker when it is one of ours, else the chat model in use (as @promptreel answers).
    const chatModel = request.model?.vendor === LANGUAGE_MODEL_VENDOR ? request.model.id : await this.connection.chatModel.resolve();
    if (!chatModel) {
      stream.markdown(t('The storyboard is written by your chat model, and the service lists none: select one first.'));
      const select = recoveryCommand('selectChatModel');
      if (select) stream.button(select);
      return { metadata: { kind: 'setup' } };
    }
    stream.progress(t('Drafting a storyboard of {0} with {1}…', `${code.fileName}:${code.startLine}-${code.endLine}`, chatModel));
    const flows = await this.video.flows.get();
    const cancel = abortOn(token);
    let draft;
    try {
      draft = await draftFilm(flows.filmDeps, flows.films, { client, model: explainerModel(this.connection, this.settings, chatModel) }, code, cancel.signal);
    } finally {
      cancel.dispose();
    }
    switch (draft.kind) {
      case 'cancelled':
        return { metadata: { kind: 'cancelled', model: chatModel } };
      case 'failed':
        return failureResult(stream, { message: draft.message, actions: ['showLogs'] }, { kind: 'error', model: chatModel });
      case 'not-a-storyboard': {
        const problems = draft.problems.map((problem) => `- ${escapeMarkdown(problem)}`).join('\n');
        stream.markdown(`${t('The chat model’s reply is not a storyboard')}:\n\n${problems}\n\n`);
        stream.markdown(new vscode.MarkdownString().appendCodeblock(draft.text, 'text'));
        return {
          errorDetails: { message: t('The chat model did not write a valid storyboard, even when asked again: {0}', draft.problems.join(' ')) },
          metadata: { kind: 'error', model: chatModel },
        };
      }
      case 'drafted': {
        const { storyboard, file } = draft;
        this.log.info(`/film: storyboard of ${storyboard.shots.length} shots written to ${file.toString()}.`);
        stream.markdown(
          `${t(
            'The storyboard **{0}** has {1} shots, {2} seconds in all, saved in {3}.',
            escapeMarkdown(storyboard.name),
            storyboard.shots.length,
            plannedSeconds(storyboard),
            codeSpan(vscode.workspace.asRelativePath(file, false)),
          )}\n\n`,
        );
        stream.markdown(`${storyboard.shots.map((shot, index) => `${index + 1}. ${escapeMarkdown(shot.caption)}`).join('\n')}\n\n`);
        stream.markdown(t('Edit it in the storyboard editor; nothing is charged until you shoot the film there, after its price is shown.'));
        stream.button({ command: CommandIds.video.openStoryboard, title: t('Open Storyboard'), arguments: [file] });
        return { metadata: { kind: 'film', model: chatModel, storyboard: file.toString() } };
      }
    }
  }
}

/** The code of the film: the selection (or the first file attached), the other files beside it, the request as its focus. */
function filmCode(items: readonly ContextItem[], prompt: string): FilmCode | undefined {
  const [first, ...others] = items;
  const uri = first?.source ? vscode.Uri.parse(first.source.uri, true) : undefined;
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  if (!first || !uri || !folder) return undefined;
  const lines = first.source?.lines;
  const lineCount = first.text.split('\n').length;
  const request = prompt.trim();
  return {
    code: first.text,
    languageId: first.languageId ?? 'plaintext',
    fileName: vscode.workspace.asRelativePath(uri, false),
    startLine: lines ? lines.start + 1 : 1,
    endLine: lines ? lines.end + 1 : lineCount,
    folder: folder.uri,
    ...(others.length ? { files: others.map((item) => ({ name: item.label, text: item.text })) } : {}),
    ...(request ? { request } : {}),
  };
}
