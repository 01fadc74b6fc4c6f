import { ensureReady } from '../workbench/readiness';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import * as z from 'zod/mini';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import { confirmChargeInModal } from '../workbench/chargeConfirmation';
import type { Settings } from '../config/settings';
import { askPrompt, reviewOptions } from './createVideoFlow';
import { reviewSources } from './modelLimits';
import { generateExplainer } from './explainerVideo';
import { showMessage } from '../workbench/showMessage';
import type { CommandHandler } from '../workbench/registerCommands';
import { isFinished, shortenPrompt } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import { displayLocation, savedFile } from './downloadedFile';
import type { CreateOutcome, VideoCreator } from './videoCreator';
import type { DownloadOutcome, VideoDownloader } from './videoDownloader';
import { defaultOptions, generateArgsSchema, optionsFromRequest, withOverrides, type GenerateArgs, type VideoOptions } from './core/videoOptions';
import type { VideoPlayer } from './player/videoPlayer';
import type { VideoPoller } from './core/videoPoller';
import type { TaskSource, VideoTaskRecord } from './core/videoTaskRecord';

/** A tree element (the task id), or `{id}` from code. */
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

/** The commands of the video feature. Each returns its outcome (tests and other features read it). */
export class VideoCommands {
  /** The handler of each command id (videoSurfaces.ts registers the ids at activation). */
  readonly handlers: Readonly<Record<string, CommandHandler>>;

  constructor(private readonly deps: VideoCommandDeps) {
    const withTask =
      <T>(run: (task: VideoTaskRecord) => Promise<T> | T) =>
      (arg?: unknown) =>
        this.withTask(arg, run);
    this.handlers = {
      [CommandIds.video.generate]: (args?: unknown) => this.generate(args),
      [CommandIds.video.generateExplainer]: () => this.generateExplainer(),
      [CommandIds.video.track]: (id?: unknown) => this.track(id),
      [CommandIds.video.refreshAll]: () => this.refreshAll(),
      [CommandIds.video.clearFinished]: () => this.clearFinished(),
      [CommandIds.video.download]: withTask((task) => deps.downloader.download(task.id)),
      [CommandIds.video.open]: withTask((task) => this.open(task)),
      [CommandIds.video.reveal]: withTask((task) => this.reveal(task)),
      [CommandIds.video.copyId]: withTask((task) => this.copy(task.id, 'task id')),
      [CommandIds.video.copyPrompt]: withTask((task) => this.copy(task.prompt, 'prompt')),
      [CommandIds.video.regenerate]: withTask((task) => this.regenerate(task)),
      [CommandIds.video.refresh]: withTask((task) => deps.poller.pollNow([task.id])),
      [CommandIds.video.remove]: withTask((task) => deps.store.remove([task.id])),
      [CommandIds.video.goToSource]: withTask((task) => this.goToSource(task)),
    };
  }

