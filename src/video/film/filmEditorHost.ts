import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isVideoModel } from '../../api/models';
import { formatUsd } from '../../api/account/prices';
import { t } from '../../api/l10n';
import { MAX_VIDEO_SECONDS } from '../../api/video/request';
import { CommandIds } from '../../common/contributions';
import { describeError } from '../../common/logger';
import { describeQuotePrice, quoteWarning } from '../../connection/core/chargeGate';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { WebviewHost } from '../../workbench/webview/webviewHost';
import { showMessage } from '../../workbench/showMessage';
import type { VideoModelLimits } from '../core/videoModelLimits';
import { RATIOS, RESOLUTIONS } from '../core/videoChoices';
import { limitsOf } from '../modelLimits';
import { filmCost, filmRequests, shotProblems, shotsToShoot, type ShootWhich } from './core/filmRequests';
import { parseFramePng } from './core/framePng';
import { MAX_SHOTS, MIN_SHOTS, type FilmOutput, type Shot, type Storyboard } from './core/storyboard';
import type { VideoTaskStore } from '../core/taskStore';
import type { VideoDownloader } from '../videoDownloader';
import { applyEdit, type EditRefusal, type StoryboardEdit } from './core/storyboardEdits';
import { saveFilm } from './filmFiles';
import { shotOptions, type FilmShootDeps, type ShootOutcome } from './filmShoot';
import { filmToHostSchema, type FilmToHost, type FilmView, type HostToFilm, type ShotState } from './protocol';

export interface FilmEditorDeps extends FilmShootDeps {
  extensionUri: vscode.Uri;
  store: VideoTaskStore;
  downloader: VideoDownloader;
}

/** What an editor asks of the films' owner (FilmEditors): shooting outlives the editor that started it. */
export interface FilmActions {
  shoot(file: vscode.Uri, which: ShootWhich): Promise<ShootOutcome>;
  stop(file: vscode.Uri): void;
  isShooting(file: vscode.Uri): boolean;
}

/** How long the page has to draw a shot's last frame. */
const FRAME_TIMEOUT_MS = 60_000;

/**
 * The storyboard editor's host: the film as its file holds it, each change of the page applied, checked and saved
 * back at once, the costs and the charge gate's total sent after each; Shoot goes through the gate's modal.
 */
export class FilmEditorHost extends WebviewHost<FilmToHost, HostToFilm> {
  /** The limits of the film's model (read again when the model changes). */
  private limits: { model: string; limits: VideoModelLimits } | undefined;
  /** Last frames asked of the page and not answered yet (asked again when the page loads again). */
  private readonly frames = new Map<string, { src: string; done: (answer: { png?: string; error?: string }) => void }>();
  private shown: FilmView | undefined;
  /** The state of the shots' tasks the page was last sent. */
  private tasksShown: string | undefined;
  /** Each view is priced before it is sent: only the latest one goes (an older one's price may arrive later). */
  private views = 0;
  /** What the last Shoot came to (tests read it). */
  lastShoot: ShootOutcome | undefined;

  constructor(
    webview: vscode.Webview,
    private readonly deps: FilmEditorDeps,
    readonly file: vscode.Uri,
    private storyboard: Storyboard,
    private readonly actions: FilmActions,
  ) {
    super(
      webview,
      {
        name: 'storyboard editor',
        extensionUri: deps.extensionUri,
        log: deps.log,
        schema: filmToHostSchema,
        resourceRoots: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
      },
      {
        title: t('Storyboard'),
        script: 'film.js',
        style: 'film.css',
        body: `<main id="film" aria-busy="true"><p>${escapeHtml(t('Loading the storyboard…'))}</p></main>`,
        allow: { media: true },
      },
    );
    this._register(deps.connection.prices.onDidChange(() => void this.postFilm()));
    this._register(deps.store.onDidChange(() => void this.tasksChanged()));
    this._register({ dispose: () => [...this.frames.values()].forEach((frame) => frame.done({ error: 'the storyboard editor was closed' })) });
  }

  /** Changes the film (shooting records its tasks so), saved at once and shown. */
  async apply(change: (storyboard: Storyboard) => Storyboard): Promise<Storyboard> {
    this.storyboard = change(this.storyboard);
    await saveFilm(this.file, this.storyboard);
    await this.postFilm();
    return this.storyboard;
  }

