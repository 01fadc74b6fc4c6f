import { explainerWriter, selectedCode } from './codeExplainer';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import { joinSentences } from '../api/sentences';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { showMessage } from '../workbench/showMessage';
import { askPrompt } from './createVideoFlow';
import { writeExplainerPrompt } from './core/explainerPrompt';
import { defaultOptions, type VideoOptions } from './core/videoOptions';
import type { TaskSource } from './core/videoTaskRecord';
import type { CreateOutcome } from './videoCreator';

export interface ExplainerDeps {
  settings: Settings;
  connection: Connection;
  log: ComponentLogger;
  /** The review step (price, checks, every option), then one task remembering the code it came from. */
  review: (prompt: string, options: VideoOptions, source: TaskSource) => Promise<CreateOutcome | undefined>;
}

/** Generate Explainer Video from Selection: the chat model writes a prompt from the selected code; the user edits it before anything is charged. */
export async function generateExplainer(deps: ExplainerDeps): Promise<CreateOutcome | undefined> {
  const selected = selectedCode(t('Select the code to explain in an editor first, then run Generate Explainer Video from Selection.'));
  if (!selected) return undefined;
  const writer = await explainerWriter(
    deps.connection,
    deps.settings,
    t('Generating an explainer video'),
    t('The explainer prompt is written by your chat model, and the service lists none: select one first.'),
  );
  if (writer === 'not-ready') return { kind: 'not-ready' };
  if (!writer) return undefined;
  const { document, selection, code, fileName, lines } = selected;
  const chatModel = writer.model.model;
  let written: string;
  try {
    written = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Writing a video prompt from {0} with {1}…', lines, chatModel), cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return writeExplainerPrompt(writer.client, writer.model, code, document.languageId, fileName, controller.signal);
      },
    );
  } catch (error) {
    if (isApiError(error) && error.kind === 'aborted') return undefined;
    deps.log.warn(`Writing the explainer prompt failed: ${describeError(error)}`);
    const message = joinSentences(t('The chat model could not write the video prompt: {0}', describeError(error)), isApiError(error) ? error.hint : undefined);
    showMessage('error', message, [
      { title: t('Retry'), run: () => vscode.commands.executeCommand(CommandIds.video.generateExplainer) },
      { title: t('Select Chat Model'), run: () => vscode.commands.executeCommand(CommandIds.selectChatModel) },
      { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
    ]);
    return undefined;
  }
  const prompt = await askPrompt({
    value: written,
    title: t('Promptreel: Explainer Video (1/2)'),
    prompt: t(
      'Written by {0} from {1}. Edit it as you like: nothing is sent to the video model (or charged) before you confirm the settings.',
      chatModel,
      lines,
    ),
  });
  if (!prompt) return undefined;
  const source: TaskSource = {
    uri: document.uri.toString(),
    startLine: selection.start.line,
    startCharacter: selection.start.character,
    endLine: selection.end.line,
    endCharacter: selection.end.character,
  };
  return deps.review(prompt, defaultOptions(deps.settings.video), source);
}
