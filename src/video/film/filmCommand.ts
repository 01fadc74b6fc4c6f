import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { isApiError } from '../../api/errors';
import type { ServiceClient } from '../../api/serviceClient';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import { CommandIds } from '../../common/contributions';
import { describeError } from '../../common/logger';
import { explainerWriter, selectedCode } from '../codeExplainer';
import type { ExplainerModel } from '../core/explainerPrompt';
import { showMessage } from '../../workbench/showMessage';
import { limitsOf } from '../modelLimits';
import { FILMS_FOLDER, newStoryboard, type FilmSettings, type Storyboard } from './core/storyboard';
import { chatAsker, describeStoryboardProblem, draftStoryboard, type DraftOutcome, type StoryboardInput } from './core/storyboardDraft';
import type { FilmEditors } from './filmEditor';
import type { FilmEditorDeps, FilmEditorHost } from './filmEditorHost';
import { writeNewFilm } from './filmFiles';

export type FilmOutcome =
  | { kind: 'drafted'; file: vscode.Uri; storyboard: Storyboard; editor?: FilmEditorHost }
  /** The chat model's last reply was not a storyboard: shown with what was wrong. */
  | { kind: 'not-a-storyboard'; text: string; problems: string[] }
  | { kind: 'not-ready' };

/** What a film is drafted from: some code (a selection), other files the user named, what they asked for. */
export interface FilmCode {
  code: string;
  languageId: string;
  /** Workspace-relative, `/`-separated. */
  fileName: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The workspace folder the storyboard is saved in (`.promptreel/films/`). */
  folder: vscode.Uri;
  files?: readonly { name: string; text: string }[];
  request?: string;
}

/** A draft's end, for the surface that asked (a notification, or an answer in VS Code's Chat) to show. */
export type FilmDraft =
  | Exclude<FilmOutcome, { kind: 'not-ready' }>
  /** The request failed, or the storyboard could not be saved: said in the user's words. */
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/**
 * Generate Explainer Film from Selection's argument, from the chat panel (its selection context): the code itself, so
 * the film is drafted from what the panel shows even when the editor's selection has moved. Anything else (an editor
 * menu's URI) is no argument: the active selection is taken.
 */
const filmCodeArgumentSchema = z.object({
  code: z.string().check(
    z.refine((code) => code.trim().length > 0),
    z.maxLength(200_000),
  ),
  languageId: z.string().check(z.maxLength(100)),
  fileName: z.string().check(z.minLength(1), z.maxLength(1000)),
  startLine: z.int().check(z.gte(1)),
  endLine: z.int().check(z.gte(1)),
  request: z.optional(z.string().check(z.maxLength(10_000))),
});
export type FilmCodeArgument = z.infer<typeof filmCodeArgumentSchema>;

/**
 * Generate Explainer Film from Selection: the chat model drafts a storyboard of the selected code (asked again once
 * when its reply is not one), written to `.promptreel/films/` and opened in the storyboard editor. Nothing is
 * charged here: the editor's Shoot asks for the price first.
 */
export async function generateFilm(deps: FilmEditorDeps, editors: FilmEditors, argument?: unknown): Promise<FilmOutcome | undefined> {
  const code = await codeOf(argument);
  if (!code) return undefined;
  const writer = await explainerWriter(
    deps.connection,
    deps.settings,
    t('Drafting an explainer film'),
    t('The storyboard is written by your chat model, and the service lists none: select one first.'),
  );
  if (writer === 'not-ready') return { kind: 'not-ready' };
  if (!writer) return undefined;
  const lines = `${code.fileName}:${code.startLine}-${code.endLine}`;
  const draft = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Drafting a storyboard of {0} with {1}…', lines, writer.model.model), cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      const cancelled = token.onCancellationRequested(() => controller.abort());
      return draftFilm(deps, editors, writer, code, controller.signal).finally(() => cancelled.dispose());
    },
  );
  switch (draft.kind) {
    case 'cancelled':
      return undefined;
    case 'failed':
      showFailure(draft.message, argument);
      return undefined;
    case 'not-a-storyboard':
      await showReply(draft.text, draft.problems);
      showFailure(t('The chat model did not write a valid storyboard, even when asked again: {0}', draft.problems.join(' ')), argument);
      return draft;
    case 'drafted':
      return draft;
  }
}