  /**
   * The last frame of the video `file` as a PNG, drawn by the page (Node has no video decoder) and checked here:
   * a PNG of at most MAX_FRAME_BYTES. The page may load the file's folder.
   */
  async takeFrame(file: vscode.Uri, signal: AbortSignal): Promise<{ bytes: Uint8Array; width: number; height: number }> {
    const folder = vscode.Uri.joinPath(file, '..');
    if (!vscode.workspace.getWorkspaceFolder(file)) this.setResourceRoots([...(vscode.workspace.workspaceFolders ?? []).map((each) => each.uri), folder]);
    const request = randomUUID();
    const src = this.webview.asWebviewUri(file).toString();
    const answer = await new Promise<{ png?: string; error?: string }>((resolve) => {
      const timer = setTimeout(() => done({ error: 'the page did not draw the frame in time' }), FRAME_TIMEOUT_MS);
      const aborted = () => done({ error: 'stopped' });
      const done = (result: { png?: string; error?: string }) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.frames.delete(request);
        resolve(result);
      };
      signal.addEventListener('abort', aborted);
      this.frames.set(request, { src, done });
      // A page still loading is asked once it says `ready` (onReady).
      if (this.ready) void this.post({ type: 'takeFrame', request, src });
    });
    if (signal.aborted) throw new Error(t('Shooting was stopped.'));
    if (answer.png === undefined)
      throw new Error(t('The last frame of {0} could not be taken: {1}', file.path.slice(file.path.lastIndexOf('/') + 1), answer.error ?? ''));
    const parsed = parseFramePng(answer.png);
    if (!parsed.ok) throw new Error(t('The last frame of {0} could not be taken: {1}', file.path.slice(file.path.lastIndexOf('/') + 1), parsed.problem));
    return parsed;
  }

  /** A shot's task changed: its state is shown, and what it was charged, once known, is kept in the film's record. */
  private async tasksChanged(): Promise<void> {
    // The task list changes at every poll of any task: the page is sent the film only when one of its shots changed.
    const signature = JSON.stringify(
      this.storyboard.shots.map((shot) => {
        const task = shot.taskId ? this.deps.store.get(shot.taskId) : undefined;
        return [shot.taskId, task?.state, task?.error, !!(task?.downloadedUri ?? task?.downloadedPath), task?.charged?.usd];
      }),
    );
    if (signature === this.tasksShown) return;
    this.tasksShown = signature;
    const charged = (shot: Shot) => (shot.taskId ? this.deps.store.get(shot.taskId)?.charged?.usd : undefined);
    if (this.storyboard.shots.some((shot) => charged(shot) !== undefined && charged(shot) !== shot.chargedUsd)) {
      await this.apply((storyboard) => ({
        ...storyboard,
        shots: storyboard.shots.map((shot) => {
          const usd = charged(shot);
          return usd === undefined ? shot : { ...shot, chargedUsd: usd };
        }),
      }));
      return;
    }
    await this.postFilm();
  }

  get film(): Storyboard {
    return this.storyboard;
  }

  /** Records what the shots were made into (the assembly's), saved at once. */
  async recordOutput(output: FilmOutput): Promise<void> {
    this.storyboard = { ...this.storyboard, output };
    await saveFilm(this.file, this.storyboard);
    await this.postFilm();
  }

  /** The film as the page was last sent it (costs and total included). */
  view(): FilmView | undefined {
    return this.shown;
  }

  /** Shows the film again (shooting started or ended). */
  refresh(): Promise<void> {
    return this.postFilm();
  }

  protected async onReady(): Promise<void> {
    this.tasksShown = undefined;
    await this.tasksChanged();
    // A page that loaded again (its resource roots changed) is asked again for the frames it was drawing.
    for (const [request, frame] of this.frames) await this.post({ type: 'takeFrame', request, src: frame.src });
  }

  protected async onMessage(message: Exclude<FilmToHost, { type: 'ready' }>): Promise<void> {
    if (message.type === 'frame') {
      this.frames.get(message.request)?.done(message);
      return;
    }
    if (message.type === 'stop') return this.actions.stop(this.file);
    if (message.type === 'play') return void (await vscode.commands.executeCommand(CommandIds.video.playFilm, this.file));
    if (this.actions.isShooting(this.file)) return;
    if (message.type === 'shoot') return this.shoot(this.mainShoot());
    if (message.type === 'reshoot') {
      // Only a shot the editor offers to shoot again (failed, or never sent): a made shot is not charged twice by a stray message.
      const shot = this.storyboard.shots.find((each) => each.id === message.id);
      if (!shot || !this.canReshoot(shot)) return;
      return this.shoot({ kind: 'again', shotId: message.id });
    }
    const edit = await this.editOf(message);
    if (!edit) return;
    const result = applyEdit(this.storyboard, edit);
    if (!result.ok) {
      await this.post({ type: 'notice', text: refusalText(result.refusal) });
      await this.postFilm();
      return;
    }
    this.storyboard = result.storyboard;
    await saveFilm(this.file, this.storyboard);
    await this.postFilm();
  }

  /** The edit a page's message asks for; undefined for a model the editor did not offer (a stray message). */
  private async editOf(message: Extract<FilmToHost, { type: 'change' | 'move' | 'remove' | 'add' | 'settings' }>): Promise<StoryboardEdit | undefined> {
    switch (message.type) {
      case 'settings': {
        const { model, resolution, ratio, generateAudio } = message;
        if (model !== undefined && !(await this.videoModels()).includes(model)) {
          this.deps.log.warn('The storyboard editor was asked for a model it did not offer; nothing was changed.');
          return undefined;
        }
        return { kind: 'film', ...(model !== undefined ? { model } : {}), settings: { resolution, ratio, generateAudio } };
      }
      case 'change':
        return { kind: 'change', id: message.id, prompt: message.prompt, caption: message.caption, seconds: message.seconds };
      case 'move':
        return { kind: 'move', id: message.id, by: message.by };
      case 'remove':
        return { kind: 'remove', id: message.id };
      case 'add': {
        const limits = await this.modelLimits();
        const before = this.storyboard.shots.find((shot) => shot.id === message.after) ?? this.storyboard.shots.at(-1);
        const seconds = before?.seconds ?? limits.durations?.[0] ?? 5;
        return {
          kind: 'add',
          ...(message.after ? { after: message.after } : {}),
          shot: { prompt: t('Describe what this shot shows.'), caption: t('Say what this shot explains.'), seconds },
        };
      }
    }
  }

  /** What the main button shoots: the shots never sent when some were (a chain that stopped), else the whole film. */
  private mainShoot(): ShootWhich {
    const sent = this.storyboard.shots.filter((shot) => shot.taskId).length;
    return sent > 0 && sent < this.storyboard.shots.length ? { kind: 'rest' } : { kind: 'film' };
  }

  private async shoot(which: ShootWhich): Promise<void> {
    this.lastShoot = await this.actions.shoot(this.file, which);
  }

  protected override failed(message: FilmToHost, error: unknown): void {
    super.failed(message, error);
    showMessage('error', t('The storyboard could not be changed: {0}', describeError(error)));
  }

  private async modelLimits(): Promise<VideoModelLimits> {
    const { model } = this.storyboard;
    if (this.limits?.model !== model) this.limits = { model, limits: await limitsOf(this.deps.settings, this.deps.connection, model) };
    return this.limits.limits;
  }

  /**
   * The video models the film may be made with, as Generate Video offers them: those the service marks as video (its
   * whole list when it marks none); the film's own first when the service does not list it.
   */
  private async videoModels(): Promise<string[]> {
    const listed = await this.deps.connection.catalog.allModels().catch(() => []);
    const video = listed.filter(isVideoModel);
    const ids = (video.length > 0 ? video : listed).map((model) => model.id);
    return ids.includes(this.storyboard.model) ? ids : [this.storyboard.model, ...ids];
  }

  private async postFilm(): Promise<void> {
    if (!this.ready) return;
    const turn = ++this.views;
    const storyboard = this.storyboard;
    const limits = await this.modelLimits();
    const models = await this.videoModels();
    const costs = filmCost(this.deps.connection.prices.known().get(storyboard.model), storyboard);
    // The total and what the key keeps are the charge gate's, of exactly the requests Shoot would send.
    const main = this.mainShoot();
    const mainShots = shotsToShoot(storyboard, main);
    const options = shotOptions(this.deps.settings, limits);
    const problems = shotProblems(storyboard, options, limits);
    const quote = await (await this.deps.connection.videoCharges()).quote(filmRequests(storyboard, options, mainShots));
    if (turn !== this.views) return;
    const priceUsd = quote.charge.priceUsd;
    const offered = limits.durations?.length ? [...limits.durations] : Array.from({ length: MAX_VIDEO_SECONDS }, (_unused, index) => index + 1);
    const durations = [...new Set([...offered, ...storyboard.shots.map((shot) => shot.seconds)])].sort((a, b) => a - b);
    const warning = quoteWarning(quote);
    const { resolution, ratio, generateAudio } = storyboard.settings;
    const defaults = this.deps.settings.video;
    const film: FilmView = {
      name: storyboard.name,
      model: storyboard.model,
      models,
      settings: { ...(resolution ? { resolution } : {}), ...(ratio ? { ratio } : {}), ...(generateAudio !== undefined ? { generateAudio } : {}) },
      defaults: { resolution: defaults.resolution, ratio: defaults.ratio, generateAudio: defaults.generateAudio },
      resolutions: withOwn(RESOLUTIONS, resolution),
      ratios: withOwn(RATIOS, ratio),
      file: vscode.workspace.asRelativePath(this.file, false),
      uri: this.file.toString(),
      shots: storyboard.shots.map((shot, index) => {
        const cost = costs.shots[index];
        const { state, text } = this.shotState(shot);
        const { id, prompt, caption, seconds, taskId } = shot;
        return {
          id,
          prompt,
          caption,
          seconds,
          ...(taskId ? { taskId } : {}),
          ...(cost !== undefined ? { cost: formatUsd(cost) } : {}),
          state,
          stateText: text,
          canReshoot: this.canReshoot(shot),
          ...(problems[index] ? { problems: problems[index] } : {}),
        };
      }),
      durations,
      total: describeQuotePrice(quote),
      ...(warning ? { warning } : {}),
      shoot:
        main.kind === 'rest'
          ? restLabel(mainShots.length, priceUsd)
          : priceUsd !== undefined
            ? t('Shoot the film for {0}', formatUsd(priceUsd))
            : t('Shoot the film (price not known)'),
      ...(storyboard.output ? { made: storyboard.output.video ?? storyboard.output.playlist } : {}),
      canAdd: storyboard.shots.length < MAX_SHOTS,
      canRemove: storyboard.shots.length > MIN_SHOTS,
      busy: this.actions.isShooting(this.file),
      chain: limits.firstFrame,
    };
    this.shown = film;
    await this.post({ type: 'film', film });
  }

  /** A shot is offered to be shot again alone when it failed, or was never sent while other shots were. */
  private canReshoot(shot: Shot): boolean {
    const { state } = this.shotState(shot);
    return state === 'failed' || (state === 'not-sent' && this.storyboard.shots.some((other) => other.taskId));
  }

  /** Where a shot's task is, in the user's words. */
  private shotState(shot: Shot): { state: ShotState; text: string } {
    if (!shot.taskId) return { state: 'not-sent', text: t('Not sent') };
    const task = this.deps.store.get(shot.taskId);
    switch (task?.state) {
      case undefined:
        return { state: 'done', text: t('Sent (its task is no longer in the list)') };
      case 'completed':
        return { state: 'done', text: task.downloadedUri || task.downloadedPath ? t('Done') : t('Done, downloading') };
      case 'failed':
        return { state: 'failed', text: t('Failed: {0}', task.error ?? t('the service gave no reason')) };
      case 'unconfirmed':
        return { state: 'failed', text: t('Failed: the answer to its request was lost') };
      default:
        return { state: 'in-progress', text: t('In progress') };
    }
  }
}

