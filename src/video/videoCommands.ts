import * as vscode from 'vscode';
import { describeChargeQuote } from '../account/core/chargeQuote';
import type { Connection } from '../connection/connection';
import * as z from 'zod/mini';
import { isApiError } from '../api';
import { CommandIds } from '../common/commandIds';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { askPrompt, reviewOptions } from './createVideoFlow';
import { reviewSources } from './modelLimits';
import { writeExplainerPrompt } from './core/explainerPrompt';
import { showMessage } from '../workbench/showMessage';
import { isFinished } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import { displayLocation, downloadedUri, isDownloaded } from './downloadedFile';
import { VideoCommandIds } from './videoCommandIds';
import type { CreateOutcome, VideoCreator } from './videoCreator';
import type { DownloadOutcome, VideoDownloader } from './videoDownloader';
import {
  defaultOptions,
  generateArgsSchema,
  optionsFromRequest,
  toCreateRequest,
  withOverrides,
  type GenerateArgs,
  type VideoOptions,
} from './core/videoOptions';
import type { VideoPlayer } from './videoPlayer';
import type { VideoPoller } from './core/videoPoller';
import type { TaskSource, VideoTaskRecord } from './core/videoTaskRecord';

/** A tree element (the task id), or `{id}` from code. */
const REGENERATE = 'Generate Again';

const taskArgSchema = z.union([
  z.string().check(z.minLength(1)),
  z.pipe(
    z.object({ id: z.string().check(z.minLength(1)) }),
    z.transform((value) => value.id),
  ),
]);

export interface VideoCommandDeps {
  settings: Settings;
  connection: Connection;
  store: VideoTaskStore;
  poller: VideoPoller;
  creator: VideoCreator;
  downloader: VideoDownloader;
  player: VideoPlayer;
  /** The task selected in the view, for item commands run without an argument (keybindings). */
  selected: () => string | undefined;
  reveal: (id: string) => void;
  log: ComponentLogger;
}

export type OpenOutcome = { kind: 'opened'; file: vscode.Uri } | { kind: 'not-opened'; download?: DownloadOutcome };

/** Registers every command of the video feature. Each returns its outcome (tests and other features read it). */
export class VideoCommands extends Disposable {
  constructor(private readonly deps: VideoCommandDeps) {
    super();
    const register = (id: string, run: (...args: unknown[]) => unknown) => this._register(vscode.commands.registerCommand(id, run));
    register(VideoCommandIds.generate, (args) => this.generate(args));
    register(VideoCommandIds.generateExplainer, () => this.generateExplainer());
    register(VideoCommandIds.track, (id) => this.track(id));
    register(VideoCommandIds.refreshAll, () => this.refreshAll());
    register(VideoCommandIds.clearFinished, () => this.clearFinished());
    register(VideoCommandIds.download, (arg) => this.withTask(arg, (task) => deps.downloader.download(task.id)));
    register(VideoCommandIds.open, (arg) => this.withTask(arg, (task) => this.open(task)));
    register(VideoCommandIds.reveal, (arg) => this.withTask(arg, (task) => this.reveal(task)));
    register(VideoCommandIds.copyId, (arg) => this.withTask(arg, (task) => this.copy(task.id, 'task id')));
    register(VideoCommandIds.copyPrompt, (arg) => this.withTask(arg, (task) => this.copy(task.prompt, 'prompt')));
    register(VideoCommandIds.regenerate, (arg) => this.withTask(arg, (task) => this.regenerate(task)));
    register(VideoCommandIds.refresh, (arg) => this.withTask(arg, (task) => deps.poller.pollNow([task.id])));
    register(VideoCommandIds.remove, (arg) => this.withTask(arg, (task) => deps.store.remove([task.id])));
    register(VideoCommandIds.goToSource, (arg) => this.withTask(arg, (task) => this.goToSource(task)));
  }

