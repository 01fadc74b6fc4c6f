import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import { isPending } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import { buildTreeItem, isDownloaded } from './taskTreeItem';

/** The Video Tasks view: one item per task id of the store, built fresh from the record. */
export class VideoTaskTreeProvider extends Disposable implements vscode.TreeDataProvider<string> {
  private readonly changed = this._register(new Emitter<string | string[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly store: VideoTaskStore,
    /** The service this window follows (tasks of another one are shown as such). */
    private readonly service: () => string | undefined,
  ) {
    super();
    this._register(store.onDidChange(() => this.changed.fire(undefined)));
  }

  getChildren(element?: string): string[] {
    return element ? [] : this.store.tasks.map((task) => task.id);
  }

  async getTreeItem(id: string): Promise<vscode.TreeItem> {
    const record = this.store.get(id);
    if (!record) return new vscode.TreeItem(`Task ${id} (removed)`);
    return buildTreeItem(record, Date.now(), this.service(), await isDownloaded(record));
  }

  getParent(): undefined {
    return undefined;
  }

  /** Re-renders pending items (their elapsed time). */
  refreshPending(): void {
    const ids = this.store.tasks.filter(isPending).map((task) => task.id);
    if (ids.length > 0) this.changed.fire(ids);
  }
}