  /**
   * Generate Video: the prompt, then the review of the options (with the price). Arguments (from another extension,
   * a task's command input, a keybinding) only prefill them: nothing is sent before the user accepts the review.
   */
  async generate(rawArgs?: unknown): Promise<CreateOutcome | undefined> {
    const parsed = generateArgsSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      this.deps.log.warn(`Generate Video was called with arguments that do not fit: ${parsed.error.message}`);
      showMessage('error', t('Generate Video was called with invalid arguments.'), []);
      return undefined;
    }
    const args: GenerateArgs = parsed.data;
    if (!(await ensureReady(this.deps.connection, t('Generating a video')))) return { kind: 'not-ready' };
    const options = withOverrides(defaultOptions(this.deps.settings.video), args);
    const prompt = args.prompt ?? (await askPrompt());
    if (!prompt) return undefined;
    return this.reviewAndCreate(prompt, options);
  }

  /**
   * The review step (price, checks, every option), then one task; also for recipes and Animate Image. `fromFolder`:
   * choices the open folder made besides its settings (a workspace recipe's), named beside the price.
   */
  async reviewAndCreate(prompt: string, options: VideoOptions, source?: TaskSource, fromFolder: readonly string[] = []): Promise<CreateOutcome | undefined> {
    const reviewed = await reviewOptions(prompt, options, reviewSources(this.deps.settings, this.deps.connection, undefined, fromFolder));
    const approval = reviewed && (await this.deps.connection.videoCharges()).approve(reviewed.quote);
    if (!approval) return undefined;
    return this.deps.creator.create(approval, { source });
  }

  /** The chat model writes a prompt from the selected code; the user edits it before anything is charged. */
  generateExplainer(): Promise<CreateOutcome | undefined> {
    return generateExplainer({ ...this.deps, review: (prompt, options, source) => this.reviewAndCreate(prompt, options, source) });
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
          title: t('Promptreel: Track Video Task by ID'),
          prompt: t("The id of a video task (from the service's console, another machine, or a lost answer)."),
          placeHolder: 'task_…',
          ignoreFocusOut: true,
          validateInput: (text) => (!text.trim() ? t('Enter a task id.') : /\s/.test(text.trim()) ? t('A task id has no spaces.') : null),
        })
      )?.trim();
    if (!id) return undefined;
    const existing = this.deps.store.get(id);
    if (!existing) {
      if (!(await ensureReady(this.deps.connection, t('Tracking a video task')))) return undefined;
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
    const said =
      removed === 1
        ? t('Promptreel: removed 1 finished video task from the list (files are kept).')
        : t('Promptreel: removed {0} finished video tasks from the list (files are kept).', removed);
    vscode.window.setStatusBarMessage(said, 4000);
    return removed;
  }

  /** Plays the downloaded file, downloading it first when needed. */
  async open(task: VideoTaskRecord): Promise<OpenOutcome> {
    let file = await savedFile(task);
    if (!file) {
      const download = await this.deps.downloader.download(task.id);
      if (download.kind !== 'saved') return { kind: 'not-opened', download };
      file = download.uri;
    }
    this.deps.player.open(file);
    return { kind: 'opened', file };
  }

  private async reveal(task: VideoTaskRecord): Promise<boolean> {
    const uri = await savedFile(task);
    if (!uri) {
      showMessage('info', t('This video is not downloaded (or its file was moved).'), [
        { title: t('Download'), run: () => this.deps.downloader.download(task.id) },
      ]);
      return false;
    }
    if (!vscode.workspace.getWorkspaceFolder(uri)) {
      showMessage('info', t('The video is saved outside the workspace: {0}', displayLocation(uri)));
      return false;
    }
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return true;
  }

  private async copy(text: string | undefined, what: 'task id' | 'prompt'): Promise<boolean> {
    if (!text) {
      showMessage(
        'info',
        what === 'prompt' ? t("This task's prompt is not known (it was tracked by id).") : t("This task's task id is not known (it was tracked by id)."),
      );
      return false;
    }
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(what === 'prompt' ? t('Promptreel: copied the prompt.') : t('Promptreel: copied the task id.'), 3000);
    return true;
  }

  /** A new task with the same request (and the same source for an explainer), once the user confirmed the new charge. */
  private async regenerate(task: VideoTaskRecord): Promise<CreateOutcome | undefined> {
    if (task.request) {
      const approval = await confirmChargeInModal(await this.deps.connection.videoCharges(), [task.request], {
        title: t('Generate this video again?'),
        lines: [`“${shortenPrompt(task.request.prompt, 120)}”`, t('A new task is created with the same prompt and settings.')],
        action: t('Generate Again'),
      });
      return approval ? this.deps.creator.create(approval, { source: task.source }) : undefined;
    }
    if (!task.prompt) {
      showMessage('info', t('This task was tracked by id: its prompt and settings are not known, so it cannot be regenerated.'));
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
      showMessage('warning', t('The source of this video cannot be opened: {0}', describeError(error)));
      return false;
    }
  }

  private async withTask<T>(arg: unknown, run: (task: VideoTaskRecord) => Promise<T> | T): Promise<T | undefined> {
    const parsed = taskArgSchema.safeParse(arg);
    const id = parsed.success ? parsed.data : this.deps.selected();
    const task = id ? this.deps.store.get(id) : undefined;
    if (!task) {
      showMessage('info', id ? t('The video task {0} is no longer in the list.', id) : t('Select a video task in the Video Tasks view first.'));
      return undefined;
    }
    return run(task);
  }
}