  /** Generate Video: the prompt, then the review of the options; or, given a prompt, at once. */
  async generate(rawArgs?: unknown): Promise<CreateOutcome | undefined> {
    const parsed = generateArgsSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      this.deps.log.warn(`Generate Video was called with arguments that do not fit: ${parsed.error.message}`);
      showMessage('error', 'Generate Video was called with invalid arguments.', []);
      return undefined;
    }
    const args: GenerateArgs = parsed.data;
    if (!(await this.deps.connection.ensureReady('Generating a video'))) return { kind: 'not-ready' };
    const options = withOverrides(defaultOptions(this.deps.settings.video), args);
    if (args.prompt && !args.review && options.model) return this.deps.creator.create(toCreateRequest(args.prompt, options));
    const prompt = args.prompt ?? (await askPrompt());
    if (!prompt) return undefined;
    return this.reviewAndCreate(prompt, options);
  }

  /** The review step (price, checks, every option), then one task; also for recipes and Animate Image. */
  async reviewAndCreate(prompt: string, options: VideoOptions, source?: TaskSource): Promise<CreateOutcome | undefined> {
    const reviewed = await reviewOptions(prompt, options, reviewSources(this.deps.settings, this.deps.connection));
    if (!reviewed) return undefined;
    return this.deps.creator.create(toCreateRequest(reviewed.prompt, reviewed.options), { source });
  }

  /** The chat model writes a prompt from the selected code; the user edits it before anything is charged. */
  async generateExplainer(): Promise<CreateOutcome | undefined> {
    const editor = vscode.window.activeTextEditor;
    const selection = editor?.selection;
    const code = editor && selection && !selection.isEmpty ? editor.document.getText(selection) : '';
    if (!editor || !selection || !code.trim()) {
      showMessage('info', 'Select the code to explain in an editor first, then run Generate Explainer Video from Selection.');
      return undefined;
    }
    const client = await this.deps.connection.ensureReadyToCharge('Generating an explainer video');
    if (!client) return { kind: 'not-ready' };
    const chatModel = await this.deps.connection.chatModel.resolve();
    if (!chatModel) {
      showMessage('warning', 'The explainer prompt is written by your chat model, and the service lists none: select one first.', [
        { title: 'Select Chat Model', run: () => vscode.commands.executeCommand(CommandIds.selectChatModel) },
      ]);
      return undefined;
    }
    const document = editor.document;
    const fileName = vscode.workspace.asRelativePath(document.uri, false);
    const lines = `${selection.start.line + 1}-${selection.end.line + 1}`;
    let written: string;
    try {
      written = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Writing a video prompt from ${fileName}:${lines} with ${chatModel}…`, cancellable: true },
        (_progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          return writeExplainerPrompt(client, chatModel, code, document.languageId, fileName, controller.signal);
        },
      );
    } catch (error) {
      if (isApiError(error) && error.kind === 'aborted') return undefined;
      this.deps.log.warn(`Writing the explainer prompt failed: ${describeError(error)}`);
      showMessage('error', `The chat model could not write the video prompt: ${describeError(error)}${isApiError(error) ? ` ${error.hint}` : ''}`, [
        { title: 'Retry', run: () => vscode.commands.executeCommand(VideoCommandIds.generateExplainer) },
        { title: 'Select Chat Model', run: () => vscode.commands.executeCommand(CommandIds.selectChatModel) },
        { title: 'Show Logs', run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
      ]);
      return undefined;
    }
    const prompt = await askPrompt({
      value: written,
      title: 'Promptreel: Explainer Video (1/2)',
      prompt: `Written by ${chatModel} from ${fileName}:${lines}. Edit it as you like: nothing is sent to the video model (or charged) before you confirm the settings.`,
    });
    if (!prompt) return undefined;
    const source: TaskSource = {
      uri: document.uri.toString(),
      startLine: selection.start.line,
      startCharacter: selection.start.character,
      endLine: selection.end.line,
      endCharacter: selection.end.character,
    };
    return this.reviewAndCreate(prompt, defaultOptions(this.deps.settings.video), source);
  }

  /** Adds a task made elsewhere (another machine, the web console) by its id, and asks about it at once. */
  async track(rawId?: unknown): Promise<VideoTaskRecord | undefined> {
    const named = typeof rawId === 'string' && rawId.trim() ? rawId.trim() : undefined;
    // From an "answer lost" entry: its id is ours; ask for the service's, then the entry has done its job.
    const lost = named && this.deps.store.get(named)?.state === 'unconfirmed' ? named : undefined;
    const given = lost ? undefined : named;
    const id =
      given ??
      (
        await vscode.window.showInputBox({
          title: 'Promptreel: Track Video Task by ID',
          prompt: "The id of a video task (from the service's console, another machine, or a lost answer).",
          placeHolder: 'task_…',
          ignoreFocusOut: true,
          validateInput: (text) => (!text.trim() ? 'Enter a task id.' : /\s/.test(text.trim()) ? 'A task id has no spaces.' : null),
        })
      )?.trim();
    if (!id) return undefined;
    const existing = this.deps.store.get(id);
    if (!existing) {
      if (!(await this.deps.connection.ensureReady('Tracking a video task'))) return undefined;
      const now = Date.now();
      const service = this.deps.connection.service;
      if (!service) return undefined;
      await this.deps.store.add({ id, service, state: 'queued', rawStatus: 'unknown', createdAt: now, updatedAt: now, nextPollAt: now });
      this.deps.log.info(`Tracking video task ${id}.`);
    }
    if (lost) await this.deps.store.remove([lost]);
    this.deps.reveal(id);
    await this.deps.poller.pollNow([id]);
    return this.deps.store.get(id);
  }

  async refreshAll(): Promise<void> {
    this.deps.store.reload();
    this.deps.poller.resume();
    const ids = this.deps.store.tasks.filter((task) => !isFinished(task)).map((task) => task.id);
    await this.deps.poller.pollNow(ids);
  }

  async clearFinished(): Promise<number> {
    const ids = this.deps.store.tasks.filter(isFinished).map((task) => task.id);
    const removed = await this.deps.store.remove(ids);
    vscode.window.setStatusBarMessage(`Promptreel: removed ${removed} finished video task${removed === 1 ? '' : 's'} from the list (files are kept).`, 4000);
    return removed;
  }

  /** Plays the downloaded file, downloading it first when needed. */
  async open(task: VideoTaskRecord): Promise<OpenOutcome> {
    let file = (await isDownloaded(task)) ? downloadedUri(task) : undefined;
    if (!file) {
      const download = await this.deps.downloader.download(task.id);
      if (download.kind !== 'saved') return { kind: 'not-opened', download };
      file = download.uri;
    }
    this.deps.player.open(file);
    return { kind: 'opened', file };
  }

  private async reveal(task: VideoTaskRecord): Promise<boolean> {
    const uri = downloadedUri(task);
    if (!uri || !(await isDownloaded(task))) {
      showMessage('info', 'This video is not downloaded (or its file was moved).', [{ title: 'Download', run: () => this.deps.downloader.download(task.id) }]);
      return false;
    }
    if (!vscode.workspace.getWorkspaceFolder(uri)) {
      showMessage('info', `The video is saved outside the workspace: ${displayLocation(uri)}`);
      return false;
    }
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return true;
  }

  private async copy(text: string | undefined, what: string): Promise<boolean> {
    if (!text) {
      showMessage('info', `This task's ${what} is not known (it was tracked by id).`);
      return false;
    }
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`Promptreel: copied the ${what}.`, 3000);
    return true;
  }

  /** A new task with the same request (and the same source for an explainer), once the user confirmed the new charge. */
  private async regenerate(task: VideoTaskRecord): Promise<CreateOutcome | undefined> {
    if (task.request) {
      const prompt = task.request.prompt.length > 120 ? `${task.request.prompt.slice(0, 119)}…` : task.request.prompt;
      const quote = await this.deps.connection.quoteCharge(task.request.model);
      const cost = describeChargeQuote(quote);
      const charge = cost ? `It costs ${cost}.` : 'It uses your quota like any other.';
      const answer = await vscode.window.showWarningMessage(
        'Generate this video again?',
        {
          modal: true,
          detail: [`“${prompt}”`, `A new task is created with the same prompt and settings. ${charge}`, quote.warning].filter(Boolean).join('\n\n'),
        },
        REGENERATE,
      );
      if (answer !== REGENERATE) return undefined;
      return this.deps.creator.create(task.request, { source: task.source });
    }
    if (!task.prompt) {
      showMessage('info', 'This task was tracked by id: its prompt and settings are not known, so it cannot be regenerated.');
      return undefined;
    }
    const defaults = defaultOptions(this.deps.settings.video);
    return this.reviewAndCreate(task.prompt, task.model ? optionsFromRequest({ model: task.model, prompt: task.prompt }, defaults) : defaults, task.source);
  }

  private async goToSource(task: VideoTaskRecord): Promise<boolean> {
    const source = task.source;
    if (!source) return false;
    const range = new vscode.Range(source.startLine, source.startCharacter, source.endLine, source.endCharacter);
    try {
      const editor = await vscode.window.showTextDocument(vscode.Uri.parse(source.uri), { selection: range, preview: false });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return true;
    } catch (error) {
      showMessage('warning', `The source of this video cannot be opened: ${describeError(error)}`);
      return false;
    }
  }

  private async withTask<T>(arg: unknown, run: (task: VideoTaskRecord) => Promise<T> | T): Promise<T | undefined> {
    const parsed = taskArgSchema.safeParse(arg);
    const id = parsed.success ? parsed.data : this.deps.selected();
    const task = id ? this.deps.store.get(id) : undefined;
    if (!task) {
      showMessage('info', id ? `The video task ${id} is no longer in the list.` : 'Select a video task in the Video Tasks view first.');
      return undefined;
    }
    return run(task);
  }
}