/** The argument's code, or the active selection (undefined after saying what to do). */
async function codeOf(argument: unknown): Promise<FilmCode | undefined> {
  const given = filmCodeArgumentSchema.safeParse(argument);
  if (given.success) {
    const folder = await folderOf(given.data.fileName);
    if (!folder) return noFolder();
    const { request, ...code } = given.data;
    return { ...code, folder, ...(request?.trim() ? { request: request.trim() } : {}) };
  }
  const selected = selectedCode(t('Select the code to explain in an editor first, then run Generate Explainer Film from Selection.'));
  if (!selected) return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(selected.document.uri);
  if (!folder) return noFolder();
  const { document, selection, code, fileName } = selected;
  return { code, languageId: document.languageId, fileName, startLine: selection.start.line + 1, endLine: selection.end.line + 1, folder: folder.uri };
}

function noFolder(): undefined {
  showMessage('info', t('A film is saved in the workspace folder of its code: open the folder of this file first.'));
  return undefined;
}

/** The workspace folder holding a workspace-relative file (the first folder when none does, or in a single-folder workspace). */
async function folderOf(fileName: string): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const named = fileName.startsWith(`${folder.name}/`) && folders.length > 1 ? fileName.slice(folder.name.length + 1) : fileName;
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, ...named.split('/')));
      return folder.uri;
    } catch {
      // Not in this folder.
    }
  }
  return folders[0]?.uri;
}

/**
 * Drafts a storyboard of `code` with the chat model (asked again once when its reply is not one), writes it to the
 * folder's `.promptreel/films/` and opens it in the storyboard editor. Every surface that makes a film goes through
 * here: Generate Explainer Film from Selection, `@promptreel /film`, the chat panel. Aborting `signal` closes the request.
 */
export async function draftFilm(
  deps: FilmEditorDeps,
  editors: FilmEditors,
  writer: { client: ServiceClient; model: ExplainerModel },
  code: FilmCode,
  signal: AbortSignal,
): Promise<FilmDraft> {
  const video = deps.settings.video;
  const limits = await limitsOf(deps.settings, deps.connection, video.model);
  const input: StoryboardInput = {
    code: code.code,
    languageId: code.languageId,
    fileName: code.fileName,
    ...(code.files?.length ? { files: code.files } : {}),
    ...(code.request ? { request: code.request } : {}),
    ...(limits.durations ? { durations: limits.durations } : {}),
    defaultSeconds: Number(video.seconds) || 5,
    ...(limits.maxPromptLength !== undefined ? { maxPromptLength: limits.maxPromptLength } : {}),
    firstFrame: limits.firstFrame,
  };
  let outcome: DraftOutcome;
  try {
    outcome = await draftStoryboard(chatAsker(writer.client, writer.model), input, signal);
  } catch (error) {
    if (signal.aborted || (isApiError(error) && error.kind === 'aborted')) return { kind: 'cancelled' };
    deps.log.warn(`Drafting the storyboard failed: ${describeError(error)}`);
    return {
      kind: 'failed',
      message: joinSentences(t('The chat model could not draft the storyboard: {0}', describeError(error)), isApiError(error) ? error.hint : undefined),
    };
  }
  if (!outcome.ok) {
    const problems = outcome.problems.map(describeStoryboardProblem);
    deps.log.warn(`The chat model's storyboard was not valid after asking again: ${problems.join(' ')}`);
    return { kind: 'not-a-storyboard', text: outcome.text, problems };
  }
  const settings: FilmSettings = { resolution: video.resolution, ratio: video.ratio };
  const storyboard = newStoryboard(outcome.draft, {
    model: video.model,
    settings,
    source: { file: code.fileName, startLine: code.startLine, endLine: Math.max(code.startLine, code.endLine), language: code.languageId },
    created: new Date(),
  });
  let file: vscode.Uri;
  try {
    file = await writeNewFilm(code.folder, storyboard);
  } catch (error) {
    deps.log.warn(`Writing the storyboard failed: ${describeError(error)}`);
    return { kind: 'failed', message: t('The storyboard could not be saved in {0}: {1}', FILMS_FOLDER, describeError(error)) };
  }
  deps.log.info(`Storyboard of ${storyboard.shots.length} shots written to ${file.toString()} (${outcome.attempts} chat request(s)).`);
  const opened = await editors.openFile(file);
  return { kind: 'drafted', file, storyboard, ...(opened ? { editor: opened } : {}) };
}

/** The failure, with Retry (of the same code: the chat panel's argument is given again). */
function showFailure(message: string, argument: unknown): void {
  const again = filmCodeArgumentSchema.safeParse(argument).success ? [argument] : [];
  showMessage('error', message, [
    { title: t('Retry'), run: () => vscode.commands.executeCommand(CommandIds.video.generateExplainerFilm, ...again) },
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
