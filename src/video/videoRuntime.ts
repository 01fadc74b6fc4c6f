import { ViewIds } from '../common/contributions';
import { randomUUID } from 'node:crypto';
import type { Connection } from '../connection/connection';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { Disposable, MutableDisposable, toDisposable } from '../common/lifecycle';
import type { ComponentLogger, Logger } from '../common/logger';
import type { Settings } from '../config/settings';
import { LEASE_KEY, PollLease } from './core/pollLease';
import { systemClock } from '../common/clock';
import { isPending } from './core/taskModel';
import type { StateStorage } from '../common/stateStorage';
import { VideoTaskStore } from './core/taskStore';
import { VideoTaskTreeProvider } from './taskTreeProvider';
import type { VideoDownloader } from './videoDownloader';
import { VideoNotifications } from './videoNotifications';
import { LazyFeature } from '../workbench/lazyFeature';
import type { VideoFlows } from './videoFlows';
import { registerVideoSurfaces } from './videoSurfaces';
import type { Event } from '../common/emitter';
import { VideoPoller, type VideoTaskSource } from './core/videoPoller';

/** How long after start-up the download folder is checked for what interrupted downloads left. */
const STALE_CLEANUP_DELAY_MS = 3_000;

export interface VideoRuntimeDeps {
  globalState: StateStorage;
  /** This window's own state (workspaceState): the poll lease's owner, the same after a reload. */
  windowState: StateStorage;
  settings: Settings;
  /** The service: its key and client, the one model list (the video model pickers offer its models), the chat model
   *  the explainer writes its prompt with. */
  connection: Connection;
  logger: Logger;
  /** Where the gallery's page (dist/webview/gallery.js, media/gallery.css) is. */
  extensionUri: vscode.Uri;
}

const ELAPSED_TICK_MS = 1000;

/**
 * The video feature, as long as a window lives: the store (globalState), the poller, the view, downloads and the
 * notifications; it tells the status bar how many tasks run. What the user starts (the commands, the tool, the gallery,
 * the player) is `flows`, loaded on first use. Disposed on deactivate.
 */
export class VideoRuntime extends Disposable {
  readonly store: VideoTaskStore;
  readonly poller: VideoPoller;
  readonly tree: VideoTaskTreeProvider;
  readonly view: vscode.TreeView<string>;
  /** Download to Workspace: its code loads with the first download (or the clean-up a moment after start-up). */
  readonly downloader: LazyFeature<VideoDownloader>;
  readonly notifications: VideoNotifications;
  /** Creating tasks, the gallery and the player: their code loads on first use. */
  readonly flows: LazyFeature<VideoFlows>;
  readonly onDidChangeRunningCount: Event<void>;
  private readonly elapsedTicker = this._register(new MutableDisposable());
  private readonly connection: Connection;
  private readonly settings: Settings;
  private readonly log: ComponentLogger;
  /** Dropped when the settings change the client (base URL, proxy). */
  private pollClient: VideoTaskSource | undefined;

