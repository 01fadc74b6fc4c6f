import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { RunningVideoTasks } from '../statusBar/core/runningVideoTasks';
import type { Event } from '../common/emitter';
import { PLAYER_VIEW_TYPE } from './videoPlayer';
import { VideoRuntime, type VideoRuntimeDeps } from './videoRuntime';

/**
 * The video feature as the composition root sees it: the window's runtime (store, poller, view, commands), the
 * running-task count for the status bar, and the serializer that brings a player back after a window reload.
 */
export class VideoFeature extends Disposable implements RunningVideoTasks {
  readonly runtime: VideoRuntime;
  readonly onDidChangeRunningCount: Event<void>;
  /** The task list changed. */
  readonly onDidChangeTasks: Event<void>;

  constructor(deps: VideoRuntimeDeps) {
    super();
    this.runtime = this._register(new VideoRuntime(deps));
    this.onDidChangeRunningCount = this.runtime.store.onDidChangeRunningCount;
    this.onDidChangeTasks = this.runtime.store.onDidChange;
    this._register(
      vscode.window.registerWebviewPanelSerializer(PLAYER_VIEW_TYPE, {
        deserializeWebviewPanel: (panel, state: unknown) => this.runtime.player.restore(panel, state),
      }),
    );
  }

  get runningCount(): number {
    return this.runtime.store.runningCount;
  }
}
