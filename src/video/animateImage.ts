import { ensureReady } from '../workbench/readiness';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { showMessage } from '../workbench/showMessage';
import { askPrompt } from './createVideoFlow';
import { defaultOptions, type VideoOptions } from './core/videoOptions';
import { firstFrameOf, pickFirstFrame } from './firstFrame';
import { firstFrameModels } from './modelLimits';
import { AnimateText as T } from './studioText';
import type { CreateOutcome } from './videoCreator';

export interface AnimateDeps {
  settings: Settings;
  connection: Connection;
  review: (prompt: string, options: VideoOptions) => Promise<CreateOutcome | undefined>;
}

/**
 * Animate Image with Promptreel (the Explorer's menu on an image, or the palette): the image becomes the first frame
 * of a video made by a model declared to take one; the prompt says what happens, then Generate Video's review.
 */
export async function animateImage(deps: AnimateDeps, arg?: unknown): Promise<CreateOutcome | undefined> {
  if (!(await ensureReady(deps.connection, t('Animating an image')))) return { kind: 'not-ready' };
  const frame = arg instanceof vscode.Uri ? firstFrameOf(arg) : await pickFirstFrame(T.pickImage);
  if (!frame) {
    if (arg instanceof vscode.Uri) showMessage('warning', T.notAnImage);
    return undefined;
  }
  const defaults = defaultOptions(deps.settings.video);
  const models = await firstFrameModels(deps.settings, deps.connection);
  if (!models.length) {
    showMessage('info', T.noModel, [
      { title: t('Open Settings'), run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.models.capabilities') },
    ]);
    return undefined;
  }
  const model = models.includes(defaults.model)
    ? defaults.model
    : models.length === 1
      ? models[0]
      : await vscode.window.showQuickPick(models, { title: T.title(1), placeHolder: T.pickModel, ignoreFocusOut: true });
  if (!model) return undefined;
  const prompt = await askPrompt({ title: T.title(1), prompt: T.prompt(frame.fileName) });
  if (!prompt) return undefined;
  return deps.review(prompt, { ...defaults, model, firstFrame: frame });
}