  constructor(deps: VideoRuntimeDeps) {
    super();
    const { settings, connection, logger } = deps;
    const { keyStore, clients } = connection;
    this.connection = connection;
    this.settings = settings;
    const log = logger.forComponent('video');
    this.log = log;
    this.store = this._register(new VideoTaskStore(deps.globalState, () => settings.video.historySize, log));
    this.onDidChangeRunningCount = this.store.onDidChangeRunningCount;
    this.tree = this._register(new VideoTaskTreeProvider(this.store, () => keyStore.scope));
    this.view = this._register(vscode.window.createTreeView(ViewIds.videoTasks, { treeDataProvider: this.tree }));
    this.poller = this._register(
      new VideoPoller({
        store: this.store,
        source: () => this.pollSource(),
        service: () => keyStore.scope,
        clock: systemClock,
        lease: new PollLease(deps.globalState, PollLease.ownerOfWindow(deps.windowState, randomUUID), undefined, () => `${LEASE_KEY}:${keyStore.scope ?? ''}`),
        settings: () => settings.video,
        viewVisible: () => this.view.visible,
        log,
      }),
    );
    const reveal = (id: string) => void this.view.reveal(id, { select: false, focus: false }).then(undefined, () => undefined);
    this.downloader = this._register(
      new LazyFeature('video downloads', async () => new (await import('./videoDownloader')).VideoDownloader(settings, connection, this.store, log), log),
    );
    this.notifications = this._register(new VideoNotifications(this.poller, settings, this.downloader));
    this.flows = this._register(
      new LazyFeature(
        'video commands',
        async () =>
          new (await import('./videoFlows')).VideoFlows({
            settings,
            connection,
            store: this.store,
            poller: this.poller,
            downloader: await this.downloader.get(),
            extensionUri: deps.extensionUri,
            selected: () => this.view.selection[0],
            reveal,
            log,
          }),
        log,
      ),
    );
    this._register(registerVideoSurfaces(this.flows, log));
    // What each task really cost, from the service's log, kept with the task (the tree and the gallery show it).
    this._register(
      connection.charges.onDidChange(
        () =>
          void this.store.updateEach((task) => {
            if (task.charged) return undefined;
            const cost = connection.charges.forTask(task.id);
            return cost ? { ...task, charged: { usd: cost.usd, ...(cost.reason ? { reason: cost.reason } : {}) } } : undefined;
          }),
      ),
    );

    this._register(
      settings.onDidChange((change) => {
        if (change.affects('video.historySize')) void this.store.trim();
        if (change.affects('video.pollIntervalSeconds') || change.affects('video.staleAfterHours')) this.poller.schedule();
      }),
    );
    // Also when the user confirms the service a workspace names: tasks from before may now be adopted by it.
    this._register(keyStore.onDidChange(() => void this.adoptUnscopedTasks().then(() => this.poller.resume())));
    this._register(
      clients.onDidChange(() => {
        this.pollClient = undefined;
        void this.adoptUnscopedTasks().then(() => this.poller.resume());
      }),
    );
    this._register(
      this.view.onDidChangeVisibility(() => {
        if (this.view.visible) this.store.reload();
        this.updateElapsedTicker();
      }),
    );
    // Other windows write to the shared list without telling: look again when this window gets the focus.
    this._register(vscode.window.onDidChangeWindowState((state) => state.focused && this.store.reload()));
    this._register(
      this.store.onDidChange(() => {
        this.updateView();
        // A window still running an earlier Promptreel may write records without their service.
        void this.adoptUnscopedTasks();
      }),
    );
    this._register(this.poller.onDidChangePause(() => this.updateView()));
    this.updateView();
    void this.adoptUnscopedTasks();
    // Off the activation path: a moment later, what an interrupted download left behind is cleared.
    const cleanup = setTimeout(
      () =>
        void this.downloader
          .get()
          .then((downloader) => downloader.removeStaleDownloads())
          .catch((error: unknown) => log.warn(`Clearing interrupted downloads: ${String(error)}`)),
      STALE_CLEANUP_DELAY_MS,
    );
    this._register(toDisposable(() => clearTimeout(cleanup)));
  }

  get runningCount(): number {
    return this.store.runningCount;
  }

  /**
   * Tasks recorded before Promptreel kept each task's service belong to the service the user had set for all windows
   * (the user setting: tasks live in the global state every window shares), else to this window's once the user chose
   * it: never to one that only a folder's settings name (its ids would be sent there). Nothing is lost: until then
   * they wait, unpolled.
   */
  private async adoptUnscopedTasks(): Promise<void> {
    if (!this.store.tasks.some((task) => task.service === undefined)) return;
    const service = this.settings.userBaseUrlScope() ?? this.connection.keyStore.chosenScope();
    if (!service) return;
    const adopted = await this.store.updateEach((task) => (task.service === undefined ? { ...task, service } : undefined));
    this.log.info(`${adopted} video task(s) recorded before tasks kept their service now belong to ${service}.`);
  }

  /** Polling has its own client without retries: the poller backs off and honours Retry-After by itself. */
  private pollSource(): VideoTaskSource | undefined {
    if (!this.connection.clients.get()) return undefined;
    this.pollClient ??= this.connection.clients.create({ retry: { retries: 0 } });
    return this.pollClient;
  }

  private updateView(): void {
    const running = this.store.runningCount;
    const tooltip = running === 1 ? t('1 video task running') : t('{0} video tasks running', running);
    this.view.badge = running > 0 ? { value: running, tooltip } : undefined;
    this.view.message =
      this.poller.pause === 'offline'
        ? t('The service cannot be reached: checking again in a moment (polling resumes by itself).')
        : this.poller.pause === 'auth'
          ? t('Paused: the service refused the API key. Set a new key to resume.')
          : undefined;
    this.updateElapsedTicker();
  }

  /** Elapsed times move every second, but only while someone can see them. */
  private updateElapsedTicker(): void {
    const needed = this.view.visible && this.store.tasks.some(isPending);
    if (!needed) {
      this.elapsedTicker.clear();
      return;
    }
    if (this.elapsedTicker.value) return;
    const handle = setInterval(() => this.tree.refreshPending(), ELAPSED_TICK_MS);
    this.elapsedTicker.value = toDisposable(() => clearInterval(handle));
  }
}
