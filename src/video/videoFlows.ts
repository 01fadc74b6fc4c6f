import type { Connection } from '../connection/connection';
import type * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { CommandHandler } from '../workbench/registerCommands';
import type { VideoTaskStore } from './core/taskStore';
import type { VideoPoller } from './core/videoPoller';
import { CommandIds } from '../common/contributions';
import { generateFilm } from './film/filmCommand';
import { FilmEditors } from './film/filmEditor';
import type { FilmEditorDeps } from './film/filmEditorHost';
import { pickFilm, storyboardArgument } from './film/filmPicker';
import { VideoGallery } from './gallery/videoGallery';
import { VideoPlayer } from './player/videoPlayer';
import { StudioCommands } from './studioCommands';
import { VideoCommands } from './videoCommands';
import { VideoCreator } from './videoCreator';
import type { VideoDownloader } from './videoDownloader';
import { VideoTool } from './videoTool';
import { vscodeAlwaysConfirmsVideoTool } from './toolApproval';

export interface VideoFlowsDeps {
  settings: Settings;
  connection: Connection;
  store: VideoTaskStore;
  poller: VideoPoller;
  downloader: VideoDownloader;
  /** Where the gallery's and the player's pages are. */
  extensionUri: vscode.Uri;
  /** The task selected in the Video Tasks view. */
  selected: () => string | undefined;
  /** Shows a task in the Video Tasks view. */
  reveal: (id: string) => void;
  log: ComponentLogger;
}

/**
 * What the user starts in the video feature: creating tasks (the commands, the agent's tool, variants, recipes,
 * Animate Image), the gallery and the player. Its code loads on the first use of one of them (see videoSurfaces.ts);
 * the store, the poller and the view run from activation on (VideoRuntime).
 */
export class VideoFlows extends Disposable {
  readonly creator: VideoCreator;
  readonly player: VideoPlayer;
  readonly commands: VideoCommands;
  /** Generate Video as a language-model tool (VS Code's agent, `vscode.lm.invokeTool`). */
  readonly tool: VideoTool;
  /** The cards of every task, live, in a webview panel. */
  readonly gallery: VideoGallery;
  /** Variants, recipes, Animate Image, the gallery's command. */
  readonly studio: StudioCommands;
  /** The explainer films' storyboard editors. */
  readonly films: FilmEditors;
  /** What drafting and shooting a film use (`@promptreel /film` drafts through them too). */
  readonly filmDeps: FilmEditorDeps;
  /** The handler of each video command id. */
  readonly commandHandlers: Readonly<Record<string, CommandHandler>>;

  constructor(deps: VideoFlowsDeps) {
    super();
    const { settings, connection, store, poller, downloader, log } = deps;
    this.creator = new VideoCreator(settings, connection, store, deps.reveal, log);
    this.player = this._register(new VideoPlayer(deps.extensionUri, log));
    this.commands = new VideoCommands({
      settings,
      connection,
      store,
      poller,
      creator: this.creator,
      downloader,
      player: this.player,
      selected: deps.selected,
      reveal: deps.reveal,
      log,
    });
    // The agent's (and any tool loop's) way to make a video: VS Code (or Promptreel, where VS Code may skip it) asks
    // the user, with the price, before each call.
    this.tool = new VideoTool({ settings, connection, store, creator: this.creator, downloader, log, vscodeAlwaysConfirms: vscodeAlwaysConfirmsVideoTool });
    this.gallery = this._register(new VideoGallery({ extensionUri: deps.extensionUri, store, connection, log }));
    this.studio = new StudioCommands({
      settings,
      connection,
      creator: this.creator,
      review: (prompt, options, fromFolder) => this.commands.reviewAndCreate(prompt, options, undefined, fromFolder),
      gallery: this.gallery,
      log,
    });
    const filmDeps = { extensionUri: deps.extensionUri, settings, connection, store, creator: this.creator, downloader, log };
    this.filmDeps = filmDeps;
    this.films = this._register(new FilmEditors(filmDeps));
    this.commandHandlers = {
      ...this.commands.handlers,
      ...this.studio.handlers,
      [CommandIds.video.generateExplainerFilm]: (argument?: unknown) => generateFilm(filmDeps, this.films, argument),
      [CommandIds.video.playFilm]: async (argument?: unknown) => {
        const file = storyboardArgument(argument) ?? (await pickFilm(true));
        return file ? this.player.openFilm(file) : undefined;
      },
      [CommandIds.video.openStoryboard]: async (argument?: unknown) => {
        const file = storyboardArgument(argument) ?? (await pickFilm(false));
        return file ? this.films.openFile(file) : undefined;
      },
    };
  }
}
