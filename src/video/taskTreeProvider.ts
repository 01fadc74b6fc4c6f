import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { t } from '../api/l10n';
import { Disposable } from '../common/lifecycle';
import { groupKey, isGroupKey, taskGroups } from './core/taskGroups';
import { isPending } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import { buildGroupItem, buildTreeItem } from './taskTreeItem';
import { savedFile } from './downloadedFile';

/**
 * The Video Tasks view: one item per task id of the store, built fresh from the record; the tasks Generate Variants
 * made together sit under one group item (`group:<id>`), where the first of them would be.
 */
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
    const entries = taskGroups(this.store.tasks);
    if (!element) return entries.map((entry) => (entry.kind === 'group' ? groupKey(entry.id) : entry.task.id));
    const group = entries.find((entry) => entry.kind === 'group' && groupKey(entry.id) === element);
    return group?.kind === 'group' ? group.tasks.map((task) => task.id) : [];
  }

  async getTreeItem(id: string): Promise<vscode.TreeItem> {
    if (isGroupKey(id)) {
      const group = taskGroups(this.store.tasks).find((entry) => entry.kind === 'group' && groupKey(entry.id) === id);
      return group?.kind === 'group' ? buildGroupItem(group) : new vscode.TreeItem(t('Variants (removed)'));
    }
    const record = this.store.get(id);
    if (!record) return new vscode.TreeItem(t('Task {0} (removed)', id));
    return buildTreeItem(record, Date.now(), this.service(), (await savedFile(record)) !== undefined);
  }

  getParent(id: string): string | undefined {
    const group = this.store.get(id)?.group;
    return group && this.store.tasks.filter((task) => task.group?.id === group.id).length > 1 ? groupKey(group.id) : undefined;
  }

  /** Re-renders pending items (their elapsed time). */
  refreshPending(): void {
    const ids = this.store.tasks.filter(isPending).map((task) => task.id);
    if (ids.length > 0) this.changed.fire(ids);
  }
}
