import { t } from '../../api/l10n';
import { TASK_STATES, type TaskState, type VideoTaskRecord } from './videoTaskRecord';

/** A task on its own, or the tasks of one group (Generate Variants) in their order. */
export type TaskEntry = { kind: 'task'; task: VideoTaskRecord } | { kind: 'group'; id: string; label: string; tasks: VideoTaskRecord[] };

const GROUP_PREFIX = 'promptreel-group:';

/** The tree element of a group: never a task id (those come from the service, or are `lost-…`). */
export function groupKey(id: string): string {
  return `${GROUP_PREFIX}${id}`;
}

export function isGroupKey(element: string): boolean {
  return element.startsWith(GROUP_PREFIX);
}

/**
 * The list as the tree and the gallery show it: newest first, each group where its newest task is, its tasks in
 * variant order. A group with one task left (the others removed) is shown as that task.
 */
export function taskGroups(tasks: readonly VideoTaskRecord[]): TaskEntry[] {
  const members = new Map<string, VideoTaskRecord[]>();
  for (const task of tasks) if (task.group) members.set(task.group.id, [...(members.get(task.group.id) ?? []), task]);
  const entries: TaskEntry[] = [];
  const placed = new Set<string>();
  for (const task of tasks) {
    const group = task.group;
    const siblings = group ? (members.get(group.id) ?? []) : [];
    if (!group || siblings.length < 2) {
      entries.push({ kind: 'task', task });
      continue;
    }
    if (placed.has(group.id)) continue;
    placed.add(group.id);
    const ordered = [...siblings].sort((a, b) => (a.group?.index ?? 0) - (b.group?.index ?? 0));
    entries.push({ kind: 'group', id: group.id, label: group.label, tasks: ordered });
  }
  return entries;
}

/** `2 running · 1 completed · 1 failed`: how the tasks of a group stand. */
export function describeGroup(tasks: readonly VideoTaskRecord[]): string {
  return TASK_STATES.map((state) => [state, tasks.filter((task) => task.state === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => countInState(state, count))
    .join(' · ');
}

function countInState(state: TaskState, count: number): string {
  switch (state) {
    case 'queued':
      return t('{0} queued', count);
    case 'running':
      return t('{0} running', count);
    case 'completed':
      return t('{0} completed', count);
    case 'failed':
      return t('{0} failed', count);
    case 'stale':
      return t('{0} stale', count);
    case 'unconfirmed':
      return t('{0} answer lost', count);
  }
}
