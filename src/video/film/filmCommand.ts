import * as vscode from 'vscode';
import { isApiError } from '../../api';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import { CommandIds } from '../../common/contributions';
import { describeError } from '../../common/logger';
import { explainerWriter, selectedCode } from '../codeExplainer';
import { showMessage } from '../../workbench/showMessage';
import { limitsOf } from '../modelLimits';
import { FILMS_FOLDER, newStoryboard, type FilmSettings, type Storyboard } from './core/storyboard';
import { chatAsker, describeStoryboardProblem, draftStoryboard, type DraftOutcome, type StoryboardInput } from './core/storyboardDraft';
import type { FilmEditorDeps, FilmEditorHost, FilmEditors } from './filmEditor';
import { writeNewFilm } from './filmFiles';

export type FilmOutcome =
  | { kind: 'drafted'; file: vscode.Uri; storyboard: Storyboard; editor?: FilmEditorHost }
  /** The chat model's last reply was not a storyboard: shown with what was wrong. */
  | { kind: 'not-a-storyboard'; text: string; problems: string[] }
  | { kind: 'not-ready' };

/**
 * Generate Explainer Film from Selection: the chat model drafts a storyboard of the selected code (asked again once
 * when its reply is not one), written to `.promptreel/films/` and opened in the storyboard editor. Nothing is
 * charged here: the editor's Shoot asks for the price first.
 */
export async function generateFilm(deps: FilmEditorDeps, editors: FilmEditors): Promise<FilmOutcome | undefined> {
  const selected = selectedCode(t('Select the code to explain in an editor first, then run Generate Explainer Film from Selection.'));
  if (!selected) return undefined;
  const { document, selection, code, fileName, lines } = selected;
  const folder = vscode.workspace.getWorkspaceFolder(document.uri);
  if (!folder) {
    showMessage('info', t('A film is saved in the workspace folder of its code: open the folder of this file first.'));
    return undefined;
  }
  const writer = await explainerWriter(
    deps.connection,
    deps.settings,
    t('Drafting an explainer film'),
    t('The storyboard is written by your chat model, and the service lists none: select one first.'),
  );
  if (writer === 'not-ready') return { kind: 'not-ready' };
  if (!writer) return undefined;
  const chatModel = writer.model.model;
  const video = deps.settings.video;
  const limits = await limitsOf(deps.settings, deps.connection, video.model);
  const input: StoryboardInput = {
    code,
    languageId: document.languageId,
    fileName,
    ...(limits.durations ? { durations: limits.durations } : {}),
    defaultSeconds: Number(video.seconds) || 5,
    ...(limits.maxPromptLength !== undefined ? { maxPromptLength: limits.maxPromptLength } : {}),
    firstFrame: limits.firstFrame,
  };
  let outcome: DraftOutcome;
  try {
    outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Drafting a storyboard of {0} with {1}…', lines, chatModel), cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        const cancelled = token.onCancellationRequested(() => controller.abort());
        return draftStoryboard(chatAsker(writer.client, writer.model), input, controller.signal).finally(() => cancelled.dispose());
      },
    );
  } catch (error) {
    if (isApiError(error) && error.kind === 'aborted') return undefined;
    deps.log.warn(`Drafting the storyboard failed: ${describeError(error)}`);
    showFailure(joinSentences(t('The chat model could not draft the storyboard: {0}', describeError(error)), isApiError(error) ? error.hint : undefined));
    return undefined;
  }
  if (!outcome.ok) {
    const problems = outcome.problems.map(describeStoryboardProblem);
    deps.log.warn(`The chat model's storyboard was not valid after asking again: ${problems.join(' ')}`);
    await showReply(outcome.text, problems);
    showFailure(t('The chat model did not write a valid storyboard, even when asked again: {0}', problems.join(' ')));
    return { kind: 'not-a-storyboard', text: outcome.text, problems };
  }
  const settings: FilmSettings = { resolution: video.resolution, ratio: video.ratio };
  const storyboard = newStoryboard(outcome.draft, {
    model: video.model,
    settings,
    source: { file: fileName, startLine: selection.start.line + 1, endLine: selection.end.line + 1, language: document.languageId },
    created: new Date(),
  });
  let file: vscode.Uri;
  try {
    file = await writeNewFilm(folder.uri, storyboard);
  } catch (error) {
    deps.log.warn(`Writing the storyboard failed: ${describeError(error)}`);
    showFailure(t('The storyboard could not be saved in {0}: {1}', FILMS_FOLDER, describeError(error)));
    return undefined;
  }
  deps.log.info(`Storyboard of ${storyboard.shots.length} shots written to ${file.toString()} (${outcome.attempts} chat request(s)).`);
  const opened = await editors.openFile(file);
  return { kind: 'drafted', file, storyboard, ...(opened ? { editor: opened } : {}) };
}

function showFailure(message: string): void {
  showMessage('error', message, [
    { title: t('Retry'), run: () => vscode.commands.executeCommand(CommandIds.video.generateExplainerFilm) },
    { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
  ]);
}

/** The reply that is not a storyboard, in an untitled Markdown document, after what was wrong with it. */
async function showReply(text: string, problems: readonly string[]): Promise<void> {
  const content = [`# ${t('The chat model’s reply is not a storyboard')}`, '', ...problems.map((problem) => `- ${problem}`), '', '---', '', text, ''].join(
    '\n',
  );
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: false });
}