/** The main button when some shots were never sent: it shoots those. */
function restLabel(count: number, priceUsd: number | undefined): string {
  if (count === 1) return priceUsd !== undefined ? t('Shoot the shot not sent for {0}', formatUsd(priceUsd)) : t('Shoot the shot not sent (price not known)');
  return priceUsd !== undefined
    ? t('Shoot the {0} shots not sent for {1}', count, formatUsd(priceUsd))
    : t('Shoot the {0} shots not sent (price not known)', count);
}

/** The values offered, and the film's own when a hand edit set another. */
function withOwn(offered: readonly string[], own: string | undefined): string[] {
  return own && !offered.includes(own) ? [...offered, own] : [...offered];
}

function refusalText(refusal: EditRefusal): string {
  switch (refusal) {
    case 'invalid-setting':
      return t('The film’s model and settings were not changed: that value cannot be used.');
    case 'too-few':
      return t('A film has at least {0} shots.', MIN_SHOTS);
    case 'too-many':
      return t('A film has at most {0} shots.', MAX_SHOTS);
    case 'at-edge':
      return t('The shot cannot move further.');
    case 'no-shot':
      return t('That shot is no longer in the storyboard.');
    case 'invalid':
      return t('A shot needs a visual prompt and a caption (at most 200 characters).');
  }
}
