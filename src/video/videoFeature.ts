import * as vscode from 'vscode';
import { Disposable, MutableDisposable } from '../common/lifecycle';
import type { RunningVideoTasks } from '../statusBar/runningVideoTasks';
import { Emitter, type Event } from '../common/emitter';
import { PLAYER_VIEW_TYPE } from './videoPlayer';
import { VideoRuntime, type VideoRuntimeDeps } from './videoRuntime';

/**
 * The video feature as the composition root sees it: the window's runtime (store, poller, view, commands), and
 * the running-task count for the status bar. `reload()` disposes the runtime and builds a new one from the same
 * globalState, as a window reload does (the host tests use it to restart polling mid-poll).
 */
export class VideoFeature extends Disposable implements RunningVideoTasks {
  private readonly holder = this._register(new MutableDisposable<VideoRuntime>());
  private readonly runningChanged = this._register(new Emitter<void>());
  readonly onDidChangeRunningCount: Event<void> = this.runningChanged.event;
  private readonly tasksChanged = this._register(new Emitter<void>());
  /** The task list changed (across reloads of the runtime). */
  readonly onDidChangeTasks: Event<void> = this.tasksChanged.event;
  private readonly storeSubscription = this._register(new MutableDisposable());

  constructor(private readonly deps: VideoRuntimeDeps) {
    super();
    this.start();
    // Registered once for the window (a runtime reload must not register it twice): the current runtime's player
    // takes the panels VS Code brings back after a window reload.
    this._register(
      vscode.window.registerWebviewPanelSerializer(PLAYER_VIEW_TYPE, {
        deserializeWebviewPanel: (panel, state: unknown) => this.runtime.player.restore(panel, state),
      }),
    );
  }

  get runtime(): VideoRuntime {
    const runtime = this.holder.value;
    if (!runtime) throw new Error('the video feature is disposed');
    return runtime;
  }

  get runningCount(): number {
    return this.holder.value?.store.runningCount ?? 0;
  }

  reload(): VideoRuntime {
    this.storeSubscription.clear();
    this.holder.clear();
    return this.start();
  }

  private start(): VideoRuntime {
    const runtime = new VideoRuntime(this.deps);
    this.holder.value = runtime;
    const running = runtime.store.onDidChangeRunningCount(() => this.runningChanged.fire());
    const tasks = runtime.store.onDidChange(() => this.tasksChanged.fire());
    this.storeSubscription.value = { dispose: () => [running, tasks].forEach((subscription) => subscription.dispose()) };
    this.runningChanged.fire();
    this.tasksChanged.fire();
    return runtime;
  }
}
